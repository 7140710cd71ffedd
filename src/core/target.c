/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/target.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int target__check(pid_t pid)
{
	char path[64];
	int fd;

	if (pid <= 0)
		return -ESRCH;
	if (kill(pid, 0) && errno == ESRCH)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ESRCH)
			return -ESRCH;
		return -EPERM;
	}
	close(fd);
	return 0;
}
