/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_trace_attr_setevents(): the events a stream may record, at most. */
#include <errno.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>
#include <string.h>
#include <trace.h>

#include "core/attr.h"

_Static_assert(PTBPF_EV_KERNEL_LAST < 64, "the kernel events fit ev_kern");
_Static_assert(PT_STACK_NR_WORDS * 64 == PTBPF_SYSCALL_NR_MAX, "ev_sys holds every syscall");

static int member(trace_event_id_t id, const trace_event_set_t *set)
{
	int m = 0;

	posix_trace_eventset_ismember(id, set, &m);
	return m;
}

int ptbpf_trace_attr_setevents(trace_attr_t *attr, const trace_event_set_t *events)
{
	struct pt_attr *a = attr ? attr__from(attr) : NULL;
	trace_event_id_t id;

	if (!a || !attr__valid(a))
		return EINVAL;
	a->ev_bounded = events != NULL;
	a->ev_probes = 0;
	a->ev_kern = 0;
	memset(a->ev_sys, 0, sizeof(a->ev_sys));
	if (!events)
		return 0;
	for (id = PTBPF_EV_KERNEL_FIRST; id <= PTBPF_EV_KERNEL_LAST; id++)
		if (member(id, events))
			a->ev_kern |= 1ull << id;
	for (unsigned int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++)
		if (member(PTBPF_EV_SYS_ENTER(nr), events) || member(PTBPF_EV_SYS_EXIT(nr), events))
			a->ev_sys[nr / 64] |= 1ull << (nr % 64);
	for (id = PTBPF_EV_USER_BASE; id < PTBPF_EV_ID_LIMIT && !a->ev_probes; id++)
		a->ev_probes = member(id, events);
	return 0;
}

int ptbpf_trace_attr_getevents(const trace_attr_t *attr, trace_event_set_t *events)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;
	trace_event_id_t id;

	if (!a || !attr__valid(a) || !events)
		return EINVAL;
	posix_trace_eventset_fill(events, POSIX_TRACE_ALL_EVENTS);
	if (!a->ev_bounded)
		return 0;
	for (id = PTBPF_EV_KERNEL_FIRST; id <= PTBPF_EV_KERNEL_LAST; id++)
		if (!(a->ev_kern >> id & 1))
			posix_trace_eventset_del(id, events);
	for (unsigned int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		if (a->ev_sys[nr / 64] >> (nr % 64) & 1)
			continue;
		posix_trace_eventset_del(PTBPF_EV_SYS_ENTER(nr), events);
		posix_trace_eventset_del(PTBPF_EV_SYS_EXIT(nr), events);
	}
	return 0;
}
