/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Storing events in a stream: the full policies (LOOP overwrites,
 * UNTIL_FULL stops, FLUSH hands over to the log), the system events the
 * stream records itself, and the markers of lost events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/stream_int.h"

/* ------------------------------------------------------------------ */
/* Recording into the stream buffer (lock held)                        */

void stream__set_sources_enabled(struct pt_stream *s, bool on)
{
	int i;

	if (s->kb)
		kern_backend__set_enabled(s->kb, on);
	for (i = 0; i < s->nuev; i++)
		if (s->uev[i].c)
			uev_consumer__set_enabled(s->uev[i].c, on);
}

/*
 * UNTIL_FULL: the stream stops. The sources stay on, so every event
 * generated while it is full is counted as lost (overrun), exactly.
 */
void stream__auto_stop(struct pt_stream *s)
{
	s->status = POSIX_TRACE_SUSPENDED;
	s->full = POSIX_TRACE_FULL;
	s->auto_stopped = true;
	s->auto_stop_report = true;
	stream__release_stored(s); /* what comes now is lost: nothing goes before */
}

/*
 * Hand everything the stream holds to its log, with the markers a reader of
 * the stream would have been given: OVERFLOW and RESUME where LOOP overwrote
 * events, STOP (automatic) after the last event of a stream UNTIL_FULL
 * stopped (lock held).
 */
int stream__log_handover(struct pt_stream *s)
{
	const struct pt_event_hdr *head = stream__head(s);
	struct pt_event_hdr m = { 0 };
	int err, one = 1;
	bool whole;

	if ((s->head_overflow || s->head_resume) && (head || s->status != POSIX_TRACE_RUNNING)) {
		if (s->head_overflow) {
			m.id = POSIX_TRACE_OVERFLOW;
			m.ts = s->head_overflow_ts;
			m.data_len = sizeof(s->head_overflow_lost);
			stream_log__add(s->log, &m, &s->head_overflow_lost);
			s->head_overflow_lost = 0;
			m.data_len = 0;
		}
		m.id = POSIX_TRACE_RESUME;
		m.ts = head ? head->ts : s->last_ts;
		stream_log__add(s->log, &m, NULL);
		s->head_overflow = s->head_resume = false;
	}
	/* no stored event held back: the queue may go whole */
	whole = s->last_ts <= s->release_ts;
	err = stream_log__flush_queue(s->log, &s->q, whole ? UINT64_MAX : s->release_ts,
				      &s->floor_ts);
	if (!err && whole && s->last_ts > s->floor_ts)
		s->floor_ts = s->last_ts;
	if (!err && s->auto_stop_report && queue__empty(&s->q)) {
		m.id = POSIX_TRACE_STOP;
		m.ts = s->last_ts;
		m.data_len = sizeof(one);
		stream_log__add(s->log, &m, &one);
		s->auto_stop_report = false;
	}
	if (!err && s->gap_lost && s->status != POSIX_TRACE_RUNNING && queue__empty(&s->q)) {
		/* the losses of a stream that stopped full: after its last event */
		m.id = POSIX_TRACE_OVERFLOW;
		m.ts = s->last_ts;
		m.data_len = sizeof(s->gap_lost);
		stream_log__add(s->log, &m, &s->gap_lost);
		s->gap_lost = 0;
	}
	return err;
}

int stream__flush_locked(struct pt_stream *s, bool all)
{
	struct pt_event_hdr h = { .id = POSIX_TRACE_FLUSH_START };
	int err;

	if (all || s->status != POSIX_TRACE_RUNNING)
		stream__release_stored(s);
	err = stream__log_handover(s);
	if (err)
		return err;
	/* after all it handed over (none newer than release_ts), before all
	 * it keeps and all to come (none older) */
	h.ts = s->release_ts > s->floor_ts ? s->release_ts : s->floor_ts;
	/* each flush ends, with its FLUSH_STOP, once the flusher has written
	 * everything handed over (several may end at once) */
	stream_log__add(s->log, &h, NULL);
	s->cnt.recorded++;
	s->flushes_open++;
	s->floor_ts = h.ts;
	/* an UNTIL_FULL stream stopped because it was full runs again */
	if (s->auto_stopped && queue__empty(&s->q))
		stream__auto_restart(s);
	return 0;
}

/* Make room in a full stream as its policy says; false: the event is lost. */
static bool stream__make_room(struct pt_stream *s, size_t data_len)
{
	const struct pt_event_hdr *old;

	switch (s->policy) {
	case POSIX_TRACE_LOOP:
		while (!queue__fits(&s->q, data_len) && (old = queue__peek(&s->q))) {
			if (!s->head_overflow) {
				s->head_overflow = true;
				s->head_overflow_ts = old->ts;
			}
			/* a gap marker overwritten is no event lost: the gap
			 * it marked is now part of the one at the head */
			if (old->id == POSIX_TRACE_OVERFLOW) {
				s->head_overflow_lost += stream__gap_count(old, queue__data(old));
			} else if (old->id != POSIX_TRACE_RESUME) {
				s->cnt.lost++;
				s->head_overflow_lost++;
			}
			s->cnt.recorded--; /* recorded + lost: every event that came */
			queue__pop(&s->q);
		}
		s->full = POSIX_TRACE_FULL;
		s->overrun = POSIX_TRACE_OVERRUN;
		return queue__fits(&s->q, data_len);
	case POSIX_TRACE_FLUSH:
		/* in the middle of a drain: the event that did not fit, and
		 * the rest of the drain, go after FLUSH_START */
		if (s->log && !stream__flush_locked(s, true))
			return queue__fits(&s->q, data_len);
		/* a log that cannot take events: as UNTIL_FULL */
		/* fallthrough */
	default:
		s->overrun = POSIX_TRACE_OVERRUN;
		stream__auto_stop(s);
		return false;
	}
}

int stream__store(struct pt_stream *s, struct pt_event_hdr *h, const void *data)
{
	int err;

	err = queue__push(&s->q, h, data);
	if (err == -ENOSPC && stream__make_room(s, h->data_len))
		err = queue__push(&s->q, h, data);
	if (err) {
		s->cnt.lost++;
		s->gap_lost++;
		return -ENOSPC;
	}
	if (h->ts > s->last_ts)
		s->last_ts = h->ts; /* a late event goes after newer ones */
	s->cnt.recorded++;
	return 0;
}

/*
 * The OVERFLOW marker of the events lost so far that no stored marker
 * holds (s->gap_lost), its count as its data; then RESUME before the next
 * event. A marker that does not fit is no event lost: its count waits for
 * the next one.
 */
void stream__store_gap(struct pt_stream *s, uint64_t ts)
{
	uint64_t n = s->gap_lost;
	struct pt_event_hdr h = { .id = POSIX_TRACE_OVERFLOW, .ts = ts, .data_len = sizeof(n) };
	int err;

	err = queue__push(&s->q, &h, &n);
	if (err == -ENOSPC && stream__make_room(s, h.data_len))
		err = queue__push(&s->q, &h, &n);
	if (err)
		return;
	s->gap_lost = 0;
	if (h.ts > s->last_ts)
		s->last_ts = h.ts;
	s->cnt.recorded++;
	s->resume_pending = true;
}

/* A system event of the stream itself (pid and thread 0). */
int stream__record_system(struct pt_stream *s, uint32_t id, uint64_t ts, const void *data,
			  uint32_t len)
{
	struct pt_event_hdr h = {
		.id = id,
		.ts = ts,
		.data_len = len,
	};

	return stream__store(s, &h, data);
}

/* A syscall's entry that the kernel side wrote at its exit (a syscall
 * status filter: its result decided whether it was wanted). */
static bool stream__held_entry(const struct pt_stream *s, const struct pt_event_hdr *h)
{
	return s->attr.syscall_status && PTBPF_EV_IS_SYSCALL(h->id) &&
	       !PTBPF_EV_SYSCALL_IS_EXIT(h->id);
}

/* An event from a source, timestamp already on the stream's clock. */
void stream__record(struct pt_stream *s, struct pt_event_hdr *h, const void *data)
{
	/* the common case, in short: a source's event, in order, into a
	 * running stream with room (what follows, step by step, for all) */
	if (stream__as_is(s, h) && !queue__push(&s->q, h, data)) {
		s->last_ts = h->ts;
		s->cnt.recorded++;
		return;
	}
	if (h->id < PTBPF_EV_KERNEL_FIRST && h->id != POSIX_TRACE_OVERFLOW) {
		/* the stream's own events (FLUSH_STOP, ERROR) */
		stream__store(s, h, data);
		return;
	}
	if (h->id == POSIX_TRACE_OVERFLOW) {
		/* a source lost events (already counted): mark the gap, with
		 * the losses before it no marker holds yet */
		s->gap_lost += stream__gap_count(h, data);
		if (s->status == POSIX_TRACE_RUNNING)
			stream__store_gap(s, h->ts);
		return;
	}
	if (s->status != POSIX_TRACE_RUNNING || h->ts < s->start_ts) {
		/* generated while the stream was full and stopped: lost */
		if (s->auto_stopped || (s->status == POSIX_TRACE_RUNNING && s->start_after_gap)) {
			s->cnt.lost++;
			s->gap_lost++;
			s->overrun = POSIX_TRACE_OVERRUN;
		}
		return;
	}
	if (s->gap_lost)
		stream__store_gap(s, h->ts);
	if (s->resume_pending && s->status == POSIX_TRACE_RUNNING) {
		if (!stream__record_system(s, POSIX_TRACE_RESUME, h->ts, NULL, 0))
			s->resume_pending = false;
	}
	/* older than an event already read or handed to the log: reported
	 * late, with its own timestamp, and counted; a syscall's entry held
	 * until its exit comes with that exit by design */
	if (h->ts < s->floor_ts && !stream__held_entry(s, h))
		s->cnt.late++;
	stream__store(s, h, data);
}

/* After an automatic stop has been reported and the stream emptied. */
void stream__auto_restart(struct pt_stream *s)
{
	trace_event_set_t set;

	s->full = POSIX_TRACE_NOT_FULL;
	if (!s->auto_stopped)
		return;
	s->auto_stopped = false;
	s->status = POSIX_TRACE_RUNNING;
	memcpy(&set, s->filter, sizeof(set));
	s->start_ts = now_stream(s);
	s->start_after_gap = true;
	/* the events lost while it was full: their gap before its START */
	if (s->gap_lost)
		stream__store_gap(s, s->start_ts);
	stream__record_system(s, POSIX_TRACE_START, s->start_ts, &set, sizeof(set));
	stream__set_sources_enabled(s, true);
}
