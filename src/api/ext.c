/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_* extensions that act on traces. */
#include <errno.h>
#include <ptbpf/ptbpf.h>

#include "api/api.h"
#include "backend/features.h"
#include "core/stream.h"

const char *ptbpf_version(void)
{
	return PTBPF_VERSION_STRING;
}

int ptbpf_trace_last_tid(trace_id_t trid, pid_t *tid)
{
	struct api_ref r;

	if (!tid || api_get(trid, TRACE_KIND_ACTIVE | TRACE_KIND_LOG, &r))
		return EINVAL;
	*tid = trace__last_tid(api_trace(&r));
	api_put(&r);
	return 0;
}

static int getnext_events(trace_id_t trid, enum stream_wait how, const struct timespec *abstime,
			  struct ptbpf_event *evs, size_t max, void *buf, size_t bufsz,
			  size_t *count)
{
	struct api_ref r;
	bool bad_time;
	int err;

	if (!evs || !count || !max || (bufsz && !buf) || api_get(trid, TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	*count = 0;
	/* as posix_trace_trygetnext_event(): a stream with a log is read
	 * with posix_trace_getnext_event() only */
	if (r.has_log) {
		api_put(&r);
		return EINVAL;
	}
	/* abstime is checked only when the call would wait, as
	 * posix_trace_timedgetnext_event() does */
	bad_time = how == STREAM_TIMED && api_bad_abstime(abstime);
	err = stream__getnext_batch(r.obj, bad_time ? STREAM_TRY : how, abstime, evs, max, buf,
				    bufsz, count);
	if (!err && bad_time && !*count)
		err = -EINVAL;
	api_put(&r);
	return api_err(err);
}

int ptbpf_trace_trygetnext_events(trace_id_t trid, struct ptbpf_event *evs, size_t max, void *buf,
				  size_t bufsz, size_t *count)
{
	return getnext_events(trid, STREAM_TRY, NULL, evs, max, buf, bufsz, count);
}

int ptbpf_trace_timedgetnext_events(trace_id_t trid, struct ptbpf_event *evs, size_t max, void *buf,
				    size_t bufsz, size_t *count, const struct timespec *abstime)
{
	return getnext_events(trid, STREAM_TIMED, abstime, evs, max, buf, bufsz, count);
}

int ptbpf_trace_get_counters(trace_id_t trid, struct ptbpf_counters *c)
{
	struct ptbpf_counters all;
	struct api_ref r;

	if (!c || c->sz <= sizeof(c->sz) || api_get(trid, TRACE_KIND_ACTIVE | TRACE_KIND_LOG, &r))
		return EINVAL;
	trace__counters(api_trace(&r), &all);
	api_put(&r);
	api_copy_sized(c, &all, sizeof(all));
	return 0;
}

int ptbpf_trace_get_syscall_stats(trace_id_t trid, struct ptbpf_syscall_stats *st, size_t max,
				  size_t *count)
{
	struct api_ref r;
	int err;

	if (!count || (max && !st) || api_get(trid, TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	err = stream__syscall_stats(r.obj, st, max, count);
	api_put(&r);
	return api_err(err);
}

int ptbpf_probe_features(struct ptbpf_features *f)
{
	struct ptbpf_features all;

	if (!f || f->sz <= sizeof(f->sz))
		return EINVAL;
	features__probe(&all);
	api_copy_sized(f, &all, sizeof(all));
	return 0;
}

int ptbpf_trace_add_pid(trace_id_t trid, pid_t pid)
{
	struct api_ref r;
	int err;

	if (pid <= 0)
		return EINVAL;
	if (api_get(trid, TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	err = stream__add_pid(r.obj, pid);
	api_put(&r);
	return api_err(err);
}
