/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The API layer: argument checks, trid look-ups, and the conversion of the
 * core's negative errno values into the positive error numbers POSIX
 * functions return.
 */
#ifndef PTBPF_API_API_H
#define PTBPF_API_API_H

#include <stdbool.h>
#include <string.h>
#include <trace.h>

#include "core/registry.h"
#include "core/trace_ops.h"

/* The POSIX error number of a core's result (0, or a negative errno). */
static inline int api_err(int x)
{
	return x < 0 ? -x : x;
}

/* The object behind trid and whether it is a stream with a log. */
struct api_ref {
	trace_id_t trid;
	int kind;
	void *obj;
	int has_log;
};

static inline int api_get(trace_id_t trid, int kinds, struct api_ref *r)
{
	r->trid = trid;
	return registry__get(trid, kinds, &r->obj, &r->kind, &r->has_log);
}

/* An abstime the timed reads refuse (EINVAL, checked when they would wait). */
static inline bool api_bad_abstime(const struct timespec *t)
{
	return !t || t->tv_nsec < 0 || t->tv_nsec >= 1000000000L;
}

/* The trace behind r, active or pre-recorded (see core/trace_ops.h). */
static inline struct pt_trace api_trace(const struct api_ref *r)
{
	return (struct pt_trace){ .kind = (enum trace_kind)r->kind, .obj = r->obj };
}

static inline void api_put(struct api_ref *r)
{
	registry__put(r->trid);
}

/*
 * Copy a filled out-struct whose first member is its caller's size_t sz
 * (libbpf's way for structs that grow): only the fields within the
 * caller's sz, which stays as it was. false: sz too small to hold any.
 */
static inline bool api_copy_sized(void *to, const void *from, size_t full)
{
	size_t sz = *(const size_t *)to;

	if (sz <= sizeof(size_t))
		return false;
	memcpy((char *)to + sizeof(size_t), (const char *)from + sizeof(size_t),
	       (sz < full ? sz : full) - sizeof(size_t));
	return true;
}

/*
 * control.c: create an active stream of pid (0: the caller) and, with
 * cgroup, of that cgroup's processes (pid -1: of those only), with a log
 * at fd (-1: none); 0 or a POSIX error number. api_log_fd: may fd take a
 * log (posix_trace_create_withlog's checks)?
 */
int api_create(pid_t pid, const char *cgroup, const trace_attr_t *attr, int fd, trace_id_t *trid);
int api_log_fd(int fd);

/*
 * shutdown.c: the streams of a process that exits are shut down (as
 * posix_trace_shutdown does, which the handler waits for). At each
 * create: registers the handler once.
 */
void api_exit__watch(void);

#endif
