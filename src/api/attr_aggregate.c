/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_trace_attr_setaggregate(): syscalls counted in the kernel. */
#include <errno.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>

#include "core/attr.h"

#define AGG_ALL (PTBPF_AGG_SYSCALLS | PTBPF_AGG_BY_PROCESS | PTBPF_AGG_BY_THREAD)

int ptbpf_trace_attr_setaggregate(trace_attr_t *attr, unsigned int flags)
{
	struct pt_attr *a = attr ? attr__from(attr) : NULL;

	if (!a || !attr__valid(a) || (flags & ~AGG_ALL))
		return EINVAL;
	if ((flags & PTBPF_AGG_BY_PROCESS) && (flags & PTBPF_AGG_BY_THREAD))
		return EINVAL;
	a->aggregate = flags;
	return 0;
}

int ptbpf_trace_attr_getaggregate(const trace_attr_t *attr, unsigned int *flags)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;

	if (!a || !attr__valid(a) || !flags)
		return EINVAL;
	*flags = a->aggregate;
	return 0;
}
