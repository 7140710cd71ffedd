/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* posix_trace_eventset_*: sets of event type ids (a bitmap). */
#include <errno.h>
#include <string.h>
#include <trace.h>
#include <ptbpf/events.h>

#define BITS_PER_WORD (8 * sizeof(unsigned long))

static int valid_id(trace_event_id_t id)
{
	return id > 0 && id < __PTBPF_EVENTSET_BITS;
}

int posix_trace_eventset_empty(trace_event_set_t *set)
{
	if (!set)
		return EINVAL;
	memset(set, 0, sizeof(*set));
	return 0;
}

int posix_trace_eventset_add(trace_event_id_t id, trace_event_set_t *set)
{
	if (!set || !valid_id(id))
		return EINVAL;
	set->__bits[id / BITS_PER_WORD] |= 1UL << (id % BITS_PER_WORD);
	return 0;
}

int posix_trace_eventset_del(trace_event_id_t id, trace_event_set_t *set)
{
	if (!set || !valid_id(id))
		return EINVAL;
	set->__bits[id / BITS_PER_WORD] &= ~(1UL << (id % BITS_PER_WORD));
	return 0;
}

int posix_trace_eventset_ismember(trace_event_id_t id, const trace_event_set_t *__restrict set,
				  int *__restrict ismember)
{
	if (!set || !ismember || !valid_id(id))
		return EINVAL;
	*ismember = (set->__bits[id / BITS_PER_WORD] >> (id % BITS_PER_WORD)) & 1;
	return 0;
}

/*
 * POSIX_TRACE_SYSTEM_EVENTS: every system event type (POSIX, kernel and
 * syscall ids); POSIX_TRACE_ALL_EVENTS: those and every user event id;
 * POSIX_TRACE_WOPID_EVENTS: the system events not tied to a process
 * (the POSIX operational events: error, start, stop, filter, overflow,
 * resume, flush start and stop).
 */
int posix_trace_eventset_fill(trace_event_set_t *set, int what)
{
	trace_event_id_t id, last;

	if (!set)
		return EINVAL;
	switch (what) {
	case POSIX_TRACE_WOPID_EVENTS:
		last = POSIX_TRACE_FLUSH_STOP;
		break;
	case POSIX_TRACE_SYSTEM_EVENTS:
		last = PTBPF_EV_USER_BASE - 1;
		break;
	case POSIX_TRACE_ALL_EVENTS:
		last = __PTBPF_EVENTSET_BITS - 1;
		break;
	default:
		return EINVAL;
	}
	memset(set, 0, sizeof(*set));
	for (id = 1; id <= last; id++)
		set->__bits[id / BITS_PER_WORD] |= 1UL << (id % BITS_PER_WORD);
	return 0;
}
