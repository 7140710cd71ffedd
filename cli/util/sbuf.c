/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: the growable string its printers append to, and the line prefix. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int sb_grow_slow(struct sbuf *b, size_t need)
{
	size_t cap;
	char *s;

	if (b->failed)
		return -1;
	/* past this, doubling cap would overflow */
	if (need > SIZE_MAX / 2 - b->len) {
		sb_fail(b);
		return -1;
	}
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + need + 1)
		cap *= 2;
	s = realloc(b->s, cap);
	if (!s) {
		sb_fail(b);
		return -1;
	}
	b->s = s;
	b->cap = cap;
	return 0;
}

void sb_fail(struct sbuf *b)
{
	b->failed = 1;
	b->cap = 0;
}

void sb_free(struct sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb_grow(b, 64))
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		if (sb_grow(b, n)) {
			/* the cut text vsnprintf left is not kept */
			b->s[b->len] = '\0';
			return;
		}
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += n;
}

/*
 * Integers without printf: a live trace prints millions of them a second
 * and vsnprintf was the largest cost of a line. Digits are made two at a
 * time, from the end.
 */
static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930"
				  "31323334353637383940414243444546474849505152535455565758596061"
				  "62636465666768697071727374757677787980818283848586878889909192"
				  "93949596979899";

/* Write v in decimal, at least width digits, ending just before end. */
static size_t udec_back(char *end, uint64_t v, int width)
{
	char *p = end;

	while (v >= 100) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	while (end - p < width)
		*--p = '0';
	return (size_t)(end - p);
}

/* The same for a signed v, with its '-'; returns the length. */
static size_t dec_back(char *end, int64_t v)
{
	size_t n = udec_back(end, v < 0 ? -(uint64_t)v : (uint64_t)v, 0);

	if (v < 0)
		*(end - ++n) = '-';
	return n;
}

void sb_udec(struct sbuf *b, uint64_t v, int width)
{
	char tmp[24];
	size_t n;

	if (width > 20)
		width = 20;
	n = udec_back(tmp + sizeof(tmp), v, width);
	sb_putn(b, tmp + sizeof(tmp) - n, n);
}

void sb_dec(struct sbuf *b, int64_t v)
{
	char tmp[24];
	size_t n = dec_back(tmp + sizeof(tmp), v);

	sb_putn(b, tmp + sizeof(tmp) - n, n);
}

void sb_line_prefix(struct sbuf *b, struct line_prefix *p, int64_t t_ns, pid_t pid, pid_t tid)
{
	uint64_t t = t_ns < 0 ? -(uint64_t)t_ns : (uint64_t)t_ns;
	uint64_t sec = t / 1000000000u;
	uint32_t us = (uint32_t)(t % 1000000000u / 1000u);
	unsigned int i;
	char *o;

	for (i = 0; i < 4; i++)
		if (p->ids[i].len && p->ids[i].pid == pid && p->ids[i].tid == tid)
			break;
	if (i == 4) {
		/* " PID/TID ", made from the end: at most 2 * 11 + 3 bytes */
		char tmp[sizeof(p->ids[0].s)], *q = tmp + sizeof(tmp);

		*--q = ' ';
		q -= dec_back(q, tid);
		*--q = '/';
		q -= dec_back(q, pid);
		*--q = ' ';
		i = p->next++ & 3;
		p->ids[i].len = (uint8_t)(tmp + sizeof(tmp) - q);
		memcpy(p->ids[i].s, q, p->ids[i].len);
		p->ids[i].pid = pid;
		p->ids[i].tid = tid;
	}
	if (!p->sec_len || p->sec != sec) {
		char *end = p->sec_s + sizeof(p->sec_s) - 1;
		size_t n = udec_back(end, sec, 0);

		*end = '.';
		memmove(p->sec_s, end - n, n + 1);
		p->sec_len = (uint8_t)(n + 1);
		p->sec = sec;
	}
	/* whole arrays copied: fixed sizes are a few vector moves, where the
	 * lengths would be a call of memcpy */
	if (sb_grow(b, 1 + sizeof(p->sec_s) + 6 + sizeof(p->ids[i].s)))
		return;
	o = b->s + b->len;
	if (t_ns < 0)
		*o++ = '-';
	memcpy(o, p->sec_s, sizeof(p->sec_s));
	o += p->sec_len;
	memcpy(o, digit_pairs + 2 * (us / 10000), 2);
	memcpy(o + 2, digit_pairs + 2 * (us / 100 % 100), 2);
	memcpy(o + 4, digit_pairs + 2 * (us % 100), 2);
	o += 6;
	memcpy(o, p->ids[i].s, sizeof(p->ids[i].s));
	o += p->ids[i].len;
	*o = '\0';
	b->len = (size_t)(o - b->s);
}

/* "%#lx": 0 is "0". Digits two at a time, from the end, into their place:
 * pointers and addresses are 12 digits. */
void sb_xhex(struct sbuf *b, uint64_t v)
{
	static const char hex_pairs[] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	size_t n;
	char *o;

	if (!v) {
		sb_putc(b, '0');
		return;
	}
	n = (size_t)(67 - __builtin_clzll(v)) / 4; /* hex digits */
	if (sb_grow(b, n + 2))
		return;
	o = b->s + b->len;
	o[0] = '0';
	o[1] = 'x';
	b->len += n + 2;
	o = b->s + b->len;
	*o = '\0';
	for (; n >= 2; n -= 2, v >>= 8) {
		o -= 2;
		memcpy(o, hex_pairs + 2 * (v & 0xff), 2);
	}
	if (n)
		o[-1] = hex_pairs[2 * v + 1];
}

/* C-style quoting, as strace prints paths: one growth for the worst case
 * (every byte as \xNN), then plain stores (paths are most of a tree walk's
 * output) */
void sb_quote(struct sbuf *b, const char *s, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char *o;
	size_t i;

	if (sb_grow(b, 4 * n + 2))
		return;
	o = b->s + b->len;
	*o++ = '"';
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			*o++ = (char)c;
			continue;
		}
		*o++ = '\\';
		switch (c) {
		case '"':
			*o++ = '"';
			break;
		case '\\':
			*o++ = '\\';
			break;
		case '\n':
			*o++ = 'n';
			break;
		case '\t':
			*o++ = 't';
			break;
		case '\r':
			*o++ = 'r';
			break;
		case '\v':
			*o++ = 'v';
			break;
		case '\f':
			*o++ = 'f';
			break;
		default:
			*o++ = 'x';
			*o++ = digits[c >> 4];
			*o++ = digits[c & 0xf];
		}
	}
	*o++ = '"';
	*o = '\0';
	b->len = (size_t)(o - b->s);
}

void sb_json_str(struct sbuf *b, const char *s, size_t n)
{
	size_t i;

	sb_putc(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			sb_putc(b, '\\');
			sb_putc(b, c);
		} else if (c == '\n') {
			sb_puts(b, "\\n");
		} else if (c == '\t') {
			sb_puts(b, "\\t");
		} else if (c < 0x20 || c >= 0x7f) {
			/* bytes, not UTF-8: keep the output valid ASCII JSON */
			sb_printf(b, "\\u%04x", c);
		} else {
			sb_putc(b, c);
		}
	}
	sb_putc(b, '"');
}

void sb_hex(struct sbuf *b, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	sb_grow(b, 2 * n);
	for (i = 0; i < n; i++)
		sb_printf(b, "%02x", c[i]);
}
