/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/queue.h"
#include "common/pages.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* Each record: a 8-byte size word, the event header, the data, 8-aligned. */
struct qrec {
	uint32_t size; /* total bytes of this record, or of the pad */
	uint32_t pad;  /* 1: skip to offset 0 */
};

#define QALIGN(x) (((x) + 7) & ~(size_t)7)

size_t queue__record_size(size_t data_len)
{
	return QALIGN(sizeof(struct qrec) + sizeof(struct pt_event_hdr) + data_len);
}

int queue__init(struct pt_queue *q, size_t limit, size_t max_record)
{
	memset(q, 0, sizeof(*q));
	q->limit = limit;
	/* Slack for one pad of up to a record, plus a pad marker. */
	q->max_record = QALIGN(max_record);
	q->cap = QALIGN(limit) + q->max_record + sizeof(struct qrec);
	q->last = QUEUE_UNKNOWN;
	/*
	 * Populated and touched now (common/pages.h): the stream's memory does
	 * not grow while it records, and recording takes no page fault nor
	 * first access to a page (microseconds each on a virtual machine).
	 */
	q->buf = mmap(NULL, q->cap, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (q->buf == MAP_FAILED) {
		q->buf = NULL;
		return -ENOMEM;
	}
	pages__touch_write(q->buf, q->cap);
	return 0;
}

int queue__init_deferred(struct pt_queue *q, size_t limit, size_t max_record,
			 struct populate *later)
{
	memset(q, 0, sizeof(*q));
	q->limit = limit;
	q->max_record = QALIGN(max_record);
	q->cap = QALIGN(limit) + q->max_record + sizeof(struct qrec);
	q->last = QUEUE_UNKNOWN;
	q->buf = mmap(NULL, q->cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q->buf == MAP_FAILED) {
		q->buf = NULL;
		return -ENOMEM;
	}
	populate__add(later, q->buf, q->cap, POPULATE_EAGER);
	return 0;
}

void queue__fini(struct pt_queue *q)
{
	if (q->buf)
		munmap(q->buf, q->cap);
	q->buf = NULL;
}

void queue__clear(struct pt_queue *q)
{
	q->head = q->tail = q->used = q->wasted = q->count = 0;
	q->last = QUEUE_UNKNOWN;
	q->prev_known = false;
}

/* Where a record of sz bytes would start, or (size_t)-1 if no room. */
static size_t queue__place(const struct pt_queue *q, size_t sz)
{
	if (q->used + sz > q->limit)
		return (size_t)-1;
	if (q->count == 0)
		return 0;
	if (q->tail >= q->head) {
		/* Free: [tail, cap) and [0, head). A pad needs a marker. */
		if (q->tail + sz <= q->cap)
			return q->tail;
		if (sz <= q->head)
			return 0;
		return (size_t)-1;
	}
	return q->tail + sz <= q->head ? q->tail : (size_t)-1;
}

bool queue__fits(const struct pt_queue *q, size_t data_len)
{
	return queue__place(q, queue__record_size(data_len)) != (size_t)-1;
}

int queue__push(struct pt_queue *q, const struct pt_event_hdr *h, const void *data)
{
	size_t sz = queue__record_size(h->data_len);
	size_t at;
	struct qrec *r;

	if (sz > q->limit || sz > q->max_record)
		return -EMSGSIZE;
	at = queue__place(q, sz);
	if (at == (size_t)-1)
		return -ENOSPC;
	if (q->count == 0) {
		q->head = q->tail = 0;
	} else if (at == 0 && q->tail != 0 && q->tail < q->cap) {
		/* tail is 8-aligned below cap, so a marker always fits */
		r = (struct qrec *)(q->buf + q->tail);
		r->size = (uint32_t)(q->cap - q->tail);
		r->pad = 1;
		q->wasted += q->cap - q->tail;
	}
	r = (struct qrec *)(q->buf + at);
	r->size = (uint32_t)sz;
	r->pad = 0;
	memcpy(r + 1, h, sizeof(*h));
	if (h->data_len)
		memcpy((uint8_t *)(r + 1) + sizeof(*h), data, h->data_len);
	q->tail = at + sz;
	q->used += sz;
	q->prev_known = q->count > 0;
	q->prev_ts = q->last_ts;
	q->last_ts = h->ts;
	q->last = at;
	q->count++;
	return 0;
}

static struct qrec *queue__head_rec(const struct pt_queue *q)
{
	struct qrec *r = (struct qrec *)(q->buf + q->head);

	return r;
}

const struct pt_event_hdr *queue__peek(const struct pt_queue *q)
{
	if (!q->count)
		return NULL;
	return (const struct pt_event_hdr *)(queue__head_rec(q) + 1);
}

void queue__pop(struct pt_queue *q)
{
	struct qrec *r;

	if (!q->count)
		return;
	r = queue__head_rec(q);
	q->used -= r->size;
	q->head += r->size;
	q->count--;
	if (!q->count) {
		queue__clear(q);
		return;
	}
	if (q->head >= q->cap || queue__head_rec(q)->pad) {
		q->wasted -= q->cap - q->head;
		q->head = 0;
	}
}

/* The record at off, skipping a pad (or the end) to offset 0. */
static size_t queue__norm(const struct pt_queue *q, size_t off)
{
	if (off >= q->cap || ((struct qrec *)(q->buf + off))->pad)
		return 0;
	return off;
}

const struct pt_event_hdr *queue__next(const struct pt_queue *q, struct queue_iter *it)
{
	const struct qrec *r;

	if (!it->started) {
		it->started = true;
		it->off = q->head;
		it->left = q->count;
	} else if (it->left) {
		it->off = queue__norm(q, it->off);
	}
	if (!it->left)
		return NULL;
	r = (const struct qrec *)(q->buf + it->off);
	it->off += r->size;
	it->left--;
	return (const struct pt_event_hdr *)(r + 1);
}

/* Take the newest record out (to fn), when the one before it is known. */
static void queue__take_last(struct pt_queue *q,
			     void (*fn)(void *ctx, const struct pt_event_hdr *h, const void *data),
			     void *ctx)
{
	struct qrec *r = (struct qrec *)(q->buf + q->last);
	const struct pt_event_hdr *h = (const struct pt_event_hdr *)(r + 1);

	fn(ctx, h, h + 1);
	/* not wrapped to 0: it starts where the record before it ends */
	if (q->last >= q->head)
		q->wasted = 0;
	q->tail = q->last;
	q->used -= r->size;
	q->count--;
	q->last_ts = q->prev_ts;
	q->last = QUEUE_UNKNOWN;
	q->prev_known = false;
}

/* The n records from off on, to fn (the queue unchanged). */
static void queue__give(const struct pt_queue *q, size_t off, size_t n,
			void (*fn)(void *ctx, const struct pt_event_hdr *h, const void *data),
			void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		const struct qrec *r;
		const struct pt_event_hdr *h;

		off = i ? queue__norm(q, off) : off;
		r = (const struct qrec *)(q->buf + off);
		h = (const struct pt_event_hdr *)(r + 1);
		fn(ctx, h, h + 1);
		off += r->size;
	}
}

size_t queue__take_newer(struct pt_queue *q, uint64_t ts, uint64_t *last_kept_ts,
			 void (*fn)(void *ctx, const struct pt_event_hdr *h, const void *data),
			 void *ctx)
{
	size_t off = q->head, kept, used = 0, split, i, last_off = 0;
	uint64_t before_last = 0;
	const struct pt_event_hdr *h;
	struct qrec *r;

	if (!q->count)
		return 0;
	/*
	 * The usual cases without a walk from the oldest record: nothing is
	 * newer, or only the newest record is (a system event stamped "now"
	 * while older kernel events were still in the rings).
	 */
	if (q->last_ts <= ts) {
		*last_kept_ts = q->last_ts;
		return 0;
	}
	if (q->count > 1 && q->prev_known && q->prev_ts <= ts && q->last != QUEUE_UNKNOWN &&
	    q->last != 0) {
		queue__take_last(q, fn, ctx);
		*last_kept_ts = q->last_ts;
		return 1;
	}
	for (kept = 0; kept < q->count; kept++) {
		off = kept ? queue__norm(q, off) : off;
		r = (struct qrec *)(q->buf + off);
		h = (const struct pt_event_hdr *)(r + 1);
		if (h->ts > ts)
			break;
		before_last = kept ? *last_kept_ts : 0;
		*last_kept_ts = h->ts;
		last_off = off;
		used += r->size;
		off += r->size;
	}
	if (kept == q->count)
		return 0;
	split = off;
	queue__give(q, off, q->count - kept, fn, ctx);
	i = q->count - kept;
	if (!kept) {
		queue__clear(q);
		return i;
	}
	/* the kept records end at split; a pad after them is gone unless
	 * split is in the wrapped part, before the head */
	if (split >= q->head)
		q->wasted = 0;
	q->tail = split;
	q->used = used;
	q->count = kept;
	q->last = last_off;
	q->last_ts = *last_kept_ts;
	q->prev_ts = before_last;
	q->prev_known = kept > 1;
	return i;
}
