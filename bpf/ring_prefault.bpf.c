// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/*
 * Makes the kernel write the pages of a fresh ring once, through the
 * address BPF programs write it at, before the traced processes do. On a
 * virtual machine with shadow page tables the first write to each page
 * costs microseconds, which the traced syscalls would otherwise pay, one
 * page every few calls, for the whole first lap of the ring.
 *
 * Run with BPF_PROG_TEST_RUN, its arguments the ring's index in rings (the
 * kernel backend's outer map) and a count: reserves and discards that many
 * records (RING_PREFAULT_BATCH at most) and returns how many it could.
 * Nothing consumes them until user space moves the consumer position past
 * them all.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "ring_prefault.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* the kernel backend's map, by its fd */
#include "rings.bpf.h"

/* a macro, not a function: the record size must be a constant */
#define RESERVE_DISCARD(ctx, size)                                                                 \
	({                                                                                         \
		__u32 idx = (__u32)(ctx)[0], count = (__u32)(ctx)[1];                              \
		void *ring = bpf_map_lookup_elem(&rings, &idx);                                    \
		int n = 0;                                                                         \
                                                                                                   \
		for (; ring && n < RING_PREFAULT_BATCH && n < count; n++) {                        \
			void *r = bpf_ringbuf_reserve(ring, (size)-8, 0);                          \
                                                                                                   \
			if (!r)                                                                    \
				break;                                                             \
			bpf_ringbuf_discard(r, BPF_RB_NO_WAKEUP);                                  \
		}                                                                                  \
		n;                                                                                 \
	})

/* A record a page: every page of them written. */
SEC("raw_tp")
int ptbpf_ring_prefault(__u64 *ctx)
{
	return RESERVE_DISCARD(ctx, RING_PREFAULT_PAGE);
}

/* A record a MiB: the rest of the lap, its first page only. */
SEC("raw_tp")
int ptbpf_ring_skip(__u64 *ctx)
{
	return RESERVE_DISCARD(ctx, RING_PREFAULT_SKIP);
}
