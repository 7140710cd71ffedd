// SPDX-License-Identifier: LGPL-2.1-or-later
/* Memory images in packed events: see log_image.h and docs/log-format.md. */
#include "log/log_image.h"

#include <endian.h>
#include <errno.h>
#include <string.h>

#include "log/log_format.h"
#include "log/log_varint.h"

/* A stretch of equal bytes shorter than this goes out as literal bytes. */
#define COPY_MIN 8

/*
 * What a part of an event (its prefix, its image) is coded against: the
 * base's bytes of the same part, by address (the prefix's are at 0 on both
 * sides, the image's at the addresses the prefixes give).
 */
struct part {
	const unsigned char *base; /* NULL: no base */
	uint64_t base_addr;
	uint32_t base_len;
	uint64_t addr; /* of the part's first byte */
};

static uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/*
 * Where byte i of the part (at addr + i) is in the base's, or -1 when the
 * base does not hold it; *room: the base's bytes from there on.
 */
static int64_t base_at(const struct part *pt, uint32_t i, uint32_t *room)
{
	uint64_t a = pt->addr + i, off;

	if (!pt->base || a < pt->addr || a < pt->base_addr)
		return -1;
	off = a - pt->base_addr;
	if (off >= pt->base_len)
		return -1;
	*room = (uint32_t)(pt->base_len - off);
	return (int64_t)off;
}

/* Bytes from cur[i] on equal to the base's at the same addresses (at most max). */
static uint32_t same_run(const struct part *pt, const unsigned char *cur, uint32_t i, uint32_t max)
{
	const unsigned char *b;
	uint32_t room, k = 0;
	int64_t off = base_at(pt, i, &room);

	if (off < 0)
		return 0;
	b = pt->base + off;
	cur += i;
	if (max > room)
		max = room;
	while (k + 8 <= max && load64(cur + k) == load64(b + k))
		k += 8;
	while (k < max && cur[k] == b[k])
		k++;
	return k;
}

/* The pairs that make cur's len bytes, into out; their length. */
static size_t encode_part(const struct part *pt, const unsigned char *cur, uint32_t len,
			  unsigned char *out)
{
	uint32_t i = 0;
	size_t n = 0;

	while (i < len) {
		uint32_t copy = same_run(pt, cur, i, len - i), j = i + copy, k = j;

		/* literal bytes up to where COPY_MIN equal ones begin (none in
		 * the last COPY_MIN) */
		while (k < len && (len - k < COPY_MIN || same_run(pt, cur, k, COPY_MIN) < COPY_MIN))
			k = len - k > COPY_MIN ? k + COPY_MIN : len;
		n += log_varint__put(out + n, copy);
		n += log_varint__put(out + n, k - j);
		memcpy(out + n, cur + j, k - j);
		n += k - j;
		i = k;
	}
	return n;
}

/* The pairs at *q (before end) that make len bytes into out; 0 or -EINVAL. */
static int decode_part(const struct part *pt, const unsigned char **q, const unsigned char *end,
		       uint32_t len, unsigned char *out)
{
	uint64_t copy, lit;
	uint32_t i = 0, room;

	while (i < len) {
		int64_t off;

		if (log_varint__get(q, end, &copy) || log_varint__get(q, end, &lit) ||
		    (!copy && !lit) || copy > len - i)
			return -EINVAL;
		if (copy) {
			off = base_at(pt, i, &room);
			if (off < 0 || copy > room)
				return -EINVAL;
			memcpy(out + i, pt->base + off, copy);
			i += (uint32_t)copy;
		}
		if (lit > len - i || lit > (uint64_t)(end - *q))
			return -EINVAL;
		memcpy(out + i, *q, lit);
		*q += lit;
		i += (uint32_t)lit;
	}
	return 0;
}

/* The prefix's part: the base's prefix, if it is as long. */
static struct part prefix_part(const struct log_image *base, uint32_t prefix)
{
	struct part pt = { 0 };

	if (base && base->len && base->prefix == prefix) {
		pt.base = base->buf;
		pt.base_len = prefix;
	}
	return pt;
}

/* The image's part, at addr. */
static struct part image_part(const struct log_image *base, uint64_t addr)
{
	struct part pt = { .addr = addr };

	if (base && base->len) {
		pt.base = base->buf + base->prefix;
		pt.base_addr = base->addr;
		pt.base_len = base->len - base->prefix;
	}
	return pt;
}

size_t log_image__encode(const struct log_image *base, const unsigned char *data, uint32_t len,
			 uint32_t prefix, uint32_t addr_off, unsigned char *out)
{
	struct part pp = prefix_part(base, prefix),
		    ip = image_part(base, le64toh(load64(data + addr_off)));
	size_t n = 0;

	n += log_varint__put(out + n, prefix);
	n += log_varint__put(out + n, addr_off);
	n += encode_part(&pp, data, prefix, out + n);
	n += encode_part(&ip, data + prefix, len - prefix, out + n);
	return n;
}

int log_image__decode(const struct log_image *base, const unsigned char *body, size_t n,
		      uint32_t data_len, struct log_image *out)
{
	const unsigned char *q = body, *end = body + n;
	uint64_t prefix, addr_off, addr;
	struct part pt;

	if (log_varint__get(&q, end, &prefix) || log_varint__get(&q, end, &addr_off) ||
	    prefix > data_len || addr_off + 8 > prefix)
		return -EINVAL;
	pt = prefix_part(base, (uint32_t)prefix);
	if (decode_part(&pt, &q, end, (uint32_t)prefix, out->buf))
		return -EINVAL;
	addr = le64toh(load64(out->buf + addr_off));
	pt = image_part(base, addr);
	if (decode_part(&pt, &q, end, data_len - (uint32_t)prefix, out->buf + prefix) || q != end)
		return -EINVAL;
	out->len = data_len;
	out->prefix = (uint32_t)prefix;
	out->addr = addr;
	return 0;
}

void log_image__set(struct log_image *img, const unsigned char *data, uint32_t len, uint32_t prefix,
		    uint32_t addr_off)
{
	memcpy(img->buf, data, len);
	img->len = len;
	img->prefix = prefix;
	img->addr = le64toh(load64(data + addr_off));
}
