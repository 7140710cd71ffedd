/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small /proc file (stat, status) read whole, NUL-terminated: what the
 * stream core, the user-event consumer and the target checks parse. Plain
 * C only.
 */
#ifndef PTBPF_COMMON_PROCFS_H
#define PTBPF_COMMON_PROCFS_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>

/* Its length (> 0), or -errno (-ENODATA: empty). */
static inline ssize_t procfs__read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n == 0)
		return -ENODATA;
	if (n > 0)
		buf[n] = 0;
	return n;
}

#endif
