/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One drain's worth of events from every source, sorted by timestamp
 * before they enter the stream (sources are each in order, not together).
 */
#ifndef PTBPF_CORE_BATCH_H
#define PTBPF_CORE_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/event.h"
#include "core/populate.h"

struct batch_ent {
	uint64_t ts;
	uint64_t seq; /* arrival order: keeps the sort stable */
	size_t off;
};

#define BATCH_MAX_SEGS 16

struct batch {
	uint8_t *buf;
	size_t len, cap, res; /* res: bytes of address space reserved */
	struct batch_ent *ents;
	size_t n, ncap, nres;
	struct batch_ent *tmp; /* merge space, ncap entries */
	size_t tcap, tres;
	/* where each source's events start (a source is nearly in order) */
	size_t seg[BATCH_MAX_SEGS];
	unsigned int nseg;
	size_t keep_bytes, keep_n, keep_tmp; /* what batch__trim keeps */
};

int batch__init(struct batch *b);
/*
 * Allocate room for bytes of events and n entries now (and merge space for
 * batch__sort if merge), and touch it: a batch that stays within that
 * never allocates again. That much is kept by batch__trim().
 */
int batch__prealloc(struct batch *b, size_t bytes, size_t n, bool merge);
/* The same without merge, its memory faulted in through later (populate.h). */
int batch__prealloc_deferred(struct batch *b, size_t bytes, size_t n, struct populate *later);
/* An empty or small batch that grew past its preallocated size shrinks
 * back to it (the pages above are returned to the system). */
void batch__trim(struct batch *b);
/* Full at this size: a source stops adding when it returns true. */
static inline bool batch__full(const struct batch *b, size_t bytes)
{
	return b->len >= bytes || b->n >= b->ncap;
}
void batch__fini(struct batch *b);
void batch__reset(struct batch *b);
int batch__add(struct batch *b, const struct pt_event_hdr *h, const void *data);
/* The events added from now on come from another source. */
void batch__new_source(struct batch *b);
/*
 * Sort by timestamp, stable. Each source's events are nearly in order (a
 * ring written by several CPUs interleaves them a little): each segment is
 * insertion-sorted (linear on such input, qsort when the disorder is
 * large), then the segments are merged.
 */
void batch__sort(struct batch *b);

static inline const struct pt_event_hdr *batch__hdr(const struct batch *b, size_t i)
{
	return (const struct pt_event_hdr *)(const void *)(b->buf + b->ents[i].off);
}

static inline const void *batch__data(const struct batch *b, size_t i)
{
	return batch__hdr(b, i) + 1;
}

#endif
