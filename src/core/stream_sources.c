/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Draining a stream's sources: the kernel backend's ring and the user-event
 * rings of the traced processes, sorted by timestamp and merged with the
 * stored events not yet read. A drainer thread waits on the kernel ring (a
 * bounded wait, no wakeup per event); readers drain too, so a reader always
 * sees everything recorded before its call.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "core/internal.h"
#include "core/stream_int.h"
#include "core/target.h"

/* ------------------------------------------------------------------ */
/* Sources                                                             */

/*
 * Store an event as it comes (direct round). Sources are in time order but
 * for a few events (an interrupt between a clock read and a reservation, a
 * thread preempted there): those go before the stored events newer than
 * they are, as a batch would have sorted them. Taking those back and
 * storing them again for each late event would cost the whole stream per
 * event when a source comes in late as a whole (one that waited while
 * another filled the stream: every event of it is older): so the first
 * late event with stored events to go before turns the rest of the round
 * into a batch, merged once at its end. An event older than all the
 * unread ones is stored (stamped as the newest read, see stream__store).
 * Non-zero: no memory for the batch.
 */
static int stream__record_direct(struct pt_stream *s, struct pt_event_hdr *h, const void *data)
{
	if (h->ts < s->last_ts && !queue__empty(&s->q) && s->last_ts > s->floor_ts) {
		s->direct = false;
		batch__new_source(&s->batch);
		return batch__add(&s->batch, h, data);
	}
	stream__record(s, h, data);
	return 0;
}

/* A marker of the stream's own (events lost, FLUSH_STOP) where the
 * round's events go. */
static void stream__add_marker(struct pt_stream *s, struct pt_event_hdr *h)
{
	if (s->direct)
		stream__record_direct(s, h, NULL);
	else
		batch__add(&s->batch, h, NULL);
}

static void stream__flush_stop(struct pt_stream *s)
{
	struct pt_event_hdr h = { .id = POSIX_TRACE_FLUSH_STOP, .ts = s->flush_stop_ts };

	s->flush_stop_ts = 0;
	/* one for each FLUSH_START before the flusher went idle: the flushes
	 * they began all ended */
	for (; s->flushes_ended; s->flushes_ended--, s->flushes_open--)
		stream__add_marker(s, &h);
}

/*
 * Take an event from a source: into the batch, or straight into the stream
 * in a direct round. Non-zero stops that source (a batch's worth taken).
 */
static int stream__from_source(struct pt_stream *s, struct pt_event_hdr *h, const void *data)
{
	bool last = false;
	int err;

	if (s->direct && s->out && !s->flush_stop_ts && stream__to_reader(s, h, data)) {
		/* read already: no room of the stream taken (budget); the
		 * reader's arrays full, the rest waits for its next call */
		s->direct_bytes += sizeof(*h) + h->data_len;
		if (s->direct_bytes < DRAIN_BATCH_BYTES && s->out->n < s->out->max)
			return 0;
		s->batch_full = true;
		return 1;
	}
	if (s->budget != SIZE_MAX) {
		/* stream__drain_fit() of a LOOP stream: this one still fits */
		size_t cost = queue__record_size(h->data_len);

		s->budget = cost < s->budget ? s->budget - cost : 0;
		last = !s->budget;
	}
	if (s->direct) {
		if (s->flush_stop_ts && h->ts >= s->flush_stop_ts)
			stream__flush_stop(s);
		err = stream__record_direct(s, h, data);
		if (err)
			return err;
		s->direct_bytes += sizeof(*h) + h->data_len;
		if (s->direct_bytes < DRAIN_BATCH_BYTES && !last)
			return 0;
	} else {
		err = batch__add(&s->batch, h, data);
		if (err)
			return err;
		if (!batch__full(&s->batch, DRAIN_BATCH_BYTES) && !last)
			return 0;
	}
	s->batch_full = true;
	return 1;
}

/*
 * A process the tracer may no longer see (a secure exec): its new image's
 * region is never looked for. The old region stays attached: the children
 * that share it may still write into it, the process itself no more.
 */
static void stream__uev_untraced(struct pt_stream *s, pid_t pid)
{
	int i;

	for (i = 0; i < s->nexec; i++)
		if (s->exec_pids[i] == pid)
			s->exec_pids[i] = 0;
	for (i = 0; i < s->nuev; i++)
		if (s->uev[i].pid == pid)
			s->uev[i].retry_until = 0;
}

static int on_kern_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct pt_stream *s = ctx;

	if (h->id == PTBPF_EV_PROC_EXEC && s->nexec < MAX_EXEC_PER_DRAIN)
		s->exec_pids[s->nexec++] = h->pid; /* attach to its new region */
	else if (h->id == PTBPF_EV_PROC_UNTRACED)
		stream__uev_untraced(s, h->pid);
	if (filtered(s, h->id))
		return 0;
	h->ts += s->mono2real;
	return stream__from_source(s, h, data);
}

static void on_lost(void *ctx, uint64_t count, uint64_t first_ts)
{
	struct pt_stream *s = ctx;
	struct pt_event_hdr h = {
		.id = POSIX_TRACE_OVERFLOW,
		.ts = first_ts + s->mono2real,
	};

	s->cnt.lost += count;
	s->overrun = POSIX_TRACE_OVERRUN;
	stream__add_marker(s, &h);
}

/* A user-event sub-ring had no room: as on_lost, and counted apart. */
static void on_uev_lost(void *ctx, uint64_t count, uint64_t first_ts)
{
	struct pt_stream *s = ctx;

	s->cnt.user_dropped += count;
	on_lost(ctx, count, first_ts);
}

/* The longest line of forks from a traced process a user event may name. */
#define SHARES_DEPTH_MAX 64

/*
 * Does pid share the region being drained: forked from its process or from
 * one that does? The kernel side remembers the parents of what traced
 * processes fork; a process forked before its parent was traced is looked
 * up in /proc while it lives.
 */
static bool on_uev_shares(void *ctx, pid_t pid)
{
	struct pt_stream *s = ctx;
	pid_t owner = s->uev_cur->pid;
	int depth;

	for (depth = 0; depth < SHARES_DEPTH_MAX; depth++) {
		if ((!s->kb || kern_backend__parent(s->kb, pid, &pid)) && target__parent(pid, &pid))
			return false;
		if (pid == owner)
			return true;
	}
	return false;
}

static int on_uev_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct pt_stream *s = ctx;
	struct uev_src *u = s->uev_cur;
	uint32_t idx = h->id - PTBPF_EV_USER_BASE;
	char name[TRACE_EVENT_NAME_MAX];
	uint32_t id;

	if (idx >= TRACE_USER_EVENT_MAX)
		return 0;
	if (!u->map[idx]) {
		if (idx == 0)
			id = POSIX_TRACE_UNNAMED_USEREVENT;
		else if (uev_consumer__type_name(u->c, h->id, name, sizeof(name)) ||
			 evtypes__lookup(&s->types, name, true, &id))
			id = POSIX_TRACE_UNNAMED_USEREVENT;
		u->map[idx] = id;
		if (s->log)
			stream_log__type(s->log, &s->types, id);
	}
	h->id = u->map[idx];
	if (filtered(s, h->id))
		return 0;
	if (h->data_len > s->attr.max_data_size) {
		h->data_len = s->attr.max_data_size;
		h->trunc = PT_TRUNCATED_RECORD;
	}
	h->ts += s->mono2real;
	return stream__from_source(s, h, data);
}

/* Each CPU's kernel ring and each user-event sub-ring is a run of its own
 * (see batch__sort). */
static void on_source_run(void *ctx)
{
	struct pt_stream *s = ctx;

	/* a direct round meets a second run after all (written since the
	 * look): the rest is batched, sorted and merged with it */
	if (s->direct && s->direct_bytes)
		s->direct = false;
	batch__new_source(&s->batch);
}

/* The runs the sources hold now, counted up to most at least. */
static unsigned int stream__runs(struct pt_stream *s, unsigned int most)
{
	unsigned int runs = s->kb && kern_backend__pending(s->kb);
	int k;

	for (k = 0; k < s->nuev && runs < most; k++)
		if (s->uev[k].c)
			runs += uev_consumer__busy(s->uev[k].c);
	return runs;
}

/*
 * A round whose events all come from one run (one source holds data: the
 * kernel's rings, merged in time order, or one user-event sub-ring) is
 * direct: it stores them as they come, without the batch's copy and sort.
 * Several runs are batched, each one sorted, then merged.
 */
static bool stream__one_run(struct pt_stream *s)
{
	return stream__runs(s, 2) <= 1;
}

/*
 * Attach to u's region; 0, or the consumer's error: -EBUSY when the region
 * has no free slot (a process traced by UEV_NSLOTS streams at once), which
 * is not worth trying again: the drain says so with POSIX_TRACE_ERROR
 * (EBUSY), since none of u's user events can reach the stream.
 */
static int stream__uev_attach(struct pt_stream *s, struct uev_src *u)
{
	struct uev_opts o = {
		/* like the kernel ring: twice the stream (the transport clamps it) */
		.ring_bytes =
			2 * s->attr.stream_size < (1u << 20) ? (1u << 20) : 2 * s->attr.stream_size,
		.max_data_size = s->attr.max_data_size,
		.inherit = s->attr.inherit == POSIX_TRACE_INHERITED,
	};
	int err;

	err = uev_consumer__attach(&u->c, u->pid, &o);
	if (err) {
		u->c = NULL;
		if (err == -EBUSY) {
			u->retry_until = 0;
			if (s->nrefused < MAX_UEV_SOURCES)
				s->refused[s->nrefused++] = u->pid;
		}
		return err;
	}
	memset(u->map, 0, sizeof(u->map));
	u->retry_until = 0;
	uev_consumer__set_enabled(u->c, s->status == POSIX_TRACE_RUNNING);
	stream__uev_src_names(s, u);
	return 0;
}

/* A POSIX_TRACE_ERROR of the stream about process pid, in the round's batch. */
static void stream__uev_error(struct pt_stream *s, pid_t pid, int e)
{
	struct pt_event_hdr h = {
		.id = POSIX_TRACE_ERROR, .pid = pid, .ts = now_stream(s), .data_len = sizeof(e)
	};

	batch__add(&s->batch, &h, &e);
}

uint64_t uev_src__retry_gap(struct uev_src *u, uint64_t now)
{
	uint64_t since = now - (u->retry_until - UEV_RETRY_NS);

	if (since < UEV_RETRY_FAST_NS)
		return UEV_RETRY_EVERY_NS;
	if (u->retry_gap < UEV_RETRY_GAP_MAX_NS)
		u->retry_gap *= 2;
	return u->retry_gap;
}

int stream__uev_add(struct pt_stream *s, pid_t pid)
{
	struct uev_src *u = NULL;
	int i;

	for (i = 0; i < s->nuev; i++) {
		if (s->uev[i].pid == pid) {
			u = &s->uev[i];
			break;
		}
	}
	/* reuse the entry of a process that never had a region */
	for (i = 0; !u && i < s->nuev; i++)
		if (!s->uev[i].c && !s->uev[i].retry_until)
			u = &s->uev[i];
	if (!u) {
		if (s->nuev == MAX_UEV_SOURCES)
			return 0;
		u = &s->uev[s->nuev++];
	}
	if (u->pid != pid) {
		memset(u, 0, sizeof(*u));
		u->pid = pid;
	}
	if (u->c) {
		uev_consumer__detach(u->c);
		u->c = NULL;
	}
	u->retry_until = clock__mono_ns() + UEV_RETRY_NS;
	u->next_try = 0;
	u->retry_gap = UEV_RETRY_EVERY_NS;
	return stream__uev_attach(s, u);
}

/* Processes that exec'ed have a new user-event region (if they link us). */
static void stream__note_exec(struct pt_stream *s)
{
	int i;

	for (i = 0; i < s->nexec; i++)
		if (s->exec_pids[i])
			stream__uev_add(s, s->exec_pids[i]);
	s->nexec = 0;
}

static void take_back_one(void *ctx, const struct pt_event_hdr *h, const void *data)
{
	struct pt_stream *s = ctx;

	batch__add(&s->moved, h, data);
}

/*
 * Events arrived late (a source drained after newer events were stored):
 * take back the stored events newer than ts, still unread, so the drain
 * merges everything in timestamp order. Events already read stay read; a
 * late event older than them gets the newest timestamp read (never less).
 */
static void stream__take_back(struct pt_stream *s, uint64_t ts)
{
	uint64_t last = s->floor_ts;
	size_t n;

	/* older than what was read: it is stamped floor_ts, and goes after
	 * the stored events stamped so (those are late events too) */
	if (ts < s->floor_ts)
		ts = s->floor_ts;
	batch__reset(&s->moved);
	n = queue__take_newer(&s->q, ts, &last, take_back_one, s);
	s->cnt.recorded -= n;
	s->last_ts = n ? last : s->last_ts;
	if (queue__empty(&s->q))
		s->last_ts = s->floor_ts;
}

/* Store a round's batch: sorted, and merged with any stored events newer
 * than its oldest (taken back). */
static void stream__merge_batch(struct pt_stream *s)
{
	size_t i, j;

	batch__sort(&s->batch);
	if (batch__hdr(&s->batch, 0)->ts < s->last_ts)
		stream__take_back(s, batch__hdr(&s->batch, 0)->ts);
	for (i = 0, j = 0; i < s->batch.n || j < s->moved.n;) {
		/* merge: stored events first on equal timestamps */
		if (j < s->moved.n && (i == s->batch.n || batch__hdr(&s->moved, j)->ts <=
								  batch__hdr(&s->batch, i)->ts)) {
			struct pt_event_hdr h = *batch__hdr(&s->moved, j);

			stream__store(s, &h, batch__data(&s->moved, j++));
		} else {
			struct pt_event_hdr h = *batch__hdr(&s->batch, i);

			stream__record(s, &h, batch__data(&s->batch, i++));
		}
	}
	batch__reset(&s->moved);
}

/* One round: at most a batch from the sources; true if one stopped early. */
static bool stream__drain_round(struct pt_stream *s)
{
	struct kern_cbs kc = {
		.event = on_kern_event, .lost = on_lost, .run = on_source_run, .ctx = s
	};
	struct uev_cbs uc = { .event = on_uev_event,
			      .lost = on_uev_lost,
			      .run = on_source_run,
			      .shares = on_uev_shares,
			      .ctx = s };
	uint64_t now = 0;
	unsigned int fill;
	int k, err;

	batch__reset(&s->batch);
	s->batch_full = false;
	s->direct = stream__one_run(s);
	s->direct_bytes = 0;
	if (s->kb)
		kern_backend__consume(s->kb, &kc);
	/* a full batch: the user-event rings wait for the next round */
	for (k = 0; k < s->nuev && !s->batch_full; k++) {
		struct uev_src *u = &s->uev[k];

		if (!u->c) {
			if (!u->retry_until)
				continue;
			if (!now)
				now = clock__mono_ns();
			if (now > u->retry_until) {
				u->retry_until = 0;
				continue;
			}
			if (now < u->next_try)
				continue;
			u->next_try = now + uev_src__retry_gap(u, now);
			stream__uev_attach(s, u);
			if (!u->c)
				continue;
		}
		s->uev_cur = u;
		fill = uev_consumer__fill(u->c);
		if (fill > s->uev_fill)
			s->uev_fill = fill;
		err = uev_consumer__consume(u->c, &uc);
		s->uev_cur = NULL;
		if (err == -EBADMSG) {
			/* the traced process scribbled over its shared memory */
			stream__uev_error(s, u->pid, EBADMSG);
			uev_consumer__detach(u->c);
			u->c = NULL;
			u->retry_until = 0;
		}
	}
	for (k = 0; k < s->nrefused; k++)
		stream__uev_error(s, s->refused[k], EBUSY);
	s->nrefused = 0;
	s->direct = false; /* the round's own events go through the batch */
	/*
	 * A flush ended: FLUSH_STOP is stamped now, but the sources may still
	 * hold older events. It waits for one more round, after which they
	 * are in: stored in time order, it takes nothing back.
	 */
	if (s->flush_stop_ts && !s->batch_full)
		stream__flush_stop(s);
	if (s->log && !s->flush_stop_ts && stream_log__take_done(s->log)) {
		s->flush_stop_ts = now_stream(s);
		s->flushes_ended = s->flushes_open;
	}
	stream__note_exec(s);
	if (s->batch.n)
		stream__merge_batch(s);
	if (s->batch.n || s->direct_bytes)
		pthread_cond_broadcast(&s->cond);
	return s->batch_full || s->flush_stop_ts;
}

/*
 * Take everything the sources hold, a batch at a time (events of a later
 * round older than stored ones are merged back in order: take_back).
 */
void stream__drain_locked(struct pt_stream *s)
{
	int round = 0;

	s->drain_ts = now_stream(s);
	s->uev_fill = 0;
	while (stream__drain_round(s) && s->budget && !(s->out && s->out->n == s->out->max) &&
	       ++round < DRAIN_MAX_ROUNDS)
		;
	batch__reset(&s->batch);
	batch__trim(&s->batch);
	batch__trim(&s->moved);
}

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
bool stream__drain_fit(struct pt_stream *s)
{
	size_t room, reserve = s->q.max_record;
	unsigned int fill = 0;
	bool held, log_hold = s->log && s->policy == POSIX_TRACE_FLUSH;

	if (log_hold) {
		room = stream_log__room(s->log, &s->q);
		if (room == SIZE_MAX) {
			stream__drain_locked(s);
			return false;
		}
		room += queue__room(&s->q);
	} else if (s->policy != POSIX_TRACE_LOOP || s->log) {
		stream__drain_locked(s);
		return false;
	} else {
		fill = stream__sources_fill(s);
		if (fill >= HOLD_FILL_MAX) {
			stream__drain_locked(s);
			return false;
		}
		room = queue__room(&s->q);
	}
	/* the event that ends the budget still fits: a record's worth kept */
	if (room <= reserve) {
		if (log_hold)
			return stream__sources_fill(s) > 0;
		s->full = POSIX_TRACE_FULL;
		return fill > 0; /* a trickle (under 0.1%) need not be watched */
	}
	s->budget = room - reserve;
	stream__drain_locked(s);
	held = s->budget == 0;
	s->budget = SIZE_MAX;
	if (held && !log_hold)
		s->full = POSIX_TRACE_FULL;
	return held;
}

/* Periodic log work of the drainer (lock held). */
static void stream__log_tick(struct pt_stream *s, bool held)
{
	if (s->status == POSIX_TRACE_RUNNING && stream_log__full(s->log)) {
		/* log-full-policy UNTIL_FULL: the stream stops, STOP last */
		int one = 1;

		stream__set_sources_enabled(s, false);
		stream__record_system(s, POSIX_TRACE_STOP, now_stream(s), &one, sizeof(one));
		s->status = POSIX_TRACE_SUSPENDED;
		stream__flush_locked(s, s->last_ts);
		return;
	}
	/*
	 * Stamped when the drain began, unless it left events in the rings
	 * (held): those are older than that, and would come after the
	 * marker raised to its timestamp. The rings are taken in time
	 * order, so the newest event stored is older than all of them.
	 */
	if (s->policy == POSIX_TRACE_FLUSH && !stream_log__flushing(s->log) &&
	    stream_log__due(s->log, &s->q))
		stream__flush_locked(s, held ? s->last_ts : s->drain_ts);
}

/*
 * A batch reader that called since the drainer last looked, or that waits
 * for events, drains the sources itself, straight into its arrays (see
 * stream__to_reader): the drainer's drain would store the events in the
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

static void *drainer_main(void *arg)
{
	unsigned long reads_seen = 0;
	struct pt_stream *s = arg;
	struct epoll_event evs[2];
	int efd = -1, stop = 0;
	sigset_t all;

	s->drainer_tid = internal__thread_started();
	pthread_setname_np(pthread_self(), "ptbpf-drainer");
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
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
		bool held = false;
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
				held = stream__drain_fit(s);
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
			stream__log_tick(s, held);
		pthread_mutex_unlock(&s->lock);
	}
	if (efd >= 0)
		close(efd);
	internal__thread_exiting();
	return NULL;
}

int stream__start_drainer(struct pt_stream *s)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&s->drainer, NULL, drainer_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return -err;
	s->drainer_started = true;
	return 0;
}
