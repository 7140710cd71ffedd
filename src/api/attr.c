/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* posix_trace_attr_*: the trace stream attributes object. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>

#include "common/event.h"
#include "core/attr.h"

/* The attributes object behind attr, or NULL when it is none (EINVAL). */
static const struct pt_attr *attr_get(const trace_attr_t *attr)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;

	return a && attr__valid(a) ? a : NULL;
}

static struct pt_attr *attr_set(trace_attr_t *attr)
{
	struct pt_attr *a = attr ? attr__from(attr) : NULL;

	return a && attr__valid(a) ? a : NULL;
}

int posix_trace_attr_init(trace_attr_t *attr)
{
	if (!attr)
		return EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr__init(attr__from(attr));
	return 0;
}

int posix_trace_attr_destroy(trace_attr_t *attr)
{
	struct pt_attr *a = attr_set(attr);

	if (!a)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	return 0;
}

int posix_trace_attr_getclockres(const trace_attr_t *attr, struct timespec *res)
{
	const struct pt_attr *a = attr_get(attr);
	long ns = attr__clockres_ns();

	if (!a || !res)
		return EINVAL;
	res->tv_sec = ns / 1000000000L;
	res->tv_nsec = ns % 1000000000L;
	return 0;
}

int posix_trace_attr_getcreatetime(const trace_attr_t *attr, struct timespec *createtime)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !createtime)
		return EINVAL;
	*createtime = a->create_time;
	return 0;
}

int posix_trace_attr_getgenversion(const trace_attr_t *attr, char *genversion)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !genversion)
		return EINVAL;
	snprintf(genversion, TRACE_NAME_MAX, "%s", PT_GENVERSION);
	return 0;
}

int posix_trace_attr_getname(const trace_attr_t *attr, char *tracename)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !tracename)
		return EINVAL;
	memcpy(tracename, a->name, TRACE_NAME_MAX);
	return 0;
}

int posix_trace_attr_setname(trace_attr_t *attr, const char *tracename)
{
	struct pt_attr *a = attr_set(attr);

	if (!a || !tracename)
		return EINVAL;
	/* Longer names are truncated to TRACE_NAME_MAX - 1 bytes. */
	snprintf(a->name, sizeof(a->name), "%s", tracename);
	return 0;
}

int posix_trace_attr_getinherited(const trace_attr_t *__restrict attr, int *__restrict v)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !v)
		return EINVAL;
	*v = a->inherit;
	return 0;
}

int posix_trace_attr_setinherited(trace_attr_t *attr, int v)
{
	struct pt_attr *a = attr_set(attr);

	if (!a)
		return EINVAL;
	if (v != POSIX_TRACE_INHERITED && v != POSIX_TRACE_CLOSE_FOR_CHILD)
		return EINVAL;
	a->inherit = v;
	return 0;
}

int posix_trace_attr_getlogfullpolicy(const trace_attr_t *__restrict attr, int *__restrict v)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !v)
		return EINVAL;
	*v = a->log_policy;
	return 0;
}

int posix_trace_attr_setlogfullpolicy(trace_attr_t *attr, int v)
{
	struct pt_attr *a = attr_set(attr);

	if (!a)
		return EINVAL;
	if (v != POSIX_TRACE_LOOP && v != POSIX_TRACE_UNTIL_FULL && v != POSIX_TRACE_APPEND)
		return EINVAL;
	a->log_policy = v;
	return 0;
}

int posix_trace_attr_getstreamfullpolicy(const trace_attr_t *__restrict attr, int *__restrict v)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !v)
		return EINVAL;
	/* Not yet tied to a stream: the default of a stream without log. */
	*v = attr__stream_policy(a, false);
	return 0;
}

int posix_trace_attr_setstreamfullpolicy(trace_attr_t *attr, int v)
{
	struct pt_attr *a = attr_set(attr);

	if (!a)
		return EINVAL;
	if (v != POSIX_TRACE_LOOP && v != POSIX_TRACE_UNTIL_FULL && v != POSIX_TRACE_FLUSH)
		return EINVAL;
	a->stream_policy = v;
	return 0;
}

int posix_trace_attr_getlogsize(const trace_attr_t *__restrict attr, size_t *__restrict v)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !v)
		return EINVAL;
	*v = a->log_size;
	return 0;
}

int posix_trace_attr_setlogsize(trace_attr_t *attr, size_t v)
{
	struct pt_attr *a = attr_set(attr);

	if (!a)
		return EINVAL;
	/* Below the smallest log that holds a largest event: the minimum. */
	a->log_size = v < PT_MIN_LOG_SIZE ? PT_MIN_LOG_SIZE : v;
	return 0;
}

int posix_trace_attr_getmaxdatasize(const trace_attr_t *__restrict attr, size_t *__restrict v)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !v)
		return EINVAL;
	*v = a->max_data_size;
	return 0;
}

int posix_trace_attr_setmaxdatasize(trace_attr_t *attr, size_t v)
{
	struct pt_attr *a = attr_set(attr);

	if (!a)
		return EINVAL;
	/* Larger values are lowered to the implementation's maximum. */
	a->max_data_size = v > PT_MAX_MAX_DATA_SIZE ? PT_MAX_MAX_DATA_SIZE : v;
	return 0;
}

int posix_trace_attr_getmaxsystemeventsize(const trace_attr_t *__restrict attr,
					   size_t *__restrict v)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !v)
		return EINVAL;
	*v = attr__event_cost(attr__max_system_data_of(a));
	return 0;
}

int posix_trace_attr_getmaxusereventsize(const trace_attr_t *__restrict attr, size_t data_len,
					 size_t *__restrict v)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !v)
		return EINVAL;
	*v = attr__event_cost(data_len < a->max_data_size ? data_len : a->max_data_size);
	return 0;
}

int posix_trace_attr_getstreamsize(const trace_attr_t *__restrict attr, size_t *__restrict v)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !v)
		return EINVAL;
	*v = a->stream_size;
	return 0;
}

int posix_trace_attr_setstreamsize(trace_attr_t *attr, size_t v)
{
	struct pt_attr *a = attr_set(attr);

	if (!a)
		return EINVAL;
	/* Rounded up to the minimum, lowered to the maximum (README). */
	if (v < PT_MIN_STREAM_SIZE)
		v = PT_MIN_STREAM_SIZE;
	if (v > PT_MAX_STREAM_SIZE)
		v = PT_MAX_STREAM_SIZE;
	a->stream_size = v;
	return 0;
}

int ptbpf_trace_attr_setsyscallstatus(trace_attr_t *attr, unsigned int statuses)
{
	const unsigned int all = PTBPF_SYSCALL_SUCCESSFUL | PTBPF_SYSCALL_FAILED;
	struct pt_attr *a = attr_set(attr);

	if (!a || (statuses & ~all))
		return EINVAL;
	a->syscall_status = statuses == all ? 0 : statuses;
	return 0;
}

int ptbpf_trace_attr_getsyscallstatus(const trace_attr_t *attr, unsigned int *statuses)
{
	const struct pt_attr *a = attr_get(attr);

	if (!a || !statuses)
		return EINVAL;
	*statuses = a->syscall_status ? a->syscall_status
				      : PTBPF_SYSCALL_SUCCESSFUL | PTBPF_SYSCALL_FAILED;
	return 0;
}
