// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace log writer, the appending of events: each event goes into the
 * buffer, packed into the open EVENTS record (format 3.0 and 4.0) or as
 * one EVENT record (1.0), where the log's policy has room for it.
 */
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "log/log.h"
#include "log/log_format.h"
#include "log/log_pack.h"
#include "log/log_writer_int.h"

/* Make room for len bytes in the buffer at the current position. */
static int reserve(struct log_writer *w, size_t len)
{
	int err;

	if (w->buf_len + len <= w->buf_size)
		return 0;
	err = log_writer__flush_nosync(w);
	if (err)
		return err;
	return 0;
}

/* UNTIL_FULL keeps this many bytes for log_writer__append_last(). */
#define LAST_RESERVE 128

/* UNTIL_FULL: would grow more bytes of records overflow the log? Counts the refusal. */
static bool until_full_refuses(struct log_writer *w, uint64_t grow, bool last)
{
	uint64_t room = w->max_size;

	if (w->policy != LOG_POLICY_UNTIL_FULL)
		return false;
	if (!last && room > 2 * LAST_RESERVE)
		room -= LAST_RESERVE;
	if (!(w->full && !last) && w->bytes + grow <= room)
		return false;
	CNT_SET(w->full, 1);
	CNT_SET(w->dropped, w->dropped + 1);
	return true;
}

/*
 * Make room for a new record of rlen bytes at the write position: 0 (the
 * buffer has rlen free bytes at buf_len), 1 (refused by the policy: counted
 * as dropped), or a negative errno. No EVENTS record may be open.
 */
static int room_for(struct log_writer *w, size_t rlen, bool last)
{
	int err;

	if (w->layout == LOG_LAYOUT_LINEAR) {
		if (until_full_refuses(w, rlen, last))
			return 1;
	} else {
		if (rlen > w->cap) {
			CNT_SET(w->dropped, w->dropped + 1);
			return 1;
		}
		if (w->wpos + rlen > w->cap) {
			if (w->cap - w->wpos >= 24) {
				/*
				 * The WRAP record ends a lap and fills the ring up
				 * to its end, so no record of an older lap survives
				 * once a lap is complete (less than LOG_MAX_REC).
				 */
				size_t wlen = (size_t)(w->cap - w->wpos);
				unsigned char *rec;

				err = reserve(w, wlen);
				if (err)
					return err;
				rec = w->buf + w->buf_len;
				memset(rec + 24, 0, wlen - 24);
				log_writer__rec_seal(w->seed, rec, LOG_REC_WRAP,
						     (uint32_t)(wlen - 24), w->seq);
				w->seq++;
				w->buf_len += wlen;
				w->wpos = w->cap;
			}
			err = log_writer__flush_nosync(w);
			if (err)
				return err;
			w->wpos = 0;
			w->buf_off = w->data_off;
			CNT_SET(w->wrapped, 1);
		}
	}
	return reserve(w, rlen);
}

/* Format 1.0: one EVENT record. */
static int append_event_rec(struct log_writer *w, const struct pt_event_hdr *h, const void *data,
			    uint32_t dlen, uint16_t trunc, bool last)
{
	size_t rlen = 24 + log_round8(LOG_EVENT_HDR_SIZE + dlen);
	struct pt_event_hdr e;
	unsigned char *rec;
	int err;

	err = room_for(w, rlen, last);
	if (err)
		return err;
	rec = w->buf + w->buf_len;
	e.id = htole32(h->id);
	e.trunc = htole16(trunc);
	e.reserved = 0;
	e.pid = (int32_t)htole32((uint32_t)h->pid);
	e.tid = (int32_t)htole32((uint32_t)h->tid);
	e.ts = htole64(h->ts);
	e.prog_addr = htole64(h->prog_addr);
	e.thread = htole64(h->thread);
	e.data_len = htole32(dlen);
	e.reserved2 = 0;
	memcpy(rec + 24, &e, sizeof(e));
	if (dlen)
		memcpy(rec + 24 + sizeof(e), data, dlen);
	log_writer__rec_seal(w->seed, rec, LOG_REC_EVENT, (uint32_t)(sizeof(e) + dlen), w->seq);
	w->seq++;
	w->buf_len += rlen;
	w->wpos += rlen;
	w->buf_events++;
	CNT_SET(w->bytes, w->bytes + rlen);
	return 0;
}

/* May the open EVENTS record grow to plen payload bytes? */
static bool blk_fits(const struct log_writer *w, uint64_t plen)
{
	uint64_t rlen = 24 + log_round8(plen);

	if (plen > w->blk_target || w->buf_len + rlen > w->buf_size)
		return false;
	return w->layout != LOG_LAYOUT_RING || w->wpos + rlen <= w->cap;
}

/*
 * The payload size up to which the open EVENTS record may grow with no
 * check (blk_fits() holds for every size up to it): the buffer and the
 * record's place do not change while it is open. None under UNTIL_FULL,
 * which counts every byte.
 */
static void blk_set_fast(struct log_writer *w)
{
	uint64_t lim = w->blk_target, room = w->buf_size - w->buf_len;

	/* 24 + log_round8(plen) <= room, room and buf_len multiples of 8 */
	lim = room < 24 ? 0 : (room - 24 < lim ? room - 24 : lim);
	if (w->layout == LOG_LAYOUT_RING)
		lim = w->cap - w->wpos < 24
			      ? 0
			      : (w->cap - w->wpos - 24 < lim ? w->cap - w->wpos - 24 : lim);
	w->blk_fast = w->policy == LOG_POLICY_UNTIL_FULL ? 0 : lim;
}

/*
 * An event's stored data is mostly a few bytes (a getppid's entry keeps 1,
 * its exit 8): copied inline, without a call to memcpy for each.
 */
static inline void copy_data(unsigned char *to, const unsigned char *from, uint32_t n)
{
	uint64_t a, b;
	uint32_t c, d;

	if (n >= 8 && n <= 16) {
		memcpy(&a, from, 8);
		memcpy(&b, from + n - 8, 8);
		memcpy(to, &a, 8);
		memcpy(to + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(&c, from, 4);
		memcpy(&d, from + n - 4, 4);
		memcpy(to, &c, 4);
		memcpy(to + n - 4, &d, 4);
	} else if (n < 4) {
		while (n--)
			*to++ = *from++;
	} else {
		memcpy(to, from, n);
	}
}

/* An image event's body, against its context's last image in the open record. */
static uint32_t image_encode(struct log_writer *w, const struct pt_event_hdr *h,
			     const unsigned char *data, uint32_t dlen)
{
	int c = w->blk_open ? log_pack__find_ctx(&w->pack, h) : -1;

	return (uint32_t)log_image__encode(c >= 0 ? &w->pack.img[c] : NULL, data, dlen,
					   w->image_prefix, w->image_addr_off, w->image_body);
}

/* The image just committed: the base of its context's next one. */
static void image_keep(struct log_writer *w, const unsigned char *data, uint32_t dlen)
{
	struct log_image *img = log_pack__image(&w->pack, w->pack.last);

	/* without memory, the next image is stored whole */
	if (img)
		log_image__set(img, data, dlen, w->image_prefix, w->image_addr_off);
}

/* Format 3.0 and 4.0: the event joins the open EVENTS record, or starts one. */
static int append_packed(struct log_writer *w, const struct pt_event_hdr *h, const void *data,
			 uint32_t dlen, uint16_t trunc, bool last)
{
	unsigned char eh[LOG_PACK_HDR_MAX], *at;
	uint64_t grow = 0, plen = w->blk_plen;
	bool image = h->id == w->image_id && w->image_id && dlen >= w->image_prefix &&
		     dlen <= LOG_MAX_DATA - 64;
	/* an image coded against the open record's (a base that a new record drops) */
	bool based = image && w->blk_open;
	const unsigned char *src = image ? w->image_body : data;
	uint32_t slot,
		stored = image ? image_encode(w, h, data, dlen) : log_pack__stored_len(data, dlen);
	size_t n = 0;
	int err;

	/*
	 * The common case: the open record has room for the longest header
	 * and the data, and the log takes what it is given. The header is
	 * encoded where it goes, without a copy.
	 */
	if (plen + LOG_PACK_HDR_MAX + stored <= w->blk_fast) {
		at = w->buf + w->buf_len + 24 + plen;
		n = log_pack__encode(&w->pack, h, trunc, dlen, stored, image, at, &slot);
		grow = log_round8(plen + n + stored) - log_round8(plen);
		goto data;
	}
	if (w->blk_open) {
		n = log_pack__encode(&w->pack, h, trunc, dlen, stored, image, eh, &slot);
		if (blk_fits(w, plen + n + stored)) {
			grow = log_round8(plen + n + stored) - log_round8(plen);
			if (until_full_refuses(w, grow, last))
				return 1;
		} else {
			log_writer__blk_seal(w);
		}
	}
	if (!w->blk_open) {
		log_pack__reset(&w->pack, h->ts);
		if (based) /* now without a base */
			stored = image_encode(w, h, data, dlen);
		n = log_pack__encode(&w->pack, h, trunc, dlen, stored, image, eh, &slot);
		grow = 24 + log_round8(sizeof(struct log_events_hdr) + n + stored);
		err = room_for(w, (size_t)grow, last);
		if (err)
			return err;
		w->blk_open = true;
		w->blk_plen = sizeof(struct log_events_hdr);
		w->blk_count = 0;
		w->blk_base_ts = h->ts;
		blk_set_fast(w);
	}
	at = w->buf + w->buf_len + 24 + w->blk_plen;
	memcpy(at, eh, n);
data:
	copy_data(at + n, src, stored);
	log_pack__commit(&w->pack, slot, h);
	if (image)
		image_keep(w, data, dlen);
	w->blk_plen += (uint32_t)(n + stored);
	w->blk_count++;
	CNT_SET(w->bytes, w->bytes + grow);
	return 0;
}

static int append_rec(struct log_writer *w, const struct pt_event_hdr *h, const void *data,
		      bool last)
{
	uint32_t dlen;
	uint16_t trunc;
	int err;

	if (!w || !h || (h->data_len && !data))
		return -EINVAL;
	dlen = h->data_len;
	trunc = h->trunc;
	if (dlen > LOG_MAX_DATA) {
		dlen = LOG_MAX_DATA;
		trunc = PT_TRUNCATED_RECORD;
	}
	if (w->packed)
		err = append_packed(w, h, data, dlen, trunc, last);
	else
		err = append_event_rec(w, h, data, dlen, trunc, last);
	if (err)
		return err;
	CNT_SET(w->events, w->events + 1);
	return 0;
}

int log_writer__append(struct log_writer *w, const struct pt_event_hdr *h, const void *data)
{
	return append_rec(w, h, data, false);
}

int log_writer__append_last(struct log_writer *w, const struct pt_event_hdr *h, const void *data)
{
	return append_rec(w, h, data, true);
}
