/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One drain's worth of events from every source, sorted by timestamp
 * before they enter the stream (sources are each in order, not together).
 */
#ifndef PTBPF_CORE_BATCH_H
#define PTBPF_CORE_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

struct batch_ent {
	uint64_t ts;
	uint64_t seq; /* arrival order: keeps the sort stable */
	size_t off;
};

struct batch {
	uint8_t *buf;
	size_t len, cap;
	struct batch_ent *ents;
	size_t n, ncap;
};

int batch__init(struct batch *b);
void batch__fini(struct batch *b);
void batch__reset(struct batch *b);
int batch__add(struct batch *b, const struct pt_event_hdr *h, const void *data);
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
