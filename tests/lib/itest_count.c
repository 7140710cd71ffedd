/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscalls counted in the kernel (ptbpf_trace_attr_setaggregate,
 * ptbpf_trace_get_syscall_stats): with the events recorded too, the counts
 * equal what the exit events say, per syscall and errno; without syscall
 * events, nothing of them is recorded and they are counted all the same,
 * the filter deciding which; each count equals its histogram's; by process
 * and by thread; the argument checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"

#define MAXST 4096

/* the calls of syscall nr that failed with err (-1: any) in st */
static uint64_t calls_of(const struct ptbpf_syscall_stats *st, size_t n, unsigned int nr, int err,
			 pid_t tid)
{
	uint64_t c = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t h = 0;

		for (int b = 0; b < PTBPF_HIST_BUCKETS; b++)
			h += st[i].hist[b];
		assert_int_equal(h, st[i].calls);
		assert_true(st[i].min_ns <= st[i].max_ns);
		if (st[i].nr == nr && (err < 0 || st[i].err == err) && (!tid || st[i].tid == tid))
			c += st[i].calls;
	}
	return c;
}

static struct ptbpf_syscall_stats *read_stats(trace_id_t t, size_t *n)
{
	struct ptbpf_syscall_stats *st = calloc(MAXST, sizeof(*st));

	assert_non_null(st);
	assert_int_equal(ptbpf_trace_get_syscall_stats(t, st, MAXST, n), 0);
	assert_true(*n <= MAXST);
	return st;
}

static void workload(int n)
{
	for (int i = 0; i < n; i++) {
		(void)getppid();
		if (i % 2 == 0)
			(void)open("/nonexistent/itest_count", O_RDONLY);
		if (i % 4 == 0)
			(void)close(-1);
	}
}

static trace_id_t create(unsigned int agg, const trace_event_set_t *events)
{
	trace_attr_t a;
	trace_id_t t;

	posix_trace_attr_init(&a);
	assert_int_equal(posix_trace_attr_setstreamsize(&a, 16u << 20), 0);
	assert_int_equal(ptbpf_trace_attr_setaggregate(&a, agg), 0);
	if (events)
		assert_int_equal(ptbpf_trace_attr_setevents(&a, events), 0);
	assert_int_equal(posix_trace_create(0, &a, &t), 0);
	posix_trace_attr_destroy(&a);
	return t;
}

/* events and counts of the same calls agree */
static void test_counts_equal_events(void **state)
{
	struct posix_trace_event_info ev;
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	trace_event_id_t x_getppid, x_openat, x_close;
	uint64_t ev_getppid = 0, ev_openat_enoent = 0, ev_close_ebadf = 0;
	struct ptbpf_syscall_stats *st;
	char data[4096];
	size_t len, n;
	int un = 0;
	trace_id_t t = create(PTBPF_AGG_SYSCALLS, NULL);

	(void)state;
	assert_int_equal(posix_trace_start(t), 0);
	workload(1000);
	assert_int_equal(posix_trace_stop(t), 0);
	assert_int_equal(posix_trace_trid_eventid_open(t, "sys_exit_getppid", &x_getppid), 0);
	assert_int_equal(posix_trace_trid_eventid_open(t, "sys_exit_openat", &x_openat), 0);
	assert_int_equal(posix_trace_trid_eventid_open(t, "sys_exit_close", &x_close), 0);
	while (!posix_trace_trygetnext_event(t, &ev, data, sizeof(data), &len, &un) && !un) {
		const struct ptbpf_ev_sys_exit *x = (const void *)data;

		if (ev.posix_event_id == x_getppid)
			ev_getppid++;
		else if (ev.posix_event_id == x_openat && x->ret == -ENOENT)
			ev_openat_enoent++;
		else if (ev.posix_event_id == x_close && x->ret == -EBADF)
			ev_close_ebadf++;
	}
	assert_int_equal(ptbpf_trace_get_counters(t, &cnt), 0);
	assert_int_equal(cnt.lost, 0);
	st = read_stats(t, &n);
	assert_int_equal(ev_getppid, 1000);
	assert_int_equal(calls_of(st, n, SYS_getppid, -1, 0), ev_getppid);
	assert_int_equal(calls_of(st, n, SYS_openat, ENOENT, 0), ev_openat_enoent);
	assert_int_equal(calls_of(st, n, SYS_close, EBADF, 0), ev_close_ebadf);
	assert_int_equal(ev_openat_enoent, 500);
	assert_int_equal(ev_close_ebadf, 250);
	free(st);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* no syscall event recorded, the calls counted; the filter decides which */
static void test_counts_only(void **state)
{
	struct posix_trace_event_info ev;
	struct ptbpf_syscall_stats *st;
	trace_event_set_t events, filter;
	char data[4096];
	size_t len, n;
	int un = 0;
	trace_id_t t;

	(void)state;
	posix_trace_eventset_empty(&events);
	posix_trace_eventset_add(PTBPF_EV_PROC_EXIT, &events);
	t = create(PTBPF_AGG_SYSCALLS, &events);
	/* getppid's exit filtered out: not counted */
	posix_trace_eventset_empty(&filter);
	posix_trace_eventset_add(PTBPF_EV_SYS_EXIT(SYS_getppid), &filter);
	assert_int_equal(posix_trace_set_filter(t, &filter, POSIX_TRACE_SET_EVENTSET), 0);
	assert_int_equal(posix_trace_start(t), 0);
	workload(400);
	assert_int_equal(posix_trace_stop(t), 0);
	while (!posix_trace_trygetnext_event(t, &ev, data, sizeof(data), &len, &un) && !un)
		assert_false(PTBPF_EV_IS_SYSCALL(ev.posix_event_id));
	st = read_stats(t, &n);
	assert_int_equal(calls_of(st, n, SYS_getppid, -1, 0), 0);
	assert_int_equal(calls_of(st, n, SYS_openat, ENOENT, 0), 200);
	assert_int_equal(calls_of(st, n, SYS_close, EBADF, 0), 100);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(st[i].pid, 0); /* by syscall only */
		if (st[i].nr == SYS_openat && st[i].err == ENOENT)
			assert_true(st[i].total_ns > 0 && st[i].max_ns > 0);
	}
	free(st);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

static void *thread_calls(void *arg)
{
	pid_t *tid = arg;

	*tid = (pid_t)syscall(SYS_gettid);
	for (int i = 0; i < 300; i++)
		(void)getppid();
	return NULL;
}

static void test_by_thread(void **state)
{
	struct ptbpf_syscall_stats *st;
	pthread_t th;
	pid_t tid = 0;
	size_t n;
	trace_id_t t = create(PTBPF_AGG_SYSCALLS | PTBPF_AGG_BY_THREAD, NULL);

	(void)state;
	assert_int_equal(posix_trace_start(t), 0);
	for (int i = 0; i < 200; i++)
		(void)getppid();
	assert_int_equal(pthread_create(&th, NULL, thread_calls, &tid), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(posix_trace_stop(t), 0);
	st = read_stats(t, &n);
	assert_int_equal(calls_of(st, n, SYS_getppid, -1, tid), 300);
	assert_int_equal(calls_of(st, n, SYS_getppid, -1, getpid()), 200);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(st[i].pid, getpid());
	free(st);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

static void test_args(void **state)
{
	struct ptbpf_syscall_stats st;
	unsigned int flags;
	trace_attr_t a;
	trace_id_t t;
	size_t n;

	(void)state;
	posix_trace_attr_init(&a);
	assert_int_equal(ptbpf_trace_attr_getaggregate(&a, &flags), 0);
	assert_int_equal(flags, 0);
	assert_int_equal(ptbpf_trace_attr_setaggregate(&a, 0x100), EINVAL);
	assert_int_equal(ptbpf_trace_attr_setaggregate(&a, PTBPF_AGG_SYSCALLS |
								   PTBPF_AGG_BY_PROCESS |
								   PTBPF_AGG_BY_THREAD),
			 EINVAL);
	assert_int_equal(ptbpf_trace_attr_setaggregate(NULL, PTBPF_AGG_SYSCALLS), EINVAL);
	/* a stream that does not count */
	assert_int_equal(posix_trace_create(0, &a, &t), 0);
	assert_int_equal(ptbpf_trace_get_syscall_stats(t, &st, 1, &n), EINVAL);
	assert_int_equal(posix_trace_shutdown(t), 0);
	t = create(PTBPF_AGG_SYSCALLS, NULL);
	assert_int_equal(ptbpf_trace_get_syscall_stats(t, &st, 1, NULL), EINVAL);
	assert_int_equal(ptbpf_trace_get_syscall_stats(t, NULL, 1, &n), EINVAL);
	/* only the count */
	assert_int_equal(ptbpf_trace_get_syscall_stats(t, NULL, 0, &n), 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
	posix_trace_attr_destroy(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_equal_events),
		cmocka_unit_test(test_counts_only),
		cmocka_unit_test(test_by_thread),
		cmocka_unit_test(test_args),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
