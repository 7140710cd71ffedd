// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The metrics' exposition (cli/metrics/expo.c): label values escaped as
 * Prometheus's text format 0.0.4 wants them whatever bytes a process
 * names itself with (quotes, backslashes, newlines, bytes that are not
 * UTF-8, control characters; valid UTF-8 kept), the user's label names
 * checked, and the families of a small snapshot: HELP and TYPE once each,
 * counters summed over errnos, the histogram cumulative with its _count
 * equal to the calls, the comm and pid labels only by process.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <ptbpf/ptbpf.h>

#include "metrics/metrics.h"

static char *esc(const char *s, size_t n)
{
	static char out[256];
	struct sbuf b = { 0 };

	metrics_label_value(&b, s, n);
	assert_false(b.failed);
	snprintf(out, sizeof(out), "%s", b.s ? b.s : "");
	sb_free(&b);
	return out;
}

static void test_escape(void **state)
{
	(void)state;
	assert_string_equal(esc("plain", 5), "plain");
	assert_string_equal(esc("a\"b", 3), "a\\\"b");
	assert_string_equal(esc("a\\b", 3), "a\\\\b");
	assert_string_equal(esc("a\nb", 3), "a\\nb");
	/* not UTF-8: a lone byte, a cut sequence, an overlong form, a surrogate */
	assert_string_equal(esc("d\xff", 2), "d\\\\xFF");
	assert_string_equal(esc("\xc3", 1), "\\\\xC3");
	assert_string_equal(esc("\xc0\xaf", 2), "\\\\xC0\\\\xAF");
	assert_string_equal(esc("\xed\xa0\x80", 3), "\\\\xED\\\\xA0\\\\x80");
	/* control characters other than newline */
	assert_string_equal(esc("a\tb\r\x7f", 5), "a\\\\x09b\\\\x0D\\\\x7F");
	/* valid UTF-8 as it is */
	assert_string_equal(esc("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", 14),
			    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7");
	/* a NUL inside the bytes given */
	assert_string_equal(esc("a\0b", 3), "a\\\\x00b");
}

static void test_label_check(void **state)
{
	char msg[160];

	(void)state;
	assert_int_equal(metrics_label_check("host=web-1", msg, sizeof(msg)), 0);
	assert_int_equal(metrics_label_check("_x9=", msg, sizeof(msg)), 0);
	assert_int_equal(metrics_label_check("job=a=b", msg, sizeof(msg)), 0);
	assert_int_equal(metrics_label_check("novalue", msg, sizeof(msg)), -1);
	assert_int_equal(metrics_label_check("=v", msg, sizeof(msg)), -1);
	assert_int_equal(metrics_label_check("9x=v", msg, sizeof(msg)), -1);
	assert_int_equal(metrics_label_check("a-b=v", msg, sizeof(msg)), -1);
	assert_int_equal(metrics_label_check("__name__=v", msg, sizeof(msg)), -1);
	assert_int_equal(metrics_label_check("syscall=v", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "ptbpf's own"));
	assert_int_equal(metrics_label_check("le=1", msg, sizeof(msg)), -1);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* openat: 3 calls ok, 2 ENOENT; getpid: 1 "error" that never is one */
static void fill(struct ptbpf_syscall_stats *st)
{
	memset(st, 0, 3 * sizeof(*st));
	st[0].nr = 257;
	st[0].calls = 3;
	st[0].total_ns = 6000;
	st[0].hist[11] = 3; /* 1024 to 2047 ns */
	st[1].nr = 257;
	st[1].err = 2;
	st[1].calls = 2;
	st[1].total_ns = 1500000000;
	st[1].hist[31] = 2; /* about 1.07 to 2.1 s */
	st[2].nr = 39;
	st[2].err = 1;
	st[2].calls = 1;
	st[2].hist[0] = 1;
	for (int i = 0; i < 3; i++) {
		st[i].pid = 42;
		memcpy(st[i].comm, "x\"y", 4);
	}
}

static void test_expose(void **state)
{
	static const char *const labels[] = { "host=h\"1" };
	struct ptbpf_syscall_stats st[3];
	struct metrics_snap s = { .st = st, .n = 3, .lost = 7 };
	struct metrics_desc d;
	struct sbuf b = { 0 };

	(void)state;
	fill(st);
	s.events[METRICS_EV_PROCESS] = 4;
	assert_int_equal(metrics_desc_init(&d, labels, 1, METRICS_BY_SYSCALL), 0);
	metrics_expose(&b, &d, &s);
	assert_false(b.failed);
	assert_int_equal(count(b.s, "# TYPE ptbpf_syscalls_total counter\n"), 1);
	assert_int_equal(count(b.s, "# TYPE ptbpf_syscall_duration_seconds histogram\n"), 1);
	assert_int_equal(count(b.s, "# HELP "), 6);
	assert_non_null(
		strstr(b.s, "ptbpf_syscalls_total{host=\"h\\\"1\",syscall=\"openat\"} 5\n"));
	assert_non_null(strstr(b.s, "ptbpf_syscall_errors_total{host=\"h\\\"1\",syscall=\"openat\","
				    "errno=\"ENOENT\"} 2\n"));
	/* getpid never fails: no error series */
	assert_null(strstr(b.s, "errors_total{host=\"h\\\"1\",syscall=\"getpid\""));
	assert_non_null(
		strstr(b.s, "_bucket{host=\"h\\\"1\",syscall=\"openat\",le=\"1.024e-06\"} 0\n"));
	assert_non_null(
		strstr(b.s, "_bucket{host=\"h\\\"1\",syscall=\"openat\",le=\"2.048e-06\"} 3\n"));
	assert_non_null(strstr(b.s, "_bucket{host=\"h\\\"1\",syscall=\"openat\",le=\"+Inf\"} 5\n"));
	assert_non_null(strstr(b.s, "_count{host=\"h\\\"1\",syscall=\"openat\"} 5\n"));
	assert_non_null(strstr(b.s, "_sum{host=\"h\\\"1\",syscall=\"openat\"} 1.500006000\n"));
	assert_non_null(strstr(b.s, "ptbpf_events_total{host=\"h\\\"1\",type=\"process\"} 4\n"));
	assert_non_null(strstr(b.s, "ptbpf_events_lost_total{host=\"h\\\"1\"} 7\n"));
	assert_non_null(strstr(b.s, "ptbpf_info{host=\"h\\\"1\",version=\""));
	assert_null(strstr(b.s, "comm="));
	sb_free(&b);

	/* by process: comm and pid */
	fill(st);
	assert_int_equal(metrics_desc_init(&d, NULL, 0, METRICS_BY_PROCESS), 0);
	metrics_expose(&b, &d, &s);
	assert_non_null(strstr(
		b.s, "ptbpf_syscalls_total{comm=\"x\\\"y\",pid=\"42\",syscall=\"openat\"} 5\n"));
	assert_null(strstr(b.s, "tid="));
	sb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_label_check),
		cmocka_unit_test(test_expose),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
