/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Active trace streams. One mutex guards a stream; a drainer thread waits
 * on the kernel ring buffer (a bounded wait, no wakeup per event) and moves
 * events from the sources into the stream buffer; readers drain too, so a
 * reader always sees everything recorded before its call.
 */
#include "core/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <ptbpf/events.h>

#include "backend/kern.h"
#include "core/batch.h"
#include "core/event.h"
#include "core/evtypes.h"
#include "core/internal.h"
#include "core/queue.h"
#include "core/stream_log.h"
#include "core/target.h"
#include "uevent/uev_consumer.h"

#define NSEC 1000000000ULL
#define FILTER_WORDS (PTBPF_EV_ID_LIMIT / 64)
#define DRAIN_PERIOD_MS 10
#define KERN_RING_MIN (256u << 10)
#define MAX_UEV_SOURCES 64
#define MAX_EXEC_PER_DRAIN 64
/* A traced process that does not link libposixtrace yet (it may exec into
 * one that does) is looked at again for this long. */
#define UEV_RETRY_NS (3 * NSEC)

struct uev_src {
	pid_t pid;
	struct uev_consumer *c;
	uint64_t retry_until; /* attach again until then (monotonic ns) */
	uint32_t map[TRACE_USER_EVENT_MAX]; /* local index -> stream id, 0: unmapped */
};

struct pt_stream {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pt_attr attr;
	int policy;
	pid_t pid;
	pid_t controller;

	/* POSIX status */
	int status;
	int full;
	int overrun;
	bool shutting_down;
	bool auto_stopped;     /* UNTIL_FULL stopped it */
	bool auto_stop_report; /* STOP(auto) to report after the last event */
	bool head_overflow;    /* LOOP overwrote events: OVERFLOW at the head */
	bool head_resume;      /* then RESUME before the head event */
	uint64_t head_overflow_ts;
	bool resume_pending;   /* a source lost events: RESUME before the next */

	uint64_t filter[FILTER_WORDS]; /* bit set: filtered out */
	struct pt_queue q;
	struct evtypes types;
	struct batch batch;
	struct batch moved;    /* stored events a late event goes before */
	int64_t mono2real;
	uint64_t last_ts;      /* newest timestamp stored */
	uint64_t floor_ts;     /* newest timestamp read or handed to the log */
	uint64_t start_ts;     /* when the stream (re)started running */
	bool start_after_gap;  /* an automatic restart: older events were lost */
	pid_t last_tid;

	struct kern_backend *kb;
	struct uev_src uev[MAX_UEV_SOURCES];
	int nuev;
	struct uev_src *uev_cur; /* the source being drained */
	pid_t exec_pids[MAX_EXEC_PER_DRAIN]; /* exec'ed during this drain */
	int nexec;

	struct stream_log *log; /* NULL without a log */

	pthread_t drainer;
	bool drainer_started;
	int wake_fd[2];

	struct ptbpf_counters cnt;
};

static uint64_t now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static int64_t mono_to_real_offset(void)
{
	struct timespec r, m1, m2;

	clock_gettime(CLOCK_MONOTONIC, &m1);
	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m2);
	return (int64_t)(r.tv_sec * NSEC + r.tv_nsec) -
	       (int64_t)((m1.tv_sec * NSEC + m1.tv_nsec) / 2 + (m2.tv_sec * NSEC + m2.tv_nsec) / 2);
}

static bool filtered(const struct pt_stream *s, uint32_t id)
{
	return id < PTBPF_EV_ID_LIMIT && (s->filter[id / 64] >> (id % 64)) & 1;
}

/* ------------------------------------------------------------------ */
/* Recording into the stream buffer (lock held)                        */

static void stream__set_sources_enabled(struct pt_stream *s, bool on)
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
static void stream__auto_stop(struct pt_stream *s)
{
	s->status = POSIX_TRACE_SUSPENDED;
	s->full = POSIX_TRACE_FULL;
	s->auto_stopped = true;
	s->auto_stop_report = true;
}

static int stream__store(struct pt_stream *s, struct pt_event_hdr *h, const void *data);
static int stream__apply_filter(struct pt_stream *s);
static int stream__record_system(struct pt_stream *s, uint32_t id, uint64_t ts, const void *data,
				 uint32_t len);
static uint64_t now_stream(struct pt_stream *s);

/*
 * Hand everything the stream holds to its log, with the markers a reader of
 * the stream would have been given: OVERFLOW and RESUME where LOOP overwrote
 * events, STOP (automatic) after the last event of a stream UNTIL_FULL
 * stopped (lock held).
 */
static int stream__log_handover(struct pt_stream *s)
{
	const struct pt_event_hdr *head = queue__peek(&s->q);
	struct pt_event_hdr m = { 0 };
	int err, one = 1;

	if (s->head_overflow || s->head_resume) {
		if (s->head_overflow) {
			m.id = POSIX_TRACE_OVERFLOW;
			m.ts = s->head_overflow_ts;
			stream_log__add(s->log, &m, NULL);
		}
		m.id = POSIX_TRACE_RESUME;
		m.ts = head ? head->ts : s->last_ts;
		stream_log__add(s->log, &m, NULL);
		s->head_overflow = s->head_resume = false;
	}
	if (s->last_ts > s->floor_ts)
		s->floor_ts = s->last_ts; /* all stored events go to the log */
	err = stream_log__flush_queue(s->log, &s->q, &s->cnt);
	if (!err && s->auto_stop_report) {
		m.id = POSIX_TRACE_STOP;
		m.ts = s->last_ts;
		m.data_len = sizeof(one);
		stream_log__add(s->log, &m, &one);
		s->auto_stop_report = false;
	}
	return err;
}

static void stream__auto_restart(struct pt_stream *s);

/* A flush: everything goes to the log, then POSIX_TRACE_FLUSH_START. */
static int stream__flush_locked(struct pt_stream *s)
{
	struct pt_event_hdr h = { .id = POSIX_TRACE_FLUSH_START, .ts = now_stream(s) };
	int err = stream__log_handover(s);

	if (err)
		return err;
	if (h.ts < s->last_ts)
		h.ts = s->last_ts;
	if (!queue__push(&s->q, &h, NULL)) {
		s->last_ts = h.ts;
		s->cnt.recorded++;
	}
	s->floor_ts = s->last_ts;
	err = stream_log__flush_queue(s->log, &s->q, &s->cnt);
	/* an UNTIL_FULL stream stopped because it was full runs again */
	if (!err && s->auto_stopped)
		stream__auto_restart(s);
	return err;
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
			queue__pop(&s->q);
			s->cnt.lost++;
		}
		s->full = POSIX_TRACE_FULL;
		s->overrun = POSIX_TRACE_OVERRUN;
		return queue__fits(&s->q, data_len);
	case POSIX_TRACE_FLUSH:
		if (s->log && !stream__flush_locked(s))
			return queue__fits(&s->q, data_len);
		/* a log that cannot take events: as UNTIL_FULL */
		/* fallthrough */
	default:
		s->overrun = POSIX_TRACE_OVERRUN;
		stream__auto_stop(s);
		return false;
	}
}

static int stream__store(struct pt_stream *s, struct pt_event_hdr *h, const void *data)
{
	if (h->ts < s->last_ts)
		h->ts = s->last_ts; /* keep a stream's timestamps non-decreasing */
	if (!queue__fits(&s->q, h->data_len) && !stream__make_room(s, h->data_len)) {
		s->cnt.lost++;
		return -ENOSPC;
	}
	if (queue__push(&s->q, h, data)) {
		s->cnt.lost++;
		return -ENOSPC;
	}
	s->last_ts = h->ts;
	s->cnt.recorded++;
	return 0;
}

/* A system event of the stream itself (pid and thread 0). */
static int stream__record_system(struct pt_stream *s, uint32_t id, uint64_t ts, const void *data,
				 uint32_t len)
{
	struct pt_event_hdr h = {
		.id = id,
		.ts = ts,
		.data_len = len,
	};

	return stream__store(s, &h, data);
}

static uint64_t now_stream(struct pt_stream *s)
{
	return now_mono() + s->mono2real;
}

/* An event from a source, timestamp already on the stream's clock. */
static void stream__record(struct pt_stream *s, struct pt_event_hdr *h, const void *data)
{
	if (h->id < PTBPF_EV_KERNEL_FIRST && h->id != POSIX_TRACE_OVERFLOW) {
		/* the stream's own events (FLUSH_STOP, ERROR) */
		stream__store(s, h, data);
		return;
	}
	if (h->id == POSIX_TRACE_OVERFLOW) {
		/* a source lost events (already counted): mark the gap */
		if (s->status == POSIX_TRACE_RUNNING && !stream__store(s, h, data))
			s->resume_pending = true;
		return;
	}
	if (s->status != POSIX_TRACE_RUNNING || h->ts < s->start_ts) {
		/* generated while the stream was full and stopped: lost */
		if (s->auto_stopped || (s->status == POSIX_TRACE_RUNNING && s->start_after_gap)) {
			s->cnt.lost++;
			s->overrun = POSIX_TRACE_OVERRUN;
		}
		return;
	}
	if (s->resume_pending && s->status == POSIX_TRACE_RUNNING) {
		if (!stream__record_system(s, POSIX_TRACE_RESUME, h->ts, NULL, 0))
			s->resume_pending = false;
	}
	stream__store(s, h, data);
}

/* ------------------------------------------------------------------ */
/* Sources                                                             */

static int on_kern_event(void *ctx, const struct pt_event_hdr *hdr, const void *data)
{
	struct pt_stream *s = ctx;
	struct pt_event_hdr h = *hdr;

	if (h.id == PTBPF_EV_PROC_EXEC && s->nexec < MAX_EXEC_PER_DRAIN)
		s->exec_pids[s->nexec++] = h.pid; /* attach to its new region */
	if (filtered(s, h.id))
		return 0;
	h.ts += s->mono2real;
	return batch__add(&s->batch, &h, data);
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
	batch__add(&s->batch, &h, NULL);
}

static int on_uev_event(void *ctx, const struct pt_event_hdr *hdr, const void *data)
{
	struct pt_stream *s = ctx;
	struct uev_src *u = s->uev_cur;
	struct pt_event_hdr h = *hdr;
	uint32_t idx = h.id - PTBPF_EV_USER_BASE;
	char name[TRACE_EVENT_NAME_MAX];
	uint32_t id;

	if (idx >= TRACE_USER_EVENT_MAX)
		return 0;
	if (!u->map[idx]) {
		if (idx == 0)
			id = POSIX_TRACE_UNNAMED_USEREVENT;
		else if (uev_consumer__type_name(u->c, h.id, name, sizeof(name)) ||
			 evtypes__lookup(&s->types, name, true, &id))
			id = POSIX_TRACE_UNNAMED_USEREVENT;
		u->map[idx] = id;
		if (s->log)
			stream_log__type(s->log, &s->types, id);
	}
	h.id = u->map[idx];
	if (filtered(s, h.id))
		return 0;
	if (h.data_len > s->attr.max_data_size) {
		h.data_len = s->attr.max_data_size;
		h.trunc = PT_TRUNCATED_RECORD;
	}
	h.ts += s->mono2real;
	return batch__add(&s->batch, &h, data);
}

static void stream__uev_attach(struct pt_stream *s, struct uev_src *u)
{
	struct uev_opts o = {
		/* like the kernel ring: twice the stream (the transport clamps it) */
		.ring_bytes = 2 * s->attr.stream_size < (1u << 20) ? (1u << 20) :
								   2 * s->attr.stream_size,
		.max_data_size = s->attr.max_data_size,
		.inherit = s->attr.inherit == POSIX_TRACE_INHERITED,
	};
	int err;

	err = uev_consumer__attach(&u->c, u->pid, &o);
	if (err) {
		u->c = NULL;
		return;
	}
	memset(u->map, 0, sizeof(u->map));
	u->retry_until = 0;
	uev_consumer__set_enabled(u->c, s->status == POSIX_TRACE_RUNNING);
}

static void stream__uev_add(struct pt_stream *s, pid_t pid)
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
			return;
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
	u->retry_until = now_mono() + UEV_RETRY_NS;
	stream__uev_attach(s, u);
}

/* Processes that exec'ed have a new user-event region (if they link us). */
static void stream__note_exec(struct pt_stream *s)
{
	int i;

	for (i = 0; i < s->nexec; i++)
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

	batch__reset(&s->moved);
	n = queue__take_newer(&s->q, ts, &last, take_back_one, s);
	s->cnt.recorded -= n;
	s->last_ts = n ? last : s->last_ts;
	if (queue__empty(&s->q))
		s->last_ts = s->floor_ts;
}

static void stream__drain_locked(struct pt_stream *s)
{
	struct kern_cbs kc = { .event = on_kern_event, .lost = on_lost, .ctx = s };
	struct uev_cbs uc = { .event = on_uev_event, .lost = on_lost, .ctx = s };
	uint64_t now = 0;
	size_t i, j;
	int k, err;

	batch__reset(&s->batch);
	if (s->kb)
		kern_backend__consume(s->kb, &kc);
	for (k = 0; k < s->nuev; k++) {
		struct uev_src *u = &s->uev[k];

		if (!u->c) {
			if (!u->retry_until)
				continue;
			if (!now)
				now = now_mono();
			if (now > u->retry_until) {
				u->retry_until = 0;
				continue;
			}
			stream__uev_attach(s, u);
			if (!u->c)
				continue;
		}
		s->uev_cur = u;
		err = uev_consumer__consume(u->c, &uc);
		s->uev_cur = NULL;
		if (err == -EBADMSG) {
			/* the traced process scribbled over its shared memory */
			struct pt_event_hdr h = { .id = POSIX_TRACE_ERROR, .pid = u->pid,
						  .ts = now_stream(s), .data_len = sizeof(int) };
			int e = EBADMSG;

			batch__add(&s->batch, &h, &e);
			uev_consumer__detach(u->c);
			u->c = NULL;
			u->retry_until = 0;
		}
	}
	if (s->log && stream_log__take_done(s->log)) {
		/* a flush ended since the last drain */
		struct pt_event_hdr h = { .id = POSIX_TRACE_FLUSH_STOP, .ts = now_stream(s) };

		batch__add(&s->batch, &h, NULL);
	}
	stream__note_exec(s);
	if (!s->batch.n)
		return;
	batch__sort(&s->batch);
	if (batch__hdr(&s->batch, 0)->ts < s->last_ts)
		stream__take_back(s, batch__hdr(&s->batch, 0)->ts);
	for (i = 0, j = 0; i < s->batch.n || j < s->moved.n;) {
		/* merge: stored events first on equal timestamps */
		if (j < s->moved.n &&
		    (i == s->batch.n || batch__hdr(&s->moved, j)->ts <= batch__hdr(&s->batch, i)->ts)) {
			struct pt_event_hdr h = *batch__hdr(&s->moved, j);

			stream__store(s, &h, batch__data(&s->moved, j++));
		} else {
			struct pt_event_hdr h = *batch__hdr(&s->batch, i);

			stream__record(s, &h, batch__data(&s->batch, i++));
		}
	}
	batch__reset(&s->moved);
	pthread_cond_broadcast(&s->cond);
}

/* Periodic log work of the drainer (lock held). */
static void stream__log_tick(struct pt_stream *s)
{
	if (s->status == POSIX_TRACE_RUNNING && stream_log__full(s->log)) {
		/* log-full-policy UNTIL_FULL: the stream stops, STOP last */
		int one = 1;

		stream__set_sources_enabled(s, false);
		stream__record_system(s, POSIX_TRACE_STOP, now_stream(s), &one, sizeof(one));
		s->status = POSIX_TRACE_SUSPENDED;
		stream__flush_locked(s);
		return;
	}
	if (s->policy == POSIX_TRACE_FLUSH && !stream_log__flushing(s->log) &&
	    stream_log__due(s->log, &s->q))
		stream__flush_locked(s);
}

static void *drainer_main(void *arg)
{
	struct pt_stream *s = arg;
	struct epoll_event evs[2];
	int efd = -1, stop = 0;
	sigset_t all;

	internal__thread_started();
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	efd = epoll_create1(EPOLL_CLOEXEC);
	if (efd >= 0) {
		struct epoll_event e = { .events = EPOLLIN };

		if (s->kb) {
			e.data.fd = kern_backend__epoll_fd(s->kb);
			epoll_ctl(efd, EPOLL_CTL_ADD, e.data.fd, &e);
		}
		e.data.fd = s->wake_fd[0];
		epoll_ctl(efd, EPOLL_CTL_ADD, s->wake_fd[0], &e);
	}
	while (!stop) {
		int n = efd >= 0 ? epoll_wait(efd, evs, 2, DRAIN_PERIOD_MS) : 0;
		int i;

		for (i = 0; i < n; i++)
			if (evs[i].data.fd == s->wake_fd[0])
				stop = 1;
		if (efd < 0)
			usleep(DRAIN_PERIOD_MS * 1000);
		pthread_mutex_lock(&s->lock);
		if (s->shutting_down)
			stop = 1;
		else
			stream__drain_locked(s);
		if (s->log && !stop)
			stream__log_tick(s);
		pthread_mutex_unlock(&s->lock);
	}
	if (efd >= 0)
		close(efd);
	internal__thread_exiting();
	return NULL;
}

static int stream__start_drainer(struct pt_stream *s)
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

/* ------------------------------------------------------------------ */
/* Life cycle                                                          */

static void stream__free(struct pt_stream *s)
{
	int i;

	for (i = 0; i < s->nuev; i++)
		if (s->uev[i].c)
			uev_consumer__detach(s->uev[i].c);
	if (s->kb) {
		internal__self_backend_del(s->kb);
		kern_backend__destroy(s->kb);
	}
	if (s->wake_fd[0] >= 0)
		close(s->wake_fd[0]);
	if (s->wake_fd[1] >= 0)
		close(s->wake_fd[1]);
	batch__fini(&s->batch);
	batch__fini(&s->moved);
	evtypes__fini(&s->types);
	queue__fini(&s->q);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}

int stream__create(struct pt_stream **out, pid_t pid, const struct pt_attr *a, int log_fd)
{
	struct kern_opts ko = { 0 };
	struct pt_stream *s;
	size_t max_rec;
	int err;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->wake_fd[0] = s->wake_fd[1] = -1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	s->attr = *a;
	clock_gettime(CLOCK_REALTIME, &s->attr.create_time);
	s->policy = attr__stream_policy(a, log_fd >= 0);
	s->controller = getpid();
	s->pid = pid ? pid : s->controller;
	s->status = POSIX_TRACE_SUSPENDED;
	s->full = POSIX_TRACE_NOT_FULL;
	s->overrun = POSIX_TRACE_NO_OVERRUN;
	s->mono2real = mono_to_real_offset();

	max_rec = queue__record_size(attr__max_system_data());
	if (queue__record_size(a->max_data_size) > max_rec)
		max_rec = queue__record_size(a->max_data_size);
	err = queue__init(&s->q, a->stream_size, max_rec);
	if (!err)
		err = evtypes__init(&s->types);
	if (!err)
		err = batch__init(&s->batch);
	if (!err)
		err = batch__init(&s->moved);
	if (!err && pipe2(s->wake_fd, O_CLOEXEC))
		err = -errno;
	if (err)
		goto fail;

	err = target__check(s->pid);
	if (err)
		goto fail;
	if (log_fd >= 0) {
		err = stream_log__open(&s->log, log_fd, &s->attr, s->policy, &s->types);
		if (err)
			goto fail;
	}

	/* room for a stream's worth of records while the drainer sleeps */
	ko.ring_bytes = 2 * a->stream_size < KERN_RING_MIN ? KERN_RING_MIN : 2 * a->stream_size;
	ko.inherit = a->inherit == POSIX_TRACE_INHERITED;
	err = kern_backend__open(&s->kb, &ko);
	if (err)
		goto fail;
	err = kern_backend__add_pid(s->kb, s->pid);
	if (err)
		goto fail;
	err = stream__apply_filter(s); /* empty: record everything */
	if (err)
		goto fail;
	if (s->pid == s->controller)
		internal__self_backend_add(s->kb);
	stream__uev_add(s, s->pid);
	err = stream__start_drainer(s);
	if (err)
		goto fail;
	*out = s;
	return 0;
fail:
	if (s->log)
		stream_log__close(s->log, NULL);
	stream__free(s);
	return err;
}

void stream__wake_all(struct pt_stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->shutting_down = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

void stream__destroy(struct pt_stream *s)
{
	struct posix_trace_status_info st;
	char c = 1;

	pthread_mutex_lock(&s->lock);
	if (s->status == POSIX_TRACE_RUNNING)
		stream__set_sources_enabled(s, false);
	stream__drain_locked(s);
	s->shutting_down = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->drainer_started) {
		if (write(s->wake_fd[1], &c, 1) < 0) {
			/* the drainer still stops within one period */
		}
		pthread_join(s->drainer, NULL);
	}
	if (s->log) {
		/* the last flush's FLUSH_STOP goes in the log too */
		stream_log__wait_idle(s->log);
		pthread_mutex_lock(&s->lock);
		stream__drain_locked(s);
		stream__log_handover(s);
		pthread_mutex_unlock(&s->lock);
		stream__get_status(s, &st);
		stream_log__close(s->log, &(struct stream_log_final){
			.q = &s->q, .types = &s->types, .status = &st, .cnt = &s->cnt });
		s->log = NULL;
	}
	stream__free(s);
}

/* ------------------------------------------------------------------ */
/* Control                                                             */

int stream__start(struct pt_stream *s)
{
	trace_event_set_t set;

	pthread_mutex_lock(&s->lock);
	if (s->status == POSIX_TRACE_RUNNING || s->full == POSIX_TRACE_FULL) {
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	stream__drain_locked(s);
	s->status = POSIX_TRACE_RUNNING;
	s->auto_stopped = false;
	memcpy(&set, s->filter, sizeof(set));
	s->start_ts = now_stream(s);
	s->start_after_gap = false;
	stream__record_system(s, POSIX_TRACE_START, s->start_ts, &set, sizeof(set));
	stream__set_sources_enabled(s, true);
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int stream__stop(struct pt_stream *s)
{
	int manual = 0;

	pthread_mutex_lock(&s->lock);
	if (s->status == POSIX_TRACE_RUNNING && s->full != POSIX_TRACE_FULL) {
		stream__set_sources_enabled(s, false);
		stream__drain_locked(s);
		stream__record_system(s, POSIX_TRACE_STOP, now_stream(s), &manual, sizeof(manual));
		s->status = POSIX_TRACE_SUSPENDED;
		pthread_cond_broadcast(&s->cond);
	} else if (s->auto_stopped) {
		/* stopped by hand now: no automatic restart when emptied */
		s->auto_stopped = false;
		stream__set_sources_enabled(s, false);
	}
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int stream__clear(struct pt_stream *s)
{
	pthread_mutex_lock(&s->lock);
	stream__drain_locked(s);
	queue__clear(&s->q);
	s->floor_ts = s->last_ts;
	s->full = POSIX_TRACE_NOT_FULL;
	s->head_overflow = s->head_resume = s->resume_pending = false;
	s->auto_stop_report = false;
	if (s->auto_stopped) {
		s->auto_stopped = false;
		s->status = POSIX_TRACE_RUNNING;
		stream__set_sources_enabled(s, true);
	}
	if (s->log)
		stream_log__clear(s->log);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int stream__flush(struct pt_stream *s)
{
	int err;

	if (!s->log)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	stream__drain_locked(s);
	err = stream__flush_locked(s);
	pthread_mutex_unlock(&s->lock);
	return err < 0 ? err : 0;
}

int stream__add_pid(struct pt_stream *s, pid_t pid)
{
	int err;

	err = target__check(pid);
	if (err)
		return err;
	pthread_mutex_lock(&s->lock);
	err = kern_backend__add_pid(s->kb, pid);
	if (!err)
		stream__uev_add(s, pid);
	pthread_mutex_unlock(&s->lock);
	return err;
}

void stream__get_attr(struct pt_stream *s, struct pt_attr *a)
{
	pthread_mutex_lock(&s->lock);
	*a = s->attr;
	if (a->stream_policy < 0)
		a->stream_policy = s->policy;
	pthread_mutex_unlock(&s->lock);
}

void stream__get_status(struct pt_stream *s, struct posix_trace_status_info *st)
{
	pthread_mutex_lock(&s->lock);
	if (!s->shutting_down)
		stream__drain_locked(s); /* the status of what happened until now */
	st->posix_stream_status = s->status;
	st->posix_stream_full_status = s->full;
	st->posix_stream_overrun_status = s->overrun;
	s->overrun = POSIX_TRACE_NO_OVERRUN;
	st->posix_stream_flush_status = POSIX_TRACE_NOT_FLUSHING;
	st->posix_stream_flush_error = 0;
	st->posix_log_overrun_status = POSIX_TRACE_NO_OVERRUN;
	st->posix_log_full_status = POSIX_TRACE_NOT_FULL;
	if (s->log)
		stream_log__status(s->log, st);
	pthread_mutex_unlock(&s->lock);
}

void stream__get_filter(struct pt_stream *s, trace_event_set_t *set)
{
	pthread_mutex_lock(&s->lock);
	memcpy(set, s->filter, sizeof(*set));
	pthread_mutex_unlock(&s->lock);
}

/* Push the filter down: the kernel gets the ids to record, each user
 * event source the local ids to record. */
static int stream__apply_filter(struct pt_stream *s)
{
	uint64_t keep[FILTER_WORDS];
	int i, k;

	for (i = 0; i < FILTER_WORDS; i++)
		keep[i] = ~s->filter[i];
	/* the core needs exec events to find user events after an exec; a
	 * filtered exec is dropped here, not in the kernel */
	keep[PTBPF_EV_PROC_EXEC / 64] |= 1ULL << (PTBPF_EV_PROC_EXEC % 64);
	for (k = 0; k < s->nuev; k++) {
		struct uev_src *u = &s->uev[k];

		if (!u->c)
			continue;
		for (i = 0; i < TRACE_USER_EVENT_MAX; i++)
			if (u->map[i])
				uev_consumer__set_id_enabled(u->c, PTBPF_EV_USER_BASE + i,
							     !filtered(s, u->map[i]));
	}
	return kern_backend__set_filter(s->kb, keep);
}

int stream__set_filter(struct pt_stream *s, const trace_event_set_t *set, int how)
{
	uint64_t old[FILTER_WORDS], new[FILTER_WORDS];
	const uint64_t *in = (const uint64_t *)(const void *)set;
	int i, err;

	pthread_mutex_lock(&s->lock);
	memcpy(old, s->filter, sizeof(old));
	for (i = 0; i < FILTER_WORDS; i++) {
		switch (how) {
		case POSIX_TRACE_SET_EVENTSET:
			new[i] = in[i];
			break;
		case POSIX_TRACE_ADD_EVENTSET:
			new[i] = old[i] | in[i];
			break;
		default:
			new[i] = old[i] & ~in[i];
			break;
		}
	}
	stream__drain_locked(s);
	memcpy(s->filter, new, sizeof(new));
	err = stream__apply_filter(s);
	if (!err && s->status == POSIX_TRACE_RUNNING) {
		uint64_t both[2 * FILTER_WORDS];

		memcpy(both, old, sizeof(old));
		memcpy(both + FILTER_WORDS, new, sizeof(new));
		stream__record_system(s, POSIX_TRACE_FILTER, now_stream(s), both, sizeof(both));
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return err;
}

void stream__counters(struct pt_stream *s, struct ptbpf_counters *c)
{
	struct kern_counters kc = { 0 };

	pthread_mutex_lock(&s->lock);
	if (!s->shutting_down)
		stream__drain_locked(s);
	*c = s->cnt;
	if (s->kb)
		kern_backend__counters(s->kb, &kc);
	c->kernel_emitted = kc.emitted;
	c->kernel_dropped = kc.dropped;
	c->kernel_filtered = kc.filtered;
	if (s->log)
		c->log_bytes = stream_log__bytes(s->log);
	pthread_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------------------ */
/* Event types                                                         */

int stream__eventid_name(struct pt_stream *s, trace_event_id_t id, char *name)
{
	int err;

	pthread_mutex_lock(&s->lock);
	err = evtypes__name(&s->types, id, name);
	pthread_mutex_unlock(&s->lock);
	return err;
}

int stream__eventid_open(struct pt_stream *s, const char *name, trace_event_id_t *id)
{
	uint32_t v;
	int err;

	pthread_mutex_lock(&s->lock);
	err = evtypes__lookup(&s->types, name, true, &v);
	if (!err) {
		*id = v;
		if (s->log)
			stream_log__type(s->log, &s->types, v);
	}
	pthread_mutex_unlock(&s->lock);
	return err;
}

int stream__typelist_next(struct pt_stream *s, trace_event_id_t *id, int *unavailable)
{
	uint32_t v;

	pthread_mutex_lock(&s->lock);
	*unavailable = evtypes__next(&s->types, &v) != 0;
	if (!*unavailable)
		*id = v;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void stream__typelist_rewind(struct pt_stream *s)
{
	pthread_mutex_lock(&s->lock);
	evtypes__rewind(&s->types);
	pthread_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */

static void fill_info(struct posix_trace_event_info *ev, const struct pt_event_hdr *h)
{
	memset(ev, 0, sizeof(*ev));
	ev->posix_event_id = h->id;
	ev->posix_pid = h->pid;
	ev->posix_prog_address = (void *)(uintptr_t)h->prog_addr;
	ev->posix_truncation_status = h->trunc;
	ev->posix_timestamp.tv_sec = (time_t)(h->ts / NSEC);
	ev->posix_timestamp.tv_nsec = (long)(h->ts % NSEC);
	ev->posix_thread_id = (pthread_t)h->thread;
}

static void copy_out(struct posix_trace_event_info *ev, const struct pt_event_hdr *h,
		     const void *src, void *data, size_t num_bytes, size_t *data_len)
{
	size_t n = h->data_len;

	fill_info(ev, h);
	if (n > num_bytes) {
		n = num_bytes;
		ev->posix_truncation_status = POSIX_TRACE_TRUNCATED_READ;
	}
	if (n && data && src)
		memcpy(data, src, n);
	if (data_len)
		*data_len = n;
}

/* After an automatic stop has been reported and the stream emptied. */
static void stream__auto_restart(struct pt_stream *s)
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
	stream__record_system(s, POSIX_TRACE_START, s->start_ts, &set, sizeof(set));
	stream__set_sources_enabled(s, true);
}

/* One event out of the stream, if there is one (lock held). */
static bool stream__take(struct pt_stream *s, struct posix_trace_event_info *ev, void *data,
			 size_t num_bytes, size_t *data_len)
{
	const struct pt_event_hdr *h = queue__peek(&s->q);
	struct pt_event_hdr m = { 0 };

	if (s->head_overflow) {
		m.id = POSIX_TRACE_OVERFLOW;
		m.ts = s->head_overflow_ts;
		s->head_overflow = false;
		s->head_resume = true;
		copy_out(ev, &m, NULL, data, num_bytes, data_len);
		s->last_tid = 0;
		return true;
	}
	if (h && s->head_resume) {
		m.id = POSIX_TRACE_RESUME;
		m.ts = h->ts;
		s->head_resume = false;
		copy_out(ev, &m, NULL, data, num_bytes, data_len);
		s->last_tid = 0;
		return true;
	}
	if (h) {
		copy_out(ev, h, queue__data(h), data, num_bytes, data_len);
		s->floor_ts = h->ts;
		s->last_tid = h->tid;
		queue__pop(&s->q);
		if (s->policy == POSIX_TRACE_LOOP && s->full == POSIX_TRACE_FULL)
			s->full = POSIX_TRACE_NOT_FULL;
		if (queue__empty(&s->q) && s->auto_stopped && !s->auto_stop_report)
			stream__auto_restart(s);
		return true;
	}
	if (s->auto_stop_report) {
		int one = 1;

		m.id = POSIX_TRACE_STOP;
		m.ts = s->last_ts;
		m.data_len = sizeof(one);
		s->auto_stop_report = false;
		copy_out(ev, &m, &one, data, num_bytes, data_len);
		s->last_tid = 0;
		stream__auto_restart(s);
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
		if (queue__empty(&s->q))
			stream__drain_locked(s);
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

pid_t stream__last_tid(struct pt_stream *s)
{
	pid_t t;

	pthread_mutex_lock(&s->lock);
	t = s->last_tid;
	pthread_mutex_unlock(&s->lock);
	return t;
}
