/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The protobuf wire format, as much as ptbpf's Perfetto traces need:
 * varints, fixed64 and length-delimited fields, appended to an sbuf.
 */
#include <string.h>

#include "convert/perfetto_int.h"

enum { WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2 };

size_t pb_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static void put_varint(struct sbuf *b, uint64_t v)
{
	uint8_t t[10];

	sb_putn(b, (const char *)t, pb_varint(t, v));
}

static void put_tag(struct sbuf *b, unsigned int field, int wire)
{
	put_varint(b, (uint64_t)field << 3 | (unsigned int)wire);
}

void pb_uint(struct sbuf *b, unsigned int field, uint64_t v)
{
	put_tag(b, field, WIRE_VARINT);
	put_varint(b, v);
}

void pb_fixed64(struct sbuf *b, unsigned int field, uint64_t v)
{
	uint8_t t[8];

	for (int i = 0; i < 8; i++)
		t[i] = (uint8_t)(v >> (8 * i)); /* little-endian, whatever the host's */
	put_tag(b, field, WIRE_I64);
	sb_putn(b, (const char *)t, sizeof(t));
}

void pb_bytes(struct sbuf *b, unsigned int field, const void *p, size_t n)
{
	put_tag(b, field, WIRE_LEN);
	put_varint(b, n);
	sb_putn(b, p, n);
}

void pb_str(struct sbuf *b, unsigned int field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

/* One byte is kept for the length: most messages are shorter than 128. */
size_t pb_open(struct sbuf *b, unsigned int field)
{
	put_tag(b, field, WIRE_LEN);
	sb_putc(b, 0);
	return b->len;
}

void pb_close(struct sbuf *b, size_t at)
{
	uint8_t t[10];
	size_t len, n;

	if (b->failed || at > b->len)
		return;
	len = b->len - at;
	n = pb_varint(t, len);
	if (n > 1) {
		if (sb_grow(b, n - 1))
			return;
		memmove(b->s + at + n - 1, b->s + at, len);
		b->len += n - 1;
		b->s[b->len] = '\0';
	}
	memcpy(b->s + at - 1, t, n);
}
