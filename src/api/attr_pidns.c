/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_trace_attr_getpidns(): the pid namespace of a stream's ids. */
#include <errno.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>

#include "core/attr.h"

int ptbpf_trace_attr_getpidns(const trace_attr_t *attr, uint64_t *ino)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;

	if (!a || !attr__valid(a) || !ino)
		return EINVAL;
	*ino = a->pidns_ino;
	return 0;
}
