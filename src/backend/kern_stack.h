/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stacks of a stream's KERN_ID_STACK records, each distinct one given
 * an id once: the stream carries a stack's addresses in one stack_trace
 * event and refers to it by id afterwards (as perf's and LTTng's stack
 * tables do), so identical stacks do not cost their bytes twice.
 */
#ifndef PTBPF_BACKEND_KERN_STACK_H
#define PTBPF_BACKEND_KERN_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kern_stacks;

/* NULL: no memory. */
struct kern_stacks *kern_stacks__new(void);
void kern_stacks__free(struct kern_stacks *t);
/*
 * The id (1 and up) of the n addresses at ips (kernel ones or not);
 * *fresh when it was not seen before, and its stack_trace is to be
 * written now. 0 when out of memory (no stack). Past a bound the table
 * starts over: ids are never given twice, a stack seen again gets a new
 * one.
 */
uint32_t kern_stacks__id(struct kern_stacks *t, bool kernel, const uint64_t *ips, size_t n,
			 bool *fresh);

#endif
