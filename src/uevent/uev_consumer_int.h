/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The user-event consumer's object, shared by its files: uev_attach.c
 * (taking a slot in a traced process's region, configuring and releasing
 * it) and uev_consumer.c (draining it).
 */
#ifndef PTBPF_UEV_CONSUMER_INT_H
#define PTBPF_UEV_CONSUMER_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "uevent/uev_consumer.h"
#include "uevent/uev_ns.h"
#include "uevent/uev_shm.h"

#define LOAD(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define LOAD_ACQ(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define STORE_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* What the records of a writer's pid get (see uev_attribute, uev_consumer.c). */
enum uev_verdict {
	UEV_UNCHECKED = 0,
	UEV_DELIVER,
	UEV_SKIP,      /* not this stream's: a child's, before we adopted the slot */
	UEV_SKIP_LOST, /* this stream's, perhaps, but of a pid we cannot vouch for */
	UEV_FORGED,
};

/* Our private state of one sub-ring. */
struct uev_csub {
	struct uev_sub *sb; /* its control block in the region */
	uint8_t *ring;	    /* our mapping of it */
	uint64_t tail;	    /* consumed up to here */
	uint64_t published; /* zeroed and stored in sub.tail up to here */
	bool stuck;
	uint64_t stuck_tail;
	uint64_t stuck_since;
	/* the writer's context of the last record read (see uev_shm.h) */
	bool ctx_known;
	int32_t ctx_tid;
	int32_t ctx_pid;
	uint64_t ctx_thread;
	uint64_t ctx_prog;
	uint32_t ctx_ts_hi;
	enum uev_verdict ctx_verdict; /* what records of ctx_pid get */
	uint64_t adopted_end; /* records before this were written before we adopted the slot */
	uint64_t lost_since;  /* since then the producers may have dropped events */
	uint64_t lost_total;  /* and they said they dropped this many */
	uint64_t wm;	      /* records still to come are this late at least */
};

struct uev_consumer {
	struct uev_ctl *ctl; /* our mapping of the control area */
	uint8_t *ring;	     /* our mapping of our slot's ring */
	struct uev_slot *sl;
	int fd;
	unsigned int slot;
	uint32_t gen;
	pid_t target;
	pid_t me;
	struct uev_ns ns;  /* target's ids in its own pid namespace */
	uint64_t own;	   /* what slot.own must read */
	uint64_t size;	   /* private copies: never re-read from the region */
	uint64_t sub_size; /* UEV_SUB_SIZE(size) */
	uint64_t map_size; /* UEV_NSUB * sub_size: what we map */
	uint32_t max_data; /* payload bytes delivered per event */
	uint32_t rec_max;  /* payload bytes a valid record may hold (>= max_data) */
	uint32_t flags;
	bool adopted; /* a provisional slot, events kept from before attach */
	struct uev_csub sub[UEV_NSUB];
	unsigned int first; /* the sub-ring the next consume starts with */
	uint64_t now;	    /* a recent CLOCK_MONOTONIC reading */
	uint64_t wm;	    /* the least of the sub-rings' wm, ever (never decreases) */
	uint64_t ncpus;	    /* producers that may drop events at once, at most */
	unsigned int corrupt;
	bool broken;
	bool prefaulting; /* prefault_thr runs uev_prefault(ring) */
	pthread_t prefault_thr;
};

#endif /* PTBPF_UEV_CONSUMER_INT_H */
