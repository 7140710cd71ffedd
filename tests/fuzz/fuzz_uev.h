/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The state of one input of the user-event fuzz target, shared by the
 * driver (fuzz_uev_consumer.c: the consumer, the real producer, the model)
 * and the direct writes into the region (fuzz_uev_writes.c).
 */
#ifndef PTBPF_FUZZ_UEV_H
#define PTBPF_FUZZ_UEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "uevent/uev_consumer.h"
#include "uevent/uev_shm.h"

#define PAYLOAD_MAX (UEV_CONSUMER_MAX_DATA + 512)

/* One input: its bytes, the region, the consumer, the model of what it must give. */
struct run {
	const uint8_t *in;
	size_t len, pos;
	int fd;
	struct uev_ctl *ctl; /* the producer's mapping: the hostile side */
	struct uev_consumer *c;
	struct uev_opts opts;
	unsigned int slot; /* the consumer's, or the one it will take */
	uint64_t sub_size; /* the consumer's, once attached */
	bool prov, attached, attach_failed;
	int free_fd;	 /* the lowest free descriptor before attach */
	bool dirty;	 /* a hostile operation ran: no model checks */
	bool lost_blind; /* a drain without lost callback: drop totals unknown */
	uint64_t t0;	 /* timestamps are written around it */
	/* the model */
	uint32_t seq, q_head, q_tail;
	uint64_t drops, lost_total, last_lost, last_lost_ts;
	bool lost_fresh; /* a lost() came since the last event */
	char names[UEV_NAMES_MAX][UEV_NAME_LEN];
	uint32_t name_count;
	/* the drain under way */
	bool in_consume, stopped;
	int events, stop_after, stop_ret, nest_at, nest_ops, depth;
	uint64_t t_consume;
	bool nested; /* the traced process wrote from within this drain */
	uint64_t wm; /* the consumer's watermark after the last drain */
	/* totals, printed with FUZZ_UEV_VERBOSE=1 (what a seed reaches) */
	unsigned int n_events, n_consumes, n_corrupt;
};

static inline void must(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_uev_consumer: broken invariant: %s\n", what);
		abort();
	}
}

/* n little-endian bytes of the input (zeros once it is used up). */
static inline uint64_t rd(struct run *r, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n && r->pos < r->len; i++)
		v |= (uint64_t)r->in[r->pos++] << (8 * i);
	return v;
}

static inline struct uev_slot *slot_of(struct run *r)
{
	return &r->ctl->slots[r->slot];
}

/* The payload bytes of event seq (PAYLOAD_MAX of them). */
const uint8_t *pat(uint32_t seq);

/* Operations writing into the region directly (fuzz_uev_writes.c). */
void op_name(struct run *r);
void op_subf(struct run *r);
void op_slotf(struct run *r);
void op_slotb(struct run *r);
void op_ringb(struct run *r);
void op_rec(struct run *r);

#endif
