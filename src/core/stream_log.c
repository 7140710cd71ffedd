/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/stream_log.h"

#include <errno.h>
#include <pthread.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/thread.h"
#include "core/batch.h"
#include "core/own_threads.h"
#include "log/log.h"

/*
 * POSIX_TRACE_FLUSH policy: flush when the stream is this full, or when
 * events have waited this long: a controller killed (SIGKILL, a crash)
 * loses at most that much of the trace, what the flusher had not written.
 */
#define FLUSH_FILL_PERCENT 50
#define FLUSH_PERIOD_NS	   (100 * NSEC_PER_SEC / 1000)
/* Events handed over but not yet written, at most (then the stream is full). */
#define PENDING_MAX_BYTES (256u << 20)
/* Markers (OVERFLOW, RESUME, STOP, FLUSH_START) added to a handover. */
#define HANDOVER_SLACK (64u << 10)
/* Handover buffers kept allocated (larger streams: they grow, then shrink). */
#define HANDOVER_KEEP_MAX (32u << 20)
/*
 * A handover waiting to be written for longer than this: the disk (or a
 * flusher that does not get a CPU) holds the log up; the stream copies
 * aside again rather than let the rings fill: longer than a flood's
 * handover takes to write, shorter than a thread's user-event sub-ring
 * takes to fill once the stream is full (docs/benchmarks.md).
 */
#define STALL_NS (10 * 1000000ULL)
/* Buffers grown past that shrink back after this long without need. */
#define TRIM_AFTER_NS (2 * NSEC_PER_SEC)

struct stream_log {
	pthread_mutex_t m;
	pthread_cond_t c;
	pthread_t thr;
	pid_t thr_tid; /* written by the flusher, read after joining it */
	int fd;
	struct log_meta meta;
	struct log_writer_opts wopts;
	struct log_writer *w;
	struct evtypes *types; /* the stream's (its lock is held when used) */
	struct batch pending;  /* handed over by the stream */
	struct batch writing;  /* being written by the flusher */
	/*
	 * A queue like the stream's, empty (spare.buf set) or handed over
	 * whole (handed.buf set) or being written (neither): a handover
	 * while it is spare swaps it with the stream's, and the flusher
	 * writes the stream's events from where they were stored.
	 */
	struct pt_queue spare;
	struct pt_queue handed;
	bool busy;	      /* a flush is under way */
	uint64_t write_since; /* since when what waits to be written has waited; 0: none */
	bool done;	      /* a flush ended: FLUSH_STOP to record */
	bool stop;
	int flush_error; /* first error, reset when read */
	int error;	 /* first error ever: what shutdown returns */
	uint64_t dropped_seen;
	bool log_overrun;
	uint64_t last_flush_ns;
	uint64_t big_ns; /* last handover larger than the buffers' size */
};

static int log_policy(int posix)
{
	switch (posix) {
	case POSIX_TRACE_UNTIL_FULL:
		return LOG_POLICY_UNTIL_FULL;
	case POSIX_TRACE_APPEND:
		return LOG_POLICY_APPEND;
	default:
		return LOG_POLICY_LOOP;
	}
}

/* Every type of t, named in the log in one write. */
static void write_all_types(struct stream_log *l, struct evtypes *t)
{
	struct evtypes it = *t; /* own cursor */
	struct log_type_name *pairs = NULL;
	char(*names)[TRACE_EVENT_NAME_MAX] = NULL;
	size_t n = 0, cap = 0;
	uint32_t id;

	it.iter = 0;
	while (!evtypes__next(&it, &id)) {
		if (n == cap) {
			size_t c = cap ? 2 * cap : 256;
			void *np = realloc(pairs, c * sizeof(*pairs));
			void *nn = np ? realloc(names, c * sizeof(*names)) : NULL;

			if (np)
				pairs = np;
			if (!nn)
				break;
			names = nn;
			cap = c;
		}
		if (!evtypes__name(t, id, names[n]))
			pairs[n++].id = id;
	}
	for (size_t i = 0; i < n; i++)
		pairs[i].name = names[i];
	log_writer__add_types(l->w, pairs, n);
	free(pairs);
	free(names);
}

static int write_event(struct stream_log *l, const struct pt_event_hdr *h, const void *data)
{
	/* UNTIL_FULL: "the last recorded trace event shall be the
	 * POSIX_TRACE_STOP trace event": the writer keeps room for it */
	if (h->id == POSIX_TRACE_STOP)
		return log_writer__append_last(l->w, h, data);
	return log_writer__append(l->w, h, data);
}

/* Write a queue handed over whole (if q), then a batch (handed over after
 * it), with the log lock dropped; returns the first error. q is emptied. */
static int write_handover(struct stream_log *l, struct pt_queue *q, struct batch *b)
{
	struct queue_iter it = { 0 };
	const struct pt_event_hdr *h;
	int err = 0, r;
	size_t i;

	while (q && (h = queue__next(q, &it))) {
		r = write_event(l, h, queue__data(h));
		if (r < 0 && !err)
			err = r;
	}
	if (q)
		queue__clear(q);
	for (i = 0; i < b->n; i++) {
		r = write_event(l, batch__hdr(b, i), batch__data(b, i));
		if (r < 0 && !err)
			err = r;
	}
	r = log_writer__flush(l->w);
	return err ? err : r;
}

static void *flusher_main(void *arg)
{
	struct stream_log *l = arg;
	struct pt_queue q;
	struct batch tmp;
	int err;

	l->thr_tid = own_threads__started();
	pthread_setname_np(pthread_self(), "ptbpf-flusher");
	pthread_mutex_lock(&l->m);
	for (;;) {
		while (!l->stop && !l->pending.n && !l->handed.buf)
			pthread_cond_wait(&l->c, &l->m);
		if (!l->pending.n && !l->handed.buf && l->stop)
			break;
		/* take what was handed over; the stream may hand more */
		q = l->handed;
		l->handed.buf = NULL;
		tmp = l->writing;
		l->writing = l->pending;
		l->pending = tmp;
		batch__reset(&l->pending);
		pthread_mutex_unlock(&l->m);
		err = write_handover(l, q.buf ? &q : NULL, &l->writing);
		pthread_mutex_lock(&l->m);
		if (q.buf)
			l->spare = q; /* empty again: the next handover swaps */
		/* grown while the disk lagged behind: back to its size once
		 * no handover needed more for a while (not after each one:
		 * during a flood it would be faulted in again every time) */
		if (l->writing.len > l->writing.keep_bytes || l->writing.n > l->writing.keep_n)
			l->big_ns = clock__mono_ns();
		batch__reset(&l->writing);
		if (clock__mono_ns() - l->big_ns > TRIM_AFTER_NS) {
			batch__trim(&l->writing);
			batch__trim(&l->pending);
		}
		if (err && !l->flush_error)
			l->flush_error = -err;
		if (err && !l->error)
			l->error = -err;
		if (log_writer__dropped(l->w) != l->dropped_seen) {
			l->dropped_seen = log_writer__dropped(l->w);
			l->log_overrun = true;
		}
		/* written: what was handed over since waits from now on */
		l->write_since = l->pending.n || l->handed.buf ? clock__mono_ns() : 0;
		if (!l->pending.n && !l->handed.buf) {
			l->busy = false;
			l->done = true;
		}
		pthread_cond_broadcast(&l->c);
	}
	pthread_mutex_unlock(&l->m);
	own_threads__exiting();
	return NULL;
}

static void meta_from_attr(struct log_meta *m, const struct pt_attr *a, int stream_policy)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", a->name);
	snprintf(m->genversion, sizeof(m->genversion), "%s", PT_GENVERSION);
	m->create_sec = a->create_time.tv_sec;
	m->create_nsec = a->create_time.tv_nsec;
	m->clockres_nsec = attr__clockres_ns();
	m->stream_min_size = a->stream_size;
	m->max_data_size = a->max_data_size;
	m->log_max_size = a->log_size;
	m->pidns_ino = a->pidns_ino;
	m->arch = a->arch;
	m->stream_full_policy = stream_policy;
	m->log_full_policy = log_policy(a->log_policy);
	m->inheritance = a->inherit;
}

int stream_log__open(struct stream_log **out, int fd, const struct pt_attr *a, int stream_policy,
		     struct evtypes *types, const struct pt_queue *q, struct populate *later)
{
	struct stream_log *l;
	size_t keep;
	int err;

	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->fd = fd;
	l->types = types;
	meta_from_attr(&l->meta, a, stream_policy);
	if (a->stack_bytes && !(a->stack_flags & PTBPF_STACK_FP)) {
		/* copied stacks: a thread's next one costs what changed */
		l->wopts.image_id = PTBPF_EV_USER_STACK;
		l->wopts.image_prefix = offsetof(struct ptbpf_ev_user_stack, stack);
		l->wopts.image_addr_off =
			offsetof(struct ptbpf_ev_user_stack, regs) + 8 * PTBPF_STACK_REG_SP;
	}
	batch__init(&l->pending);
	batch__init(&l->writing);
	pthread_mutex_init(&l->m, NULL);
	pthread_cond_init(&l->c, NULL);
	/*
	 * A flush swaps the stream's queue with the spare while the flusher
	 * is idle; it copies only while the flusher writes the previous one
	 * (a stream that filled within a drain): room for a quarter of the
	 * stream in both buffers now (beyond, they grow up to
	 * PENDING_MAX_BYTES and shrink back once written).
	 */
	keep = a->stream_size / 4 < HANDOVER_KEEP_MAX ? a->stream_size / 4 : HANDOVER_KEEP_MAX;
	err = batch__prealloc_deferred(&l->pending, keep + HANDOVER_SLACK,
				       keep / sizeof(struct pt_event_hdr) + 64, later);
	if (!err)
		err = batch__prealloc_deferred(&l->writing, keep + HANDOVER_SLACK,
					       keep / sizeof(struct pt_event_hdr) + 64, later);
	if (!err)
		err = queue__init_deferred(&l->spare, q->limit, q->max_record, later);
	if (err)
		goto fail;
	err = log_writer__open(&l->w, fd, &l->meta, &l->wopts);
	if (err)
		goto fail;
	write_all_types(l, types);
	err = log_writer__flush(l->w);
	if (err)
		goto fail;
	l->last_flush_ns = clock__mono_ns();
	err = thread__start_blocked(&l->thr, flusher_main, l);
	if (err)
		goto fail;
	*out = l;
	return 0;
fail:
	if (l->w)
		log_writer__free(l->w);
	queue__fini(&l->spare);
	batch__fini(&l->pending);
	batch__fini(&l->writing);
	free(l);
	return err;
}

void stream_log__type(struct stream_log *l, struct evtypes *t, uint32_t id)
{
	char name[TRACE_EVENT_NAME_MAX];

	if (evtypes__name(t, id, name))
		return;
	pthread_mutex_lock(&l->m);
	log_writer__add_type(l->w, id, name);
	pthread_mutex_unlock(&l->m);
}

/* Something waits to be written (l->m held): the flusher is woken, and
 * the wait counted from the first of it. */
static void handed_over(struct stream_log *l)
{
	l->busy = true;
	if (!l->write_since)
		l->write_since = clock__mono_ns();
	pthread_cond_broadcast(&l->c);
}

void stream_log__add(struct stream_log *l, const struct pt_event_hdr *h, const void *data)
{
	pthread_mutex_lock(&l->m);
	if (!batch__add(&l->pending, h, data))
		handed_over(l);
	pthread_mutex_unlock(&l->m);
}

int stream_log__flush_queue(struct stream_log *l, struct pt_queue *q, uint64_t limit,
			    uint64_t *floor)
{
	const struct pt_event_hdr *h;
	uint64_t newest = 0;
	int err = 0;

	pthread_mutex_lock(&l->m);
	if (!queue__empty(q) && l->spare.buf && !l->pending.n && limit == UINT64_MAX) {
		/* nothing handed over waits: the flusher writes q's events
		 * from q itself, and the stream goes on with the spare */
		l->handed = *q;
		*q = l->spare;
		l->spare.buf = NULL;
		queue__clear(q);
	}
	if (l->pending.len + q->used > PENDING_MAX_BYTES) {
		err = -ENOSPC;
		goto out;
	}
	while ((h = queue__peek(q)) && h->ts <= limit) {
		if (batch__add(&l->pending, h, queue__data(h))) {
			err = -ENOMEM;
			break;
		}
		if (h->ts > newest)
			newest = h->ts;
		queue__pop(q);
	}
	if (floor && newest > *floor)
		*floor = newest;
	if (l->pending.n || l->handed.buf)
		handed_over(l);
	l->last_flush_ns = clock__mono_ns();
out:
	pthread_mutex_unlock(&l->m);
	return err;
}

size_t stream_log__room(struct stream_log *l, const struct pt_queue *q)
{
	size_t room;

	pthread_mutex_lock(&l->m);
	if (l->spare.buf && !l->pending.n)
		room = q->limit;
	else if (l->write_since && clock__mono_ns() - l->write_since > STALL_NS)
		room = SIZE_MAX;
	else
		room = 0;
	pthread_mutex_unlock(&l->m);
	return room;
}

bool stream_log__flushing(struct stream_log *l)
{
	bool b;

	pthread_mutex_lock(&l->m);
	b = l->busy;
	pthread_mutex_unlock(&l->m);
	return b;
}

bool stream_log__take_done(struct stream_log *l)
{
	bool d;

	pthread_mutex_lock(&l->m);
	d = l->done && !l->busy;
	if (d)
		l->done = false;
	pthread_mutex_unlock(&l->m);
	return d;
}

/*
 * Does the stream hold more than the FLUSH_STOP markers of the flushes
 * before? Those alone do not make a flush due: each would bring its own,
 * and an idle stream would flush every period for them.
 */
static bool holds_events(const struct pt_queue *q)
{
	struct queue_iter it = { 0 };
	const struct pt_event_hdr *h;

	while ((h = queue__next(q, &it)))
		if (h->id != POSIX_TRACE_FLUSH_STOP)
			return true;
	return false;
}

bool stream_log__due(struct stream_log *l, const struct pt_queue *q)
{
	if (queue__empty(q))
		return false;
	if (q->used * 100 >= q->limit * FLUSH_FILL_PERCENT)
		return true;
	return clock__mono_ns() - l->last_flush_ns >= FLUSH_PERIOD_NS && holds_events(q);
}

bool stream_log__full(struct stream_log *l)
{
	bool f;

	pthread_mutex_lock(&l->m);
	f = l->meta.log_full_policy == LOG_POLICY_UNTIL_FULL && log_writer__full(l->w);
	pthread_mutex_unlock(&l->m);
	return f;
}

void stream_log__status(struct stream_log *l, struct posix_trace_status_info *st)
{
	pthread_mutex_lock(&l->m);
	st->posix_stream_flush_status = l->busy ? POSIX_TRACE_FLUSHING : POSIX_TRACE_NOT_FLUSHING;
	st->posix_stream_flush_error = l->flush_error;
	l->flush_error = 0;
	st->posix_log_overrun_status =
		l->log_overrun ? POSIX_TRACE_OVERRUN : POSIX_TRACE_NO_OVERRUN;
	l->log_overrun = false;
	st->posix_log_full_status =
		(l->meta.log_full_policy != LOG_POLICY_APPEND && log_writer__full(l->w))
			? POSIX_TRACE_FULL
			: POSIX_TRACE_NOT_FULL;
	pthread_mutex_unlock(&l->m);
}

/* Wait until the flusher has written everything handed over. */
static void stream_log__drain(struct stream_log *l)
{
	while (l->busy || l->pending.n || l->handed.buf)
		pthread_cond_wait(&l->c, &l->m);
}

void stream_log__wait_idle(struct stream_log *l)
{
	pthread_mutex_lock(&l->m);
	stream_log__drain(l);
	pthread_mutex_unlock(&l->m);
}

int stream_log__clear(struct stream_log *l)
{
	struct log_writer *nw;
	int err;

	pthread_mutex_lock(&l->m);
	stream_log__drain(l);
	err = log_writer__open(&nw, l->fd, &l->meta, &l->wopts);
	if (!err) {
		log_writer__free(l->w);
		l->w = nw;
		l->dropped_seen = 0;
		/* as returned from posix_trace_create_withlog() */
		l->log_overrun = false;
		l->flush_error = 0;
		write_all_types(l, l->types);
		err = log_writer__flush(l->w);
	}
	pthread_mutex_unlock(&l->m);
	return err;
}

void stream_log__counters(struct stream_log *l, struct ptbpf_counters *c)
{
	pthread_mutex_lock(&l->m);
	c->log_bytes = log_writer__bytes(l->w);
	c->log_events = log_writer__file_events(l->w);
	c->log_dropped = log_writer__dropped(l->w);
	c->log_error = l->error;
	pthread_mutex_unlock(&l->m);
}

int stream_log__close(struct stream_log *l, const struct stream_log_final *f)
{
	struct log_status ls = { 0 };
	int err = 0, r;

	if (f)
		err = stream_log__flush_queue(l, f->q, UINT64_MAX, NULL);
	pthread_mutex_lock(&l->m);
	stream_log__drain(l);
	l->stop = true;
	pthread_cond_broadcast(&l->c);
	pthread_mutex_unlock(&l->m);
	pthread_join(l->thr, NULL);
	own_threads__reaped(l->thr_tid);
	if (f) {
		write_all_types(l, f->types);
		ls.v[0] = f->status->posix_stream_status;
		ls.v[1] = f->status->posix_stream_full_status;
		ls.v[2] = f->status->posix_stream_overrun_status;
		ls.v[3] = f->status->posix_stream_flush_status;
		ls.v[4] = f->status->posix_stream_flush_error;
		ls.v[5] = f->status->posix_log_overrun_status;
		ls.v[6] = f->status->posix_log_full_status;
		ls.events_written = f->cnt->recorded;
		ls.events_lost = f->cnt->lost;
	}
	if (l->error && !err)
		err = -l->error;
	r = log_writer__close(l->w, f ? &ls : NULL);
	if (r && !err)
		err = r; /* ENOSPC, EFBIG: what shutdown reports */
	queue__fini(&l->spare);
	batch__fini(&l->pending);
	batch__fini(&l->writing);
	pthread_mutex_destroy(&l->m);
	pthread_cond_destroy(&l->c);
	free(l);
	return err;
}
