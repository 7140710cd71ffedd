/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Event types of a trace (active or from a log) and the trace analyzer's
 * getnext functions. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <trace.h>

#include "api/api.h"
#include "core/evtypes.h"
#include "core/stream.h"

#define ANY_KIND (TRACE_KIND_ACTIVE | TRACE_KIND_LOG)

int posix_trace_eventid_equal(trace_id_t trid, trace_event_id_t a, trace_event_id_t b)
{
	struct api_ref r;

	/* Ids are the same for every trace: compare them; trid must be valid. */
	if (api_get(trid, ANY_KIND, &r))
		return 0;
	api_put(&r);
	return a == b;
}

int posix_trace_eventid_get_name(trace_id_t trid, trace_event_id_t id, char *name)
{
	struct api_ref r;
	int err;

	if (!name || api_get(trid, ANY_KIND, &r))
		return EINVAL;
	err = trace__eventid_name(api_trace(&r), id, name);
	api_put(&r);
	return api_err(err);
}

int posix_trace_trid_eventid_open(trace_id_t trid, const char *__restrict name,
				  trace_event_id_t *__restrict id)
{
	struct api_ref r;
	int err;

	if (!name || !id || api_get(trid, ANY_KIND, &r))
		return EINVAL;
	if (strlen(name) >= TRACE_EVENT_NAME_MAX)
		err = -ENAMETOOLONG;
	else
		err = trace__eventid_open(api_trace(&r), name, id);
	api_put(&r);
	return api_err(err);
}

int posix_trace_eventtypelist_getnext_id(trace_id_t trid, trace_event_id_t *__restrict id,
					 int *__restrict unavailable)
{
	struct api_ref r;
	int err;

	if (!id || !unavailable || api_get(trid, ANY_KIND, &r))
		return EINVAL;
	err = trace__typelist_next(api_trace(&r), id, unavailable);
	api_put(&r);
	return api_err(err);
}

int posix_trace_eventtypelist_rewind(trace_id_t trid)
{
	struct api_ref r;

	if (api_get(trid, ANY_KIND, &r))
		return EINVAL;
	trace__typelist_rewind(api_trace(&r));
	api_put(&r);
	return 0;
}

static int getnext(trace_id_t trid, enum stream_wait how, const struct timespec *abstime,
		   struct posix_trace_event_info *ev, void *data, size_t num_bytes,
		   size_t *data_len, int *unavailable)
{
	struct api_ref r;
	int err;

	if (!ev || !unavailable || (num_bytes && !data))
		return EINVAL;
	if (api_get(trid, how == STREAM_BLOCK ? ANY_KIND : TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	if (r.kind == TRACE_KIND_ACTIVE && how != STREAM_BLOCK && r.has_log) {
		err = -EINVAL; /* only getnext reads a stream with a log */
	} else {
		bool bad_time = how == STREAM_TIMED && api_bad_abstime(abstime);

		/* abstime is checked only when the call would block */
		err = trace__getnext(api_trace(&r), bad_time ? STREAM_TRY : how, abstime, ev, data,
				     num_bytes, data_len, unavailable);
		if (!err && bad_time && *unavailable)
			err = -EINVAL;
	}
	api_put(&r);
	return api_err(err);
}

int posix_trace_getnext_event(trace_id_t trid, struct posix_trace_event_info *__restrict ev,
			      void *__restrict data, size_t num_bytes, size_t *__restrict data_len,
			      int *__restrict unavailable)
{
	return getnext(trid, STREAM_BLOCK, NULL, ev, data, num_bytes, data_len, unavailable);
}

int posix_trace_trygetnext_event(trace_id_t trid, struct posix_trace_event_info *__restrict ev,
				 void *__restrict data, size_t num_bytes,
				 size_t *__restrict data_len, int *__restrict unavailable)
{
	return getnext(trid, STREAM_TRY, NULL, ev, data, num_bytes, data_len, unavailable);
}

int posix_trace_timedgetnext_event(trace_id_t trid, struct posix_trace_event_info *__restrict ev,
				   void *__restrict data, size_t num_bytes,
				   size_t *__restrict data_len, int *__restrict unavailable,
				   const struct timespec *__restrict abstime)
{
	return getnext(trid, STREAM_TIMED, abstime, ev, data, num_bytes, data_len, unavailable);
}

int ptbpf_system_eventid(const char *name, trace_event_id_t *id)
{
	uint32_t v;

	if (!name || !id || evtypes__system_id(name, &v))
		return EINVAL;
	*id = v;
	return 0;
}

int ptbpf_system_eventid_get_name(trace_event_id_t id, char *name)
{
	if (!name || id >= PTBPF_EV_USER_BASE || !evtypes__known(NULL, id))
		return EINVAL;
	return api_err(evtypes__name(NULL, id, name));
}

int ptbpf_system_eventid_next(trace_event_id_t id, trace_event_id_t *next)
{
	uint32_t v;

	if (!next)
		return EINVAL;
	if (evtypes__system_next(id, &v))
		return ENOENT;
	*next = v;
	return 0;
}
