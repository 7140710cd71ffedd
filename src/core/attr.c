/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/attr.h"

#include <string.h>
#include <ptbpf/events.h>

#include "common/event.h"
#include "core/queue.h"

void attr__init(struct pt_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->magic = PT_ATTR_MAGIC;
	a->inherit = POSIX_TRACE_CLOSE_FOR_CHILD;
	a->stream_policy = -1;
	a->log_policy = POSIX_TRACE_LOOP;
	a->stream_size = PT_DEFAULT_STREAM_SIZE;
	a->max_data_size = PT_DEFAULT_MAX_DATA_SIZE;
	a->log_size = PT_DEFAULT_LOG_SIZE;
	a->arch = PT_ARCH_NATIVE;
}

bool attr__valid(const struct pt_attr *a)
{
	return a && a->magic == PT_ATTR_MAGIC;
}

int attr__stream_policy(const struct pt_attr *a, bool with_log)
{
	if (a->stream_policy >= 0)
		return a->stream_policy;
	return with_log ? POSIX_TRACE_FLUSH : POSIX_TRACE_LOOP;
}

size_t attr__event_cost(size_t data_len)
{
	return queue__record_size(data_len);
}

size_t attr__max_system_data(void)
{
	size_t sys = sizeof(struct ptbpf_ev_sys_enter) + 2 * PTBPF_PATH_MAX;
	size_t filter = 2 * sizeof(trace_event_set_t); /* POSIX_TRACE_FILTER */
	size_t fd = sizeof(struct ptbpf_ev_fd_info);

	if (fd > sys)
		sys = fd;
	return sys > filter ? sys : filter;
}

size_t attr__max_system_data_of(const struct pt_attr *a)
{
	size_t st = a->stack_bytes ? sizeof(struct ptbpf_ev_user_stack) + a->stack_bytes : 0;
	/* a stack the kernel walked, at the most frames */
	size_t tr = sizeof(struct ptbpf_ev_stack_trace) + PTBPF_STACK_TRACE_MAX * sizeof(__u64);

	if (a->stack_bytes && tr > st)
		st = tr;
	/* a syscall's captures (struct ptbpf_sys_cap), at most this room */
	if (a->strsize && attr__max_system_data() + PTBPF_CAP_AREA > st)
		st = attr__max_system_data() + PTBPF_CAP_AREA;

	return st > attr__max_system_data() ? st : attr__max_system_data();
}

long attr__clockres_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts))
		return 1;
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}
