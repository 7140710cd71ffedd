/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The unsigned LEB128 numbers of packed events and memory images
 * (docs/log-format.md). Internal to src/log.
 */
#ifndef PTBPF_LOG_VARINT_H
#define PTBPF_LOG_VARINT_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/* LEB128; the values an event repeats (deltas, ids, lengths) take a byte
 * or two */
static inline size_t log_varint__put(unsigned char *out, uint64_t v)
{
	size_t n = 0;

	if (v < 0x80) {
		out[0] = (unsigned char)v;
		return 1;
	}
	if (v < 0x4000) {
		out[0] = (unsigned char)(v | 0x80);
		out[1] = (unsigned char)(v >> 7);
		return 2;
	}
	while (v >= 0x80) {
		out[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (unsigned char)v;
	return n;
}

/* A varint at *pos (before end): 0, or -EINVAL (past end, overlong). */
static inline int log_varint__get(const unsigned char **pos, const unsigned char *end, uint64_t *v)
{
	const unsigned char *q = *pos;
	uint64_t r = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		if (q == end)
			return -EINVAL;
		r |= (uint64_t)(*q & 0x7f) << shift;
		if (!(*q++ & 0x80)) {
			/* the 10th byte may only carry the top bit */
			if (shift == 63 && q[-1] > 1)
				return -EINVAL;
			*pos = q;
			*v = r;
			return 0;
		}
	}
	return -EINVAL;
}

#endif
