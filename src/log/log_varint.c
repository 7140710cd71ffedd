// SPDX-License-Identifier: LGPL-2.1-or-later
/* Reading the LEB128 numbers of the log (log_varint.h). */
#include "log/log_varint.h"

#include <errno.h>

int log_varint__get(const unsigned char **pos, const unsigned char *end, uint64_t *v)
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
