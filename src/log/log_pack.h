/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Packed events (log format 3.0, docs/log-format.md): how one event is
 * encoded inside an EVENTS record. The writer and the reader keep the same
 * small state per record, so an event repeats only what changed since the
 * previous ones: its thread context (pid, tid, pthread_t) is an index into
 * the last LOG_PACK_CTX contexts, its program address can be "as last time
 * for this context", its timestamp is a delta.
 *
 * One event: a tag byte, then varints (LEB128; signed ones zigzag):
 *   tag bits 0-2: context slot 0..6, or 7: a new context follows
 *   tag bit 3: truncated (PT_TRUNCATED_RECORD); bit 4: prog_addr as last time
 *   in this context; bit 5: a zero tail (below); bit 6: a memory image
 *   (below); bit 7: zero
 *   [new context: pid (signed), tid (signed), thread]
 *   ts - previous ts (signed; the first event's previous is base_ts)
 *   id
 *   [prog_addr, unless tag bit 4]
 *   data_len, then data_len bytes of data; or, with tag bit 5 (a zero tail,
 *   format 3.0): data_len, stored (< data_len), then stored bytes of data,
 *   the other data_len - stored bytes being zero; or, with tag bit 6 (an
 *   image, format 4.0): data_len, stored, then a body of stored bytes
 *   (log_image.h) that makes the data_len bytes
 * Internal to src/log.
 */
#ifndef PTBPF_LOG_PACK_H
#define PTBPF_LOG_PACK_H

#include <stddef.h>
#include <stdbool.h>
#include <endian.h>
#include <stdint.h>
#include <string.h>

#include "common/event.h"
#include "log/log_image.h"
#include "log/log_varint.h"

#define LOG_PACK_CTX 7
#define LOG_PACK_NEW 0x100u /* slot flag of log_pack__encode(): a new context */
/*
 * Longest data that may leave out its zero tail: every kernel event (a
 * syscall's entry with two paths is 578 bytes) and small user events. The
 * reader puts the tail back in a buffer of this size.
 */
#define LOG_PACK_ZEXT_MAX 1024u

struct log_pack_ctx {
	int32_t pid, tid;
	uint64_t thread;
	uint64_t prog_addr;
};

/* The state of one EVENTS record, reset at its start (log_pack__reset). */
struct log_pack {
	struct log_pack_ctx ctx[LOG_PACK_CTX];
	uint32_t used; /* slots filled */
	uint32_t next; /* slot a new context takes (round robin) */
	uint32_t last; /* slot of the last event (the writer's; decode leaves it) */
	uint64_t prev_ts;
	unsigned char zext[LOG_PACK_ZEXT_MAX]; /* decode: data with its zero tail */
	/* each slot's last image in this record, and a buffer to decode into */
	struct log_image img[LOG_PACK_CTX];
	struct log_image spare;
};

void log_pack__reset(struct log_pack *p, uint64_t base_ts);
/* Free the image buffers (p stays usable). */
void log_pack__fini(struct log_pack *p);
/*
 * The image of slot (allocated on first use): the base of the next image
 * event of that context. NULL when out of memory.
 */
struct log_image *log_pack__image(struct log_pack *p, uint32_t slot);

/*
 * Decode the event at *pos (before end) into h and *data (data_len bytes
 * inside [*pos, end), or in p->zext until the next call when the event left
 * out its zero tail), advance *pos and update p. -EINVAL on a bad encoding
 * (truncated, overlong varint, unknown slot, reserved bits, too much data).
 */
int log_pack__decode(struct log_pack *p, const unsigned char **pos, const unsigned char *end,
		     struct pt_event_hdr *h, const unsigned char **data);

/* The encoder: inline, the writer calls it for every event. */

/* tag byte */
#define TAG_NEW_CTX   7u
#define TAG_SLOT_MASK 0x07u
#define TAG_TRUNC     0x08u
#define TAG_SAME_PROG 0x10u
#define TAG_ZERO_TAIL 0x20u
#define TAG_IMAGE     0x40u
#define TAG_RESERVED  0x80u

/*
 * How many of data's len bytes the log keeps: all but a zero tail, when
 * leaving it out saves bytes (its length takes up to 2 more). A syscall's
 * entry is 66 bytes, most of them arguments it does not take and path
 * fields it does not use: a getppid's keeps 1.
 */
static inline uint32_t log_pack__stored_len(const unsigned char *d, uint32_t len)
{
	uint32_t n = len;
	uint64_t a, b, c, e;

	if (len > LOG_PACK_ZEXT_MAX)
		return len;
	/*
	 * 32 bytes a step (a getppid's 66 take 2 steps and 2 bytes), in four
	 * loads to registers: through an array on the stack, the 16-byte
	 * stores of memcpy were read back 8 bytes at a time, which store
	 * forwarding does not serve.
	 */
	for (; n >= 32; n -= 32) {
		memcpy(&a, d + n - 32, 8);
		memcpy(&b, d + n - 24, 8);
		memcpy(&c, d + n - 16, 8);
		memcpy(&e, d + n - 8, 8);
		if (a | b | c | e)
			break;
	}
	for (; n >= 8; n -= 8) {
		memcpy(&a, d + n - 8, 8);
		if (a) {
			/* d[n - 1] is the word's high byte (little-endian) */
			n -= (uint32_t)__builtin_clzll(le64toh(a)) / 8;
			break;
		}
	}
	while (n && !d[n - 1])
		n--;
	return len - n > 2 ? n : len;
}

static inline uint64_t log_pack__zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline bool log_pack__same_ctx(const struct log_pack_ctx *c, const struct pt_event_hdr *h)
{
	return c->tid == h->tid && c->pid == h->pid && c->thread == h->thread;
}

/* The slot of h's context: the last one used first (a thread's events
 * often come in a row), then the others. */
static inline int log_pack__find_ctx(const struct log_pack *p, const struct pt_event_hdr *h)
{
	if (p->used && log_pack__same_ctx(&p->ctx[p->last], h))
		return (int)p->last;
	for (uint32_t i = 0; i < p->used; i++)
		if (log_pack__same_ctx(&p->ctx[i], h))
			return (int)i;
	return -1;
}

/*
 * Encode the header of event h (data_len given apart: it may be cut; stored:
 * the bytes of it that follow, log_pack__stored_len(), or with image the
 * length of its image body) into out
 * (LOG_PACK_HDR_MAX bytes) without changing p; returns its length and the
 * slot it uses. log_pack__commit(p, slot, h) then makes it part of p.
 */
static inline __attribute__((always_inline)) size_t
log_pack__encode(const struct log_pack *p, const struct pt_event_hdr *h, uint16_t trunc,
		 uint32_t data_len, uint32_t stored, bool image, unsigned char *out, uint32_t *slot)
{
	int c = log_pack__find_ctx(p, h);
	unsigned char tag = 0;
	size_t n = 1;

	if (trunc)
		tag |= TAG_TRUNC;
	if (c < 0) {
		tag |= TAG_NEW_CTX;
		*slot = p->next | LOG_PACK_NEW;
		n += log_varint__put(out + n, log_pack__zigzag(h->pid));
		n += log_varint__put(out + n, log_pack__zigzag(h->tid));
		n += log_varint__put(out + n, h->thread);
	} else {
		tag |= (unsigned char)c;
		*slot = (uint32_t)c;
		if (p->ctx[c].prog_addr == h->prog_addr)
			tag |= TAG_SAME_PROG;
	}
	n += log_varint__put(out + n, log_pack__zigzag((int64_t)(h->ts - p->prev_ts)));
	n += log_varint__put(out + n, h->id);
	if (!(tag & TAG_SAME_PROG))
		n += log_varint__put(out + n, h->prog_addr);
	n += log_varint__put(out + n, data_len);
	if (image) {
		tag |= TAG_IMAGE;
		n += log_varint__put(out + n, stored);
	} else if (stored < data_len) {
		tag |= TAG_ZERO_TAIL;
		n += log_varint__put(out + n, stored);
	}
	out[0] = tag;
	return n;
}

static inline void log_pack__commit(struct log_pack *p, uint32_t slot, const struct pt_event_hdr *h)
{
	struct log_pack_ctx *c = &p->ctx[slot % LOG_PACK_NEW];

	p->last = slot % LOG_PACK_NEW;
	if (slot & LOG_PACK_NEW) {
		/* a new context takes the round-robin slot, without an image */
		p->img[p->last].len = 0;
		p->next = (p->next + 1) % LOG_PACK_CTX;
		if (p->used < LOG_PACK_CTX)
			p->used++;
	}
	c->pid = h->pid;
	c->tid = h->tid;
	c->thread = h->thread;
	c->prog_addr = h->prog_addr;
	p->prev_ts = h->ts;
}

#endif
