/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/logtrace.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/event.h"
#include "core/event_info.h"
#include "log/log.h"

struct pt_logtrace {
	struct log_reader *r;
	size_t type_iter;
	pid_t last_tid;
};

int logtrace__open(struct pt_logtrace **out, int fd)
{
	struct pt_logtrace *lt = calloc(1, sizeof(*lt));
	int err;

	if (!lt)
		return -ENOMEM;
	err = log_reader__open(&lt->r, fd);
	if (err) {
		free(lt);
		return err;
	}
	*out = lt;
	return 0;
}

void logtrace__close(struct pt_logtrace *lt)
{
	log_reader__close(lt->r);
	free(lt);
}

int logtrace__rewind(struct pt_logtrace *lt)
{
	return log_reader__rewind(lt->r);
}

int logtrace__getnext(struct pt_logtrace *lt, struct posix_trace_event_info *ev, void *data,
		      size_t num_bytes, size_t *data_len, int *unavailable)
{
	struct pt_event_hdr h;
	const void *src;
	int r = log_reader__next(lt->r, &h, &src);

	if (r < 0)
		return r;
	if (r == 0) {
		*unavailable = 1;
		if (data_len)
			*data_len = 0;
		return 0;
	}
	event_info__copy_out(ev, &h, src, data, num_bytes, data_len);
	lt->last_tid = h.tid;
	*unavailable = 0;
	return 0;
}

static int stream_policy_of(int32_t v)
{
	return v == POSIX_TRACE_UNTIL_FULL || v == POSIX_TRACE_FLUSH ? v : POSIX_TRACE_LOOP;
}

void logtrace__get_attr(struct pt_logtrace *lt, struct pt_attr *a)
{
	const struct log_meta *m = log_reader__meta(lt->r);

	attr__init(a);
	memcpy(a->name, m->name,
	       sizeof(a->name) < sizeof(m->name) ? sizeof(a->name) : sizeof(m->name));
	a->name[sizeof(a->name) - 1] = '\0';
	a->create_time.tv_sec = (time_t)m->create_sec;
	a->create_time.tv_nsec = (long)m->create_nsec;
	a->stream_size = (size_t)m->stream_min_size;
	a->max_data_size = (size_t)m->max_data_size;
	a->log_size = (size_t)m->log_max_size;
	a->pidns_ino = m->pidns_ino;
	a->arch = m->arch;
	a->stream_policy = stream_policy_of(m->stream_full_policy);
	switch (m->log_full_policy) {
	case LOG_POLICY_APPEND:
		a->log_policy = POSIX_TRACE_APPEND;
		break;
	case LOG_POLICY_UNTIL_FULL:
		a->log_policy = POSIX_TRACE_UNTIL_FULL;
		break;
	default:
		a->log_policy = POSIX_TRACE_LOOP;
		break;
	}
	a->inherit = m->inheritance == POSIX_TRACE_INHERITED ? POSIX_TRACE_INHERITED
							     : POSIX_TRACE_CLOSE_FOR_CHILD;
}

/* Keep only values the status members may take. */
static int pick(int32_t v, int a, int b)
{
	return v == a ? a : b;
}

void logtrace__get_status(struct pt_logtrace *lt, struct posix_trace_status_info *st)
{
	struct log_status ls;

	/* A pre-recorded stream is suspended; a log without trailer (its
	 * writer died) reports an overrun-free, not-full stream. */
	memset(st, 0, sizeof(*st));
	st->posix_stream_status = POSIX_TRACE_SUSPENDED;
	st->posix_stream_full_status = POSIX_TRACE_NOT_FULL;
	st->posix_stream_overrun_status = POSIX_TRACE_NO_OVERRUN;
	st->posix_stream_flush_status = POSIX_TRACE_NOT_FLUSHING;
	st->posix_log_overrun_status = POSIX_TRACE_NO_OVERRUN;
	st->posix_log_full_status = POSIX_TRACE_NOT_FULL;
	if (log_reader__status(lt->r, &ls))
		return;
	st->posix_stream_full_status = pick(ls.v[1], POSIX_TRACE_FULL, POSIX_TRACE_NOT_FULL);
	st->posix_stream_overrun_status =
		pick(ls.v[2], POSIX_TRACE_OVERRUN, POSIX_TRACE_NO_OVERRUN);
	st->posix_stream_flush_error = ls.v[4] >= 0 ? ls.v[4] : 0;
	st->posix_log_overrun_status = pick(ls.v[5], POSIX_TRACE_OVERRUN, POSIX_TRACE_NO_OVERRUN);
	st->posix_log_full_status = pick(ls.v[6], POSIX_TRACE_FULL, POSIX_TRACE_NOT_FULL);
}

int logtrace__eventid_name(struct pt_logtrace *lt, trace_event_id_t id, char *name)
{
	const char *n;

	if (log_reader__type_name(lt->r, id, &n))
		return -EINVAL;
	snprintf(name, TRACE_EVENT_NAME_MAX, "%s", n);
	return 0;
}

int logtrace__eventid_lookup(struct pt_logtrace *lt, const char *name, trace_event_id_t *id)
{
	size_t it = 0;
	uint32_t v;
	const char *n;

	while (log_reader__type_next(lt->r, &it, &v, &n) == 1) {
		if (!strcmp(n, name)) {
			*id = v;
			return 0;
		}
	}
	return -EINVAL; /* a pre-recorded stream gets no new event types */
}

int logtrace__typelist_next(struct pt_logtrace *lt, trace_event_id_t *id, int *unavailable)
{
	uint32_t v;
	const char *n;

	*unavailable = log_reader__type_next(lt->r, &lt->type_iter, &v, &n) != 1;
	if (!*unavailable)
		*id = v;
	return 0;
}

void logtrace__typelist_rewind(struct pt_logtrace *lt)
{
	lt->type_iter = 0;
}

pid_t logtrace__last_tid(struct pt_logtrace *lt)
{
	return lt->last_tid;
}

void logtrace__counters(struct pt_logtrace *lt, struct ptbpf_counters *c)
{
	struct log_status ls;

	memset(c, 0, sizeof(*c));
	if (log_reader__status(lt->r, &ls))
		return;
	c->recorded = ls.events_written;
	c->lost = ls.events_lost;
	c->log_events = ls.log_events;
	c->log_dropped = ls.log_dropped;
}
