/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_trace_attr_setstrsize(): captures of what syscall arguments point to. */
#include <errno.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>

#include "core/attr.h"

int ptbpf_trace_attr_setstrsize(trace_attr_t *attr, unsigned int strsize)
{
	struct pt_attr *a = attr ? attr__from(attr) : NULL;

	if (!a || !attr__valid(a) || strsize > PTBPF_STRSIZE_MAX)
		return EINVAL;
	a->strsize = strsize;
	return 0;
}

int ptbpf_trace_attr_getstrsize(const trace_attr_t *attr, unsigned int *strsize)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;

	if (!a || !attr__valid(a) || !strsize)
		return EINVAL;
	*strsize = a->strsize;
	return 0;
}
