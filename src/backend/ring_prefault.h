/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's first write to the pages of the kernel backend's fresh
 * rings, made while the stream is created (bpf/ring_prefault.bpf.c says
 * why): a MiB of a ring per step, for as long as the caller has time;
 * the rest of the first lap is then passed over, so that the traced
 * processes start writing where the pages are done.
 */
#ifndef PTBPF_BACKEND_RING_PREFAULT_H
#define PTBPF_BACKEND_RING_PREFAULT_H

#include <stdbool.h>
#include <stddef.h>

struct ring_prefault;

/*
 * For the n rings of size bytes each in the outer map outer (ring_fds:
 * their fds, by index), which no program writes to yet. -errno.
 */
int ring_prefault__open(struct ring_prefault **out, int outer, const int *ring_fds, int n,
			size_t size);

/*
 * The next MiB of one ring (or all of a smaller one), the rings in turn:
 * false when all are done, or on a failure.
 */
bool ring_prefault__step(struct ring_prefault *p);

/*
 * End the rings' first lap and move each consumer position to its
 * producer's: the rings then hold no record, as new. Frees p (NULL: a
 * no-op).
 */
void ring_prefault__finish(struct ring_prefault *p);

#endif
