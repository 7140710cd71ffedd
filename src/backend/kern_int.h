/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel backend's object, shared by its files: kern.c (load,
 * control), kern_consume.c (drain) and kern_kept.c (kept programs).
 */
#ifndef PTBPF_BACKEND_KERN_INT_H
#define PTBPF_BACKEND_KERN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/kern.h"
#include "backend/kring.h"
#include "backend/probe.h"

struct kern_bpf;
struct kern_stacks;
struct kern_rec;

/* The BPF side's counters and flags, read and written while it runs */
#define KERN_RD(p)    __atomic_load_n(&(p), __ATOMIC_RELAXED)
#define KERN_WR(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELAXED)

/* One CPU's ring, and its head record during a drain. */
struct kern_ring {
	struct kern_backend *kb;
	struct kring kr;
	unsigned long limit;	     /* the drain takes the records before this */
	const struct kern_rec *head; /* NULL: none before the limit, or a busy one */
	size_t head_size;
	uint64_t watermark; /* this ring's part of kern_backend__watermark() */
};

struct kern_backend {
	struct kern_bpf *skel;
	int epfd; /* every ring's fd: readable when the BPF side woke us */
	int nrings;
	int *active; /* rings with a head record, during a drain */
	int *ring_fds;
	struct kern_ring *rings;
	/* drain state, valid while consuming */
	const struct kern_cbs *cbs;
	int count;
	bool stop;
	uint64_t watermark; /* kern_backend__watermark(), kept from drain to drain */
	/* loss accounting: drops reported so far, first drop time pending */
	uint64_t dropped_seen;
	uint64_t lost_ts;
	struct probe_links probes; /* uprobes, uretprobes, USDT probes */
	bool inherit;		   /* probes attached in every process (see add_probe) */

	/* with stack_fp or stack_kernel: the stacks seen */
	struct kern_stacks *stacks;
	unsigned int stack_depth; /* their frames, the user stack's area */
	bool stack_user;	  /* KERN_ID_STACK records have a user stack area */

	/* kept programs (common/keep.h): the set goes to a helper for
	 * keep_ms after the stream, under keep_key */
	uint64_t keep_key;
	unsigned int keep_ms;
	size_t keep_rings_max; /* rings larger than this in all are not kept */
	bool keep_ok;	       /* loaded or taken whole, and attached */
	bool no_take;	       /* load, even if a set is kept */
	int *kept_progs;       /* a taken set's programs (libbpf's are not loaded) */
	int nkept_progs;
	int *kept_links; /* their attachments */
	int nkept_links;
	struct kern_bpf *probe_skel; /* a taken set's probe programs, at the first probe */
	struct pidns *pidns;	     /* the caller's pid namespace, NULL: the initial one */
};

/* The rings' arrays, for kb->nrings rings. */
int kern_backend__ring_arrays(struct kern_backend *kb);
/* The rings of kb->ring_fds mapped, and watched by one epoll fd. */
int kern_backend__map_rings(struct kern_backend *kb, size_t per);

/* The key of the set these settings load (rodata, maps, programs, rings). */
uint64_t kern_kept__key(struct kern_backend *kb, size_t per);
/*
 * The set kept under kb->keep_key made the backend's, attached, rings
 * mapped: 0; or a negative errno: -ENOENT, -EPERM, -EPROTO or -EBUSY (its
 * programs still attached elsewhere) when the backend is as it was (load
 * it); -ESTALE when the set was taken but did not attach (open the backend
 * anew); others when it failed.
 */
int kern_kept__take(struct kern_backend *kb, size_t per);
/* Detach, and hand the set to a helper for kb->keep_ms (at the end). */
void kern_kept__give(struct kern_backend *kb);
/* The skeleton whose probe programs are loaded (on a taken set, loaded
 * now: the first probe); NULL with errno. */
struct kern_bpf *kern_kept__probe_skel(struct kern_backend *kb);
/* The loaded programs' fds (a taken set's, or the skeleton's), at most
 * max: how many, or -E2BIG. */
int kern_kept__prog_fds(struct kern_backend *kb, int *fds, int max);
/* The id of a program fd, 0 if it cannot be had. */
__u32 kern_kept__prog_id(int fd);
/* Free what a taken set added to the backend (after kern_kept__give). */
void kern_kept__free(struct kern_backend *kb);

#endif
