// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the view (cli/view.c) does with the events before they are printed:
 * -T's times at the end of the lines, -z/-Z holding an entry until its exit
 * says whether it is printed, -P following a path through the fds that
 * refer to it, the -c counts (a call without exit, a new task's return
 * from fork) and perf trace --summary's per-thread table.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "view/view.h"
#include "view_out.h"

#define NR_READ		0
#define NR_WRITE	1
#define NR_CLOSE	3
#define NR_RT_SIGRETURN 15
#define NR_DUP2		33
#define NR_VFORK	58
#define NR_FCNTL	72
#define NR_GETPPID	110
#define NR_EXIT_GROUP	231
#define NR_OPENAT	257

static void out_open(struct out *o, void (*opts)(struct view_opts *))
{
	out_begin(o);
	if (opts)
		opts(&o->o);
	out_view(o);
}

static void ev_init(struct cli_ev *ev, trace_event_id_t id, const char *name, int64_t ts_us,
		    pid_t pid, pid_t tid)
{
	memset(ev, 0, sizeof(*ev));
	ev->info.posix_event_id = id;
	ev->info.posix_pid = pid;
	ev->info.posix_timestamp.tv_sec = ts_us / 1000000;
	ev->info.posix_timestamp.tv_nsec = ts_us % 1000000 * 1000;
	ev->tid = tid;
	snprintf(ev->name_buf, sizeof(ev->name_buf), "%s", name);
	ev->name = ev->name_buf;
	ev->sys_off = (uint8_t)sys_name_offset(ev->name);
	ev->desc = ev->sys_off ? sys_desc(ev->name + ev->sys_off) : NULL;
}

/* A syscall entry of thread tid of process pid; path: argument path_arg. */
static void enter(struct out *o, const char *sys, int nr, int64_t ts_us, pid_t pid, pid_t tid,
		  const uint64_t *args, int path_arg, const char *path)
{
	union {
		struct ptbpf_ev_sys_enter se;
		char raw[sizeof(struct ptbpf_ev_sys_enter) + PTBPF_PATH_MAX];
	} u;
	struct cli_ev ev;
	char name[TRACE_EVENT_NAME_MAX];

	snprintf(name, sizeof(name), "sys_enter_%s", sys);
	ev_init(&ev, PTBPF_EV_SYS_ENTER(nr), name, ts_us, pid, tid);
	memset(&u, 0, sizeof(u));
	u.se.nr = nr;
	if (args)
		memcpy(u.se.args, args, sizeof(u.se.args));
	ev.len = offsetof(struct ptbpf_ev_sys_enter, paths);
	if (path) {
		u.se.path_arg[0] = (uint8_t)path_arg;
		u.se.path_len[0] = (uint16_t)(strlen(path) + 1);
		memcpy(u.se.paths, path, strlen(path) + 1);
		ev.len += strlen(path) + 1;
	}
	ev.data = &u;
	view_event(o->v, &ev);
}

static void leave(struct out *o, const char *sys, int nr, int64_t ts_us, pid_t pid, pid_t tid,
		  int64_t ret)
{
	struct ptbpf_ev_sys_exit x = { .nr = nr, .ret = ret };
	struct cli_ev ev;
	char name[TRACE_EVENT_NAME_MAX];

	snprintf(name, sizeof(name), "sys_exit_%s", sys);
	ev_init(&ev, PTBPF_EV_SYS_EXIT(nr), name, ts_us, pid, tid);
	ev.data = &x;
	ev.len = sizeof(x);
	view_event(o->v, &ev);
}

static void call(struct out *o, const char *sys, int nr, int64_t t0, int64_t t1, pid_t tid,
		 const uint64_t *args, int64_t ret)
{
	enter(o, sys, nr, t0, 100, tid, args, 0, NULL);
	leave(o, sys, nr, t1, 100, tid, ret);
}

static void other(struct out *o, trace_event_id_t id, const char *name, int64_t ts_us, pid_t pid,
		  pid_t tid, const void *data, size_t len)
{
	struct cli_ev ev;

	ev_init(&ev, id, name, ts_us, pid, tid);
	ev.data = data;
	ev.len = len;
	view_event(o->v, &ev);
}

static void opt_times(struct view_opts *o)
{
	o->times = 6;
}

static void opt_times_ms(struct view_opts *o)
{
	o->times = 3;
}

/* -T: " <S.UUUUUU>" after the result; on a resumed line from the entry;
 * none for a call that does not return. */
static void test_times(void **state)
{
	struct out o;
	uint64_t a[6] = { 3, 0x1000, 10 };

	(void)state;
	out_open(&o, opt_times);
	call(&o, "getppid", NR_GETPPID, 0, 12, 101, NULL, 99);
	enter(&o, "read", NR_READ, 20, 100, 101, a, 0, NULL);
	call(&o, "getppid", NR_GETPPID, 21, 22, 102, NULL, 99);
	leave(&o, "read", NR_READ, 1500020, 100, 101, 10);
	enter(&o, "exit_group", NR_EXIT_GROUP, 1500030, 100, 101, NULL, 0, NULL);
	assert_string_equal(out_text(&o), "0.000000 100/101 getppid() = 99 <0.000012>\n"
					  "0.000020 100/101 read(3, 0x1000, 10 <unfinished ...>\n"
					  "0.000021 100/102 getppid() = 99 <0.000001>\n"
					  "1.500020 100/101 <... read resumed>) = 10 <1.500000>\n"
					  "1.500030 100/101 exit_group(0) = ?\n");
	out_close(&o);

	/* --syscall-times=ms: three digits, cut as strace cuts them */
	out_open(&o, opt_times_ms);
	call(&o, "getppid", NR_GETPPID, 0, 2999, 101, NULL, 99);
	assert_string_equal(out_text(&o), "0.000000 100/101 getppid() = 99 <0.002>\n");
	out_close(&o);
}

static void opt_failed(struct view_opts *o)
{
	o->status = VIEW_ST_FAILED;
}

static void opt_successful(struct view_opts *o)
{
	o->status = VIEW_ST_SUCCESSFUL;
}

static void opt_unfinished(struct view_opts *o)
{
	o->status = VIEW_ST_UNFINISHED;
}

/*
 * -Z: an entry is held until its exit says it failed, then printed whole
 * (no <unfinished ...> for the other thread's calls in between); calls
 * that succeed are not printed at all.
 */
static void test_failed_only(void **state)
{
	struct out o;
	uint64_t a[6] = { 3, 0x1000, 10 };

	(void)state;
	out_open(&o, opt_failed);
	enter(&o, "read", NR_READ, 10, 100, 101, a, 0, NULL);
	call(&o, "getppid", NR_GETPPID, 11, 12, 102, NULL, 99);
	call(&o, "close", NR_CLOSE, 13, 14, 102, a, -9);
	leave(&o, "read", NR_READ, 20, 100, 101, -4);
	call(&o, "getppid", NR_GETPPID, 30, 31, 101, NULL, 99);
	/* times from the first event, printed or not */
	assert_string_equal(out_text(&o),
			    "0.000003 100/102 close(3) = -1 EBADF (Bad file descriptor)\n"
			    "0.000000 100/101 read(3, 0x1000, 10) = -1 EINTR (Interrupted "
			    "system call)\n");
	out_close(&o);
}

/* -z: exit_group (which never returns) is not printed, a thread gone in a
 * call neither; status=unfinished prints just those. */
static void test_unfinished(void **state)
{
	static const struct ptbpf_ev_exit ex = { .pid = 100, .tid = 102 };
	struct out o;
	uint64_t a[6] = { 3, 0x1000, 10 };

	(void)state;
	out_open(&o, opt_successful);
	call(&o, "getppid", NR_GETPPID, 0, 1, 101, NULL, 99);
	enter(&o, "read", NR_READ, 2, 100, 102, a, 0, NULL);
	other(&o, PTBPF_EV_THREAD_EXIT, "thread_exit", 3, 100, 102, &ex, sizeof(ex));
	enter(&o, "exit_group", NR_EXIT_GROUP, 4, 100, 101, NULL, 0, NULL);
	assert_string_equal(out_text(&o), "0.000000 100/101 getppid() = 99\n"
					  "0.000003 100/102 +++ exited with 0 +++\n");
	out_close(&o);

	out_open(&o, opt_unfinished);
	call(&o, "getppid", NR_GETPPID, 0, 1, 101, NULL, 99);
	enter(&o, "read", NR_READ, 2, 100, 102, a, 0, NULL);
	other(&o, PTBPF_EV_THREAD_EXIT, "thread_exit", 3, 100, 102, &ex, sizeof(ex));
	enter(&o, "exit_group", NR_EXIT_GROUP, 4, 100, 101, NULL, 0, NULL);
	assert_string_equal(out_text(&o), "0.000002 100/102 read(3, 0x1000, 10 <unfinished ...>\n"
					  "0.000003 100/102 +++ exited with 0 +++\n"
					  "0.000004 100/101 exit_group(0) = ?\n");
	out_close(&o);
}

static void opt_path(struct view_opts *o)
{
	o->paths[o->npaths++] = "/no/such/dir/f";
}

/*
 * -P: the open of the path, then the calls on the fd it returned and on
 * its copies (dup2, fcntl F_DUPFD_CLOEXEC), in a child forked with them
 * too; close and a close-on-exec fd at exec forget them. Calls on other
 * fds and paths are not printed.
 */
static void test_pathtrace(void **state)
{
	static const struct ptbpf_ev_fork fk = {
		.parent_pid = 100, .parent_tid = 101, .child_pid = 200, .child_tid = 200
	};
	static const struct ptbpf_ev_exec ex = {
		.pid = 200, .old_tid = 200, .filename_len = 7, .filename = "/bin/x"
	};
	struct out o;
	uint64_t at[6] = { (uint64_t)-100, 0, 0 }, r5[6] = { 5 }, r6[6] = { 6 }, r7[6] = { 7 };
	uint64_t r9[6] = { 9 }, d[6] = { 5, 7 }, fc[6] = { 7, 1030, 0 };

	(void)state;
	out_open(&o, opt_path);
	enter(&o, "openat", NR_OPENAT, 1, 100, 101, at, 1, "/etc/passwd");
	leave(&o, "openat", NR_OPENAT, 2, 100, 101, 6);
	enter(&o, "openat", NR_OPENAT, 3, 100, 101, at, 1, "/no/such/dir/f");
	leave(&o, "openat", NR_OPENAT, 4, 100, 101, 5);
	call(&o, "read", NR_READ, 5, 6, 101, r6, 0);
	call(&o, "read", NR_READ, 7, 8, 101, r5, 0);
	call(&o, "dup2", NR_DUP2, 9, 10, 101, d, 7);
	call(&o, "fcntl", NR_FCNTL, 11, 12, 101, fc, 9);
	other(&o, PTBPF_EV_PROC_FORK, "proc_fork", 13, 100, 101, &fk, sizeof(fk));
	call(&o, "close", NR_CLOSE, 14, 15, 101, r5, 0);
	call(&o, "read", NR_READ, 16, 17, 101, r5, 0);
	other(&o, PTBPF_EV_PROC_EXEC, "proc_exec", 18, 200, 200, &ex, sizeof(ex));
	enter(&o, "read", NR_READ, 19, 200, 200, r9, 0, NULL);
	leave(&o, "read", NR_READ, 20, 200, 200, 0);
	enter(&o, "write", NR_WRITE, 21, 200, 200, r7, 0, NULL);
	leave(&o, "write", NR_WRITE, 22, 200, 200, 0);
	call(&o, "write", NR_WRITE, 23, 24, 101, r7, 0);
	assert_string_equal(out_text(&o),
			    "0.000002 100/101 openat(AT_FDCWD, \"/no/such/dir/f\", O_RDONLY) = 5\n"
			    "0.000006 100/101 read(5, NULL, 0) = 0\n"
			    "0.000008 100/101 dup2(5, 7) = 7\n"
			    "0.000010 100/101 fcntl(7, F_DUPFD_CLOEXEC, 0) = 9\n"
			    "0.000012 100/101 proc_fork process 200/200 comm=\"\"\n"
			    "0.000013 100/101 close(5) = 0\n"
			    "0.000017 200/200 proc_exec \"/bin/x\"\n"
			    "0.000020 200/200 write(7, NULL, 0) = 0\n"
			    "0.000022 100/101 write(7, NULL, 0) = 0\n");
	out_close(&o);
}

static void opt_summary(struct view_opts *o)
{
	o->cflag = VIEW_C_ONLY;
	o->sortby = SUM_COL_NAME;
}

/*
 * -c: calls and errors as strace counts them: an exit without its entry
 * is a call, a new task's return from vfork is not (strace sees only the
 * parent's), an rt_sigreturn the kernel writes no exit for is counted
 * when its thread begins its next syscall, exit_group never.
 */
static void test_summary_counts(void **state)
{
	struct out o;
	uint64_t a[6] = { 3 };
	struct summary *s;

	(void)state;
	out_open(&o, opt_summary);
	call(&o, "read", NR_READ, 0, 10, 101, a, 5);
	call(&o, "read", NR_READ, 20, 50, 101, a, -11);
	leave(&o, "read", NR_READ, 60, 100, 101, 0);
	enter(&o, "vfork", NR_VFORK, 70, 100, 101, NULL, 0, NULL);
	leave(&o, "vfork", NR_VFORK, 71, 100, 102, 0);
	leave(&o, "vfork", NR_VFORK, 72, 100, 101, 102);
	enter(&o, "rt_sigreturn", NR_RT_SIGRETURN, 80, 100, 101, NULL, 0, NULL);
	call(&o, "getppid", NR_GETPPID, 90, 91, 101, NULL, 99);
	enter(&o, "exit_group", NR_EXIT_GROUP, 100, 100, 101, NULL, 0, NULL);
	assert_string_equal(out_text(&o), "");
	s = malloc(sizeof(*s));
	assert_non_null(s);
	summary_init(s);
	summary_add(s, NR_GETPPID, "getppid", 1000, 0);
	summary_add(s, NR_READ, "read", 10000, 0);
	summary_add(s, NR_READ, "read", 30000, 1);
	summary_add(s, NR_READ, "read", 0, 0);
	summary_add(s, NR_RT_SIGRETURN, "rt_sigreturn", 0, 0);
	summary_add(s, NR_VFORK, "vfork", 2000, 0);
	{
		char *want = NULL, *got = NULL;
		size_t wl = 0, gl = 0;
		FILE *w = open_memstream(&want, &wl), *g = open_memstream(&got, &gl);

		summary_print(s, summary_default_columns, SUM_COL_NAME, w);
		fclose(w);
		assert_int_equal(view_report(o.v, g), 0);
		fclose(g);
		assert_string_equal(got, want);
		free(want);
		free(got);
	}
	free(s);
	out_close(&o);
}

static void opt_threads(struct view_opts *o)
{
	o->threads = VIEW_TH_THREAD;
}

static void opt_processes(struct view_opts *o)
{
	o->threads = VIEW_TH_PROCESS;
}

static void thread_events(struct out *o)
{
	static const struct ptbpf_ev_fork fk = { .parent_pid = 100,
						 .parent_tid = 100,
						 .child_pid = 100,
						 .child_tid = 101,
						 .is_thread = 1,
						 .comm = "worker" };
	struct {
		struct ptbpf_ev_exec e;
	} ex = { { .pid = 100, .old_tid = 100, .filename_len = 9, .filename = "/bin/prog" } };
	uint64_t a[6] = { 3 };

	other(o, PTBPF_EV_PROC_EXEC, "proc_exec", 0, 100, 100, &ex, sizeof(ex));
	other(o, PTBPF_EV_PROC_FORK, "proc_fork", 1, 100, 100, &fk, sizeof(fk));
	other(o, PTBPF_EV_SCHED_SWITCH_IN, "sched_switch_in", 10, 100, 101, NULL, 0);
	enter(o, "read", NR_READ, 100, 100, 101, a, 0, NULL);
	leave(o, "read", NR_READ, 1100, 100, 101, 1);
	enter(o, "read", NR_READ, 2000, 100, 101, a, 0, NULL);
	other(o, PTBPF_EV_SCHED_SWITCH_OUT, "sched_switch_out", 2010, 100, 101, NULL, 0);
	other(o, PTBPF_EV_SCHED_SWITCH_IN, "sched_switch_in", 4010, 100, 101, NULL, 0);
	leave(o, "read", NR_READ, 5000, 100, 101, -11);
	other(o, PTBPF_EV_SCHED_SWITCH_OUT, "sched_switch_out", 5010, 100, 101, NULL, 0);
	enter(o, "getppid", NR_GETPPID, 9500, 100, 100, NULL, 0, NULL);
	leave(o, "getppid", NR_GETPPID, 9502, 100, 100, 1);
}

/*
 * --summary=thread: perf trace --summary's layout (its header and rule
 * lines, its columns, msec with 3 digits, the "stddev" as perf computes
 * it), the thread's name from exec and fork, on-CPU and waiting times
 * from the sched events; --summary=process adds a process's threads up.
 */
static void test_thread_summary(void **state)
{
	static const char head[] =
		"\n"
		"   syscall            calls  errors  total       min       avg       max       "
		"stddev\n"
		"                                     (msec)    (msec)    (msec)    (msec)        "
		"(%)\n"
		"   --------------- --------  ------ -------- --------- --------- ---------     "
		"------\n";
	struct out o;
	char *got = NULL, want[4096];
	size_t gl = 0;
	FILE *g;

	(void)state;
	out_open(&o, opt_threads);
	thread_events(&o);
	g = open_memstream(&got, &gl);
	assert_int_equal(view_report(o.v, g), 0);
	fclose(g);
	/* threads 100 and 101: buckets 100 and 101 of perf's table; read:
	 * 1 and 3 ms, mean 2, stddev of the mean 1 (50%) */
	snprintf(want, sizeof(want),
		 "\n Summary of events:\n\n"
		 " prog (100), 4 events, 33.3%%, 0.000 msec, 0.000 msec wait\n%s"
		 "   getppid                1      0     0.002     0.002     0.002     0.002      "
		 "0.00%%\n\n\n"
		 " worker (101), 8 events, 66.7%%, 3.000 msec, 2.000 msec wait\n%s"
		 "   read                   2      1     4.000     1.000     2.000     3.000     "
		 "50.00%%\n\n\n",
		 head, head);
	assert_string_equal(got, want);
	free(got);
	out_close(&o);

	out_open(&o, opt_processes);
	thread_events(&o);
	got = NULL;
	g = open_memstream(&got, &gl);
	assert_int_equal(view_report(o.v, g), 0);
	fclose(g);
	snprintf(want, sizeof(want),
		 "\n Summary of events:\n\n"
		 " prog (100), 12 events, 100.0%%, 3.000 msec, 2.000 msec wait\n%s"
		 "   read                   2      1     4.000     1.000     2.000     3.000     "
		 "50.00%%\n"
		 "   getppid                1      0     0.002     0.002     0.002     0.002      "
		 "0.00%%\n\n\n",
		 head);
	assert_string_equal(got, want);
	free(got);
	out_close(&o);
}

/*
 * What a damaged log may hold: a syscall of thread 0 is printed as it is,
 * a summary of events without a process (pid 0), or of none, is made
 * without error, and a switch in before the switch out adds no time.
 */
static void test_damaged(void **state)
{
	struct out o;
	char *got = NULL;
	size_t gl = 0;
	FILE *g;

	(void)state;
	out_open(&o, NULL);
	enter(&o, "getppid", NR_GETPPID, 0, 100, 0, NULL, 0, NULL);
	leave(&o, "getppid", NR_GETPPID, 1, 100, 0, 99);
	assert_string_equal(out_text(&o), "0.000000 100/0 getppid() = 99\n");
	out_close(&o);

	out_open(&o, opt_processes);
	g = open_memstream(&got, &gl);
	assert_int_equal(view_report(o.v, g), 0);
	fclose(g);
	assert_string_equal(got, "\n Summary of events:\n\n");
	free(got);
	other(&o, PTBPF_EV_SCHED_SWITCH_IN, "sched_switch_in", 10, 0, 5, NULL, 0);
	other(&o, PTBPF_EV_SCHED_SWITCH_OUT, "sched_switch_out", 20, 7, 7, NULL, 0);
	other(&o, PTBPF_EV_SCHED_SWITCH_IN, "sched_switch_in", 10, 7, 7, NULL, 0);
	got = NULL;
	g = open_memstream(&got, &gl);
	assert_int_equal(view_report(o.v, g), 0);
	fclose(g);
	assert_non_null(strstr(got, " :7 (7), 2 events, 66.7%, 0.000 msec, 0.000 msec wait\n"));
	free(got);
	out_close(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_times),	       cmocka_unit_test(test_failed_only),
		cmocka_unit_test(test_unfinished),     cmocka_unit_test(test_pathtrace),
		cmocka_unit_test(test_summary_counts), cmocka_unit_test(test_thread_summary),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
