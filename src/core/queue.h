/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stream buffer: a byte ring of variable-size event records, oldest
 * first. A record never wraps: when it does not fit before the end, the
 * rest of the ring is skipped (a pad) and it starts at offset 0. The ring
 * has room for one largest record of slack, so a stream of N bytes always
 * holds events whose costs add up to N.
 */
#ifndef PTBPF_CORE_QUEUE_H
#define PTBPF_CORE_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/event.h"
#include "core/populate.h"

struct pt_queue {
	uint8_t *buf;
	size_t cap;	   /* bytes of buf */
	size_t limit;	   /* bytes of record cost the stream may hold */
	size_t max_record; /* largest record accepted */
	size_t head;	   /* offset of the oldest record */
	size_t tail;	   /* offset where the next record goes */
	size_t used;	   /* bytes of records (pads excluded) */
	size_t wasted;	   /* bytes skipped as pads */
	size_t count;	   /* records held */
	/* the newest record (count > 0), for queue__take_newer()'s usual case */
	uint64_t last_ts;
	size_t last;	  /* its offset, or QUEUE_UNKNOWN */
	uint64_t prev_ts; /* ts of the record before it, if prev_known */
	bool prev_known;
};

#define QUEUE_UNKNOWN ((size_t)-1)

/* Bytes a record with data_len bytes of data costs. */
size_t queue__record_size(size_t data_len);

/* limit: stream size; max_record: the largest record that may be pushed. */
int queue__init(struct pt_queue *q, size_t limit, size_t max_record);
/* The same, its memory beyond the first MiBs faulted in later (populate.h). */
int queue__init_deferred(struct pt_queue *q, size_t limit, size_t max_record,
			 struct populate *later);
void queue__fini(struct pt_queue *q);
void queue__clear(struct pt_queue *q);

/* Bytes of records that still fit (a record fits when its size does). */
static inline size_t queue__room(const struct pt_queue *q)
{
	return q->limit - q->used;
}

/* True when a record of data_len bytes fits now. */
bool queue__fits(const struct pt_queue *q, size_t data_len);
/* Append; -ENOSPC when it does not fit, -EMSGSIZE when it never would. */
int queue__push(struct pt_queue *q, const struct pt_event_hdr *h, const void *data);
/* The oldest record, or NULL when empty. */
const struct pt_event_hdr *queue__peek(const struct pt_queue *q);
void queue__pop(struct pt_queue *q);

/*
 * Walk the records oldest first without removing them (cheaper than peek
 * and pop when the whole queue goes, then queue__clear()): a zeroed
 * struct queue_iter starts a walk; NULL at the end.
 */
struct queue_iter {
	size_t off, left;
	bool started;
};
const struct pt_event_hdr *queue__next(const struct pt_queue *q, struct queue_iter *it);

/*
 * Remove the newest records, those after the last one with a timestamp not
 * above ts, handing each (oldest first) to fn before. Returns how many were
 * removed; *last_kept_ts is the timestamp of the newest record left (unset
 * when none is left).
 */
size_t queue__take_newer(struct pt_queue *q, uint64_t ts, uint64_t *last_kept_ts,
			 void (*fn)(void *ctx, const struct pt_event_hdr *h, const void *data),
			 void *ctx);

static inline const void *queue__data(const struct pt_event_hdr *h)
{
	return h + 1;
}

static inline bool queue__empty(const struct pt_queue *q)
{
	return q->count == 0;
}

#endif
