/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/trace_ops.h"

#include "core/logtrace.h"

void trace__get_attr(struct pt_trace t, struct pt_attr *a)
{
	if (t.kind == TRACE_KIND_LOG)
		logtrace__get_attr(t.obj, a);
	else
		stream__get_attr(t.obj, a);
}

void trace__get_status(struct pt_trace t, struct posix_trace_status_info *st)
{
	if (t.kind == TRACE_KIND_LOG)
		logtrace__get_status(t.obj, st);
	else
		stream__get_status(t.obj, st);
}

int trace__eventid_name(struct pt_trace t, trace_event_id_t id, char *name)
{
	if (t.kind == TRACE_KIND_LOG)
		return logtrace__eventid_name(t.obj, id, name);
	return stream__eventid_name(t.obj, id, name);
}

int trace__eventid_open(struct pt_trace t, const char *name, trace_event_id_t *id)
{
	if (t.kind == TRACE_KIND_LOG)
		return logtrace__eventid_lookup(t.obj, name, id);
	return stream__eventid_open(t.obj, name, id);
}

int trace__typelist_next(struct pt_trace t, trace_event_id_t *id, int *unavailable)
{
	if (t.kind == TRACE_KIND_LOG)
		return logtrace__typelist_next(t.obj, id, unavailable);
	return stream__typelist_next(t.obj, id, unavailable);
}

void trace__typelist_rewind(struct pt_trace t)
{
	if (t.kind == TRACE_KIND_LOG)
		logtrace__typelist_rewind(t.obj);
	else
		stream__typelist_rewind(t.obj);
}

pid_t trace__last_tid(struct pt_trace t)
{
	if (t.kind == TRACE_KIND_LOG)
		return logtrace__last_tid(t.obj);
	return stream__last_tid(t.obj);
}

void trace__counters(struct pt_trace t, struct ptbpf_counters *c)
{
	if (t.kind == TRACE_KIND_LOG)
		logtrace__counters(t.obj, c);
	else
		stream__counters(t.obj, c);
}

int trace__getnext(struct pt_trace t, enum stream_wait how, const struct timespec *abstime,
		   struct posix_trace_event_info *ev, void *data, size_t num_bytes,
		   size_t *data_len, int *unavailable)
{
	if (t.kind == TRACE_KIND_LOG)
		return logtrace__getnext(t.obj, ev, data, num_bytes, data_len, unavailable);
	return stream__getnext(t.obj, how, abstime, ev, data, num_bytes, data_len, unavailable);
}
