/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record without -o: where the live text goes. Standard error by
 * default, as strace writes its trace there: the command's standard output
 * stays its own, and pipes of it keep working.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

FILE *live_out_open(const char *path)
{
	FILE *f;
	int fd;

	if (path && !strcmp(path, "-")) {
		f = stdout;
	} else if (path) {
		f = fopen(path, "we");
		if (!f) {
			cli_err("cannot create %s: %s", path, strerror(errno));
			return NULL;
		}
	} else {
		/*
		 * A stream of its own on standard error: buffered (stderr
		 * is not) so that a pipe gets big writes, while ptbpf's own
		 * messages still go out at once.
		 */
		fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		f = fd < 0 ? NULL : fdopen(fd, "w");
		if (!f) {
			cli_err("cannot write the events to standard error: %s", strerror(errno));
			if (fd >= 0)
				close(fd);
			return NULL;
		}
	}
	if (!isatty(fileno(f)))
		cli_big_buffer(f);
	return f;
}

int live_out_close(FILE *f)
{
	int err = 0;

	if (fflush(f))
		err = errno;
	if (f != stdout && fclose(f) && !err)
		err = errno;
	return err;
}
