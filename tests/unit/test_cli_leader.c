// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * strace's look of the command's text lines (cli/fmt/leader.c): no pid for
 * one thread, "[pid N] " while several run, "N " on every line of a file
 * with -f, " = " at column 40 (-a), -t/-tt/-ttt/-r, -Y, -e signal=,
 * -e quiet=exit, ptbpf's own events and a child's clone return hidden,
 * user events as "--- user:NAME ... ---".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "view/view.h"
#include "fmt_out.h"

#define NR_CLOSE 3
#define NR_CLONE 56

static const char *out_text(struct out *o)
{
	return out_written(o, 1);
}

static void ev_init(struct cli_ev *ev, trace_event_id_t id, const char *name, int64_t ts_us,
		    pid_t tid)
{
	memset(ev, 0, sizeof(*ev));
	ev->info.posix_event_id = id;
	ev->info.posix_pid = tid;
	ev->info.posix_timestamp.tv_sec = ts_us / 1000000;
	ev->info.posix_timestamp.tv_nsec = ts_us % 1000000 * 1000;
	ev->tid = tid;
	snprintf(ev->name_buf, sizeof(ev->name_buf), "%s", name);
	ev->name = ev->name_buf;
	ev->sys_off = (uint8_t)sys_name_offset(ev->name);
	ev->desc = ev->sys_off ? sys_desc(ev->name + ev->sys_off) : NULL;
}

/* close(fd) = ret by thread tid at ts_us, entry and exit */
static void sys_close(struct out *o, int64_t ts_us, pid_t tid, int fd, int64_t ret)
{
	struct ptbpf_ev_sys_enter se;
	struct ptbpf_ev_sys_exit x = { .nr = NR_CLOSE, .ret = ret };
	struct cli_ev ev;

	ev_init(&ev, PTBPF_EV_SYS_ENTER(NR_CLOSE), "sys_enter_close", ts_us, tid);
	memset(&se, 0, sizeof(se));
	se.nr = NR_CLOSE;
	se.args[0] = (uint64_t)fd;
	ev.data = &se;
	ev.len = sizeof(se);
	fmt_event(&o->fmt, &ev);
	ev_init(&ev, PTBPF_EV_SYS_EXIT(NR_CLOSE), "sys_exit_close", ts_us + 1, tid);
	ev.data = &x;
	ev.len = sizeof(x);
	fmt_event(&o->fmt, &ev);
}

static void proc_exit(struct out *o, int64_t ts_us, pid_t tid, int code)
{
	struct ptbpf_ev_exit e;
	struct cli_ev ev;

	memset(&e, 0, sizeof(e));
	e.exit_code = code << 8;
	ev_init(&ev, PTBPF_EV_PROC_EXIT, "proc_exit", ts_us, tid);
	ev.data = &e;
	ev.len = sizeof(e);
	fmt_event(&o->fmt, &ev);
}

static void proc_fork(struct out *o, int64_t ts_us, pid_t parent, pid_t child, const char *comm)
{
	struct ptbpf_ev_fork e;
	struct cli_ev ev;

	memset(&e, 0, sizeof(e));
	e.parent_pid = e.parent_tid = parent;
	e.child_pid = e.child_tid = child;
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	ev_init(&ev, PTBPF_EV_PROC_FORK, "proc_fork", ts_us, parent);
	ev.data = &e;
	ev.len = sizeof(e);
	fmt_event(&o->fmt, &ev);
}

static void test_one_thread(void **state)
{
	struct out o;

	(void)state;
	out_open_look(&o, NULL);
	sys_close(&o, 1000, 100, 3, 0);
	sys_close(&o, 2000, 100, 4, -9);
	assert_string_equal(out_text(&o), "close(3)                                = 0\n"
					  "close(4)                                = -1 EBADF (Bad "
					  "file descriptor)\n");
	out_close(&o);
}

/* "[pid N] " while two threads run (the child counts from its fork), none
 * once the child's +++ line is out */
static void test_pid_while_several(void **state)
{
	struct out o;

	(void)state;
	out_open_look(&o, NULL);
	sys_close(&o, 1000, 100, 3, 0);
	proc_fork(&o, 2000, 100, 101, "sh");
	sys_close(&o, 3000, 101, 5, 0);
	sys_close(&o, 4000, 100, 6, 0);
	proc_exit(&o, 5000, 101, 2);
	sys_close(&o, 6000, 100, 7, 0);
	assert_string_equal(out_text(&o), "close(3)                                = 0\n"
					  "[pid   101] close(5)                    = 0\n"
					  "[pid   100] close(6)                    = 0\n"
					  "[pid   101] +++ exited with 2 +++\n"
					  "close(7)                                = 0\n");
	out_close(&o);
}

/* strace -f -o FILE: the pid on every line, %-5u; -a 20 */
static void test_file_and_column(void **state)
{
	struct fmt_look look;
	struct out o;

	(void)state;
	fmt_look_init(&look);
	look.pids = FMT_PID_FILE;
	look.acolumn = 20;
	out_open_look(&o, &look);
	sys_close(&o, 1000, 100, 3, 0);
	sys_close(&o, 2000, 123456, 3, 0);
	assert_string_equal(out_text(&o), "100   close(3)      = 0\n"
					  "123456 close(3)     = 0\n");
	out_close(&o);
}

static void test_times(void **state)
{
	static const struct {
		int tflag, rflag;
		const char *want;
	} c[] = {
		{ 1, 0,
		  "00:00:01 close(3)                       = 0\n"
		  "00:00:02 close(3)                       = 0\n" },
		{ 2, 0,
		  "00:00:01.000100 close(3)                = 0\n"
		  "00:00:02.250000 close(3)                = 0\n" },
		{ 3, 0,
		  "1.000100 close(3)                       = 0\n"
		  "2.250000 close(3)                       = 0\n" },
		{ 0, 1,
		  "     0.000000 close(3)                  = 0\n"
		  "     1.249900 close(3)                  = 0\n" },
		{ 1, 1,
		  "00:00:01 (+     0.000000) close(3)      = 0\n"
		  "00:00:02 (+     1.249900) close(3)      = 0\n" },
	};
	struct fmt_look look;
	struct out o;

	(void)state;
	setenv("TZ", "UTC", 1);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fmt_look_init(&look);
		look.tflag = c[i].tflag;
		look.rflag = c[i].rflag;
		out_open_look(&o, &look);
		sys_close(&o, 1000100, 100, 3, 0);
		sys_close(&o, 2250000, 100, 3, 0);
		assert_string_equal(out_text(&o), c[i].want);
		out_close(&o);
	}
}

/* -Y: the name a fork gave, after the pid */
static void test_comm(void **state)
{
	struct fmt_look look;
	struct out o;

	(void)state;
	fmt_look_init(&look);
	look.comm = 1;
	out_open_look(&o, &look);
	sys_close(&o, 1000, 100, 3, 0);
	proc_fork(&o, 2000, 100, 101, "worker");
	sys_close(&o, 3000, 101, 3, 0);
	assert_string_equal(out_text(&o), "close(3)                                = 0\n"
					  "[pid   101<worker>] close(3)            = 0\n");
	out_close(&o);
}

static void signal_deliver(struct out *o, int64_t ts_us, pid_t tid, int signo)
{
	struct ptbpf_ev_signal s;
	struct cli_ev ev;

	memset(&s, 0, sizeof(s));
	s.signo = signo;
	s.code = 0; /* SI_USER */
	s.sender_pid = 1;
	ev_init(&ev, PTBPF_EV_SIGNAL_DELIVER, "signal_deliver", ts_us, tid);
	ev.data = &s;
	ev.len = sizeof(s);
	fmt_event(&o->fmt, &ev);
}

/* -e signal=!SIGUSR1 and -e quiet=exit */
static void test_signal_quiet(void **state)
{
	struct fmt_look look;
	struct out o;

	(void)state;
	fmt_look_init(&look);
	look.sigs_hidden = 1ull << (SIGUSR1 - 1);
	look.quiet = FMT_Q_EXIT;
	out_open_look(&o, &look);
	signal_deliver(&o, 1000, 100, SIGUSR1);
	signal_deliver(&o, 2000, 100, SIGUSR2);
	proc_exit(&o, 3000, 100, 0);
	assert_string_equal(out_text(&o), "--- SIGUSR2 {si_signo=SIGUSR2, si_code=SI_USER, "
					  "si_pid=1, si_uid=0} ---\n");
	out_close(&o);
}

/* ptbpf's own events: not in strace's look unless asked for; a user event
 * as strace would show what is no syscall */
static void test_hidden_and_user(void **state)
{
	struct fmt_look look;
	struct cli_ev ev;
	struct out o;

	(void)state;
	for (int all = 0; all < 2; all++) {
		fmt_look_init(&look);
		look.all_events = all;
		out_open_look(&o, &look);
		ev_init(&ev, POSIX_TRACE_START, "posix_trace_start", 1000, 0);
		fmt_event(&o.fmt, &ev);
		ev_init(&ev, PTBPF_EV_USER_BASE + 1, "hello", 2000, 100);
		ev.data = "hi\n";
		ev.len = 3;
		fmt_event(&o.fmt, &ev);
		assert_string_equal(out_text(&o), all ? "=== posix_trace_start ===\n"
							"--- user:hello \"hi\\n\" ---\n"
						      : "--- user:hello \"hi\\n\" ---\n");
		out_close(&o);
	}
}

/* a new thread's return from the clone that made it: no line */
static void test_child_return(void **state)
{
	struct ptbpf_ev_sys_exit x = { .nr = NR_CLONE, .ret = 0 };
	struct cli_ev ev;
	struct out o;

	(void)state;
	out_open_look(&o, NULL);
	ev_init(&ev, PTBPF_EV_SYS_EXIT(NR_CLONE), "sys_exit_clone", 1000, 101);
	ev.data = &x;
	ev.len = sizeof(x);
	fmt_event(&o.fmt, &ev);
	sys_close(&o, 2000, 101, 3, 0);
	assert_string_equal(out_text(&o), "close(3)                                = 0\n");
	out_close(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_thread),
		cmocka_unit_test(test_pid_while_several),
		cmocka_unit_test(test_file_and_column),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_signal_quiet),
		cmocka_unit_test(test_hidden_and_user),
		cmocka_unit_test(test_child_return),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
