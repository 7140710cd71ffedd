/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/target.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/procfs.h"

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

bool target__may_trace_secure_exec(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &hdr, d))
		return false;
	return d[CAP_SYS_PTRACE / 32].effective & (1u << (CAP_SYS_PTRACE % 32));
}

int target__parent(pid_t pid, pid_t *parent)
{
	char path[64], buf[512], *p;
	int ppid;

	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (procfs__read(path, buf, sizeof(buf)) < 0)
		return -ESRCH;
	/* "pid (comm) state ppid ...": comm may hold anything, ')' included */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1 || ppid <= 0)
		return -ESRCH;
	*parent = ppid;
	return 0;
}
