/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_trace_attr_setstacks(): which syscall entries carry stacks, and how. */
#include <errno.h>
#include <string.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>

#include "core/attr.h"

#define SET_WORD_BITS (8 * sizeof(unsigned long))

static int set_has(const trace_event_set_t *set, unsigned int id)
{
	return (set->__bits[id / SET_WORD_BITS] >> (id % SET_WORD_BITS)) & 1;
}

int ptbpf_trace_attr_setstacks(trace_attr_t *attr, const trace_event_set_t *events, size_t bytes)
{
	struct pt_attr *a = attr ? attr__from(attr) : NULL;
	uint64_t nrs[PT_STACK_NR_WORDS] = { 0 };
	int any = 0;

	if (!a || !attr__valid(a) || bytes > PTBPF_USER_STACK_MAX)
		return EINVAL;
	for (unsigned int id = 1; events && id < __PTBPF_EVENTSET_BITS; id++) {
		if (!set_has(events, id))
			continue;
		/* only a syscall entry has the user registers at hand */
		if (!PTBPF_EV_IS_SYSCALL(id) || PTBPF_EV_SYSCALL_IS_EXIT(id))
			return EINVAL;
		nrs[PTBPF_EV_SYSCALL_NR(id) / 64] |= 1ULL << (PTBPF_EV_SYSCALL_NR(id) % 64);
		any = 1;
	}
	memcpy(a->stack_nrs, nrs, sizeof(nrs));
	a->stack_bytes = any ? (bytes ? (uint32_t)bytes : PTBPF_USER_STACK_DEFAULT) : 0;
	return 0;
}

int ptbpf_trace_attr_getstacks(const trace_attr_t *attr, trace_event_set_t *events, size_t *bytes)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;

	if (!a || !attr__valid(a) || !events || !bytes)
		return EINVAL;
	memset(events, 0, sizeof(*events));
	for (unsigned int nr = 0; a->stack_bytes && nr < PTBPF_SYSCALL_NR_MAX; nr++)
		if ((a->stack_nrs[nr / 64] >> (nr % 64)) & 1) {
			unsigned int id = PTBPF_EV_SYS_ENTER(nr);

			events->__bits[id / SET_WORD_BITS] |= 1UL << (id % SET_WORD_BITS);
		}
	*bytes = a->stack_bytes;
	return 0;
}

int ptbpf_trace_attr_setstackopts(trace_attr_t *attr, unsigned int depth, unsigned int flags)
{
	struct pt_attr *a = attr ? attr__from(attr) : NULL;

	if (!a || !attr__valid(a) || depth > PTBPF_STACK_DEPTH_MAX ||
	    (flags & ~(PTBPF_STACK_FP | PTBPF_STACK_KERNEL)))
		return EINVAL;
	a->stack_depth = (uint16_t)depth;
	a->stack_flags = (uint16_t)flags;
	return 0;
}

int ptbpf_trace_attr_getstackopts(const trace_attr_t *attr, unsigned int *depth,
				  unsigned int *flags)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;

	if (!a || !attr__valid(a) || !depth || !flags)
		return EINVAL;
	*depth = a->stack_depth ? a->stack_depth : PTBPF_STACK_DEPTH_DEFAULT;
	*flags = a->stack_flags;
	return 0;
}
