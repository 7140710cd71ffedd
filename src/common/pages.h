/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Touching a buffer's pages when it is set up, not while events flow: on a
 * virtual machine the first access of a process to a page costs about a
 * hundred times the next one even when the page is mapped (the hypervisor
 * fills its shadow or nested page table entry then), and a drainer that
 * meets its buffers' pages one at a time pays it thousands of times a run. Shared by the
 * stream core, the kernel backend and the log writer; plain C only.
 */
#ifndef PTBPF_COMMON_PAGES_H
#define PTBPF_COMMON_PAGES_H

#include <stddef.h>
#include <unistd.h>

/* Read a byte of every page of [p, p + len) (a read-only mapping). */
static inline void pages__touch_read(const void *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < len; off += page)
		(void)((const volatile unsigned char *)p)[off];
}

/*
 * Write a zero into every page of [p, p + len): memory that is not in use
 * yet. Volatile: a memset() after malloc() is compiled into calloc(),
 * which touches nothing.
 */
static inline void pages__touch_write(void *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < len; off += page)
		((volatile unsigned char *)p)[off] = 0;
}

#endif
