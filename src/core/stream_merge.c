/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A drain: taking what a stream's sources hold (the kernel backend's rings
 * and the user-event rings of the traced processes), and deciding, once
 * per round, where each event goes: straight into the stream as it comes
 * (one source holds data), into a batch sorted and merged with the stored
 * events not yet read (several do), or straight into the arrays of a batch
 * reader that drains (see drain__to_reader). What a drain needs lives in
 * struct drain, on the stack of stream__drain(), not in the stream.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/stream_int.h"
#include "core/target.h"
#include "core/event_info.h"

struct drain {
	struct pt_stream *s;
	struct stream_out *out;		     /* a batch reader's arrays: events go there first */
	size_t budget;			     /* bytes the drain may still store (SIZE_MAX: any) */
	struct uev_src *uev_cur;	     /* the user-event source being drained */
	bool batch_full;		     /* a source stopped: the batch is full */
	bool direct;			     /* this round stores events as they come */
	size_t direct_bytes;		     /* of events stored so in this round */
	pid_t exec_pids[MAX_EXEC_PER_DRAIN]; /* exec'ed during this round */
	int nexec;
};

/*
 * Store an event as it comes (direct round). Sources are in time order but
 * for a few events (an interrupt between a clock read and a reservation, a
 * thread preempted there): those go before the stored events newer than
 * they are, as a batch would have sorted them. Taking those back and
 * storing them again for each late event would cost the whole stream per
 * event when a source comes in late as a whole (one that waited while
 * another filled the stream: every event of it is older): so the first
 * late event with stored events to go before turns the rest of the round
 * into a batch, merged once at its end. An event older than one already
 * read is stored all the same, with its own timestamp (see stream__record).
 * Non-zero: no memory for the batch.
 */
static int drain__record_direct(struct drain *d, struct pt_event_hdr *h, const void *data)
{
	struct pt_stream *s = d->s;

	if (h->ts < s->last_ts && !queue__empty(&s->q) && s->last_ts > s->floor_ts) {
		d->direct = false;
		batch__new_source(&s->batch);
		return batch__add(&s->batch, h, data);
	}
	stream__record(s, h, data);
	return 0;
}

/* A marker of the stream's own (events lost, FLUSH_STOP) where the
 * round's events go. */
static void drain__add_marker(struct drain *d, struct pt_event_hdr *h, const void *data)
{
	if (d->direct)
		drain__record_direct(d, h, data);
	else
		batch__add(&d->s->batch, h, data);
}

static void drain__flush_stop(struct drain *d)
{
	struct pt_stream *s = d->s;
	struct pt_event_hdr h = { .id = POSIX_TRACE_FLUSH_STOP, .ts = s->flush_stop_ts };

	s->flush_stop_ts = 0;
	/* one for each FLUSH_START before the flusher went idle: the flushes
	 * they began all ended */
	for (; s->flushes_ended; s->flushes_ended--, s->flushes_open--)
		drain__add_marker(d, &h, NULL);
}

/*
 * An event of a direct round straight to the batch reader draining:
 * what storing it and taking it out again would do, without the queue's
 * two copies. Only while the stream holds nothing (that would be read
 * first), for an event stream__record() would store as it is, that fits
 * the reader's arrays whole; false: it is stored as usual.
 */
static bool drain__to_reader(struct drain *d, const struct pt_event_hdr *h, const void *data)
{
	struct pt_stream *s = d->s;
	struct stream_out *o = d->out;
	struct ptbpf_event *e = &o->evs[o->n];
	char *at = o->buf ? o->buf + o->off : NULL;

	if (o->n == o->max || h->data_len > o->bufsz - o->off || !queue__empty(&s->q) ||
	    !stream__as_is(s, h) || h->ts > s->release_ts || s->head_overflow || s->head_resume ||
	    s->auto_stop_report)
		return false;
	event_info__copy_out(&e->info, h, data, at, h->data_len, &e->data_len);
	e->data = at;
	e->tid = h->tid;
	o->off += (h->data_len + 7) & ~(size_t)7;
	if (o->off > o->bufsz)
		o->off = o->bufsz;
	o->n++;
	s->last_ts = h->ts;
	s->floor_ts = h->ts;
	s->last_tid = h->tid;
	s->cnt.recorded++;
	return true;
}

/*
 * Take an event from a source: to the reader, into the batch, or straight
 * into the stream in a direct round. Non-zero stops that source (a batch's
 * worth taken).
 */
static int drain__from_source(struct drain *d, struct pt_event_hdr *h, const void *data)
{
	struct pt_stream *s = d->s;
	bool last = false;
	int err;

	if (d->direct && d->out && !s->flush_stop_ts && drain__to_reader(d, h, data)) {
		/* read already: no room of the stream taken (budget); the
		 * reader's arrays full, the rest waits for its next call */
		d->direct_bytes += sizeof(*h) + h->data_len;
		if (d->direct_bytes < DRAIN_BATCH_BYTES && d->out->n < d->out->max)
			return 0;
		d->batch_full = true;
		return 1;
	}
	if (d->budget != SIZE_MAX) {
		/* stream__drain_fit() of a LOOP stream: this one still fits */
		size_t cost = queue__record_size(h->data_len);

		d->budget = cost < d->budget ? d->budget - cost : 0;
		last = !d->budget;
	}
	if (d->direct) {
		if (s->flush_stop_ts && h->ts >= s->flush_stop_ts)
			drain__flush_stop(d);
		err = drain__record_direct(d, h, data);
		if (err)
			return err;
		d->direct_bytes += sizeof(*h) + h->data_len;
		if (d->direct_bytes < DRAIN_BATCH_BYTES && !last)
			return 0;
	} else {
		err = batch__add(&s->batch, h, data);
		if (err)
			return err;
		if (!batch__full(&s->batch, DRAIN_BATCH_BYTES) && !last)
			return 0;
	}
	d->batch_full = true;
	return 1;
}

static int on_kern_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct drain *d = ctx;
	struct pt_stream *s = d->s;

	if (h->id == PTBPF_EV_PROC_EXEC && d->nexec < MAX_EXEC_PER_DRAIN) {
		d->exec_pids[d->nexec++] = h->pid; /* attach to its new region */
	} else if (h->id == PTBPF_EV_PROC_UNTRACED) {
		/* a secure exec: its new region is not for us */
		for (int i = 0; i < d->nexec; i++)
			if (d->exec_pids[i] == h->pid)
				d->exec_pids[i] = 0;
		stream__uev_untraced(s, h->pid);
	}
	if (filtered(s, h->id))
		return 0;
	h->ts += s->mono2real;
	return drain__from_source(d, h, data);
}

static void on_lost(void *ctx, uint64_t count, uint64_t first_ts)
{
	struct drain *d = ctx;
	struct pt_stream *s = d->s;
	struct pt_event_hdr h = {
		.id = POSIX_TRACE_OVERFLOW,
		.ts = first_ts + s->mono2real,
		.data_len = sizeof(count),
	};

	s->cnt.lost += count;
	s->overrun = POSIX_TRACE_OVERRUN;
	/* the count is the marker's data: what this gap holds */
	drain__add_marker(d, &h, &count);
}

/* A user-event sub-ring had no room: as on_lost, and counted apart. */
static void on_uev_lost(void *ctx, uint64_t count, uint64_t first_ts)
{
	struct drain *d = ctx;

	d->s->cnt.user_dropped += count;
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
	struct drain *d = ctx;
	struct kern_backend *kb = d->s->kb;
	pid_t owner = d->uev_cur->pid;
	int depth;

	for (depth = 0; depth < SHARES_DEPTH_MAX; depth++) {
		if ((!kb || kern_backend__parent(kb, pid, &pid)) && target__parent(pid, &pid))
			return false;
		if (pid == owner)
			return true;
	}
	return false;
}

/* The process forked from the region's that has pid inner in its namespace. */
static pid_t on_uev_outer(void *ctx, pid_t inner)
{
	struct drain *d = ctx;
	pid_t outer = 0;

	if (!d->s->kb || kern_backend__child_by_inner(d->s->kb, d->uev_cur->pid, inner, &outer))
		return 0;
	return outer;
}

static int on_uev_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct drain *d = ctx;
	struct pt_stream *s = d->s;
	struct uev_src *u = d->uev_cur;
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
	return drain__from_source(d, h, data);
}

/* Each CPU's kernel ring and each user-event sub-ring is a run of its own
 * (see batch__sort). */
static void on_source_run(void *ctx)
{
	struct drain *d = ctx;

	/* a direct round meets a second run after all (written since the
	 * look): the rest is batched, sorted and merged with it */
	if (d->direct && d->direct_bytes)
		d->direct = false;
	batch__new_source(&d->s->batch);
}

unsigned int stream__runs(struct pt_stream *s, unsigned int most)
{
	unsigned int runs = s->kb && kern_backend__pending(s->kb);
	int k;

	for (k = 0; k < s->nuev && runs < most; k++)
		if (s->uev[k].c)
			runs += uev_consumer__busy(s->uev[k].c);
	return runs;
}

static void take_back_one(void *ctx, const struct pt_event_hdr *h, const void *data)
{
	struct pt_stream *s = ctx;

	batch__add(&s->moved, h, data);
}

/*
 * Events arrived late (a source drained after newer events were stored):
 * take back the stored events newer than ts, still unread, so the drain
 * merges everything in timestamp order. Events already read stay read: a
 * late event older than them goes before the unread ones (see
 * stream__record).
 */
static void stream__take_back(struct pt_stream *s, uint64_t ts)
{
	uint64_t last = s->floor_ts;
	size_t n;

	batch__reset(&s->moved);
	n = queue__take_newer(&s->q, ts, &last, take_back_one, s);
	s->cnt.recorded -= n;
	s->last_ts = n ? last : s->last_ts;
	if (queue__empty(&s->q))
		s->last_ts = s->floor_ts;
}

/*
 * Store again an event taken back. An OVERFLOW marker that no longer fits
 * is no event lost: its count goes back to the gap still to be marked.
 */
static void stream__restore(struct pt_stream *s, struct pt_event_hdr *h, const void *data)
{
	uint64_t n;

	if (h->id != POSIX_TRACE_OVERFLOW || h->data_len != sizeof(n)) {
		stream__store(s, h, data);
		return;
	}
	memcpy(&n, data, sizeof(n));
	if (queue__push(&s->q, h, data)) {
		s->gap_lost += n;
		return;
	}
	if (h->ts > s->last_ts)
		s->last_ts = h->ts;
	s->cnt.recorded++;
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

			stream__restore(s, &h, batch__data(&s->moved, j++));
		} else {
			struct pt_event_hdr h = *batch__hdr(&s->batch, i);

			stream__record(s, &h, batch__data(&s->batch, i++));
		}
	}
	batch__reset(&s->moved);
}

/* A POSIX_TRACE_ERROR of the stream about process pid, in the round's batch. */
static void drain__uev_error(struct drain *d, pid_t pid, int e)
{
	struct pt_event_hdr h = {
		.id = POSIX_TRACE_ERROR, .pid = pid, .ts = now_stream(d->s), .data_len = sizeof(e)
	};

	batch__add(&d->s->batch, &h, &e);
}

/* The user-event sources of a round (the kernel's are drained first). */
static void drain__uev_sources(struct drain *d)
{
	struct uev_cbs uc = { .event = on_uev_event,
			      .lost = on_uev_lost,
			      .run = on_source_run,
			      .shares = on_uev_shares,
			      .outer = on_uev_outer,
			      .ctx = d };
	struct pt_stream *s = d->s;
	uint64_t now = 0;
	unsigned int fill;
	int k, err;

	/* a full batch: the user-event rings wait for the next round, but an
	 * empty one is looked at all the same: its watermark moves on, so the
	 * events stored may be read (a lagging LOOP reader's drains stop at
	 * what fits, before reaching it) */
	for (k = 0; k < s->nuev; k++) {
		struct uev_src *u = &s->uev[k];

		if (d->batch_full && (!u->c || uev_consumer__busy(u->c)))
			continue;

		if (!u->c && !stream__uev_retry(s, u, &now))
			continue;
		d->uev_cur = u;
		fill = uev_consumer__fill(u->c);
		if (fill > s->uev_fill)
			s->uev_fill = fill;
		err = uev_consumer__consume(u->c, &uc);
		d->uev_cur = NULL;
		if (err == -EBADMSG) {
			/* the traced process scribbled over its shared memory */
			drain__uev_error(d, u->pid, EBADMSG);
			uev_consumer__detach(u->c);
			u->c = NULL;
			u->retry_until = 0;
		}
	}
	for (k = 0; k < s->nrefused; k++)
		drain__uev_error(d, s->refused[k], EBUSY);
	s->nrefused = 0;
}

/* One round: at most a batch from the sources; true if one stopped early. */
static bool drain__round(struct drain *d)
{
	struct kern_cbs kc = {
		.event = on_kern_event, .lost = on_lost, .run = on_source_run, .ctx = d
	};
	struct pt_stream *s = d->s;
	int i;

	batch__reset(&s->batch);
	d->batch_full = false;
	/* one run (one source holds data: the kernel's rings, merged in time
	 * order, or one user-event sub-ring): stored as it comes, without the
	 * batch's copy and sort; several: batched, each sorted, then merged */
	d->direct = stream__runs(s, 2) <= 1;
	d->direct_bytes = 0;
	d->nexec = 0;
	if (s->kb)
		kern_backend__consume(s->kb, &kc);
	drain__uev_sources(d);
	d->direct = false; /* the round's own events go through the batch */
	/*
	 * A flush ended: FLUSH_STOP is stamped now, but the sources may still
	 * hold older events. It waits for one more round, after which they
	 * are in: stored in time order, it takes nothing back.
	 */
	if (s->flush_stop_ts && !d->batch_full)
		drain__flush_stop(d);
	if (s->log && !s->flush_stop_ts && stream_log__take_done(s->log)) {
		s->flush_stop_ts = now_stream(s);
		s->flushes_ended = s->flushes_open;
	}
	/* processes that exec'ed have a new user-event region (if they link us) */
	for (i = 0; i < d->nexec; i++)
		if (d->exec_pids[i])
			stream__uev_exec(s, d->exec_pids[i]);
	if (s->batch.n)
		stream__merge_batch(s);
	if (s->batch.n || d->direct_bytes)
		pthread_cond_broadcast(&s->cond);
	return d->batch_full || s->flush_stop_ts;
}

/* The oldest timestamp (stream clock) a source may still deliver: its
 * watermark, or where a process without a user-event region yet holds. */
static uint64_t stream__sources_wm(struct pt_stream *s, uint64_t mono_now)
{
	uint64_t wm = UINT64_MAX, w;
	int k;

	if (s->kb)
		wm = kern_backend__watermark(s->kb) + s->mono2real;
	for (k = 0; k < s->nuev; k++) {
		struct uev_src *u = &s->uev[k];

		if (u->c)
			w = uev_consumer__watermark(u->c) + s->mono2real;
		else if (u->retry_until && mono_now < u->hold_until)
			w = u->hold_ts;
		else
			continue;
		if (w < wm)
			wm = w;
	}
	return wm;
}

bool stream__release_update(struct pt_stream *s, uint64_t t)
{
	uint64_t wm = stream__sources_wm(s, t - s->mono2real), old = s->release_ts;
	const struct pt_event_hdr *h;

	/* no source: nothing older than now can come */
	if (wm == UINT64_MAX)
		wm = t;
	if (t > HOLD_MAX_NS && wm < t - HOLD_MAX_NS)
		wm = t - HOLD_MAX_NS;
	if (s->status != POSIX_TRACE_RUNNING && s->last_ts > wm)
		wm = s->last_ts; /* stopped: what came is all there is */
	if (wm > s->release_ts)
		s->release_ts = wm;
	h = queue__peek(&s->q);
	return h && h->ts > old && h->ts <= s->release_ts;
}

size_t stream__drain(struct pt_stream *s, struct stream_out *out, size_t budget)
{
	struct drain d = { .s = s, .out = out, .budget = budget };
	int round = 0;

	s->drain_ts = now_stream(s);
	s->uev_fill = 0;
	while (drain__round(&d) && d.budget && !(out && out->n == out->max) &&
	       ++round < DRAIN_MAX_ROUNDS)
		;
	batch__reset(&s->batch);
	batch__trim(&s->batch);
	batch__trim(&s->moved);
	if (stream__release_update(s, s->drain_ts))
		pthread_cond_broadcast(&s->cond);
	return d.budget;
}

void stream__drain_locked(struct pt_stream *s)
{
	stream__drain(s, NULL, SIZE_MAX);
}
