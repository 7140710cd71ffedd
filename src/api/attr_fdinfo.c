/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_trace_attr_setfdinfo(): fd_info events, what each fd refers to. */
#include <errno.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>

#include "core/attr.h"

int ptbpf_trace_attr_setfdinfo(trace_attr_t *attr, int on)
{
	struct pt_attr *a = attr ? attr__from(attr) : NULL;

	if (!a || !attr__valid(a))
		return EINVAL;
	a->fdinfo = on != 0;
	return 0;
}

int ptbpf_trace_attr_getfdinfo(const trace_attr_t *attr, int *on)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;

	if (!a || !attr__valid(a) || !on)
		return EINVAL;
	*on = (int)a->fdinfo;
	return 0;
}
