/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A stream's drainer: how much a drain may take (stream__drain_fit), and
 * the drainer thread, which waits on the kernel rings (a bounded wait, no
 * wakeup per event) and drains (stream_merge.c); readers drain too, so a
 * reader always sees everything recorded before its call.
 */
#include <sys/epoll.h>
#include <unistd.h>

#include "common/thread.h"
#include "core/own_threads.h"
#include "core/stream_int.h"

/* Thousandths of the fullest source ring. */
static unsigned int stream__sources_fill(struct pt_stream *s)
{
	unsigned int most = s->kb ? kern_backend__fill(s->kb) : 0, f;
	int k;

	for (k = 0; k < s->nuev; k++) {
		if (!s->uev[k].c)
			continue;
		f = uev_consumer__fill(s->uev[k].c);
		if (f > most)
			most = f;
	}
	return most;
}

/*
 * Drain what the stream has room for (lock held); true when events were
 * left in the sources. A LOOP stream (no log) whose reader lags: storing
 * all the sources hold would overwrite unread events while the sources
 * still have room for them. So the drainer, readers and the counters take
 * only what fits (posix_trace_get_status takes everything: its overrun
 * status counts every event generated), and leave the rest until a source is
 * HOLD_FILL_MAX full: then everything comes in and the oldest are
 * overwritten, as LOOP says. A reader that stalls loses nothing for as
 * long as the stream plus half the rings last, not just the stream, with
 * no memory more.
 *
 * A FLUSH stream with a log whose flusher lags: what the stream and a
 * swap with the log's spare queue can take, and the rest stays in the
 * sources until the flusher has written the previous flush (their
 * producers drop what does not fit, reported as lost: "lost while
 * flushing"). Copying the stream aside instead costs the drainer most of
 * its CPU in a flood, which the flusher needs: page faults of the copy's
 * new pages, and the log's lock held meanwhile, which the flusher waits
 * for between two writes. But when what was handed over has waited to
 * be written longer than a flood's handover takes (the disk stalls: see
 * stream_log__room), the rings would fill: everything comes in, copied
 * aside as before.
 *
 * Start, stop, flush, clear and filter changes drain everything (their
 * system event goes after what came before them).
 */
bool stream__drain_fit(struct pt_stream *s, struct stream_out *out)
{
	size_t room, reserve = s->q.max_record;
	unsigned int fill = 0;
	bool held, log_hold = s->log && s->policy == POSIX_TRACE_FLUSH;

	if (log_hold) {
		room = stream_log__room(s->log, &s->q);
		if (room == SIZE_MAX) {
			stream__drain(s, out, SIZE_MAX);
			return false;
		}
		room += queue__room(&s->q);
	} else if (s->policy != POSIX_TRACE_LOOP || s->log) {
		stream__drain(s, out, SIZE_MAX);
		return false;
	} else {
		fill = stream__sources_fill(s);
		if (fill >= HOLD_FILL_MAX) {
			stream__drain(s, out, SIZE_MAX);
			return false;
		}
		room = queue__room(&s->q);
	}
	/* the event that ends the budget still fits: a record's worth kept */
	if (room <= reserve) {
		/* no drain: what the stream holds may still be released */
		if (stream__release_update(s, now_stream(s)))
			pthread_cond_broadcast(&s->cond);
		if (log_hold)
			return stream__sources_fill(s) > 0;
		s->full = POSIX_TRACE_FULL;
		return fill > 0; /* a trickle (under 0.1%) need not be watched */
	}
	held = stream__drain(s, out, room - reserve) == 0;
	if (held && !log_hold)
		s->full = POSIX_TRACE_FULL;
	return held;
}

/* Periodic log work of the drainer (lock held). */
static void stream__log_tick(struct pt_stream *s)
{
	if (s->status == POSIX_TRACE_RUNNING && stream_log__full(s->log)) {
		/* log-full-policy UNTIL_FULL: the stream stops, STOP last */
		int one = 1;

		stream__set_sources_enabled(s, false);
		stream__release_stored(s);
		stream__record_system(s, POSIX_TRACE_STOP, now_stream(s), &one, sizeof(one));
		s->status = POSIX_TRACE_SUSPENDED;
		stream__flush_locked(s, true);
		return;
	}
	if (s->policy == POSIX_TRACE_FLUSH && !stream_log__flushing(s->log) &&
	    stream_log__due(s->log, &s->q))
		stream__flush_locked(s, false);
}

/*
 * A batch reader that called since the drainer last looked, or that waits
 * for events, drains the sources itself, straight into its arrays (see
 * drain__to_reader in stream_merge.c): the drainer's drain would store the events in the
 * stream for the reader to copy out again, twice the work on the CPUs the
 * traced program runs on. Still drained here: a source READER_FILL_MAX
 * full while the reader is busy elsewhere (it lags), HOLD_FILL_MAX full
 * while it waits (woken, it would drain at once), a stream with a log,
 * and sources with nothing to take. (A reader of one event at a time
 * gains nothing so: its drains find a few events each, and a drain's own
 * cost made its CPU about a quarter higher.)
 */
static bool stream__reader_drains(struct pt_stream *s, unsigned long *seen)
{
	bool reading = s->batch_reads != *seen;

	*seen = s->batch_reads;
	if (s->log || (!reading && !s->batch_waiters))
		return false;
	if (stream__sources_fill(s) >= (s->batch_waiters ? HOLD_FILL_MAX : READER_FILL_MAX))
		return false;
	/* with nothing there, the drain costs little and looks again for
	 * the user-event regions not attached yet: a waiting reader sleeps */
	return stream__runs(s, 1) > 0;
}

/*
 * The stream has run this long: the rest of its big buffers are faulted in
 * now (populate.h). A short command ends before and never pays for them.
 */
#define POPULATE_AFTER_NS (50 * NSEC_PER_SEC / 1000)
/* Of the kernel rings, between two drains: a few ms of page faults. */
#define POPULATE_RINGS_STEP (2u << 20)

/* Is it time to fault in the rest of the buffers (lock held)? */
static bool populate_due(struct pt_stream *s, uint64_t *running_since)
{
	if ((!s->later.n && !s->later_rings) || s->status != POSIX_TRACE_RUNNING)
		return false;
	if (!*running_since)
		*running_since = clock__mono_ns();
	return clock__mono_ns() - *running_since >= POPULATE_AFTER_NS;
}

static void *drainer_main(void *arg)
{
	uint64_t running_since = 0;
	unsigned long reads_seen = 0;
	struct pt_stream *s = arg;
	struct epoll_event evs[2];
	int efd = -1, stop = 0;

	s->drainer_tid = own_threads__started();
	pthread_setname_np(pthread_self(), "ptbpf-drainer");
	efd = epoll_create1(EPOLL_CLOEXEC);
	if (efd >= 0) {
		struct epoll_event e = { .events = EPOLLIN | EPOLLET };

		/*
		 * Edge-triggered: woken only when the kernel side sends a
		 * wakeup (once per drain, past a quarter of a CPU's ring), not
		 * whenever a record waits, which would spin the drainer as
		 * long as events flow; the period drains the rest.
		 */
		if (s->kb) {
			e.data.fd = kern_backend__epoll_fd(s->kb);
			epoll_ctl(efd, EPOLL_CTL_ADD, e.data.fd, &e);
		}
		e.events = EPOLLIN;
		e.data.fd = s->wake_fd[0];
		epoll_ctl(efd, EPOLL_CTL_ADD, s->wake_fd[0], &e);
	}
	s->drain_ms = 1; /* unknown rate: soon, then later while little comes */
	while (!stop) {
		int n = efd >= 0 ? epoll_wait(efd, evs, 2, s->drain_ms) : 0;
		bool held = false, populate = false;
		int i;

		for (i = 0; i < n; i++)
			if (evs[i].data.fd == s->wake_fd[0])
				stop = 1;
		if (efd < 0)
			usleep(s->drain_ms * 1000);
		pthread_mutex_lock(&s->lock);
		if (s->shutting_down) {
			stop = 1;
		} else {
			if (!stream__reader_drains(s, &reads_seen))
				held = stream__drain_fit(s, NULL);
			else if (s->batch_waiters)
				pthread_cond_broadcast(&s->cond);
			if (held)
				s->drain_ms = 1; /* look again soon */
			else if (s->uev_fill > DRAIN_FILL_HIGH && s->drain_ms > 1)
				s->drain_ms /= 2;
			else if (s->uev_fill < DRAIN_FILL_LOW && s->drain_ms < DRAIN_PERIOD_MS)
				s->drain_ms++;
		}
		if (s->log && !stop)
			stream__log_tick(s);
		if (!stop)
			populate = populate_due(s, &running_since);
		pthread_mutex_unlock(&s->lock);
		/* events wait in the rings meanwhile, a few ms at most */
		if (populate) {
			populate__run(&s->later, &s->shutting_down);
			if (s->later_rings && kern_backend__populate(s->kb, POPULATE_RINGS_STEP))
				s->later_rings = false;
		}
	}
	if (efd >= 0)
		close(efd);
	own_threads__exiting();
	return NULL;
}

int stream__start_drainer(struct pt_stream *s)
{
	int err = thread__start_blocked(&s->drainer, drainer_main, s);

	if (err)
		return err;
	s->drainer_started = true;
	return 0;
}
