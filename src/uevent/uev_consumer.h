/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Controller side of the user-event transport: one consumer is one slot
 * (one trace stream) in the shared region of one traced process.
 *
 * The region is untrusted input: every index, length, offset and name is
 * copied and checked; a corrupt ring makes uev_consumer__consume() return
 * -EBADMSG (after delivering the good records before it) and resynchronise
 * at the producer's head; after UEV_CONSUMER_CORRUPT_MAX such errors the
 * consumer stops reading the slot (consume returns 0 from then on).
 *
 * Not thread-safe: one thread uses a consumer at a time.
 */
#ifndef PTBPF_UEV_CONSUMER_H
#define PTBPF_UEV_CONSUMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/event.h"

#define UEV_CONSUMER_CORRUPT_MAX 16
/* Largest max_data_size; larger requests are clamped. */
#define UEV_CONSUMER_MAX_DATA (1024u * 1024)
/*
 * Of each sub-ring, the bytes allocated (and faulted in) at attach: the
 * first two chunks the writer maps (uev_producer.c), so that a process
 * that writes a few events allocates nothing; the rest is allocated as it
 * writes on (the memfd is charged to the tracer's cgroup: a whole ring is
 * MiBs a process, most of which never write a user event).
 */
#define UEV_EAGER (256u << 10)

struct uev_consumer;

struct uev_opts {
	size_t ring_bytes;    /* rounded up to a power of two in 4 KiB .. 16 MiB */
	size_t max_data_size; /* payload bytes kept per event (more: truncated) */
	bool inherit;	      /* POSIX_TRACE_INHERITED: forked children write too */
	/* the ring's first pages (UEV_EAGER) allocated on a thread: the caller
	 * waits for them (uev_consumer__prefault_wait) before the process may
	 * write */
	bool prefault_async;
};

struct uev_cbs {
	/*
	 * One event. hdr->id is the process-local user event id (2048 +
	 * index); resolve names with uev_consumer__type_name(). hdr->ts is
	 * CLOCK_MONOTONIC ns. data (hdr->data_len bytes) is in the traced
	 * process's memory, valid during the call: copy it, read it once
	 * (the process can change it meanwhile). Return 0 to go on; anything else stops the
	 * drain after this event (a negative value is returned by consume).
	 * Per thread, events come in order and ts never decreases. A
	 * consume drains the UEV_NSUB sub-rings one after the other, so
	 * events of threads writing into different sub-rings come out of
	 * time order within one consume (sort each drain by ts), and within
	 * one sub-ring ts may be inverted across threads by the time between
	 * the reservation and the clock read (ns; more if the writer was
	 * preempted): merge by ts up to uev_consumer__watermark(). ts is
	 * never in the future (a record saying so makes the consume fail
	 * with -EBADMSG). pid is the slot's process or, when the stream inherits,
	 * one that shares its region (see shares); tid, thread and prog_addr
	 * are what the traced process wrote (it can lie about its own events
	 * only).
	 */
	int (*event)(void *ctx, struct pt_event_hdr *hdr, const void *data); /* *hdr: may change */
	/*
	 * count events were dropped (ring full) before the next event
	 * delivered; first_ts is the time of the first of them (0: unknown;
	 * never in the future: -EBADMSG).
	 * A writer that died holding a reservation is reported as 1 lost.
	 * count is plausible: at most one event per ns per CPU since the last
	 * report (a larger count makes the consume fail with -EBADMSG).
	 */
	void (*lost)(void *ctx, uint64_t count, uint64_t first_ts);
	/*
	 * Does process pid share the region of the slot's process (it was
	 * forked from it, or from one that does)? Asked once per writer's
	 * context for a record that names a pid other than the slot's; NULL:
	 * none does. A record of a pid that does not is a lie (-EBADMSG); a
	 * sharer's is skipped when the stream does not inherit.
	 */
	bool (*shares)(void *ctx, pid_t pid);
	/*
	 * Optional: with the slot's process in a pid namespace below ours,
	 * the process that shares its region whose pid there is inner
	 * (forked since it was traced, gone perhaps): its pid in ours, or 0.
	 */
	pid_t (*outer)(void *ctx, pid_t inner);
	/*
	 * Optional: the events that follow come from the next sub-ring, a
	 * new run in (nearly) time order. Lets the caller sort each run and
	 * merge them instead of sorting everything.
	 */
	void (*run)(void *ctx);
	void *ctx;
};

/*
 * Claim a slot in the region of process pid (0 or getpid(): this process).
 * The slot starts disabled; except when pid enabled a provisional slot for
 * itself (PTBPF_UEV_PENDING, see uev_shm.h) and this consumer is the first
 * to attach: it adopts that slot, which stays enabled, keeps the events
 * written so far (delivered by the next consume, truncated to
 * max_data_size) and keeps its ring of UEV_PROV_RING bytes whatever
 * ring_bytes says (max_data_size is then at most UEV_PROV_MAX_DATA).
 * Errors: -ENOENT pid has no libposixtrace region; -EPERM/-EACCES no ptrace access; -ESRCH no such
 * process; -EBUSY no free slot; -EPROTO region of another layout version;
 * -EAGAIN the region exists but its creator has not written its header yet
 * (try again); -ENOMEM.
 */
int uev_consumer__attach(struct uev_consumer **out, pid_t pid, const struct uev_opts *o);

/* The same on an already open region descriptor (tests; fd is dup'ed). */
int uev_consumer__attach_fd(struct uev_consumer **out, int fd, pid_t pid, const struct uev_opts *o);
/* Returns once the ring's pages that an attach with prefault_async
 * allocates on a thread (so that the traced process does not fault them
 * in) are there. */
void uev_consumer__prefault_wait(struct uev_consumer *c);

/* Start or stop recording (the stream runs or not). */
int uev_consumer__set_enabled(struct uev_consumer *c, bool on);

/* Per-id filter applied in the traced process (default: all enabled). -EINVAL: not a user id. */
int uev_consumer__set_id_enabled(struct uev_consumer *c, uint32_t local_id, bool on);

/* Non-blocking drain: events delivered, or -errno (-EBADMSG: corrupt memory). */
int uev_consumer__consume(struct uev_consumer *c, const struct uev_cbs *cbs);

/* After the last uev_consumer__consume(): every record a later consume
 * delivers has a timestamp (CLOCK_MONOTONIC ns, as the producer's) >=
 * this, unless its writer stalled with a record reserved: then the
 * watermark stays where it was before that reservation. Never
 * decreases; 0 before the first consume. */
uint64_t uev_consumer__watermark(const struct uev_consumer *c);

/* Copy the validated name of local_id (NUL-terminated). -ENOENT: not registered;
 * -ENAMETOOLONG: buf too small; -EBADMSG: the entry is garbage. */
int uev_consumer__type_name(struct uev_consumer *c, uint32_t local_id, char *buf, size_t len);

/* Entries of the name table in use (ids 2048 .. 2048 + count - 1), >= 1. */
int uev_consumer__type_count(struct uev_consumer *c);

/* Bytes written by the traced process and not yet consumed (0: drained). */
size_t uev_consumer__pending(struct uev_consumer *c);
/* How full the fullest sub-ring is, in thousandths (1000: full). */
unsigned int uev_consumer__fill(struct uev_consumer *c);
/* Sub-rings holding data now: the runs the next consume would deliver. */
unsigned int uev_consumer__busy(struct uev_consumer *c);

/* The effective max data size and ring size (after rounding/clamping). */
size_t uev_consumer__max_data(const struct uev_consumer *c);
size_t uev_consumer__ring_size(const struct uev_consumer *c);

/* Release the slot; c may be NULL. */
void uev_consumer__detach(struct uev_consumer *c);

#endif /* PTBPF_UEV_CONSUMER_H */
