// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Live text of a call that blocks (cli/fmt/stale.c): its held entry goes
 * out "<unfinished ...>" once older than the delay, not before, and its
 * exit prints "<... resumed>"; at the end of a trace that leaves the
 * processes running, the calls still pending end "<detached ...>". Lines
 * are compared by their end (what follows ptbpf's own prefix, if any).
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
#include "backend/syscalls.h"

#define NR_GETPPID 110
#define MS	   1000000LL
#define DELAY	   (200 * MS)

static void ev_init(struct cli_ev *ev, trace_event_id_t id, const char *name, int64_t ts, pid_t tid)
{
	memset(ev, 0, sizeof(*ev));
	ev->info.posix_event_id = id;
	ev->info.posix_pid = 100;
	ev->info.posix_timestamp.tv_sec = ts / 1000000000;
	ev->info.posix_timestamp.tv_nsec = ts % 1000000000;
	ev->tid = tid;
	snprintf(ev->name_buf, sizeof(ev->name_buf), "%s", name);
	ev->name = ev->name_buf;
	ev->sys_off = (uint8_t)sys_name_offset(ev->name);
	ev->desc = ev->sys_off ? sys_desc(ev->name + ev->sys_off) : NULL;
}

static void enter(struct out *o, int64_t ts, pid_t tid)
{
	struct ptbpf_ev_sys_enter se;
	struct cli_ev ev;

	ev_init(&ev, PTBPF_EV_SYS_ENTER(NR_GETPPID), "sys_enter_getppid", ts, tid);
	memset(&se, 0, sizeof(se));
	se.nr = NR_GETPPID;
	ev.data = &se;
	ev.len = sizeof(se);
	fmt_event(&o->fmt, &ev);
}

static void leave(struct out *o, int64_t ts, pid_t tid)
{
	struct ptbpf_ev_sys_exit x = { .nr = NR_GETPPID, .ret = 99 };
	struct cli_ev ev;

	ev_init(&ev, PTBPF_EV_SYS_EXIT(NR_GETPPID), "sys_exit_getppid", ts, tid);
	ev.data = &x;
	ev.len = sizeof(x);
	fmt_event(&o->fmt, &ev);
}

/* The lines written so far end with want[0..], NULL-ended, one each. */
static void lines_end(struct out *o, const char *const *want)
{
	const char *s = out_written(o, 0), *nl;
	size_t i;

	for (i = 0; want[i]; i++, s = nl + 1) {
		size_t n = strlen(want[i]);

		nl = strchr(s, '\n');
		assert_non_null(nl);
		if ((size_t)(nl - s) < n || memcmp(nl - n, want[i], n))
			fail_msg("line %zu: \"%.*s\", not ending \"%s\"", i, (int)(nl - s), s,
				 want[i]);
	}
	assert_string_equal(s, "");
}

/* Not before the delay; then unfinished; its exit resumed. */
static void test_stale(void **state)
{
	static const char *const none[] = { NULL };
	static const char *const unfinished[] = { "getppid( <unfinished ...>", NULL };
	static const char *const resumed[] = { "getppid( <unfinished ...>",
					       "<... getppid resumed>) = 99", NULL };
	struct out o;

	out_open(&o);
	enter(&o, 1000 * MS, 101);
	assert_int_equal(fmt_stale(&o.fmt, 1000 * MS + DELAY - 1, DELAY), 0);
	lines_end(&o, none);
	assert_int_equal(fmt_stale(&o.fmt, 1000 * MS + DELAY, DELAY), 1);
	lines_end(&o, unfinished);
	assert_int_equal(fmt_stale(&o.fmt, 3000 * MS, DELAY), 0);
	leave(&o, 3000 * MS, 101);
	lines_end(&o, resumed);
	out_close(&o);
}

/* An exit within the delay: one line, as ptbpf show prints it. */
static void test_not_stale(void **state)
{
	static const char *const merged[] = { "getppid() = 99", NULL };
	struct out o;

	out_open(&o);
	enter(&o, 1000 * MS, 101);
	assert_int_equal(fmt_stale(&o.fmt, 1100 * MS, DELAY), 0);
	leave(&o, 1150 * MS, 101);
	lines_end(&o, merged);
	out_close(&o);
}

/* The end: one call printed unfinished, one held, both detached. */
static void test_detach(void **state)
{
	static const char *const want[] = { "getppid( <unfinished ...>",
					    "<... getppid resumed> <detached ...>",
					    "getppid( <detached ...>", NULL };
	struct out o;

	out_open(&o);
	enter(&o, 1000 * MS, 101);
	fmt_stale(&o.fmt, 1300 * MS, DELAY);
	enter(&o, 1400 * MS, 102);
	fmt_detach(&o.fmt, 1500 * MS);
	lines_end(&o, want);
	/* nothing left for the flush */
	fmt_flush(&o.fmt);
	lines_end(&o, want);
	out_close(&o);
}

/* JSON Lines print each event as it comes: nothing to show late. */
static void test_json(void **state)
{
	struct out o;

	out_open(&o);
	o.fmt.json = 1;
	enter(&o, 1000 * MS, 101);
	fmt_out(&o.fmt);
	assert_int_equal(fmt_stale(&o.fmt, 2000 * MS, DELAY), 0);
	out_close(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_not_stale),
		cmocka_unit_test(test_detach),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
