// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ptbpf command's text lines: a syscall's entry and exit merged into one
 * line, other events met in between printed after it, an entry left open
 * printed "<unfinished ...>" and its exit "<... resumed>", and the lines
 * buffered by the formatter coming out whole and in order.
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
#include "fmt_out.h"
#include "backend/syscalls.h"

#define NR_GETPPID 110
#define NR_READ	   0

static const char *out_text(struct out *o)
{
	return out_written(o, 0);
}

static void ev_init(struct cli_ev *ev, trace_event_id_t id, const char *name, int64_t ts_us,
		    pid_t tid)
{
	memset(ev, 0, sizeof(*ev));
	ev->info.posix_event_id = id;
	ev->info.posix_pid = 100;
	ev->info.posix_timestamp.tv_sec = ts_us / 1000000;
	ev->info.posix_timestamp.tv_nsec = ts_us % 1000000 * 1000;
	ev->tid = tid;
	snprintf(ev->name_buf, sizeof(ev->name_buf), "%s", name);
	ev->name = ev->name_buf;
	ev->sys_off = (uint8_t)sys_name_offset(ev->name);
	ev->desc = ev->sys_off ? sys_desc(ev->name + ev->sys_off) : NULL;
}

static void sys_enter(struct out *o, const char *sys, int nr, int64_t ts_us, pid_t tid,
		      const uint64_t *args)
{
	struct ptbpf_ev_sys_enter se;
	struct cli_ev ev;
	char name[TRACE_EVENT_NAME_MAX];

	snprintf(name, sizeof(name), "sys_enter_%s", sys);
	ev_init(&ev, PTBPF_EV_SYS_ENTER(nr), name, ts_us, tid);
	memset(&se, 0, sizeof(se));
	se.nr = nr;
	if (args)
		memcpy(se.args, args, sizeof(se.args));
	ev.data = &se;
	ev.len = sizeof(se);
	fmt_event(&o->fmt, &ev);
}

static void sys_exit(struct out *o, const char *sys, int nr, int64_t ts_us, pid_t tid, int64_t ret)
{
	struct ptbpf_ev_sys_exit x = { .nr = nr, .ret = ret };
	struct cli_ev ev;
	char name[TRACE_EVENT_NAME_MAX];

	snprintf(name, sizeof(name), "sys_exit_%s", sys);
	ev_init(&ev, PTBPF_EV_SYS_EXIT(nr), name, ts_us, tid);
	ev.data = &x;
	ev.len = sizeof(x);
	fmt_event(&o->fmt, &ev);
}

static void wakeup(struct out *o, int64_t ts_us, pid_t tid, pid_t woken)
{
	struct ptbpf_ev_sched_wakeup w;
	struct cli_ev ev;

	memset(&w, 0, sizeof(w));
	w.pid = 100;
	w.tid = woken;
	w.waker_tid = tid;
	w.target_cpu = 1;
	ev_init(&ev, PTBPF_EV_SCHED_WAKEUP, "sched_wakeup", ts_us, tid);
	ev.data = &w;
	ev.len = sizeof(w);
	fmt_event(&o->fmt, &ev);
}

/* An entry and its exit: one line, stamped with the entry's time. */
static void test_merged(void **state)
{
	struct out o;
	uint64_t args[6] = { 3, 0x7ffd1234abcdULL, 832 };

	out_open(&o);
	sys_enter(&o, "getppid", NR_GETPPID, 0, 101, NULL);
	sys_exit(&o, "getppid", NR_GETPPID, 3, 101, 99);
	sys_enter(&o, "read", NR_READ, 1000005, 101, args);
	sys_exit(&o, "read", NR_READ, 1000009, 101, -2);
	assert_string_equal(out_text(&o),
			    "0.000000 100/101 getppid() = 99\n"
			    "1.000005 100/101 read(3, 0x7ffd1234abcd, 832) = -1 ENOENT "
			    "(No such file or directory)\n");
	out_close(&o);
}

static void overflow(struct out *o, int64_t ts_us, const uint64_t *lost)
{
	struct cli_ev ev;

	ev_init(&ev, POSIX_TRACE_OVERFLOW, "posix_trace_overflow", ts_us, 0);
	ev.info.posix_pid = 0;
	ev.data = lost;
	ev.len = lost ? sizeof(*lost) : 0;
	fmt_event(&o->fmt, &ev);
}

/* An exit's stack (-k) right under its line, before an event met while
 * its entry was held. */
static void test_exit_after(void **state)
{
	uint64_t lost = 7;
	struct out o;

	out_open(&o);
	sys_enter(&o, "getppid", NR_GETPPID, 0, 101, NULL);
	overflow(&o, 2, &lost);
	o.fmt.exit_after = " > frame\n";
	sys_exit(&o, "getppid", NR_GETPPID, 3, 101, 99);
	assert_null(o.fmt.exit_after);
	assert_string_equal(out_text(&o),
			    "0.000000 100/101 getppid() = 99\n"
			    " > frame\n"
			    "0.000002 0/0 === posix_trace_overflow: 7 events lost ===\n");
	out_close(&o);
}

/* A gap says how many events it lost, in text and in JSON; a marker of an
 * older log, without a count, says only that some were. */
static void test_overflow_count(void **state)
{
	uint64_t many = 1234, one = 1;
	struct sbuf b = { 0 };
	struct cli_ev ev;
	struct out o;

	out_open(&o);
	overflow(&o, 0, &many);
	overflow(&o, 10, &one);
	overflow(&o, 20, NULL);
	assert_string_equal(out_text(&o),
			    "0.000000 0/0 === posix_trace_overflow: 1234 events lost ===\n"
			    "0.000010 0/0 === posix_trace_overflow: 1 event lost ===\n"
			    "0.000020 0/0 === posix_trace_overflow: events lost here ===\n");
	out_close(&o);
	ev_init(&ev, POSIX_TRACE_OVERFLOW, "posix_trace_overflow", 0, 0);
	ev.data = &many;
	ev.len = sizeof(many);
	sb_reset(&b);
	fmt_json_fields(&b, &ev);
	assert_string_equal(b.s, ",\"lost\":1234");
	sb_free(&b);
}

/* Events between an entry and its exit come after the merged line. */
static void test_deferred(void **state)
{
	struct out o;

	out_open(&o);
	sys_enter(&o, "getppid", NR_GETPPID, 10, 101, NULL);
	wakeup(&o, 11, 101, 102);
	wakeup(&o, 12, 101, 103);
	sys_exit(&o, "getppid", NR_GETPPID, 13, 101, 99);
	wakeup(&o, 14, 101, 104);
	assert_string_equal(out_text(&o), "0.000000 100/101 getppid() = 99\n"
					  "0.000001 100/101 sched_wakeup 100/102 by 101 cpu=1\n"
					  "0.000002 100/101 sched_wakeup 100/103 by 101 cpu=1\n"
					  "0.000004 100/101 sched_wakeup 100/104 by 101 cpu=1\n");
	out_close(&o);
}

/*
 * Past 64 events held back, the entry goes out unfinished, then the 65th
 * event, then the exit as resumed: every line once, whole, in order.
 */
static void test_many_deferred(void **state)
{
	struct out o;
	char want[16384];
	size_t n = 0;
	int i;

	out_open(&o);
	sys_enter(&o, "getppid", NR_GETPPID, 0, 101, NULL);
	for (i = 1; i <= 66; i++)
		wakeup(&o, i, 101, 1000 + i);
	sys_exit(&o, "getppid", NR_GETPPID, 67, 101, 99);
	n += (size_t)snprintf(want + n, sizeof(want) - n,
			      "0.000000 100/101 getppid( <unfinished ...>\n");
	for (i = 1; i <= 66; i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n,
				      "0.0000%02d 100/101 sched_wakeup 100/%d by 101 cpu=1\n", i,
				      1000 + i);
	snprintf(want + n, sizeof(want) - n, "0.000067 100/101 <... getppid resumed>) = 99\n");
	assert_string_equal(out_text(&o), want);
	out_close(&o);
}

/* Two threads' syscalls interleaved: unfinished, then resumed. */
static void test_interleaved(void **state)
{
	struct out o;

	out_open(&o);
	sys_enter(&o, "getppid", NR_GETPPID, 1, 101, NULL);
	sys_enter(&o, "getppid", NR_GETPPID, 2, 102, NULL);
	sys_exit(&o, "getppid", NR_GETPPID, 3, 101, 99);
	sys_exit(&o, "getppid", NR_GETPPID, 4, 102, 99);
	assert_string_equal(out_text(&o), "0.000000 100/101 getppid( <unfinished ...>\n"
					  "0.000001 100/102 getppid( <unfinished ...>\n"
					  "0.000002 100/101 <... getppid resumed>) = 99\n"
					  "0.000003 100/102 <... getppid resumed>) = 99\n");
	out_close(&o);
}

/* More lines than the formatter keeps: they reach the FILE in order, and
 * fmt_flush writes out the rest and the entry still held. */
static void test_many_lines(void **state)
{
	struct out o;
	struct sbuf want = { 0 };
	char line[128];
	int i;

	out_open(&o);
	sb_reset(&want);
	for (i = 0; i < 20000; i++) {
		sys_enter(&o, "getppid", NR_GETPPID, 10 * i, 101, NULL);
		sys_exit(&o, "getppid", NR_GETPPID, 10 * i + 1, 101, i);
		snprintf(line, sizeof(line), "%d.%06d 100/101 getppid() = %d\n", i / 100000,
			 10 * i % 1000000, i);
		sb_puts(&want, line);
	}
	sys_enter(&o, "getppid", NR_GETPPID, 10 * i, 101, NULL);
	fmt_flush(&o.fmt);
	fflush(o.f);
	snprintf(line, sizeof(line), "%d.%06d 100/101 getppid( <unfinished ...>\n", i / 100000,
		 10 * i % 1000000);
	sb_puts(&want, line);
	assert_int_equal(o.len, want.len);
	assert_string_equal(o.s, want.s);
	sb_free(&want);
	out_close(&o);
}

/*
 * Times a log may hold past 2^63 ns (292 years), or before 0: nanoseconds
 * clamped to [0, INT64_MAX], so that no line says a negative time and
 * differences of two never overflow (UBSan in the sanitizer build).
 */
static void test_far_timestamps(void **state)
{
	static const struct {
		int64_t sec;
		long nsec;
		int64_t ns;
	} c[] = {
		{ 5, 7, 5000000007 },
		{ INT64_MAX / 1000000000, INT64_MAX % 1000000000, INT64_MAX },
		{ 9223372036, 854775808, INT64_MAX },  /* 2^63 */
		{ 18446744073, 709551615, INT64_MAX }, /* 2^64 - 1 */
		{ INT64_MAX, 999999999, INT64_MAX },
		{ -1, 0, 0 },
		{ INT64_MIN, 0, 0 },
	};
	struct out o;
	struct cli_ev ev;
	struct fmt_look look;

	fmt_look_init(&look);
	look.look = FMT_LOOK_PTBPF; /* "TS PID/TID " */
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct timespec t = { .tv_sec = c[i].sec, .tv_nsec = c[i].nsec };

		assert_int_equal(ts_ns(&t), c[i].ns);
	}
	/* relative to a first event at 5 s, in text and JSON */
	for (int json = 0; json < 2; json++) {
		memset(&o, 0, sizeof(o));
		o.f = open_memstream(&o.s, &o.len);
		assert_non_null(o.f);
		fmt_init(&o.fmt, o.f, json, &look);
		ev_init(&ev, PTBPF_EV_USER_BASE, "user/five", 5000000, 101);
		fmt_event(&o.fmt, &ev);
		ev_init(&ev, PTBPF_EV_USER_BASE, "user/five", 0, 101);
		ev.info.posix_timestamp.tv_sec = 9223372036;
		ev.info.posix_timestamp.tv_nsec = 854775808;
		fmt_event(&o.fmt, &ev);
		if (json) {
			assert_non_null(strstr(out_text(&o), "\"ts_ns\":9223372036854775807,"
							     "\"rel_ns\":9223372031854775807,"));
			assert_null(strstr(out_text(&o), "\"ts_ns\":-"));
		} else {
			assert_string_equal(out_text(&o),
					    "0.000000 100/101 user user/five len=0\n"
					    "9223372031.854775 100/101 user user/five len=0\n");
		}
		out_close(&o);
	}
}

/* The arguments the ptbpf command prints of a syscall are among those the
 * library records (bpf/kern.h: the compact sys_enter leaves out the rest,
 * which come back as zeros). */
static void test_nargs_recorded(void **state)
{
	int described = 0;

	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		const struct sysdesc *d;

		if (!syscalls__known(nr) || !(d = sys_desc(syscalls__name(nr))))
			continue;
		described++;
		if (sys_nargs(d) > syscalls__nargs(nr))
			fail_msg("%s: prints %d arguments, %d recorded", syscalls__name(nr),
				 sys_nargs(d), syscalls__nargs(nr));
	}
	assert_true(described > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nargs_recorded), cmocka_unit_test(test_merged),
		cmocka_unit_test(test_exit_after),     cmocka_unit_test(test_overflow_count),
		cmocka_unit_test(test_deferred),       cmocka_unit_test(test_many_deferred),
		cmocka_unit_test(test_interleaved),    cmocka_unit_test(test_many_lines),
		cmocka_unit_test(test_far_timestamps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
