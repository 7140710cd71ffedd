/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A stream's big buffers faulted in by its drainer once the stream has run
 * a while, not while it is created: a stream for a short command then
 * costs little more than the first POPULATE_EAGER bytes of each (the rest
 * is neither faulted in nor freed), and a long one still gets its pages
 * before most of its events.
 */
#ifndef PTBPF_CORE_POPULATE_H
#define PTBPF_CORE_POPULATE_H

#include <stdbool.h>
#include <stddef.h>

#define POPULATE_MAX 8
/*
 * Faulted in at once: the start of each buffer, what a short command fills;
 * the rest only once the stream has run a while.
 */
#define POPULATE_EAGER (256u << 10)

struct populate {
	struct {
		unsigned char *p;
		size_t len;
	} r[POPULATE_MAX];
	int n;
};

/*
 * Fresh anonymous memory [p, p + len), not in use yet: its first now bytes
 * are touched at once, the rest left to populate__run() where the kernel
 * can fault pages in without writing them (MADV_POPULATE_WRITE, Linux
 * 5.14), else (or when pl is full or NULL) touched now too.
 */
void populate__add(struct populate *pl, void *p, size_t len, size_t now);

/*
 * Fault in what was left, a chunk at a time, until done or *stop is set.
 * The memory may be in use meanwhile, even moved (a batch that grows past
 * its reservation) and its addresses mapped again: faulting a page in
 * changes no byte of it, and a range that is gone just fails.
 */
void populate__run(struct populate *pl, const bool *stop);

#endif
