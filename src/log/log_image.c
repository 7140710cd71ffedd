// SPDX-License-Identifier: LGPL-2.1-or-later
/* Memory images in packed events: see log_image.h and docs/log-format.md. */
#include "log/log_image.h"

#include <endian.h>
#include <errno.h>
#include <string.h>

#include "log/log_format.h"
#include "log/log_pack.h"

/* A stretch of equal bytes shorter than this goes out as literal bytes. */
#define COPY_MIN 8

static uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/*
 * Where image byte i (at address addr + i) is in base's image, or -1 when
 * base does not hold it; *room: base's bytes from there on.
 */
static int64_t base_at(const struct log_image *base, uint64_t addr, uint32_t i, uint32_t *room)
{
	uint64_t a = addr + i, off;

	if (!base || !base->len || a < addr || a < base->addr)
		return -1;
	off = a - base->addr;
	if (off >= base->len - base->prefix)
		return -1;
	*room = (uint32_t)(base->len - base->prefix - off);
	return (int64_t)off;
}

/* Bytes from img[i] on equal to base's at the same addresses (at most max). */
static uint32_t same_run(const struct log_image *base, uint64_t addr, const unsigned char *img,
			 uint32_t i, uint32_t max)
{
	const unsigned char *b;
	uint32_t room, k = 0;
	int64_t off = base_at(base, addr, i, &room);

	if (off < 0)
		return 0;
	b = base->buf + base->prefix + off;
	img += i;
	if (max > room)
		max = room;
	while (k + 8 <= max && load64(img + k) == load64(b + k))
		k += 8;
	while (k < max && img[k] == b[k])
		k++;
	return k;
}

size_t log_image__encode(const struct log_image *base, const unsigned char *data, uint32_t len,
			 uint32_t prefix, uint32_t addr_off, unsigned char *out)
{
	const unsigned char *img = data + prefix;
	uint32_t ilen = len - prefix, i = 0;
	uint64_t addr = le64toh(load64(data + addr_off));
	size_t n = 0;

	n += log_pack__put_u(out + n, prefix);
	n += log_pack__put_u(out + n, addr_off);
	memcpy(out + n, data, prefix);
	n += prefix;
	while (i < ilen) {
		uint32_t copy = same_run(base, addr, img, i, ilen - i), j = i + copy, k = j;

		/* literal bytes up to where COPY_MIN equal ones begin (none in
		 * the last COPY_MIN) */
		while (k < ilen &&
		       (ilen - k < COPY_MIN || same_run(base, addr, img, k, COPY_MIN) < COPY_MIN))
			k = ilen - k > COPY_MIN ? k + COPY_MIN : ilen;
		n += log_pack__put_u(out + n, copy);
		n += log_pack__put_u(out + n, k - j);
		memcpy(out + n, img + j, k - j);
		n += k - j;
		i = k;
	}
	return n;
}

int log_image__decode(const struct log_image *base, const unsigned char *body, size_t n,
		      uint32_t data_len, struct log_image *out)
{
	const unsigned char *q = body, *end = body + n;
	uint64_t prefix, addr_off, copy, lit, addr;
	uint32_t i = 0, ilen, room;

	if (log_pack__get_u(&q, end, &prefix) || log_pack__get_u(&q, end, &addr_off) ||
	    prefix > data_len || addr_off + 8 > prefix || prefix > (uint64_t)(end - q))
		return -EINVAL;
	memcpy(out->buf, q, prefix);
	q += prefix;
	addr = le64toh(load64(out->buf + addr_off));
	ilen = data_len - (uint32_t)prefix;
	while (i < ilen) {
		int64_t off;

		if (log_pack__get_u(&q, end, &copy) || log_pack__get_u(&q, end, &lit) ||
		    (!copy && !lit) || copy > ilen - i)
			return -EINVAL;
		if (copy) {
			off = base_at(base, addr, i, &room);
			if (off < 0 || copy > room)
				return -EINVAL;
			memcpy(out->buf + prefix + i, base->buf + base->prefix + off, copy);
			i += (uint32_t)copy;
		}
		if (lit > ilen - i || lit > (uint64_t)(end - q))
			return -EINVAL;
		memcpy(out->buf + prefix + i, q, lit);
		q += lit;
		i += (uint32_t)lit;
	}
	if (q != end)
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
