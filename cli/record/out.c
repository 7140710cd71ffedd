/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record without -o: where the live text goes. Standard error by
 * default, as strace writes its trace there: the command's standard output
 * stays its own, and pipes of it keep working.
 *
 * The text goes through a stdio stream whose writes are ours (fopencookie):
 * they count what reached the file, lines and bytes, and keep the first
 * error, which a stdio stream forgets once it has dropped its buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"

static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
	struct live_out *o = cookie;
	const char *p, *end;
	size_t done = 0;
	ssize_t w;

	/* after an error nothing more: the file holds the lines before it */
	while (done < n && !o->err) {
		w = write(o->fd, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			o->err = w < 0 ? errno : EIO;
			break;
		}
		end = buf + done + w;
		for (p = buf + done; (p = memchr(p, '\n', (size_t)(end - p))); p++)
			o->lines++;
		o->bytes += (uint64_t)w;
		done += (size_t)w;
	}
	/* short: stdio marks the stream in error (ferror) */
	return (ssize_t)done;
}

static int out_close(void *cookie)
{
	struct live_out *o = cookie;

	if (close(o->fd) && errno != EINTR) {
		if (!o->err)
			o->err = errno;
		return -1;
	}
	return 0;
}

/* The file descriptor the text goes to (a copy for stdout and stderr). */
static int out_fd(const char *path, int append)
{
	int fd;

	if (path && strcmp(path, "-")) {
		fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC) | O_CLOEXEC,
			  0666);
		if (fd < 0)
			cli_err("cannot create %s: %s", path, strerror(errno));
		return fd;
	}
	fd = fcntl(path ? STDOUT_FILENO : STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		cli_err("cannot write the events to standard %s: %s", path ? "output" : "error",
			strerror(errno));
	return fd;
}

int live_out_open(struct live_out *o, const char *path, int append)
{
	cookie_io_functions_t io = { .write = out_write, .close = out_close };

	memset(o, 0, sizeof(*o));
	o->name = !path ? "standard error" : strcmp(path, "-") ? path : "standard output";
	o->fd = out_fd(path, append);
	if (o->fd < 0)
		return -1;
	o->tty = isatty(o->fd);
	o->f = fopencookie(o, "w", io);
	if (!o->f) {
		cli_err("cannot write the events to %s: %s", o->name, strerror(errno));
		close(o->fd);
		return -1;
	}
	/*
	 * Standard error's text has a stream of its own, buffered (stderr
	 * is not), so that a pipe gets big writes while ptbpf's own messages
	 * still go out at once; a terminal gets each line as it is made
	 * (struct fmt's tty).
	 */
	if (!o->tty)
		cli_big_buffer(o->f);
	return 0;
}

int live_out_flush(struct live_out *o)
{
	if (fflush(o->f) && !o->err)
		o->err = errno ? errno : EIO;
	return o->err;
}

int live_out_close(struct live_out *o)
{
	if (!o->f)
		return 0;
	live_out_flush(o);
	/* the cookie keeps a close error (out_close) */
	fclose(o->f);
	o->f = NULL;
	return o->err;
}
