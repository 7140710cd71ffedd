// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ptbpf command's lines for what an exit or a signal payload brings
 * beyond older logs: the paths an entry could not read, put in its place
 * (and a malformed payload left alone, the address kept); a signal payload
 * of an older log (32 bytes) printed as before; the SIGKILL of a dying
 * process's threads printed as nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "view/view.h"
#include "fmt_out.h"

#define NR_STATFS 137

static const char *out_text(struct out *o)
{
	return out_written(o, 1);
}

static void ev_init(struct cli_ev *ev, trace_event_id_t id, const char *name, const void *data,
		    size_t len)
{
	memset(ev, 0, sizeof(*ev));
	ev->info.posix_event_id = id;
	ev->info.posix_pid = 100;
	ev->tid = 100;
	snprintf(ev->name_buf, sizeof(ev->name_buf), "%s", name);
	ev->name = ev->name_buf;
	ev->sys_off = (uint8_t)sys_name_offset(ev->name);
	ev->desc = ev->sys_off ? sys_desc(ev->name + ev->sys_off) : NULL;
	ev->data = data;
	ev->len = len;
}

/* statfs(0x1000, 0x2000) whose path faulted at entry, then its exit with
 * the payload x of xlen bytes: the line printed */
static void statfs_late(struct out *o, const void *x, size_t xlen)
{
	struct ptbpf_ev_sys_enter se;
	struct cli_ev ev;

	memset(&se, 0, sizeof(se));
	se.nr = NR_STATFS;
	se.args[0] = 0x1000;
	se.args[1] = 0x2000;
	se.flags = PTBPF_SYS_PATH0_FAULT;
	ev_init(&ev, PTBPF_EV_SYS_ENTER(NR_STATFS), "sys_enter_statfs", &se, sizeof(se));
	fmt_event(&o->fmt, &ev);
	ev_init(&ev, PTBPF_EV_SYS_EXIT(NR_STATFS), "sys_exit_statfs", x, xlen);
	fmt_event(&o->fmt, &ev);
}

static void test_late_path(void **state)
{
	static const char path[] = "/etc/hosts";
	struct {
		struct ptbpf_ev_sys_exit_ext h;
		char p[sizeof(path)];
	} x;
	struct out o;

	(void)state;
	memset(&x, 0, sizeof(x));
	x.h.nr = NR_STATFS;
	x.h.path_len[0] = sizeof(path);
	memcpy(x.p, path, sizeof(path));
	out_open(&o);
	statfs_late(&o, &x, sizeof(x));
	assert_string_equal(out_text(&o), "0.000000 100/100 statfs(\"/etc/hosts\", 0x2000) = 0\n");
	out_close(&o);

	/* a path longer than the payload: the address stays */
	x.h.path_len[0] = 200;
	out_open(&o);
	statfs_late(&o, &x, sizeof(x));
	assert_string_equal(out_text(&o), "0.000000 100/100 statfs(0x1000, 0x2000) = 0\n");
	out_close(&o);

	/* an exit of an older log (16 bytes) */
	out_open(&o);
	statfs_late(&o, &x, sizeof(struct ptbpf_ev_sys_exit));
	assert_string_equal(out_text(&o), "0.000000 100/100 statfs(0x1000, 0x2000) = 0\n");
	out_close(&o);
}

#define NR_GETPID    39
#define NR_NANOSLEEP 35

static void at(struct cli_ev *ev, pid_t tid, int64_t ns)
{
	ev->tid = tid;
	ev->info.posix_timestamp.tv_sec = ns / 1000000000;
	ev->info.posix_timestamp.tv_nsec = ns % 1000000000;
}

/* statfs with a faulted path entered by tid 100 at ns */
static void statfs_enter(struct out *o, int64_t ns)
{
	static struct ptbpf_ev_sys_enter se;
	struct cli_ev ev;

	memset(&se, 0, sizeof(se));
	se.nr = NR_STATFS;
	se.args[0] = 0x1000;
	se.args[1] = 0x2000;
	se.flags = PTBPF_SYS_PATH0_FAULT;
	ev_init(&ev, PTBPF_EV_SYS_ENTER(NR_STATFS), "sys_enter_statfs", &se, sizeof(se));
	at(&ev, 100, ns);
	fmt_event(&o->fmt, &ev);
}

/* its exit at ns, with the path */
static void statfs_exit(struct out *o, int64_t ns)
{
	static const char path[] = "/etc/hosts";
	static struct {
		struct ptbpf_ev_sys_exit_ext h;
		char p[sizeof(path)];
	} x;
	struct cli_ev ev;

	memset(&x, 0, sizeof(x));
	x.h.nr = NR_STATFS;
	x.h.path_len[0] = sizeof(path);
	memcpy(x.p, path, sizeof(path));
	ev_init(&ev, PTBPF_EV_SYS_EXIT(NR_STATFS), "sys_exit_statfs", &x, sizeof(x));
	at(&ev, 100, ns);
	fmt_event(&o->fmt, &ev);
}

/* getpid() = tid by tid at ns: entry and exit */
static void getpid_call(struct out *o, pid_t tid, int64_t ns)
{
	static struct ptbpf_ev_sys_enter se;
	static struct ptbpf_ev_sys_exit x;
	struct cli_ev ev;

	memset(&se, 0, sizeof(se));
	se.nr = NR_GETPID;
	ev_init(&ev, PTBPF_EV_SYS_ENTER(NR_GETPID), "sys_enter_getpid", &se, sizeof(se));
	at(&ev, tid, ns);
	fmt_event(&o->fmt, &ev);
	x.nr = NR_GETPID;
	x.ret = tid;
	ev_init(&ev, PTBPF_EV_SYS_EXIT(NR_GETPID), "sys_exit_getpid", &x, sizeof(x));
	at(&ev, tid, ns);
	fmt_event(&o->fmt, &ev);
}

/*
 * Another thread's call between an entry that lacks its path and the exit
 * that brings it: the entry's <unfinished ...> line waits, with the lines
 * after it, and has the path.
 */
static void test_late_unfinished(void **state)
{
	struct out o;

	(void)state;
	out_open(&o);
	statfs_enter(&o, 0);
	getpid_call(&o, 101, 1000);
	statfs_exit(&o, 2000);
	getpid_call(&o, 101, 3000);
	assert_string_equal(out_text(&o),
			    "0.000000 100/100 statfs(\"/etc/hosts\", 0x2000 <unfinished ...>\n"
			    "0.000001 100/101 getpid() = 101\n"
			    "0.000002 100/100 <... statfs resumed>) = 0\n"
			    "0.000003 100/101 getpid() = 101\n");
	out_close(&o);
}

/* Past the bounds (FMT_HOLD_MAX lines, 50 ms), the entry goes out as it is. */
static void test_late_bounds(void **state)
{
	struct out o;
	const char *s;

	(void)state;
	out_open(&o);
	statfs_enter(&o, 0);
	getpid_call(&o, 101, 1000);
	getpid_call(&o, 101, 60000000); /* 60 ms: past the time bound */
	fmt_out(&o.fmt);
	fflush(o.f);
	assert_non_null(o.s);
	assert_string_equal(o.s, "0.000000 100/100 statfs(0x1000, 0x2000 <unfinished ...>\n"
				 "0.000001 100/101 getpid() = 101\n"
				 "0.060000 100/101 getpid() = 101\n");
	statfs_exit(&o, 60001000);
	out_close(&o);

	out_open(&o);
	statfs_enter(&o, 0);
	for (int i = 0; i < FMT_HOLD_MAX; i++)
		getpid_call(&o, 101, 1000 + i);
	/* the FMT_HOLD_MAX-th line behind it: it goes */
	fmt_out(&o.fmt);
	fflush(o.f);
	assert_non_null(o.s);
	assert_true(!strncmp(o.s, "0.000000 100/100 statfs(0x1000, 0x2000 <unfinished ...>\n", 56));
	statfs_exit(&o, 100000);
	s = out_text(&o);
	assert_non_null(strstr(s, "0.000100 100/100 <... statfs resumed>) = 0\n"));
	assert_null(strstr(s, "/etc/hosts"));
	out_close(&o);

	/* the end of the output (fmt_flush): as it is */
	out_open(&o);
	statfs_enter(&o, 0);
	getpid_call(&o, 101, 1000);
	assert_string_equal(out_text(&o),
			    "0.000000 100/100 statfs(0x1000, 0x2000 <unfinished ...>\n"
			    "0.000001 100/101 getpid() = 101\n");
	out_close(&o);
}

/* nanosleep = ? ERESTART_RESTARTBLOCK of tid 100, then sig delivered to it */
static void restart_then(struct out *o, const struct ptbpf_ev_signal *sig)
{
	static struct ptbpf_ev_sys_enter se;
	static struct ptbpf_ev_sys_exit x;
	struct cli_ev ev;

	memset(&se, 0, sizeof(se));
	se.nr = NR_NANOSLEEP;
	se.args[0] = 0x1000;
	ev_init(&ev, PTBPF_EV_SYS_ENTER(NR_NANOSLEEP), "sys_enter_nanosleep", &se, sizeof(se));
	fmt_event(&o->fmt, &ev);
	x.nr = NR_NANOSLEEP;
	x.ret = -516;
	ev_init(&ev, PTBPF_EV_SYS_EXIT(NR_NANOSLEEP), "sys_exit_nanosleep", &x, sizeof(x));
	fmt_event(&o->fmt, &ev);
	getpid_call(o, 101, 0);
	ev_init(&ev, PTBPF_EV_SIGNAL_DELIVER, "signal_deliver", sig, sizeof(*sig));
	fmt_event(&o->fmt, &ev);
}

/* A call the SIGKILL of a group exit ends: strace's "= ?"; another signal
 * leaves the restart error. The other thread's line stays after it. */
static void test_restart_killed(void **state)
{
	struct ptbpf_ev_signal s;
	struct out o;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.signo = 9;
	s.flags = PTBPF_SIG_GROUP_KILL;
	out_open(&o);
	restart_then(&o, &s);
	assert_string_equal(out_text(&o), "0.000000 100/100 nanosleep(0x1000, NULL) = ?\n"
					  "0.000000 100/101 getpid() = 101\n");
	out_close(&o);

	s.signo = 10;
	s.flags = 0;
	out_open(&o);
	restart_then(&o, &s);
	assert_string_equal(out_text(&o),
			    "0.000000 100/100 nanosleep(0x1000, NULL) = ? ERESTART_RESTARTBLOCK "
			    "(Interrupted by signal)\n"
			    "0.000000 100/101 getpid() = 101\n"
			    "0.000000 100/100 --- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, "
			    "si_pid=0, si_uid=0} ---\n");
	out_close(&o);
}

/* A SIGCHLD the kernel ignored: strace's line, after the syscall of its
 * thread; and the exits: a thread's +++ under its tid, the process's
 * under its pid, none for the leader's thread_exit. */
static void test_chld_and_exits(void **state)
{
	struct ptbpf_ev_signal s;
	struct ptbpf_ev_exit e;
	struct cli_ev ev;
	struct out o;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.signo = 17;
	s.code = 1;
	s.sender_pid = 7;
	s.result = 1; /* TRACE_SIGNAL_IGNORED */
	s.group = 1;
	s.flags = PTBPF_SIG_CHLD;
	out_open(&o);
	statfs_enter(&o, 0);
	ev_init(&ev, PTBPF_EV_SIGNAL_GENERATE, "signal_generate", &s, sizeof(s));
	at(&ev, 100, 1000);
	fmt_event(&o.fmt, &ev);
	statfs_exit(&o, 2000);
	memset(&e, 0, sizeof(e));
	e.exit_code = 3 << 8;
	ev_init(&ev, PTBPF_EV_THREAD_EXIT, "thread_exit", &e, sizeof(e));
	at(&ev, 101, 3000);
	fmt_event(&o.fmt, &ev);
	at(&ev, 100, 4000);
	fmt_event(&o.fmt, &ev);
	ev_init(&ev, PTBPF_EV_PROC_EXIT, "proc_exit", &e, sizeof(e));
	at(&ev, 101, 5000);
	fmt_event(&o.fmt, &ev);
	assert_string_equal(
		out_text(&o),
		"0.000000 100/100 statfs(\"/etc/hosts\", 0x2000) = 0\n"
		"0.000001 100/100 signal_generate SIGCHLD to 0/0 from pid 7 code=CLD_EXITED "
		"result=1 group\n"
		"0.000001 100/100 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=7, "
		"si_uid=0, si_status=0, si_utime=0, si_stime=0} ---\n"
		"0.000003 100/101 +++ exited with 3 +++\n"
		"0.000005 100/100 +++ exited with 3 +++\n");
	out_close(&o);
}

static void signal_line(struct out *o, const struct ptbpf_ev_signal *s, size_t len)
{
	struct cli_ev ev;

	ev_init(&ev, PTBPF_EV_SIGNAL_DELIVER, "signal_deliver", s, len);
	fmt_event(&o->fmt, &ev);
}

static void test_signal_payloads(void **state)
{
	struct ptbpf_ev_signal s;
	struct out o;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.signo = 17;
	s.code = 1; /* CLD_EXITED */
	s.sender_pid = 7;
	s.status = 3;
	s.utime = 1;
	s.stime = 2;
	s.flags = PTBPF_SIG_CHLD;
	out_open(&o);
	signal_line(&o, &s, offsetof(struct ptbpf_ev_signal, flags)); /* an older log's */
	signal_line(&o, &s, sizeof(s));
	s.signo = 9;
	s.code = 0;
	s.flags = PTBPF_SIG_GROUP_KILL;
	signal_line(&o, &s, sizeof(s));
	signal_line(&o, &s, 20); /* short: the name and the bytes */
	assert_string_equal(
		out_text(&o),
		"0.000000 100/100 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=7, "
		"si_uid=0} ---\n"
		"0.000000 100/100 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=7, "
		"si_uid=0, si_status=3, si_utime=1 /* 0.01 s */, si_stime=2 /* 0.02 s */} ---\n"
		"0.000000 100/100 signal_deliver len=20 "
		"data=0900000000000000070000000000000000000000 "
		"\"....................\"\n");
	out_close(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_late_path),	cmocka_unit_test(test_signal_payloads),
		cmocka_unit_test(test_late_unfinished), cmocka_unit_test(test_late_bounds),
		cmocka_unit_test(test_restart_killed),	cmocka_unit_test(test_chld_and_exits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
