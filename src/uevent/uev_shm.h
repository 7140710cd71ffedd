/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared-memory layout of the user-event transport.
 *
 * Every process linking libposixtrace creates, in a constructor, one memfd
 * named "ptbpf-uev" (MFD_CLOEXEC, sealed against shrinking and growing) of
 * UEV_TOTAL_SIZE bytes and maps it MAP_SHARED. The file is sparse: only the
 * pages that are touched cost memory. Layout (byte offsets):
 *
 *   0                 struct uev_ctl: header, the "any slot active" mask,
 *                     the name counter, UEV_NSLOTS slot control blocks and
 *                     the name table (UEV_NAMES_MAX entries)
 *   UEV_CTL_SIZE      ring of slot 0 (UEV_SLOT_MAX bytes reserved, the
 *                     controller uses the first slot.ring_size bytes)
 *   + s*UEV_SLOT_MAX  ring of slot s
 *
 * A controller (one trace stream) owns one slot: it claims it by CAS on
 * slot.own, writes the configuration and flips its bit in ctl.active.
 *
 * Provisional slot: a process started with PTBPF_UEV_PENDING=1 in its
 * environment enables, in its constructor, one slot of its own
 * (own = UEV_OWN(its pid, UEV_SLOT_PROV), target_pid = its pid, ring
 * UEV_PROV_RING bytes, max_data UEV_PROV_MAX_DATA, no filter, flags
 * UEV_SLOT_PROVISIONAL), so that events of its first milliseconds are
 * kept until a controller attaches; the children it forks meanwhile write
 * into it too (records carry their pids). The first controller attaching
 * to that pid adopts it with one CAS of own (UEV_SLOT_PROV -> its READY),
 * keeping its generation, then sets its flags (whether children go on
 * writing): the events already written are delivered (a child's only if
 * the stream inherits), the ring size stays UEV_PROV_RING. Nobody
 * adopted it after UEV_PROV_TTL_NS: the process releases it (checked on
 * the slow path, at the next event written). A process exiting while its
 * provisional slot holds events nobody adopted waits up to
 * UEV_PROV_EXIT_WAIT_NS for a controller (in a destructor).
 *
 * Sub-rings: a slot has UEV_NSUB rings ("sub-rings") of
 * UEV_SUB_SIZE(slot.ring_size) bytes each (ring_size, at most
 * UEV_SLOT_MAX / UEV_NSUB), sub-ring k at byte k * UEV_SUB_SIZE(ring_size)
 * of the slot's space, each with its own control block slot.sub[k]
 * (producer line: head, dropped, drop_ts, tail_cache; consumer line:
 * tail), so that threads writing at the same time seldom share a cache
 * line. A thread always writes into sub-ring (its tid % UEV_NSUB): its
 * events stay in order, and one thread alone has the whole ring_size
 * bytes (up to 4 MiB); across sub-rings the consumer merges by timestamp.
 *
 * A sub-ring holds records, each 8-byte aligned, never wrapping: a record
 * that does not fit before the end is preceded by a PAD record up to the
 * end. The producer reserves with a CAS on sub.head (checked against a
 * cached copy of the consumer's sub.tail, reloaded only when the sub-ring
 * looks full), then reads the clock (so a record reserved after a consumer
 * loaded head is later than a clock the consumer read before: its
 * watermark), stores a RESV or RESV_OWN commit word carrying the record's
 * length (and the tid, in uev_thr) first, then the rest, then publishes
 * the DATA commit word with a release store. A reservation sized for a
 * high half of the timestamp the clock then contradicts becomes a PAD
 * (anywhere in the sub-ring, at least a header long), and the writer
 * reserves again with its whole context. The consumer zeroes what it
 * consumed before advancing tail (in batches), so an unwritten commit word
 * is 0. Drops (sub-ring full) are counted per sub-ring and carried by the
 * next record of the same sub-ring.
 *
 * A record is a 12-byte header (struct uev_rec), optional parts in this
 * order, each present when its flag is set (unaligned, read with memcpy),
 * then the payload, padded to 8:
 *
 *   UEV_REC_THREAD  struct uev_thr    the writer's tid, pid, pthread_self()
 *   UEV_REC_LOST    struct uev_lost   drops before this record
 *   UEV_REC_TSHI    uint32_t          the high 32 bits of the timestamp
 *   UEV_REC_PROG    uint64_t          the caller of posix_trace_event
 *
 * The writer's context (tid, pid, pthread_t, caller, the timestamp's high
 * half) is not repeated in every record: a record without one of these
 * parts has the value of the record just before it in its sub-ring, which
 * the same thread wrote. A thread leaves them out only when its
 * reservation starts where its previous record in that sub-ring (same slot
 * generation) ended, so that no other writer's record can come between
 * (RESV_OWN says so before the record is committed); after a fork the
 * child sends its own. The events of one thread writing alone cost a
 * 12-byte header instead of 48: on a machine where the first write to a
 * page is expensive (shadow page tables), a burst's cost follows the bytes
 * it writes.
 *
 * Commit word (u32): bits 31..28 the record position / 8 (low 4 bits, a
 * sanity tag), bits 27..24 the kind, bits 23..0 the payload length (DATA)
 * or the whole record length (PAD, RESV, RESV_OWN).
 *
 * Everything the consumer reads from here is untrusted: it copies and
 * validates every field (see uev_attach.c and uev_consumer.c).
 */
#ifndef PTBPF_UEV_SHM_H
#define PTBPF_UEV_SHM_H

#include <stdint.h>

#define UEV_MAGIC      0x3156454255425450ULL /* "PTBUEBV1" little-endian */
#define UEV_VERSION    4 /* 4: timestamps read after the reservation, PADs anywhere */
#define UEV_MEMFD_NAME "ptbpf-uev"
#define UEV_MEMFD_LINK "/memfd:ptbpf-uev (deleted)"

#define UEV_NSLOTS	 8
#define UEV_NAMES_MAX	 256  /* TRACE_USER_EVENT_MAX, index 0 is the unnamed event */
#define UEV_NAME_LEN	 64   /* TRACE_EVENT_NAME_MAX, NUL included */
#define UEV_ID_BASE	 2048 /* PTBPF_EV_USER_BASE: local id = UEV_ID_BASE + index */
#define UEV_UNNAMED_NAME "posix_trace_unnamed_userevent"

#define UEV_CTL_SIZE	(64u * 1024)
#define UEV_SLOT_MAX	(16u * 1024 * 1024)
#define UEV_RING_MIN	4096u
#define UEV_TOTAL_SIZE	((uint64_t)UEV_CTL_SIZE + (uint64_t)UEV_NSLOTS * UEV_SLOT_MAX)
#define UEV_RING_OFF(s) ((uint64_t)UEV_CTL_SIZE + (uint64_t)(s)*UEV_SLOT_MAX)

/* slot.own: (owner pid << 32) | state */
#define UEV_SLOT_FREE	  0u
#define UEV_SLOT_CLAIMING 1u /* being set up by its owner */
#define UEV_SLOT_READY	  2u /* producers may look at it */
#define UEV_SLOT_PROV	  3u /* provisional: created by the process itself (owner pid), */
/* written like READY, adopted by the first controller */
#define UEV_OWN(pid, st)   (((uint64_t)(uint32_t)(pid) << 32) | (st))
#define UEV_OWN_PID(own)   ((int32_t)((own) >> 32))
#define UEV_OWN_STATE(own) ((uint32_t)(own))

/* The provisional slot (see above). */
#define UEV_PENDING_ENV "PTBPF_UEV_PENDING"
#define UEV_NSUB	4u /* sub-rings per slot, a power of two */
#define UEV_SUB_SHIFT	2u /* log2(UEV_NSUB) */
#define UEV_SUB_MAX	(UEV_SLOT_MAX / UEV_NSUB)
#define UEV_SUB_SIZE(ring_size)                                                                    \
	((ring_size) < UEV_SUB_MAX ? (uint64_t)(ring_size) : (uint64_t)UEV_SUB_MAX)
/*
 * The adopted ring keeps this size for the stream's life: the largest a
 * sub-ring gets (a thread has UEV_SUB_MAX bytes, as in a claimed slot of a
 * stream of 2 MiB or more): smaller, `ptbpf record` lost most of a burst
 * that a stream of its own size kept whole. Sparse: only the pages written
 * cost memory until a controller adopts it.
 */
#define UEV_PROV_RING	  UEV_SUB_MAX
#define UEV_PROV_MAX_DATA (UEV_PROV_RING / 4 - 64u) /* 4 * UEV_REC_MAX() == the ring */
#define UEV_PROV_TTL_NS	  (10ull * 1000000000ull)
/* At exit, wait this long at most for the adoption of a non-empty one. */
#define UEV_PROV_EXIT_WAIT_NS (500ull * 1000000ull)

/* slot.flags */
#define UEV_SLOT_ENABLED 0x1u /* the stream runs */
#define UEV_SLOT_INHERIT 0x2u /* forked children keep writing (POSIX_TRACE_INHERITED) */
/*
 * A provisional slot its controller has not configured yet: children
 * forked meanwhile write into it too, until the controller's flags say
 * whether they may (UEV_SLOT_INHERIT).
 */
#define UEV_SLOT_PROVISIONAL 0x4u

/* name.state */
#define UEV_NAME_EMPTY	 0u
#define UEV_NAME_WRITING 1u
#define UEV_NAME_READY	 2u

/* Commit word. */
#define UEV_KIND_DATA	  1u
#define UEV_KIND_PAD	  2u
#define UEV_KIND_RESV	  3u /* being written; uev_thr follows the header */
#define UEV_KIND_RESV_OWN 4u /* being written by the writer of the record before */
#define UEV_COMMIT(pos, kind, len)                                                                 \
	((uint32_t)((((pos) >> 3) & 0xfu) << 28) | ((uint32_t)(kind) << 24) | (uint32_t)(len))
#define UEV_COMMIT_TAG(c)  ((uint32_t)(c) >> 28)
#define UEV_POS_TAG(pos)   ((uint32_t)((pos) >> 3) & 0xfu)
#define UEV_COMMIT_KIND(c) (((uint32_t)(c) >> 24) & 0xfu)
#define UEV_COMMIT_LEN(c)  ((uint32_t)(c)&0x00ffffffu)
/* reserved, not committed yet */
#define UEV_COMMIT_RESERVED(c)                                                                     \
	(UEV_COMMIT_KIND(c) == UEV_KIND_RESV || UEV_COMMIT_KIND(c) == UEV_KIND_RESV_OWN)
#define UEV_LEN_MAX 0x00ffffffu

/* uev_rec.flags */
#define UEV_REC_TRUNC  0x01u /* payload truncated to max_data */
#define UEV_REC_THREAD 0x02u /* struct uev_thr follows the header */
#define UEV_REC_LOST   0x04u /* struct uev_lost follows */
#define UEV_REC_TSHI   0x08u /* uint32_t, the timestamp's high half, follows */
#define UEV_REC_PROG   0x10u /* uint64_t caller address follows */
#define UEV_REC_FLAGS  0x1fu

#define UEV_ALIGN8(x) (((x) + 7u) & ~(uint64_t)7u)

struct uev_rec {
	uint32_t commit; /* written last (release); RESV | length first */
	uint32_t ts_lo;	 /* CLOCK_MONOTONIC ns, low 32 bits */
	uint16_t idx;	 /* user event index: id - UEV_ID_BASE */
	uint16_t flags;	 /* UEV_REC_* */
			 /* [uev_thr] [uev_lost] [ts_hi] [prog] payload, padding to 8 */
};
_Static_assert(sizeof(struct uev_rec) == 12, "uev_rec layout");

/* The writer's context, sent when its previous record is not just before. */
struct uev_thr {
	int32_t tid; /* first: the dead-writer check reads it (RESV) */
	int32_t pid;
	uint64_t thread; /* pthread_self() */
} __attribute__((packed));
_Static_assert(sizeof(struct uev_thr) == 16, "uev_thr layout");

/* Events this slot dropped (ring full) before the record carrying this. */
struct uev_lost {
	uint64_t count;
	uint64_t first_ts;
} __attribute__((packed));
_Static_assert(sizeof(struct uev_lost) == 16, "uev_lost layout");

#define UEV_REC_EXTRA                                                                              \
	(sizeof(struct uev_thr) + sizeof(struct uev_lost) + sizeof(uint32_t) + sizeof(uint64_t))

/* Bytes of the optional parts a record with these flags carries. */
static inline uint32_t uev_rec_extra(uint32_t flags)
{
	return ((flags & UEV_REC_THREAD) ? (uint32_t)sizeof(struct uev_thr) : 0) +
	       ((flags & UEV_REC_LOST) ? (uint32_t)sizeof(struct uev_lost) : 0) +
	       ((flags & UEV_REC_TSHI) ? (uint32_t)sizeof(uint32_t) : 0) +
	       ((flags & UEV_REC_PROG) ? (uint32_t)sizeof(uint64_t) : 0);
}
#define UEV_REC_MAX(max_data) UEV_ALIGN8(sizeof(struct uev_rec) + UEV_REC_EXTRA + (max_data))
_Static_assert(4 * UEV_REC_MAX(UEV_PROV_MAX_DATA) <= UEV_SUB_SIZE(UEV_PROV_RING),
	       "provisional slot sizes");
_Static_assert(UEV_SUB_MAX >= 2 * UEV_REC_MAX(1024u * 1024), "largest record fits a sub-ring");
_Static_assert(UEV_SUB_MAX <= UEV_LEN_MAX, "a PAD or RESV length fits the commit word");
_Static_assert((1u << UEV_SUB_SHIFT) == UEV_NSUB, "UEV_NSUB is 1 << UEV_SUB_SHIFT");

/* One sub-ring's control block: two cache lines. */
struct uev_sub {
	/* producers */
	uint64_t head;	     /* bytes reserved, ever */
	uint64_t dropped;    /* events dropped, not yet reported */
	uint64_t drop_ts;    /* timestamp of the first of them */
	uint64_t tail_cache; /* a recent copy of tail, so producers seldom read tail */
	uint64_t pad0_[4];
	/* consumer */
	uint64_t tail __attribute__((aligned(64))); /* bytes consumed, ever */
	uint64_t pad1_[7];
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct uev_sub) == 128, "uev_sub layout");

struct uev_slot {
	/* line 0: configuration, written by the owner, read by producers */
	uint64_t own;			     /* UEV_OWN(owner pid, state) */
	uint32_t gen;			     /* bumped at each claim */
	uint32_t flags;			     /* UEV_SLOT_* */
	int32_t target_pid;		     /* the process this stream traces */
	uint32_t max_data;		     /* payload bytes kept per event */
	uint64_t ring_size;		     /* power of two, UEV_RING_MIN .. UEV_SLOT_MAX */
	uint64_t filter[UEV_NAMES_MAX / 64]; /* bit set: index filtered out */
	/* lines 1..: the sub-rings (UEV_NSUB parts of ring_size bytes each) */
	struct uev_sub sub[UEV_NSUB] __attribute__((aligned(64)));
};
_Static_assert(sizeof(struct uev_slot) == 64 + 128 * UEV_NSUB, "uev_slot layout");

struct uev_name {
	uint32_t state; /* UEV_NAME_* */
	uint32_t reserved;
	char name[UEV_NAME_LEN];
};
_Static_assert(sizeof(struct uev_name) == 72, "uev_name layout");

struct uev_ctl {
	/* Header: constant after creation; a consumer checks every field. */
	uint64_t magic;
	uint32_t version;
	uint32_t nslots;
	uint32_t names_max;
	uint32_t name_len;
	uint32_t ctl_size;
	uint32_t slot_max;
	uint64_t total_size;
	int32_t creator_pid;
	uint32_t reserved0;
	/* Bit s: slot s is enabled. The whole fast path reads only this. */
	uint64_t active __attribute__((aligned(64)));
	/* Entries of names[] that were claimed (EMPTY after it). */
	uint32_t name_count __attribute__((aligned(64)));
	struct uev_slot slots[UEV_NSLOTS] __attribute__((aligned(64)));
	struct uev_name names[UEV_NAMES_MAX];
};
_Static_assert(sizeof(struct uev_ctl) <= UEV_CTL_SIZE, "uev_ctl fits");

/* Empty every sub-ring of a slot being set up (its owner is not yet published). */
static inline void uev_slot_reset_subs(struct uev_slot *sl)
{
	for (unsigned int k = 0; k < UEV_NSUB; k++) {
		struct uev_sub *sb = &sl->sub[k];

		__atomic_store_n(&sb->head, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sb->dropped, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sb->drop_ts, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sb->tail, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sb->tail_cache, 0, __ATOMIC_RELAXED);
	}
}

#endif /* PTBPF_UEV_SHM_H */
