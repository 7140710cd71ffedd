/* The -e language of ptbpf record (cli/evsel.c), parsed without a stream. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <ptbpf/ptbpf.h>

#include "view/view.h"
#include "view/view.h"

static trace_event_id_t sys_id(const char *name)
{
	trace_event_id_t id = 0;

	assert_int_equal(ptbpf_system_eventid(name, &id), 0);
	return id;
}

static void assert_range(const struct evsel_op *op, trace_event_id_t lo, trace_event_id_t hi,
			 int add)
{
	assert_int_equal(op->kind, EVSEL_RANGE);
	assert_int_equal(op->lo, lo);
	assert_int_equal(op->hi, hi);
	assert_int_equal(op->add, add);
}

/* A syscall's name selects its entry and its exit. */
static void test_syscall_name(void **state)
{
	struct evsel s;

	(void)state;
	assert_int_equal(evsel_parse(&s, "openat"), 0);
	assert_int_equal(s.n, 2);
	assert_false(s.from_all);
	assert_range(&s.ops[0], sys_id("sys_exit_openat"), sys_id("sys_exit_openat"), 1);
	assert_range(&s.ops[1], sys_id("sys_enter_openat"), sys_id("sys_enter_openat"), 1);
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "sys_enter_close, proc_fork"), 0);
	assert_int_equal(s.n, 2);
	assert_range(&s.ops[0], sys_id("sys_enter_close"), sys_id("sys_enter_close"), 1);
	assert_range(&s.ops[1], PTBPF_EV_PROC_FORK, PTBPF_EV_PROC_FORK, 1);
	evsel_free(&s);
}

/* Groups, in order, with ! excluding; a leading ! starts from the default. */
static void test_groups_and_exclusion(void **state)
{
	struct evsel s;

	(void)state;
	assert_int_equal(evsel_parse(&s, "!read"), 0);
	assert_true(s.from_all);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ops[0].add, 0);
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "syscalls,!read,proc"), 0);
	assert_false(s.from_all);
	assert_int_equal(s.n, 5);
	assert_range(&s.ops[0], PTBPF_EV_SYSCALL_BASE,
		     PTBPF_EV_SYSCALL_BASE + 2 * PTBPF_SYSCALL_NR_MAX - 1, 1);
	assert_int_equal(s.ops[1].add, 0);
	assert_int_equal(s.ops[2].add, 0);
	assert_range(&s.ops[3], PTBPF_EV_PROC_FORK, PTBPF_EV_PROC_EXIT, 1);
	assert_range(&s.ops[4], PTBPF_EV_PROC_UNTRACED, PTBPF_EV_PROC_UNTRACED, 1);
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "sched"), 0);
	assert_range(&s.ops[0], PTBPF_EV_SCHED_SWITCH_OUT, PTBPF_EV_SCHED_WAKEUP, 1);
	evsel_free(&s);
}

static int selected(const trace_event_set_t *set, trace_event_id_t id)
{
	int m = 0;

	assert_int_equal(posix_trace_eventset_ismember(id, set, &m), 0);
	return m;
}

/*
 * A leading exclusion starts from the default selection, which leaves the
 * scheduler events out (strace shows none); all and sched bring them back.
 */
static void test_default_selection(void **state)
{
	trace_event_set_t set;
	struct evsel s;

	(void)state;
	assert_int_equal(evsel_parse(&s, EVSEL_DEFAULT), 0);
	assert_int_equal(evsel_select(&s, 0, &set), 0);
	assert_false(selected(&set, PTBPF_EV_SCHED_SWITCH_OUT));
	assert_false(selected(&set, PTBPF_EV_SCHED_SWITCH_IN));
	assert_false(selected(&set, PTBPF_EV_SCHED_WAKEUP));
	assert_true(selected(&set, sys_id("sys_enter_read")));
	assert_true(selected(&set, PTBPF_EV_PROC_FORK));
	assert_true(selected(&set, PTBPF_EV_SIGNAL_DELIVER));
	assert_true(selected(&set, PTBPF_EV_USER_BASE));
	assert_true(selected(&set, POSIX_TRACE_START));
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "!read"), 0);
	assert_int_equal(evsel_select(&s, 0, &set), 0);
	assert_false(selected(&set, PTBPF_EV_SCHED_WAKEUP));
	assert_false(selected(&set, sys_id("sys_enter_read")));
	assert_true(selected(&set, sys_id("sys_enter_write")));
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "all"), 0);
	assert_int_equal(evsel_select(&s, 0, &set), 0);
	assert_true(selected(&set, PTBPF_EV_SCHED_SWITCH_OUT));
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "!read,sched"), 0);
	assert_int_equal(evsel_select(&s, 0, &set), 0);
	assert_true(selected(&set, PTBPF_EV_SCHED_WAKEUP));
	evsel_free(&s);
}

/* user:NAME is kept by name: its id is the stream's. */
static void test_user_events(void **state)
{
	char longname[TRACE_EVENT_NAME_MAX + 8];
	struct evsel s;

	(void)state;
	assert_int_equal(evsel_parse(&s, "user:my.event,!user:other"), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ops[0].kind, EVSEL_USER);
	assert_string_equal(s.ops[0].user, "my.event");
	assert_int_equal(s.ops[1].add, 0);
	assert_string_equal(s.ops[1].user, "other");
	evsel_free(&s);
	memset(longname, 'x', sizeof(longname));
	memcpy(longname, "user:", 5);
	longname[5 + TRACE_EVENT_NAME_MAX - 1] = 0; /* a name of 63 characters fits */
	assert_int_equal(evsel_parse(&s, longname), 0);
	evsel_free(&s);
	longname[5 + TRACE_EVENT_NAME_MAX - 1] = 'x';
	longname[5 + TRACE_EVENT_NAME_MAX] = 0; /* 64 do not */
	assert_int_equal(evsel_parse(&s, longname), -1);
}

static void test_errors(void **state)
{
	struct evsel s;

	(void)state;
	assert_int_equal(evsel_parse(&s, "no_such_syscall"), -1);
	assert_int_equal(evsel_parse(&s, "openat,bogus"), -1);
	assert_int_equal(evsel_parse(&s, "user:"), -1);
	assert_null(s.ops); /* nothing left to free */
	assert_int_equal(evsel_parse(&s, ",, ,"), 0);
	assert_int_equal(s.n, 0);
	evsel_free(&s);
}

/* Is syscall nr's entry (and exit) in what s selects? */
static int sel_has(const struct evsel *s, int nr)
{
	trace_event_set_t set;
	int in = 0, out = 0;

	assert_int_equal(evsel_select(s, 0, &set), 0);
	posix_trace_eventset_ismember(PTBPF_EV_SYS_ENTER(nr), &set, &in);
	posix_trace_eventset_ismember(PTBPF_EV_SYS_EXIT(nr), &set, &out);
	assert_int_equal(in, out);
	return in;
}

/* strace's classes, as strace's tables have them (x86_64 numbers). */
static void test_syscall_classes(void **state)
{
	struct evsel s;

	(void)state;
	assert_int_equal(evsel_parse(&s, "%file"), 0);
	assert_true(sel_has(&s, 257)); /* openat */
	assert_true(sel_has(&s, 59));  /* execve */
	assert_true(sel_has(&s, 4));   /* stat */
	assert_false(sel_has(&s, 0));  /* read */
	assert_false(sel_has(&s, 3));  /* close */
	evsel_free(&s);
	/* combined with names and !, in order */
	assert_int_equal(evsel_parse(&s, "%desc,!read,getpid"), 0);
	assert_true(sel_has(&s, 3));
	assert_false(sel_has(&s, 0));
	assert_true(sel_has(&s, 39));
	assert_false(sel_has(&s, 9 + 1)); /* mprotect: %memory only */
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "!%memory"), 0);
	assert_true(s.from_all);
	assert_false(sel_has(&s, 9)); /* mmap */
	assert_true(sel_has(&s, 0));
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "%net"), 0);
	assert_true(sel_has(&s, 41)); /* socket */
	assert_false(sel_has(&s, 2)); /* open */
	evsel_free(&s);
	/* %stat is stat only; %fstat the fstat-likes; %%stat all of them */
	assert_int_equal(evsel_parse(&s, "%stat"), 0);
	assert_true(sel_has(&s, 4));
	assert_false(sel_has(&s, 5));
	assert_false(sel_has(&s, 262));
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "%fstat"), 0);
	assert_true(sel_has(&s, 5));
	assert_true(sel_has(&s, 262)); /* newfstatat */
	assert_true(sel_has(&s, 332)); /* statx */
	assert_false(sel_has(&s, 6));
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "%%stat,%lstat,%statfs,%creds,%clock"), 0);
	assert_true(sel_has(&s, 4) && sel_has(&s, 5) && sel_has(&s, 6) && sel_has(&s, 332));
	assert_true(sel_has(&s, 137));	/* statfs */
	assert_false(sel_has(&s, 138)); /* fstatfs: %fstatfs */
	assert_true(sel_has(&s, 102));	/* getuid */
	assert_true(sel_has(&s, 228));	/* clock_gettime */
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "%process,%signal,%ipc"), 0);
	assert_true(sel_has(&s, 56) && sel_has(&s, 61)); /* clone, wait4 */
	assert_true(sel_has(&s, 13));			 /* rt_sigaction */
	assert_true(sel_has(&s, 29));			 /* shmget */
	evsel_free(&s);
	/* strace takes the names in any case */
	assert_int_equal(evsel_parse(&s, "%FILE"), 0);
	assert_true(sel_has(&s, 257));
	evsel_free(&s);
}

/* /REGEX on the syscall names; ? makes a token that matches none no error. */
static void test_regex_and_optional(void **state)
{
	struct evsel s;

	(void)state;
	assert_int_equal(evsel_parse(&s, "/^sched_get"), 0);
	assert_true(sel_has(&s, 204)); /* sched_getaffinity */
	assert_false(sel_has(&s, 24)); /* sched_yield */
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "?nosuchsyscall,?%nosuchclass,?/^zzz,read"), 0);
	assert_true(sel_has(&s, 0));
	evsel_free(&s);
	assert_int_equal(evsel_parse(&s, "%nosuchclass"), -1);
	assert_int_equal(evsel_parse(&s, "/^zzz"), -1);
	assert_int_equal(evsel_parse(&s, "/("), -1);
}

/* strace's -e QUALIFIER=: trace= and status= taken, others refused. */
static void test_qualifiers(void **state)
{
	struct view_opts o;
	const char *ev = NULL;
	char msg[160];

	(void)state;
	view_opts_init(&o);
	assert_int_equal(view_qualifier("trace=%file,read", &ev, &o, msg, sizeof(msg)), 0);
	assert_string_equal(ev, "%file,read");
	assert_int_equal(view_qualifier("t=open", &ev, &o, msg, sizeof(msg)), 0);
	assert_string_equal(ev, "open");
	assert_int_equal(view_qualifier("openat,close", &ev, &o, msg, sizeof(msg)), 0);
	assert_string_equal(ev, "openat,close");
	assert_int_equal(view_qualifier("status=failed", &ev, &o, msg, sizeof(msg)), 0);
	assert_int_equal(o.status, VIEW_ST_FAILED);
	assert_int_equal(view_qualifier("status=successful,unfinished", &ev, &o, msg, sizeof(msg)),
			 0);
	assert_int_equal(o.status, VIEW_ST_SUCCESSFUL | VIEW_ST_UNFINISHED);
	assert_int_equal(view_qualifier("status=!successful", &ev, &o, msg, sizeof(msg)), 0);
	assert_int_equal(o.status, VIEW_ST_ALL & ~VIEW_ST_SUCCESSFUL);
	assert_int_equal(view_qualifier("status=none", &ev, &o, msg, sizeof(msg)), 0);
	assert_int_equal(o.status, 0);
	assert_int_equal(view_qualifier("status=all", &ev, &o, msg, sizeof(msg)), 0);
	assert_int_equal(o.status, VIEW_ST_ALL);
	assert_int_equal(view_qualifier("status=bogus", &ev, &o, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "invalid status 'bogus'"));
	assert_int_equal(view_qualifier("abbrev=none", &ev, &o, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "-e abbrev=: not supported"));
	assert_int_equal(view_qualifier("inject=open:error=ENOENT", &ev, &o, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "-e inject=: not supported"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syscall_name),
		cmocka_unit_test(test_groups_and_exclusion),
		cmocka_unit_test(test_default_selection),
		cmocka_unit_test(test_user_events),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_syscall_classes),
		cmocka_unit_test(test_regex_and_optional),
		cmocka_unit_test(test_qualifiers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
