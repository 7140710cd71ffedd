/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the walk of an event's fields (<ptbpf/evfields.h>) over
 * a payload from a log or a traced process. The first byte picks the event
 * (a POSIX or kernel id), the rest is its payload, copied to an allocation
 * of exactly its size so ASan sees a read past it; every field's span must
 * lie within the payload, and its bytes are read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/evfields.h>

static volatile unsigned char sink; /* keeps the reads */

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	const struct ptbpf_event_desc *d;
	unsigned char *p, sum = 0;
	size_t len;

	if (!size)
		return 0;
	d = ptbpf_event_desc(in[0] % (PTBPF_EV_KERNEL_LAST + 1));
	if (!d)
		return 0;
	len = size - 1;
	p = malloc(len ? len : 1);
	if (!p)
		return 0;
	memcpy(p, in + 1, len);
	for (unsigned int i = 0; i < d->nfields; i++) {
		unsigned long long v;
		size_t at, n;

		if (!ptbpf_event_field_span(d, i, p, len, &at, &n)) {
			if (at > len || n > len - at)
				abort();
			for (size_t k = 0; k < n; k++)
				sum ^= p[at + k];
		}
		if (!ptbpf_event_field_int(d, i, p, len, &v))
			sum ^= (unsigned char)v;
	}
	free(p);
	sink = sum;
	return 0;
}
