/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "itest_read.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

bool itest_next_event(trace_id_t t, bool log, struct itest_ev_ref r)
{
	int un = 0;

	if (log)
		assert_int_equal(posix_trace_getnext_event(t, r.info, r.data, r.datasz, r.len, &un),
				 0);
	else
		assert_int_equal(
			posix_trace_trygetnext_event(t, r.info, r.data, r.datasz, r.len, &un), 0);
	if (un)
		return false;
	assert_int_equal(posix_trace_eventid_get_name(t, r.info->posix_event_id, r.name), 0);
	return true;
}

trace_id_t itest_open_log(const char *path, int *fd)
{
	trace_id_t t;

	*fd = open(path, O_RDONLY);
	assert_true(*fd >= 0);
	assert_int_equal(posix_trace_open(*fd, &t), 0);
	return t;
}

void itest_close_log(trace_id_t t, int fd)
{
	assert_int_equal(posix_trace_close(t), 0);
	close(fd);
}

int itest_read_stream(trace_id_t t, struct itest_ev *evs, int max)
{
	int n = 0;

	while (n < max && itest_next_event(t, false, ITEST_EV_REF(&evs[n])))
		n++;
	return n;
}

int itest_read_log(const char *path, trace_id_t *lt, struct itest_ev *evs, int max)
{
	int fd, n = 0;
	trace_id_t t = itest_open_log(path, &fd);

	while (n < max && itest_next_event(t, true, ITEST_EV_REF(&evs[n])))
		n++;
	if (lt)
		*lt = t;
	else
		itest_close_log(t, fd);
	return n;
}

int itest_count(const struct itest_ev *evs, int n, const char *name)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		if (!strcmp(evs[i].name, name))
			c++;
	return c;
}

int itest_newlog(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	return fd;
}

void itest_trace_run(const trace_attr_t *a, const char *logpath, void (*work)(void),
		     void (*check)(trace_id_t t, bool log, void *ctx), void *ctx)
{
	trace_id_t t;
	int fd = -1;

	if (logpath) {
		fd = itest_newlog(logpath);
		assert_int_equal(posix_trace_create_withlog(0, a, fd, &t), 0);
	} else {
		assert_int_equal(posix_trace_create(0, a, &t), 0);
	}
	assert_int_equal(posix_trace_start(t), 0);
	work();
	assert_int_equal(posix_trace_stop(t), 0);
	if (logpath) {
		assert_int_equal(posix_trace_shutdown(t), 0);
		close(fd);
		t = itest_open_log(logpath, &fd);
		check(t, true, ctx);
		itest_close_log(t, fd);
		unlink(logpath);
	} else {
		check(t, false, ctx);
		assert_int_equal(posix_trace_shutdown(t), 0);
	}
}
