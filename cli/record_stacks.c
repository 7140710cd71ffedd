// SPDX-License-Identifier: LGPL-2.1-or-later
/* record -k: the stream writes a user stack after every syscall entry. */
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>

#include "record.h"

void record_set_stacks(trace_attr_t *attr)
{
	trace_event_set_t set;

	posix_trace_eventset_empty(&set);
	/* every entry: the -e selection filters them in the kernel already */
	for (unsigned int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++)
		posix_trace_eventset_add(PTBPF_EV_SYS_ENTER(nr), &set);
	ptbpf_trace_attr_setstacks(attr, &set, 0);
}
