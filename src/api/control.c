/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace controller: create, start, stop, clear, flush, attributes,
 * status and filters of active trace streams (shutdown: shutdown.c). */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <trace.h>

#include "api/api.h"
#include "core/attr.h"
#include "core/stream.h"

int api_create(pid_t pid, const char *cgroup, const trace_attr_t *attr, int fd, trace_id_t *trid)
{
	struct pt_attr a;
	struct pt_stream *s;
	int err;

	if (!trid || pid < (cgroup ? -1 : 0))
		return EINVAL;
	if (attr) {
		if (!attr__valid(attr__from_const(attr)))
			return EINVAL;
		a = *attr__from_const(attr);
	} else {
		attr__init(&a);
	}
	if (fd < 0 && a.stream_policy == POSIX_TRACE_FLUSH)
		return EINVAL; /* FLUSH needs a log */
	api_exit__watch();
	/* a handle first: a create that fails leaves the log file untouched */
	err = registry__reserve(TRACE_KIND_ACTIVE, fd >= 0, trid);
	if (err)
		return api_err(err);
	err = stream__create_cgroup(&s, pid, cgroup, &a, fd);
	if (err) {
		registry__unreserve(*trid);
		return api_err(err);
	}
	registry__publish(*trid, s);
	return 0;
}

int posix_trace_create(pid_t pid, const trace_attr_t *__restrict attr, trace_id_t *__restrict trid)
{
	return api_create(pid, NULL, attr, -1, trid);
}

int api_log_fd(int fd)
{
	struct stat st;
	int fl;

	if (fd < 0)
		return EBADF;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return EBADF;
	if ((fl & O_ACCMODE) == O_RDONLY)
		return EBADF;
	if (fl & O_APPEND)
		return EINVAL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return EINVAL;
	return 0;
}

int posix_trace_create_withlog(pid_t pid, const trace_attr_t *__restrict attr, int fd,
			       trace_id_t *__restrict trid)
{
	int err = api_log_fd(fd);

	return err ? err : api_create(pid, NULL, attr, fd, trid);
}

/* Apply a control of the core to the active stream trid. */
static int control(trace_id_t trid, int (*fn)(struct pt_stream *s))
{
	struct api_ref r;
	int err;

	if (api_get(trid, TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	err = fn(r.obj);
	api_put(&r);
	return api_err(err);
}

int posix_trace_start(trace_id_t trid)
{
	return control(trid, stream__start);
}

int posix_trace_stop(trace_id_t trid)
{
	return control(trid, stream__stop);
}

int posix_trace_clear(trace_id_t trid)
{
	return control(trid, stream__clear);
}

int posix_trace_flush(trace_id_t trid)
{
	struct api_ref r;
	int err;

	if (api_get(trid, TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	err = r.has_log ? stream__flush(r.obj) : -EINVAL;
	api_put(&r);
	return api_err(err);
}

int posix_trace_get_attr(trace_id_t trid, trace_attr_t *attr)
{
	struct api_ref r;

	if (!attr)
		return EINVAL;
	if (api_get(trid, TRACE_KIND_ACTIVE | TRACE_KIND_LOG, &r))
		return EINVAL;
	trace__get_attr(api_trace(&r), attr__from(attr));
	api_put(&r);
	return 0;
}

int posix_trace_get_status(trace_id_t trid, struct posix_trace_status_info *st)
{
	struct api_ref r;

	if (!st)
		return EINVAL;
	if (api_get(trid, TRACE_KIND_ACTIVE | TRACE_KIND_LOG, &r))
		return EINVAL;
	trace__get_status(api_trace(&r), st);
	api_put(&r);
	return 0;
}

int posix_trace_get_filter(trace_id_t trid, trace_event_set_t *set)
{
	struct api_ref r;

	if (!set || api_get(trid, TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	stream__get_filter(r.obj, set);
	api_put(&r);
	return 0;
}

int posix_trace_set_filter(trace_id_t trid, const trace_event_set_t *set, int how)
{
	struct api_ref r;
	int err;

	if (!set || (how != POSIX_TRACE_SET_EVENTSET && how != POSIX_TRACE_ADD_EVENTSET &&
		     how != POSIX_TRACE_SUB_EVENTSET))
		return EINVAL;
	if (api_get(trid, TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	err = stream__set_filter(r.obj, set, how);
	api_put(&r);
	return api_err(err);
}
