// SPDX-License-Identifier: LGPL-2.1-or-later
/* A stream's buffers faulted in by its drainer: see populate.h. */
#include "core/populate.h"

#include <sys/mman.h>

#include "common/pages.h"

/* One madvise: short enough that a shutdown waits little for it. */
#define POPULATE_CHUNK (256u << 10)

/* Fault in for writing without changing a byte; false where the kernel cannot. */
static bool populate_write(unsigned char *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	return !madvise(p, len, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
	return false;
#endif
}

void populate__add(struct populate *pl, void *p, size_t len, size_t now)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *b = p;

	now = (now + page - 1) & ~(page - 1);
	if (now > len)
		now = len;
	pages__touch_write(b, now);
	if (now == len)
		return;
	/* one page now tells whether the kernel can do the rest later */
	if (!pl || pl->n == POPULATE_MAX || !populate_write(b + now, page)) {
		pages__touch_write(b + now, len - now);
		return;
	}
	pl->r[pl->n].p = b + now;
	pl->r[pl->n].len = len - now;
	pl->n++;
}

void populate__run(struct populate *pl, const bool *stop)
{
	for (int i = 0; i < pl->n; i++) {
		for (size_t off = 0; off < pl->r[i].len; off += POPULATE_CHUNK) {
			size_t n = pl->r[i].len - off;

			if (__atomic_load_n(stop, __ATOMIC_RELAXED))
				return;
			(void)populate_write(pl->r[i].p + off,
					     n < POPULATE_CHUNK ? n : POPULATE_CHUNK);
		}
	}
	pl->n = 0;
}
