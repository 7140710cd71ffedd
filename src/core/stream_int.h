/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The inside of an active trace stream, shared by its files:
 *   stream.c          life cycle, control, filters, event types
 *   stream_record.c   storing events: full policies, markers, flushes to the log
 *   stream_merge.c    a drain of the sources, where each event goes
 *   stream_drainer.c  how much to drain, the drainer thread
 *   stream_uev.c      the user-event sources
 *   stream_read.c     the readers
 * One mutex (lock) guards everything; functions named *_locked, and those
 * below unless said otherwise, are called with it held.
 */
#ifndef PTBPF_CORE_STREAM_INT_H
#define PTBPF_CORE_STREAM_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <ptbpf/events.h>

#include "backend/kern.h"
#include "backend/kern_cgroup.h"
#include "common/clock.h"
#include "common/event.h"
#include "core/batch.h"
#include "core/evtypes.h"
#include "core/queue.h"
#include "core/stream.h"
#include "core/stream_log.h"
#include "uevent/uev_consumer.h"

#define FILTER_WORDS	(PTBPF_EV_ID_LIMIT / 64)
#define DRAIN_PERIOD_MS 10
/*
 * User-event rings wake nobody: the drainer comes sooner while a drain
 * finds one more than DRAIN_FILL_HIGH thousandths full (period halved,
 * down to 1 ms) and later again below DRAIN_FILL_LOW (+1 ms).
 */
#define DRAIN_FILL_HIGH 250
#define DRAIN_FILL_LOW	60
/*
 * A drain takes at most this many bytes of events from its sources at a
 * time (then stores them and goes on): the batch is allocated once, at
 * create, and never grows. At most DRAIN_MAX_ROUNDS such rounds hold the
 * stream's lock at once.
 */
#define DRAIN_BATCH_BYTES (1u << 20)
#define DRAIN_MAX_ROUNDS  64
/*
 * A LOOP stream whose reader lags: drains leave what the stream has no
 * room for in the sources (they do not overwrite unread events) until one
 * of them is HOLD_FILL_MAX thousandths full (see stream__drain_fit).
 */
#define HOLD_FILL_MAX 500
/*
 * A batch reader that keeps reading drains the sources itself until one of
 * them is READER_FILL_MAX thousandths full (the kernel side's wakeup comes
 * at a quarter); one that waits, until HOLD_FILL_MAX (see
 * stream__reader_drains).
 */
#define READER_FILL_MAX	   250
#define KERN_RING_MIN	   (256u << 10)
#define MAX_UEV_SOURCES	   64
#define MAX_EXEC_PER_DRAIN 64
/* A traced process that does not link libposixtrace yet (it may exec into
 * one that does) is looked at again for this long. */
#define UEV_RETRY_NS (3 * NSEC_PER_SEC)
/*
 * At most this often (a look is a scan of its /proc/PID/fd: readers drain
 * at every event they find missing, thousands of times a second) for the
 * first UEV_RETRY_FAST_NS, when a library's constructor usually creates its
 * region; then the gap doubles (it stays below the time already waited) up
 * to UEV_RETRY_GAP_MAX_NS: a program that does not link us would otherwise
 * cost 1500 scans in UEV_RETRY_NS.
 */
#define UEV_RETRY_EVERY_NS   (2 * NSEC_PER_SEC / 1000)
#define UEV_RETRY_FAST_NS    (20 * NSEC_PER_SEC / 1000)
#define UEV_RETRY_GAP_MAX_NS (128 * NSEC_PER_SEC / 1000)
/*
 * Events are read in timestamp order: a stored event is held back until no
 * source can still deliver an older one (the sources' watermark, see
 * stream__release_update). A source that stays behind longer than
 * HOLD_MAX_NS (a writer stalled with a record reserved) holds nothing back
 * beyond that: what it delivers later is reported late, with its own
 * timestamp, and counted (cnt.late). A traced process that exec'ed and may
 * still create its user-event region holds events back UEV_ATTACH_HOLD_NS
 * at most (when a library's constructor usually creates it, see
 * UEV_RETRY_FAST_NS: longer would make a flood's first milliseconds wait
 * in the rings), so its first events are merged with the kernel's.
 */
#define HOLD_MAX_NS	   (100 * NSEC_PER_SEC / 1000)
#define UEV_ATTACH_HOLD_NS (20 * NSEC_PER_SEC / 1000)

struct uev_src {
	pid_t pid;
	struct uev_consumer *c;
	uint64_t retry_until; /* attach again until then (monotonic ns) */
	uint64_t next_try;    /* not before then */
	uint64_t retry_gap;   /* between two looks after UEV_RETRY_FAST_NS */
	uint64_t hold_until;  /* no region yet: events held until then (monotonic ns) */
	uint64_t hold_ts;     /* at most up to this time (stream clock) */
	uint32_t map[TRACE_USER_EVENT_MAX]; /* local index -> stream id, 0: unmapped */
};

/* stream_uev.c: the time from now (monotonic ns) to the next look at u,
 * a process without a user-event region yet (see UEV_RETRY_EVERY_NS). */
uint64_t uev_src__retry_gap(struct uev_src *u, uint64_t now);

/*
 * A batch reader's arrays, filled straight from the sources while the
 * stream holds nothing to read before (see stream_merge.c).
 */
struct stream_out {
	struct ptbpf_event *evs;
	size_t max, n;
	char *buf;
	size_t bufsz, off;
};

struct pt_stream {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct populate later; /* buffers the drainer faults in as it starts */
	bool later_rings;      /* and the kernel rings' pages (kring.h) */
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
	uint64_t head_overflow_lost; /* the events lost in that gap: its data */
	bool resume_pending;	     /* a source lost events: RESUME before the next */
	uint64_t gap_lost; /* lost, in no stored OVERFLOW yet: one before the next event */

	uint64_t filter[FILTER_WORDS]; /* bit set: filtered out */
	struct pt_queue q;
	struct evtypes types;
	struct batch batch;
	unsigned long batch_reads;  /* calls of batch readers (see stream__reader_drains) */
	unsigned int batch_waiters; /* batch readers waiting for events */
	uint64_t flush_stop_ts;	    /* a flush ended then: FLUSH_STOP, not stored yet */
	unsigned int flushes_open;  /* FLUSH_STARTs without their FLUSH_STOP yet */
	unsigned int flushes_ended; /* of them, those whose flush ended (flush_stop_ts) */
	uint64_t drain_ts;	    /* when the last drain began (see stream__flush_locked) */
	unsigned int uev_fill;	    /* fullest user-event sub-ring at the last drain */
	int drain_ms;		    /* the drainer's period now */
	struct batch moved;	    /* stored events a late event goes before */
	int64_t mono2real;
	uint64_t last_ts;     /* newest timestamp stored */
	uint64_t floor_ts;    /* newest timestamp read or handed to the log */
	uint64_t release_ts;  /* stored events up to then may be read: none older can come */
	uint64_t start_ts;    /* when the stream (re)started running */
	bool start_after_gap; /* an automatic restart: older events were lost */
	pid_t last_tid;

	struct kern_backend *kb;
	struct kern_cgroups *cg; /* with cgroups (stream_cgroup.c), else NULL */
	struct uev_src uev[MAX_UEV_SOURCES];
	int nuev;
	/* fdinfo: the processes added before the start, whose open fds it
	 * records (the stream's own pid besides) */
	pid_t *fd_pids;
	size_t nfd_pids;
	pid_t refused[MAX_UEV_SOURCES]; /* regions with no slot for us: to report */
	int nrefused;

	struct stream_log *log; /* NULL without a log */

	pthread_t drainer;
	pid_t drainer_tid; /* written by the drainer, read after joining it */
	bool drainer_started;
	int wake_fd[2];

	struct ptbpf_counters cnt;
};

static inline int64_t mono_to_real_offset(void)
{
	struct timespec r, m1, m2;

	clock_gettime(CLOCK_MONOTONIC, &m1);
	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m2);
	return (int64_t)(r.tv_sec * NSEC_PER_SEC + r.tv_nsec) -
	       (int64_t)((m1.tv_sec * NSEC_PER_SEC + m1.tv_nsec) / 2 +
			 (m2.tv_sec * NSEC_PER_SEC + m2.tv_nsec) / 2);
}

static inline bool filtered(const struct pt_stream *s, uint32_t id)
{
	return id < PTBPF_EV_ID_LIMIT && (s->filter[id / 64] >> (id % 64)) & 1;
}

/* A source's event the stream stores as it is: in order, into a running
 * stream, no RESUME owed before it (stream__record's common case). */
static inline bool stream__as_is(const struct pt_stream *s, const struct pt_event_hdr *h)
{
	return h->id >= PTBPF_EV_KERNEL_FIRST && s->status == POSIX_TRACE_RUNNING &&
	       h->ts >= s->start_ts && h->ts >= s->last_ts && !s->resume_pending && !s->gap_lost;
}

/* The events lost in the gap an OVERFLOW marker stands for (its data). */
static inline uint64_t stream__gap_count(const struct pt_event_hdr *h, const void *data)
{
	uint64_t n = 0;

	if (data && h->data_len >= sizeof(n))
		memcpy(&n, data, sizeof(n));
	return n;
}

static inline uint64_t now_stream(struct pt_stream *s)
{
	return clock__mono_ns() + s->mono2real;
}

/* May the stored event h be read (or handed to the log) now? */
static inline bool stream__released(const struct pt_stream *s, const struct pt_event_hdr *h)
{
	return h && h->ts <= s->release_ts;
}

/* The oldest stored event, if it may be read now. */
static inline const struct pt_event_hdr *stream__head(const struct pt_stream *s)
{
	const struct pt_event_hdr *h = queue__peek(&s->q);

	return stream__released(s, h) ? h : NULL;
}

/* Everything stored may be read: no source adds events before them (the
 * stream stops, or its policy needs the room). */
static inline void stream__release_stored(struct pt_stream *s)
{
	if (s->last_ts > s->release_ts)
		s->release_ts = s->last_ts;
}

/* stream_record.c */
void stream__set_sources_enabled(struct pt_stream *s, bool on);
void stream__auto_stop(struct pt_stream *s);
void stream__auto_restart(struct pt_stream *s);
/* The OVERFLOW marker of s->gap_lost, if it fits (lock held). */
void stream__store_gap(struct pt_stream *s, uint64_t ts);
int stream__store(struct pt_stream *s, struct pt_event_hdr *h, const void *data);
/* stream_maps.c: a stream with stacks on a running process: its
 * executable mappings now, as proc_map events at ts */
int stream__record_maps(struct pt_stream *s, pid_t pid, uint64_t ts);
/* stream_fds.c: a stream with fd_info events: the fds and working
 * directory of its processes as they are when it starts (at ts), or of
 * a process added while it runs (now) */
void stream__record_fds_all(struct pt_stream *s, uint64_t ts);
int stream__fds_add_pid(struct pt_stream *s, pid_t pid);
int stream__record_system(struct pt_stream *s, uint32_t id, uint64_t ts, const void *data,
			  uint32_t len);
void stream__record(struct pt_stream *s, struct pt_event_hdr *h, const void *data);
int stream__log_handover(struct pt_stream *s);
/*
 * Hand the events that may be read to the log, then POSIX_TRACE_FLUSH_START,
 * stamped with the release time: no older event is still to come, and
 * every event held back (and every one to come) is newer. all: everything
 * stored goes (the stream needs the room, in the middle of a drain, where
 * the rest of the drain is not older than the newest event stored).
 */
int stream__flush_locked(struct pt_stream *s, bool all);

/* stream_merge.c */
/*
 * Take what the sources hold, a batch at a time (events of a later round
 * older than stored ones are merged back in order), up to budget bytes of
 * stored events (SIZE_MAX: everything); with out, a batch reader's arrays
 * get the events first (see stream__getnext_batch). Returns the budget
 * left.
 */
size_t stream__drain(struct pt_stream *s, struct stream_out *out, size_t budget);
/* stream__drain(s, NULL, SIZE_MAX): everything. */
void stream__drain_locked(struct pt_stream *s);
/* Move release_ts up to the sources' watermark (see HOLD_MAX_NS): t, the
 * stream's time when the drain began. True when events became readable. */
bool stream__release_update(struct pt_stream *s, uint64_t t);
/* The runs (each kernel ring merged, each busy user-event sub-ring) the
 * sources hold now, counted up to most at least. */
unsigned int stream__runs(struct pt_stream *s, unsigned int most);

/* stream_drainer.c */
/* Drain what the stream has room for; true when events were left in the
 * sources (see there). out: as for stream__drain(). */
bool stream__drain_fit(struct pt_stream *s, struct stream_out *out);
/* Start the drainer thread (lock not held). */
int stream__start_drainer(struct pt_stream *s);

/* stream_uev.c */
/* Look for pid's user-event region (again); 0, or what attaching gave
 * (-EBUSY: no slot free in it). creating: by stream__create, which waits
 * for the ring's pages before the stream can run (they are allocated on a
 * thread meanwhile); else they are there on return. */
int stream__uev_add(struct pt_stream *s, pid_t pid, bool creating);
/* pid exec'ed: look for its new region, and until found hold events back
 * (UEV_ATTACH_HOLD_NS). */
void stream__uev_exec(struct pt_stream *s, pid_t pid);
/* u has no region yet: look for it again if the time has come (see
 * UEV_RETRY_EVERY_NS); *now: the monotonic time, read once if 0. True
 * when it is attached now. */
bool stream__uev_retry(struct pt_stream *s, struct uev_src *u, uint64_t *now);
/* pid exec'ed what the tracer may not see: do not look for its region. */
void stream__uev_untraced(struct pt_stream *s, pid_t pid);

/* stream.c */
int stream__apply_filter(struct pt_stream *s);

/* stream_names.c: take in the names the traced process of u (of every
 * source) mapped that the stream has not seen yet. */
void stream__uev_src_names(struct pt_stream *s, struct uev_src *u);
void stream__uev_names(struct pt_stream *s);

#endif
