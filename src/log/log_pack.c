// SPDX-License-Identifier: LGPL-2.1-or-later
/* Packed events: see log_pack.h and docs/log-format.md. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log/log_format.h"
#include "log/log_pack.h"

void log_pack__reset(struct log_pack *p, uint64_t base_ts)
{
	p->used = 0;
	p->next = 0;
	p->last = 0;
	p->prev_ts = base_ts;
	for (uint32_t i = 0; i < LOG_PACK_CTX; i++)
		p->img[i].len = 0;
}

void log_pack__fini(struct log_pack *p)
{
	for (uint32_t i = 0; i < LOG_PACK_CTX; i++) {
		free(p->img[i].buf);
		p->img[i].buf = NULL;
		p->img[i].len = 0;
	}
	free(p->spare.buf);
	p->spare.buf = NULL;
}

static bool image_buf(struct log_image *img)
{
	if (!img->buf)
		img->buf = malloc(LOG_MAX_DATA);
	return img->buf != NULL;
}

struct log_image *log_pack__image(struct log_pack *p, uint32_t slot)
{
	struct log_image *img = &p->img[slot % LOG_PACK_CTX];

	return image_buf(img) ? img : NULL;
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/*
 * The context of the event whose tag was just read (*q: after it): a new
 * one (its ids follow the tag, *q moves past them) in the next slot, or
 * the one of its slot. NULL: a bad encoding.
 */
static struct log_pack_ctx *decode_ctx(struct log_pack *p, unsigned char tag,
				       const unsigned char **q, const unsigned char *end,
				       uint32_t *slot)
{
	uint64_t pid, tid, thread;
	struct log_pack_ctx *c;

	if ((tag & TAG_SLOT_MASK) != TAG_NEW_CTX) {
		*slot = tag & TAG_SLOT_MASK;
		return *slot < p->used ? &p->ctx[*slot] : NULL;
	}
	if (tag & TAG_SAME_PROG)
		return NULL;
	if (log_varint__get(q, end, &pid) || log_varint__get(q, end, &tid) ||
	    log_varint__get(q, end, &thread))
		return NULL;
	if (unzigzag(pid) != (int32_t)unzigzag(pid) || unzigzag(tid) != (int32_t)unzigzag(tid))
		return NULL;
	*slot = p->next;
	p->next = (p->next + 1) % LOG_PACK_CTX;
	if (p->used < LOG_PACK_CTX)
		p->used++;
	c = &p->ctx[*slot];
	p->img[*slot].len = 0;
	c->pid = (int32_t)unzigzag(pid);
	c->tid = (int32_t)unzigzag(tid);
	c->thread = thread;
	return c;
}

/* An image event's body (n bytes at body) of len bytes of data: the
 * slot's image becomes it. Non-zero: a bad encoding, or no memory. */
static int decode_image(struct log_pack *p, uint32_t slot, const unsigned char *body, size_t n,
			uint32_t len)
{
	struct log_image *base = &p->img[slot], t;

	/* decoded into the spare, which then becomes the slot's image */
	if (!image_buf(&p->spare) || log_image__decode(base, body, n, len, &p->spare))
		return -EINVAL;
	t = *base;
	*base = p->spare;
	p->spare = t;
	return 0;
}

int log_pack__decode(struct log_pack *p, const unsigned char **pos, const unsigned char *end,
		     struct pt_event_hdr *h, const unsigned char **data)
{
	const unsigned char *q = *pos;
	uint64_t dts, id, prog, len, stored;
	struct log_pack_ctx *c;
	unsigned char tag;
	uint32_t slot;

	if (q == end)
		return -EINVAL;
	tag = *q++;
	if (tag & TAG_RESERVED)
		return -EINVAL;
	c = decode_ctx(p, tag, &q, end, &slot);
	if (!c)
		return -EINVAL;
	if (log_varint__get(&q, end, &dts) || log_varint__get(&q, end, &id) || id > UINT32_MAX)
		return -EINVAL;
	if (!(tag & TAG_SAME_PROG)) {
		if (log_varint__get(&q, end, &prog))
			return -EINVAL;
		c->prog_addr = prog;
	}
	if (log_varint__get(&q, end, &len) || len > LOG_MAX_DATA)
		return -EINVAL;
	stored = len;
	if ((tag & TAG_ZERO_TAIL) && ((tag & TAG_IMAGE) || len > LOG_PACK_ZEXT_MAX ||
				      log_varint__get(&q, end, &stored) || stored >= len))
		return -EINVAL;
	if ((tag & TAG_IMAGE) && log_varint__get(&q, end, &stored))
		return -EINVAL;
	if (stored > (uint64_t)(end - q))
		return -EINVAL;
	if ((tag & TAG_IMAGE) && decode_image(p, slot, q, stored, (uint32_t)len))
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	h->id = (uint32_t)id;
	h->trunc = (tag & TAG_TRUNC) ? PT_TRUNCATED_RECORD : PT_NOT_TRUNCATED;
	h->pid = c->pid;
	h->tid = c->tid;
	h->thread = c->thread;
	h->prog_addr = c->prog_addr;
	h->ts = p->prev_ts + (uint64_t)unzigzag(dts);
	h->data_len = (uint32_t)len;
	p->prev_ts = h->ts;
	*data = q;
	if (tag & TAG_IMAGE)
		*data = p->img[slot].buf;
	if (tag & TAG_ZERO_TAIL) {
		memcpy(p->zext, q, stored);
		memset(p->zext + stored, 0, len - stored);
		*data = p->zext;
	}
	*pos = q + stored;
	return 0;
}
