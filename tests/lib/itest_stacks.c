/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf_trace_attr_setstacks(): a "user_stack" event right after each
 * selected syscall entry, with the thread's registers at the call and a
 * copy of its real stack (a marker the caller left there is in it), in
 * the stream and in its log; none for other syscalls or without stacks.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"
#include "itest_read.h"

/* the C library of Debian's multiarch layout, which the test maps */
#if defined(__x86_64__)
#define LIBC_PATH "/usr/lib/x86_64-linux-gnu/libc.so.6"
#elif defined(__aarch64__)
#define LIBC_PATH "/usr/lib/aarch64-linux-gnu/libc.so.6"
#endif

#define NCALLS 20
#define MARKER 0x5074627053746b21ULL /* "!ktSpbtP" */

static void test_attr(void **state)
{
	trace_event_id_t getppid_enter, getppid_exit;
	trace_event_set_t set, got;
	trace_attr_t a;
	size_t bytes = 1;
	int member = 0;

	(void)state;
	assert_int_equal(ptbpf_system_eventid("sys_enter_getppid", &getppid_enter), 0);
	assert_int_equal(ptbpf_system_eventid("sys_exit_getppid", &getppid_exit), 0);
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(ptbpf_trace_attr_getstacks(&a, &got, &bytes), 0);
	assert_int_equal(bytes, 0);
	assert_int_equal(posix_trace_eventset_empty(&set), 0);
	assert_int_equal(posix_trace_eventset_add(getppid_exit, &set), 0);
	assert_int_equal(ptbpf_trace_attr_setstacks(&a, &set, 0), EINVAL);
	assert_int_equal(posix_trace_eventset_empty(&set), 0);
	assert_int_equal(posix_trace_eventset_add(getppid_enter, &set), 0);
	assert_int_equal(ptbpf_trace_attr_setstacks(&a, &set, PTBPF_USER_STACK_MAX + 1), EINVAL);
	assert_int_equal(ptbpf_trace_attr_setstacks(NULL, &set, 0), EINVAL);
	assert_int_equal(ptbpf_trace_attr_getstacks(&a, NULL, &bytes), EINVAL);
	assert_int_equal(ptbpf_trace_attr_setstacks(&a, &set, 0), 0);
	assert_int_equal(ptbpf_trace_attr_getstacks(&a, &got, &bytes), 0);
	assert_int_equal(bytes, PTBPF_USER_STACK_DEFAULT);
	assert_int_equal(posix_trace_eventset_ismember(getppid_enter, &got, &member), 0);
	assert_true(member);
	assert_int_equal(posix_trace_eventset_ismember(getppid_exit, &got, &member), 0);
	assert_false(member);
	assert_int_equal(ptbpf_trace_attr_setstacks(&a, NULL, 0), 0);
	assert_int_equal(ptbpf_trace_attr_getstacks(&a, &got, &bytes), 0);
	assert_int_equal(bytes, 0);
}

/* Calls from a frame that holds the marker: its copy is in every stack. */
static __attribute__((noinline)) void calls(void)
{
	volatile uint64_t mark[4] = { MARKER, MARKER, MARKER, MARKER };

	for (int i = 0; i < NCALLS; i++) {
		(void)syscall(SYS_getppid);
		(void)syscall(SYS_openat, AT_FDCWD, "/nonexistent/ptbpf-itest", O_RDONLY);
	}
	(void)mark[0];
}

/*
 * Calls from below a frame larger than the largest copy, every page of it
 * written (the kernel does not fault pages in for the copy).
 */
static __attribute__((noinline)) void deep_calls(void)
{
	volatile char pad[PTBPF_USER_STACK_MAX + 4096];

	for (size_t i = 0; i < sizeof(pad); i += 512)
		pad[i] = 1;
	calls();
	pad[sizeof(pad) - 1] = pad[0];
}

static bool has_marker(const struct ptbpf_ev_user_stack *st)
{
	uint64_t v;

	for (size_t off = 0; off + sizeof(v) <= st->stack_len; off += sizeof(v)) {
		memcpy(&v, st->stack + off, sizeof(v));
		if (v == MARKER)
			return true;
	}
	return false;
}

struct seen {
	int stacks, orphans, entries;
};

/*
 * Reads every event of t: each sys_enter_getppid of this thread is
 * followed by its user_stack, with bytes of a stack holding the marker.
 */
static void check_events(trace_id_t t, bool log, size_t bytes, struct seen *n)
{
	static unsigned char buf[sizeof(struct ptbpf_ev_user_stack) + PTBPF_USER_STACK_MAX];
	struct posix_trace_event_info ev;
	trace_event_id_t getppid_enter, prev = 0;
	uint64_t prev_addr = 0;
	char name[TRACE_EVENT_NAME_MAX];
	size_t len;

	assert_int_equal(ptbpf_system_eventid("sys_enter_getppid", &getppid_enter), 0);
	memset(n, 0, sizeof(*n));
	while (itest_next_event(t, log,
				(struct itest_ev_ref){ &ev, name, buf, sizeof(buf), &len })) {
		const struct ptbpf_ev_user_stack *st = (const void *)buf;

		/* this thread's events only: others interleave */
		if (ev.posix_pid != getpid() || !pthread_equal(ev.posix_thread_id, pthread_self()))
			continue;
		if (ev.posix_event_id == getppid_enter)
			n->entries++;
		if (ev.posix_event_id != PTBPF_EV_USER_STACK) {
			prev = ev.posix_event_id;
			prev_addr = (uint64_t)(uintptr_t)ev.posix_prog_address;
			continue;
		}
		assert_string_equal(name, "user_stack");
		assert_true(len >= offsetof(struct ptbpf_ev_user_stack, stack));
		assert_int_equal(len, offsetof(struct ptbpf_ev_user_stack, stack) + st->stack_len);
		if (prev != st->event_id) {
			n->orphans++;
			continue;
		}
		/* only the selected syscall, and its own registers */
		assert_int_equal(st->event_id, getppid_enter);
		assert_int_equal(st->regs[PTBPF_STACK_REG_IP], prev_addr);
		assert_int_not_equal(st->regs[PTBPF_STACK_REG_SP], 0);
		assert_int_equal(st->stack_len, bytes);
		/* not short, and the depth of an unwinder: the default */
		assert_int_equal(st->flags & 0xff, 0);
		assert_int_equal(PTBPF_STACK_DEPTH(st->flags), PTBPF_STACK_DEPTH_DEFAULT);
		assert_true(has_marker(st));
		n->stacks++;
		prev = 0;
	}
}

struct events_run {
	size_t bytes;
	struct seen *n;
};

static void check_events_run(trace_id_t t, bool log, void *ctx)
{
	const struct events_run *r = ctx;

	check_events(t, log, r->bytes, r->n);
}

static void trace_calls(size_t bytes, bool stacks, const char *logpath)
{
	trace_event_id_t getppid_enter;
	trace_event_set_t set;
	struct seen n;
	trace_attr_t a;

	itest_require_bpf();
	assert_int_equal(ptbpf_system_eventid("sys_enter_getppid", &getppid_enter), 0);
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(posix_trace_eventset_empty(&set), 0);
	assert_int_equal(posix_trace_eventset_add(getppid_enter, &set), 0);
	if (stacks)
		assert_int_equal(ptbpf_trace_attr_setstacks(&a, &set, bytes), 0);
	itest_trace_run(&a, logpath, deep_calls, check_events_run,
			&(struct events_run){ bytes, &n });
	assert_true(n.entries >= NCALLS);
	assert_int_equal(n.orphans, 0);
	assert_int_equal(n.stacks, stacks ? n.entries : 0);
}

static void test_stream(void **state)
{
	(void)state;
	trace_calls(PTBPF_USER_STACK_DEFAULT, true, NULL);
}

static void test_largest(void **state)
{
	(void)state;
	trace_calls(PTBPF_USER_STACK_MAX, true, NULL);
}

static void test_log(void **state)
{
	char path[] = "/tmp/ptbpf-itest-stacks.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	trace_calls(1024, true, path);
}

struct maps_seen {
	bool mine, exe, interp, libc;
};

/* The proc_map events of t: this process's mmap, the child's exec. */
static void check_maps(trace_id_t t, pid_t child, void *at, const char *self, struct maps_seen *m)
{
	static struct ptbpf_ev_proc_map e;
	struct posix_trace_event_info ev;
	char name[TRACE_EVENT_NAME_MAX];
	size_t len;

	memset(m, 0, sizeof(*m));
	while (itest_next_event(t, false,
				(struct itest_ev_ref){ &ev, name, &e, sizeof(e), &len })) {
		if (ev.posix_event_id != PTBPF_EV_PROC_MAP)
			continue;
		assert_string_equal(name, "proc_map");
		assert_int_equal(len, offsetof(struct ptbpf_ev_proc_map, path) + e.path_len +
					      e.build_id_len);
		assert_int_equal(strlen(e.path) + 1, e.path_len);
		assert_true(e.path[0] == '/' || (e.kind == PTBPF_MAP_INTERP && !e.path[0]));
		if (ev.posix_pid == getpid() && e.kind == PTBPF_MAP_MMAP &&
		    e.start == (uint64_t)(uintptr_t)at) {
			struct stat st;

			assert_string_equal(e.path, self);
			assert_int_equal(e.len, 4096);
			assert_int_equal(e.offset, 0);
			/* the file's identity, in the kernel's encoding of dev */
			assert_int_equal(stat(self, &st), 0);
			assert_int_equal(e.ino, st.st_ino);
			assert_int_equal(e.size, st.st_size);
			assert_int_equal(e.dev, major(st.st_dev) << 20 | minor(st.st_dev));
			m->mine = true;
		}
		if (ev.posix_pid != child)
			continue;
		if (e.kind == PTBPF_MAP_EXEC) {
			assert_string_equal(e.path, "/usr/bin/true");
			assert_int_not_equal(e.start, 0);
			m->exe = true;
		} else if (e.kind == PTBPF_MAP_INTERP) {
			assert_string_equal(e.path, "");
			assert_int_not_equal(e.start, 0);
			m->interp = true;
		} else if (e.kind == PTBPF_MAP_MMAP && !strcmp(e.path, LIBC_PATH)) {
			m->libc = true;
		}
	}
}

/* A stream with stacks records the executable mappings, with their paths. */
static void test_maps(void **state)
{
	trace_event_id_t getppid_enter;
	char self[4096];
	trace_event_set_t set;
	struct maps_seen m;
	trace_attr_t a;
	trace_id_t t;
	ssize_t n;
	pid_t child;
	void *at;
	int fd, st;

	(void)state;
	itest_require_bpf();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = 0;
	assert_int_equal(ptbpf_system_eventid("sys_enter_getppid", &getppid_enter), 0);
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED), 0);
	assert_int_equal(posix_trace_eventset_empty(&set), 0);
	assert_int_equal(posix_trace_eventset_add(getppid_enter, &set), 0);
	assert_int_equal(ptbpf_trace_attr_setstacks(&a, &set, 0), 0);
	assert_int_equal(posix_trace_create(0, &a, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	fd = open(self, O_RDONLY);
	assert_true(fd >= 0);
	at = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	assert_true(at != MAP_FAILED);
	close(fd);
	child = fork();
	if (!child) {
		execl("/usr/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_int_equal(st, 0);
	assert_int_equal(posix_trace_stop(t), 0);
	check_maps(t, child, at, self, &m);
	munmap(at, 4096);
	assert_int_equal(posix_trace_shutdown(t), 0);
	assert_true(m.mine);
	assert_true(m.exe);
	assert_true(m.interp);
	assert_true(m.libc);
}

static void test_off(void **state)
{
	(void)state;
	trace_calls(0, false, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr),	cmocka_unit_test(test_stream),
		cmocka_unit_test(test_largest), cmocka_unit_test(test_log),
		cmocka_unit_test(test_maps),	cmocka_unit_test(test_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
