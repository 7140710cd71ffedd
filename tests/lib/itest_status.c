/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf_trace_attr_setsyscallstatus(): a stream that records syscalls by
 * their result drops the others in the kernel (counted as filtered), and
 * records each call it keeps as an entry then an exit, the exit carrying
 * the entry's own time even when the entry event was stamped later.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"

#define NCALLS	  50
#define SLOW_MS	  150 /* the failing recv's timeout */
#define NS_PER_MS 1000000LL

static int64_t ts_of(const struct posix_trace_event_info *ev)
{
	return (int64_t)ev->posix_timestamp.tv_sec * 1000000000LL + ev->posix_timestamp.tv_nsec;
}

/* The last entry of each thread seen (the test's two threads) */
struct last_entry {
	pid_t tid;
	trace_event_id_t id;
	int64_t stamp;
};

static struct last_entry *last_of(struct last_entry *e, size_t n, pid_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].tid == tid || !e[i].tid) {
			e[i].tid = tid;
			return &e[i];
		}
	fail_msg("more threads than expected");
	return NULL;
}

static void test_attr(void **state)
{
	trace_attr_t a;
	unsigned int st = 0;

	(void)state;
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(ptbpf_trace_attr_getsyscallstatus(&a, &st), 0);
	assert_int_equal(st, PTBPF_SYSCALL_SUCCESSFUL | PTBPF_SYSCALL_FAILED);
	assert_int_equal(ptbpf_trace_attr_setsyscallstatus(&a, 0x4), EINVAL);
	assert_int_equal(ptbpf_trace_attr_setsyscallstatus(NULL, PTBPF_SYSCALL_FAILED), EINVAL);
	assert_int_equal(ptbpf_trace_attr_getsyscallstatus(&a, NULL), EINVAL);
	assert_int_equal(ptbpf_trace_attr_setsyscallstatus(&a, PTBPF_SYSCALL_FAILED), 0);
	assert_int_equal(ptbpf_trace_attr_getsyscallstatus(&a, &st), 0);
	assert_int_equal(st, PTBPF_SYSCALL_FAILED);
	assert_int_equal(ptbpf_trace_attr_setsyscallstatus(&a, 0), 0);
	assert_int_equal(ptbpf_trace_attr_getsyscallstatus(&a, &st), 0);
	assert_int_equal(st, PTBPF_SYSCALL_SUCCESSFUL | PTBPF_SYSCALL_FAILED);
}

static volatile int slow_done;

/* Failing calls while the main thread waits in its slow one: events
 * recorded after that call's entry, and before its exit. */
static void *fail_meanwhile(void *arg)
{
	(void)arg;
	while (!slow_done) {
		(void)syscall(SYS_openat, AT_FDCWD, "/nonexistent/ptbpf-itest", O_RDONLY);
		usleep(1000);
	}
	return NULL;
}

/* A recv that fails with EAGAIN after SLOW_MS. */
static void slow_failure(void)
{
	struct timeval tv = { .tv_usec = SLOW_MS * 1000 };
	int sv[2];
	char c;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
	assert_int_equal(recvfrom(sv[0], &c, 1, 0, NULL, NULL), -1);
	close(sv[0]);
	close(sv[1]);
}

static void trace_calls(unsigned int statuses, trace_id_t *t)
{
	trace_attr_t a;
	pthread_t th;

	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(ptbpf_trace_attr_setsyscallstatus(&a, statuses), 0);
	assert_int_equal(posix_trace_create(0, &a, t), 0);
	assert_int_equal(posix_trace_start(*t), 0);
	for (int i = 0; i < NCALLS; i++) {
		(void)syscall(SYS_getppid);
		(void)syscall(SYS_openat, AT_FDCWD, "/nonexistent/ptbpf-itest", O_RDONLY);
	}
	slow_done = 0;
	assert_int_equal(pthread_create(&th, NULL, fail_meanwhile, NULL), 0);
	slow_failure();
	slow_done = 1;
	pthread_join(th, NULL);
	assert_int_equal(posix_trace_stop(*t), 0);
}

/* Only failed calls, each an entry then its exit; the slow one's time. */
static void test_failed_only(void **state)
{
	trace_event_id_t getppid_exit, openat_exit, recv_exit;
	struct ptbpf_counters c = { .sz = sizeof(c) };
	struct posix_trace_event_info ev;
	struct last_entry last[4] = { 0 }, *le;
	int64_t entry_ts, slow_ns = -1;
	unsigned char buf[1024];
	int unavail, nopen = 0, nexit = 0;
	pid_t tid;
	size_t len;
	trace_id_t t;

	(void)state;
	itest_require_bpf();
	trace_calls(PTBPF_SYSCALL_FAILED, &t);
	assert_int_equal(ptbpf_system_eventid("sys_exit_getppid", &getppid_exit), 0);
	assert_int_equal(ptbpf_system_eventid("sys_exit_openat", &openat_exit), 0);
	assert_int_equal(ptbpf_system_eventid("sys_exit_recvfrom", &recv_exit), 0);
	while (!posix_trace_trygetnext_event(t, &ev, buf, sizeof(buf), &len, &unavail) &&
	       !unavail) {
		trace_event_id_t id = ev.posix_event_id;

		assert_int_equal(ptbpf_trace_last_tid(t, &tid), 0);
		assert_int_not_equal(id, getppid_exit);
		if (!PTBPF_EV_IS_SYSCALL(id))
			continue;
		le = last_of(last, 4, tid);
		if (!PTBPF_EV_SYSCALL_IS_EXIT(id)) {
			le->id = id;
			le->stamp = ts_of(&ev);
			continue;
		}
		/* an exit: its entry just before it on its thread, its time
		 * in the payload, and a failure */
		const struct ptbpf_ev_sys_exit_ext *x = (const void *)buf;

		assert_int_equal(len, offsetof(struct ptbpf_ev_sys_exit_ext, paths));
		assert_true(x->ret < 0 && x->ret >= -4095);
		nexit++;
		if (!x->duration)
			continue; /* a call that began before the start */
		assert_int_equal(le->id + 1, id);
		/* the entry's own time: before its event's stamp */
		entry_ts = ts_of(&ev) - (int64_t)x->duration;
		assert_true(entry_ts <= le->stamp);
		assert_true(x->duration < 5000 * NS_PER_MS);
		if (id == openat_exit && tid == getpid())
			nopen++;
		if (id == recv_exit) {
			assert_int_equal(x->ret, -EAGAIN);
			slow_ns = ts_of(&ev) - entry_ts;
		}
		le->id = 0;
	}
	assert_true(nopen >= NCALLS);
	assert_true(slow_ns >= (SLOW_MS - 10) * NS_PER_MS);
	assert_int_equal(ptbpf_trace_get_counters(t, &c), 0);
	/* the getppid entries and exits, the successful socket calls */
	assert_true(c.kernel_filtered >= 2 * NCALLS);
	assert_int_equal(c.lost, 0);
	assert_true(nexit > NCALLS);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* Only successful calls: no failed openat, every getppid. */
static void test_successful_only(void **state)
{
	trace_event_id_t getppid_exit, openat_exit;
	struct posix_trace_event_info ev;
	unsigned char buf[1024];
	int unavail, ngetppid = 0;
	size_t len;
	trace_id_t t;

	(void)state;
	itest_require_bpf();
	trace_calls(PTBPF_SYSCALL_SUCCESSFUL, &t);
	assert_int_equal(ptbpf_system_eventid("sys_exit_getppid", &getppid_exit), 0);
	assert_int_equal(ptbpf_system_eventid("sys_exit_openat", &openat_exit), 0);
	while (!posix_trace_trygetnext_event(t, &ev, buf, sizeof(buf), &len, &unavail) &&
	       !unavail) {
		const struct ptbpf_ev_sys_exit_ext *x = (const void *)buf;

		if (!PTBPF_EV_IS_SYSCALL(ev.posix_event_id) ||
		    !PTBPF_EV_SYSCALL_IS_EXIT(ev.posix_event_id))
			continue;
		assert_int_equal(len, offsetof(struct ptbpf_ev_sys_exit_ext, paths));
		assert_false(x->ret < 0 && x->ret >= -4095);
		assert_int_not_equal(ev.posix_event_id, openat_exit);
		if (ev.posix_event_id == getppid_exit)
			ngetppid++;
	}
	assert_true(ngetppid >= NCALLS);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr),
		cmocka_unit_test(test_failed_only),
		cmocka_unit_test(test_successful_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
