/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_trace_attr_setkeep(): the loaded programs kept for the next stream. */
#include <errno.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>

#include "common/keep.h"
#include "core/attr.h"

_Static_assert(PTBPF_KEEP_MS_MAX == KEEP_MAX_MS, "the helper's bound is the API's");

int ptbpf_trace_attr_setkeep(trace_attr_t *attr, unsigned int ms)
{
	struct pt_attr *a = attr ? attr__from(attr) : NULL;

	if (!a || !attr__valid(a) || ms > PTBPF_KEEP_MS_MAX)
		return EINVAL;
	a->keep_ms = ms;
	return 0;
}

int ptbpf_trace_attr_getkeep(const trace_attr_t *attr, unsigned int *ms)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;

	if (!a || !attr__valid(a) || !ms)
		return EINVAL;
	*ms = a->keep_ms;
	return 0;
}
