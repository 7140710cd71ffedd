/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel backend's object, shared by its files: kern.c (load,
 * control) and kern_consume.c (drain).
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

	struct pidns *pidns; /* the caller's pid namespace, NULL: the initial one */
	bool no_probes;	     /* the probe programs were not loaded (kern_progs.c) */
	bool counting;	     /* syscalls counted in the kernel (bpf/count.bpf.h) */
};

/*
 * kern_progs.c: the programs of skel loaded for the options (autoload) and
 * the tables they read (rodata). -errno.
 */
int kern_progs__choose(struct kern_bpf *skel, const struct kern_opts *o);

/* The rings' arrays, for kb->nrings rings. */
int kern_backend__ring_arrays(struct kern_backend *kb);
/* The rings of kb->ring_fds mapped, and watched by one epoll fd. */
int kern_backend__map_rings(struct kern_backend *kb, size_t per);

#endif
