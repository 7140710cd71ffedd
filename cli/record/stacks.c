// SPDX-License-Identifier: LGPL-2.1-or-later
/* record -k, --stack: the syscall entries the stream writes a stack after, and how. */
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>
#include <string.h>
#include <trace.h>

#include "record/record.h"

int record_set_stacks(trace_attr_t *attr, const struct record_args *a)
{
	const char *spec = a->stack_events;
	trace_event_set_t sel, set, base;
	struct evsel s = { 0 }, none = { 0 };
	int err, bad = 0;

	posix_trace_eventset_empty(&set);
	if (!spec) {
		/* -k: every entry; the -e selection filters them in the kernel already */
		posix_trace_eventset_fill(&sel, POSIX_TRACE_SYSTEM_EVENTS);
	} else if (evsel_parse(&s, spec) || evsel_select(&s, 0, &sel)) {
		evsel_free(&s);
		cli_err("--stack: %s: no such syscalls", spec);
		return -1;
	}
	evsel_free(&s);
	/* what every selection has (the POSIX events...): not asked for */
	evsel_select(&none, 0, &base);
	for (trace_event_id_t id = 1; id < PTBPF_EV_ID_LIMIT; id++) {
		int m = 0, always = 0;

		posix_trace_eventset_ismember(id, &sel, &m);
		posix_trace_eventset_ismember(id, &base, &always);
		if (!m)
			continue;
		if (PTBPF_EV_IS_SYSCALL(id))
			posix_trace_eventset_add(PTBPF_EV_SYS_ENTER(PTBPF_EV_SYSCALL_NR(id)), &set);
		else if (spec && !always)
			bad = 1;
	}
	if (bad) {
		/* a stack is taken where a thread enters the kernel */
		cli_err("--stack: %s: only syscalls have user stacks", spec);
		return -1;
	}
	err = ptbpf_trace_attr_setstacks(attr, &set, a->stack_bytes);
	if (!err)
		err = ptbpf_trace_attr_setstackopts(attr, a->stack_depth, a->stack_flags);
	if (err) {
		cli_err("--stack: %s", strerror(err));
		return -1;
	}
	return 0;
}
