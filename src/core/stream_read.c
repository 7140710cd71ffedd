/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reading an active stream: getnext, trygetnext and timedgetnext. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/stream_int.h"
#include "core/event_info.h"

/* ------------------------------------------------------------------ */
/* Reading                                                             */

/* The stored event h, the oldest, out of the stream (lock held). */
static void stream__take_stored(struct pt_stream *s, const struct pt_event_hdr *h,
				struct posix_trace_event_info *ev, void *data, size_t num_bytes,
				size_t *data_len)
{
	event_info__copy_out(ev, h, queue__data(h), data, num_bytes, data_len);
	if (h->ts > s->floor_ts)
		s->floor_ts = h->ts; /* a late event read lowers nothing */
	s->last_tid = h->tid;
	queue__pop(&s->q);
	if (s->policy == POSIX_TRACE_LOOP && s->full == POSIX_TRACE_FULL)
		s->full = POSIX_TRACE_NOT_FULL;
	if (queue__empty(&s->q) && s->auto_stopped && !s->auto_stop_report)
		stream__auto_restart(s);
}

/* One event out of the stream, if there is one it may give now (lock held). */
static bool stream__take(struct pt_stream *s, struct posix_trace_event_info *ev, void *data,
			 size_t num_bytes, size_t *data_len)
{
	const struct pt_event_hdr *h = stream__head(s);
	struct pt_event_hdr m = { 0 };

	if (!h && !queue__empty(&s->q))
		return false; /* held back: an older event may still come */
	if (s->head_overflow) {
		uint64_t n = s->head_overflow_lost;

		m.id = POSIX_TRACE_OVERFLOW;
		m.ts = s->head_overflow_ts;
		m.data_len = sizeof(n);
		s->head_overflow = false;
		s->head_overflow_lost = 0;
		s->head_resume = true;
		event_info__copy_out(ev, &m, &n, data, num_bytes, data_len);
		s->last_tid = 0;
		return true;
	}
	if (h && s->head_resume) {
		m.id = POSIX_TRACE_RESUME;
		m.ts = h->ts;
		s->head_resume = false;
		event_info__copy_out(ev, &m, NULL, data, num_bytes, data_len);
		s->last_tid = 0;
		return true;
	}
	if (h) {
		stream__take_stored(s, h, ev, data, num_bytes, data_len);
		return true;
	}
	if (s->auto_stop_report) {
		int one = 1;

		m.id = POSIX_TRACE_STOP;
		m.ts = s->last_ts;
		m.data_len = sizeof(one);
		s->auto_stop_report = false;
		event_info__copy_out(ev, &m, &one, data, num_bytes, data_len);
		s->last_tid = 0;
		stream__auto_restart(s);
		return true;
	}
	if (s->gap_lost && s->status != POSIX_TRACE_RUNNING) {
		/* the losses of a stream that stopped full: after its last event */
		uint64_t n = s->gap_lost;

		m.id = POSIX_TRACE_OVERFLOW;
		m.ts = s->last_ts;
		m.data_len = sizeof(n);
		s->gap_lost = 0;
		event_info__copy_out(ev, &m, &n, data, num_bytes, data_len);
		s->last_tid = 0;
		return true;
	}
	return false;
}

int stream__getnext(struct pt_stream *s, enum stream_wait how, const struct timespec *abstime,
		    struct posix_trace_event_info *ev, void *data, size_t num_bytes,
		    size_t *data_len, int *unavailable)
{
	int err = 0;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		if (s->shutting_down) {
			err = -EINVAL;
			break;
		}
		if (!stream__head(s))
			stream__drain_fit(s, NULL);
		/*
		 * Stored events all held back (a full LOOP stream leaves its
		 * sources undrained, so their watermarks stand still): drain
		 * them whole, and what no source can still precede is released.
		 * A reader that does not wait is not told there is nothing.
		 */
		if (how == STREAM_TRY && !stream__head(s) && !queue__empty(&s->q))
			stream__drain(s, NULL, SIZE_MAX);
		if (stream__take(s, ev, data, num_bytes, data_len)) {
			*unavailable = 0;
			break;
		}
		if (how == STREAM_TRY) {
			*unavailable = 1;
			break;
		}
		if (how == STREAM_TIMED) {
			err = pthread_cond_timedwait(&s->cond, &s->lock, abstime);
			if (err == ETIMEDOUT) {
				if (stream__take(s, ev, data, num_bytes, data_len)) {
					*unavailable = 0;
					err = 0;
				} else {
					*unavailable = 1;
					err = -ETIMEDOUT;
				}
				break;
			}
			if (err == EINVAL)
				break;
			err = 0;
		} else {
			pthread_cond_wait(&s->cond, &s->lock);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return err == EINVAL ? -EINVAL : err;
}

/* Bytes of data of what stream__take() returns next; -1: nothing (lock held). */
static long stream__next_len(struct pt_stream *s)
{
	const struct pt_event_hdr *h = stream__head(s);

	if (!h && !queue__empty(&s->q))
		return -1;
	if (s->head_overflow)
		return sizeof(uint64_t);
	if (h && s->head_resume)
		return 0;
	if (h)
		return h->data_len;
	if (s->auto_stop_report)
		return sizeof(int);
	return s->gap_lost && s->status != POSIX_TRACE_RUNNING ? (long)sizeof(uint64_t) : -1;
}

/* What a batch reader finds (lock held): the stored events, or, when the
 * stream holds none, the sources drained straight into its arrays. */
static size_t stream__fill_batch(struct pt_stream *s, struct ptbpf_event *evs, size_t max,
				 void *buf, size_t bufsz)
{
	size_t n = 0, off = 0;

	if (!stream__head(s)) {
		struct stream_out out = {
			.evs = evs, .max = max, .buf = buf, .bufsz = buf ? bufsz : 0
		};

		stream__drain_fit(s, s->log ? NULL : &out);
		n = out.n;
		off = out.off;
	}
	while (n < max) {
		const struct pt_event_hdr *h = stream__head(s);
		char *at = buf ? (char *)buf + off : NULL;
		long need;

		if (h && !s->head_overflow && !s->head_resume) {
			/* the usual case: a stored event, no marker before it */
			if (n && h->data_len > bufsz - off)
				break;
			stream__take_stored(s, h, &evs[n].info, at, bufsz - off, &evs[n].data_len);
		} else {
			need = stream__next_len(s);
			if (need < 0 || (n && (size_t)need > bufsz - off))
				break;
			if (!stream__take(s, &evs[n].info, at, bufsz - off, &evs[n].data_len))
				break;
		}
		evs[n].data = at;
		evs[n].tid = s->last_tid;
		off += (evs[n].data_len + 7) & ~(size_t)7;
		if (off > bufsz)
			off = bufsz;
		n++;
	}
	return n;
}

int stream__getnext_batch(struct pt_stream *s, enum stream_wait how, const struct timespec *abstime,
			  struct ptbpf_event *evs, size_t max, void *buf, size_t bufsz,
			  size_t *count)
{
	size_t n = 0;
	int err = 0;

	pthread_mutex_lock(&s->lock);
	s->batch_reads++;
	for (;;) {
		if (s->shutting_down) {
			err = -EINVAL;
			break;
		}
		n = stream__fill_batch(s, evs, max, buf, bufsz);
		if (n || how == STREAM_TRY)
			break;
		/* the drainer leaves the sources to a waiting batch reader
		 * and wakes it instead (see stream__reader_drains) */
		s->batch_waiters++;
		if (how == STREAM_TIMED)
			err = pthread_cond_timedwait(&s->cond, &s->lock, abstime);
		else
			err = pthread_cond_wait(&s->cond, &s->lock);
		s->batch_waiters--;
		if (err == ETIMEDOUT) {
			n = s->shutting_down ? 0 : stream__fill_batch(s, evs, max, buf, bufsz);
			err = n ? 0 : -ETIMEDOUT;
			break;
		}
		if (err) {
			err = -err;
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	*count = n;
	return err;
}

pid_t stream__last_tid(struct pt_stream *s)
{
	pid_t t;

	pthread_mutex_lock(&s->lock);
	t = s->last_tid;
	pthread_mutex_unlock(&s->lock);
	return t;
}
