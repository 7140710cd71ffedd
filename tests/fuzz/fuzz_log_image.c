// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The log's memory images (src/log/log_image.c): a traced process chooses
 * its stack's bytes and its stack pointer. The input is two stack events
 * (a base, then the next): the next, encoded against the base, must decode
 * back to itself; the input's tail is also decoded as a (hostile) body.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log/log_format.h"
#include "log/log_image.h"

#define PREFIX	 144 /* a user_stack's id, flags, length and registers */
#define ADDR_OFF 64  /* its stack pointer */

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t n)
{
	static unsigned char base_buf[LOG_MAX_DATA], out_buf[LOG_MAX_DATA];
	static unsigned char body[LOG_IMAGE_BODY_MAX(LOG_MAX_DATA)];
	struct log_image base = { .buf = base_buf }, out = { .buf = out_buf };
	size_t split, blen, nlen, len;

	if (n < 4)
		return 0;
	split = (size_t)(in[0] | in[1] << 8);
	in += 2;
	n -= 2;
	blen = split % (n + 1);
	nlen = n - blen;
	if (blen >= PREFIX && blen <= LOG_MAX_DATA)
		log_image__set(&base, in, (uint32_t)blen, PREFIX, ADDR_OFF);
	if (nlen >= PREFIX && nlen <= LOG_MAX_DATA) {
		len = log_image__encode(&base, in + blen, (uint32_t)nlen, PREFIX, ADDR_OFF, body);
		if (len > LOG_IMAGE_BODY_MAX(nlen) ||
		    log_image__decode(&base, body, len, (uint32_t)nlen, &out) || out.len != nlen ||
		    memcmp(out.buf, in + blen, nlen))
			abort();
	}
	/* the tail as a body, of a length its first byte says */
	(void)log_image__decode(&base, in + blen, nlen, nlen ? in[blen] * 64u : 0, &out);
	return 0;
}
