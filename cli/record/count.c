/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscalls counted in the kernel (ptbpf_trace_attr_setaggregate): when a
 * record asks only for aggregates (-c, --histogram with -c, and no log nor
 * lines), no syscall event crosses the ring: the kernel counts and times
 * them, and the tables are made from its counts at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <ptbpf/ptbpf.h>

#include "record/record.h"

int record_counts_only(const struct record_args *a)
{
	return !a->output && !a->separately && view_opts_aggregate_only(&a->view);
}

unsigned int record_aggregate(const struct record_args *a)
{
	if (!record_counts_only(a) && !a->metrics.listen && !a->metrics.push)
		return 0;
	if (a->view.threads == VIEW_TH_THREAD)
		return PTBPF_AGG_SYSCALLS | PTBPF_AGG_BY_THREAD;
	if (a->view.threads == VIEW_TH_PROCESS)
		return PTBPF_AGG_SYSCALLS | PTBPF_AGG_BY_PROCESS;
	return PTBPF_AGG_SYSCALLS;
}

void record_no_syscalls(trace_event_set_t *set)
{
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		posix_trace_eventset_del(PTBPF_EV_SYS_ENTER(nr), set);
		posix_trace_eventset_del(PTBPF_EV_SYS_EXIT(nr), set);
	}
}

int record_stats(trace_id_t trid, struct ptbpf_syscall_stats **out, size_t *n)
{
	struct ptbpf_syscall_stats *st = NULL;
	size_t max = 0;
	int err;

	for (;;) {
		err = ptbpf_trace_get_syscall_stats(trid, st, max, n);
		if (err || *n <= max)
			break;
		free(st);
		max = *n + 64; /* more may come meanwhile */
		st = malloc(max * sizeof(*st));
		if (!st) {
			err = ENOMEM;
			break;
		}
	}
	if (err) {
		free(st);
		st = NULL;
		*n = 0;
	}
	*out = st;
	return err;
}
