/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Traced-process side of the user-event transport (see uev_shm.h).
 *
 * A constructor creates this process's region (memfd "ptbpf-uev"). The
 * fast path of posix_trace_event is uev_producer__active(): one load of a
 * global pointer and one load of the "any slot enabled" word it points to.
 *
 * Fork (pthread_atfork child handler): the child shares the parent's
 * region (MAP_SHARED, the memfd descriptor is inherited too), so it keeps
 * the parent's name table and ids. It writes into a slot only if the slot
 * traces its own pid (target_pid), or if the slot was set up with
 * UEV_SLOT_INHERIT and the parent wrote into it at fork time (same
 * generation). A slot of a CLOSE_FOR_CHILD stream is never written by the
 * child. A controller attaching to the child later finds the inherited
 * memfd in /proc/CHILD/fd and claims its own slot with target_pid = child.
 * After exec the mapping and the descriptor are gone (MFD_CLOEXEC); a
 * program linking libposixtrace creates a fresh region.
 *
 * PTBPF_UEV_PENDING=1 in the environment (set it in the environment of a
 * program you are about to trace; ptbpf record does): the constructor
 * also enables a provisional slot, so the events of the first
 * milliseconds wait for the controller (see uev_shm.h). A forked child
 * does not write into its parent's provisional slot. A tracer may ask for
 * it without the variable, through the semaphore of the USDT probe
 * ptbpf:early (uev_producer__want_provisional()).
 */
#ifndef PTBPF_UEV_PRODUCER_H
#define PTBPF_UEV_PRODUCER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uevent/uev_shm.h"

/*
 * The per-process state every posix_trace_event reads, alone in one cache
 * line so that no application data written often shares it.
 */
struct uev_hot {
	const uint64_t *active_word;	  /* ctl->active, or a zero word */
	struct uev_ctl *ctl;		  /* this process's region */
	int fd;				  /* its memfd, -1 if none */
	pid_t pid;			  /* getpid(), updated at fork */
	uint32_t inherit_mask;		  /* slots inherited at fork ... */
	uint32_t inherit_gen[UEV_NSLOTS]; /* ... and their generation then */
} __attribute__((aligned(64)));

extern struct uev_hot uev_producer__hot;

/*
 * Create this process's region (once; the library's constructor calls it,
 * so that a controller finds the region of a process that has not called
 * posix_trace_event yet). Returns the "any slot enabled" word.
 */
const uint64_t *uev_producer__init(void);

/*
 * Asks the first uev_producer__init() for a provisional slot, as
 * PTBPF_UEV_PENDING does: the library's constructor calls it when a tracer
 * raised the semaphore of the probe ptbpf:early (see src/api/user_event.c).
 */
void uev_producer__want_provisional(void);

/* True when some consumer slot of this process's region is enabled. */
static inline int uev_producer__active(void)
{
	return __atomic_load_n(uev_producer__hot.active_word, __ATOMIC_RELAXED) != 0;
}

/*
 * Record one event in every slot that wants it, each record timestamped
 * once reserved (see uev_shm.h). Never blocks, never fails.
 */
void uev_producer__emit(uint32_t id, const void *data, size_t len, const void *prog);

/*
 * The id of a user event name: 0 and *id = UEV_ID_BASE + index, the same
 * index for the same name; UEV_ID_BASE (unnamed) when the table is full.
 * -ENAMETOOLONG: name has UEV_NAME_LEN or more bytes.
 */
int uev_producer__eventid_open(const char *name, uint32_t *id);

/* This process's region and its memfd (-1 if anonymous). -ENOENT: none. */
int uev_producer__self(int *fd, struct uev_ctl **ctl);

/* Create and initialise a region (used by the constructor and the tests). */
int uev_producer__region_create(int *fd, struct uev_ctl **ctl);

/*
 * Write one event into slot s of region ctl, ignoring target/inheritance,
 * timestamped once its record is reserved, as uev_producer__emit() does.
 */
void uev_producer__write_slot(struct uev_ctl *ctl, unsigned int s, uint32_t idx, const void *data,
			      size_t len, const void *prog);
/* The same with a given timestamp, kept as it is (tests). */
void uev_producer__write_slot_at(struct uev_ctl *ctl, unsigned int s, uint32_t idx,
				 const void *data, size_t len, const void *prog, uint64_t ts);

/*
 * Enable a provisional slot (see uev_shm.h) for process pid in region ctl:
 * the slot index, or -EBUSY (no free slot). Used by prov_start and tests.
 */
int uev_producer__prov_init(struct uev_ctl *ctl, pid_t pid);

/*
 * Enable a provisional slot in this process's region, released by the
 * next event written ttl_ns after this call if no controller adopted it.
 * The constructor calls it with UEV_PROV_TTL_NS when the environment has
 * PTBPF_UEV_PENDING set (not "0"). The slot index, or -ENOENT (no memfd
 * region), -EBUSY.
 */
int uev_producer__prov_start(uint64_t ttl_ns);

#endif /* PTBPF_UEV_PRODUCER_H */
