// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The strace -c table of ptbpf (cli/summary.c) against strace 6.1's own
 * output for the same numbers: each golden below is a table strace -c
 * printed on this project's test machine (calls, errors and times of ls
 * and python3); its rows are fed back one call at a time, and ptbpf's
 * table must come out byte for byte the same (layout, widths, formats,
 * sort orders, the empty error cells, the total line).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <ptbpf/ptbpf.h>

#include "view/view.h"

/* strace -c ls /nonexist: every time 0 (system time, not measurable) */
static const char golden_zero[] =
	"% time     seconds  usecs/call     calls    errors syscall\n"
	"------ ----------- ----------- --------- --------- ----------------\n"
	"  0.00    0.000000           0         7           read\n"
	"  0.00    0.000000           0         4           write\n"
	"  0.00    0.000000           0        22           close\n"
	"  0.00    0.000000           0        30           mmap\n"
	"  0.00    0.000000           0         5           mprotect\n"
	"  0.00    0.000000           0         1           munmap\n"
	"  0.00    0.000000           0         3           brk\n"
	"  0.00    0.000000           0         1         1 ioctl\n"
	"  0.00    0.000000           0         2           pread64\n"
	"  0.00    0.000000           0         2         2 access\n"
	"  0.00    0.000000           0         1           execve\n"
	"  0.00    0.000000           0         2         2 statfs\n"
	"  0.00    0.000000           0         1           arch_prctl\n"
	"  0.00    0.000000           0         1           futex\n"
	"  0.00    0.000000           0         1           set_tid_address\n"
	"  0.00    0.000000           0        39        19 openat\n"
	"  0.00    0.000000           0        20           newfstatat\n"
	"  0.00    0.000000           0         1           set_robust_list\n"
	"  0.00    0.000000           0         1           prlimit64\n"
	"  0.00    0.000000           0         1           getrandom\n"
	"  0.00    0.000000           0         2         2 statx\n"
	"  0.00    0.000000           0         1           rseq\n"
	"------ ----------- ----------- --------- --------- ----------------\n"
	"100.00    0.000000           0       148        26 total\n";

/* strace -c -S calls -U name,calls,errors,min-time,max-time,avg-time,total-time,time-percent
 * ls /nonexist */
static const char golden_columns[] =
	"syscall              calls    errors shortest  longest  usecs/call     seconds % time\n"
	"---------------- --------- --------- -------- -------- ----------- ----------- ------\n"
	"openat                  39        19 0.000000 0.000000           0    0.000000   0.00\n"
	"mmap                    30           0.000000 0.000000           0    0.000000   0.00\n"
	"close                   22           0.000000 0.000000           0    0.000000   0.00\n"
	"newfstatat              20           0.000000 0.000000           0    0.000000   0.00\n"
	"read                     7           0.000000 0.000000           0    0.000000   0.00\n"
	"mprotect                 5           0.000000 0.000000           0    0.000000   0.00\n"
	"write                    4           0.000000 0.000000           0    0.000000   0.00\n"
	"brk                      3           0.000000 0.000000           0    0.000000   0.00\n"
	"pread64                  2           0.000000 0.000000           0    0.000000   0.00\n"
	"access                   2         2 0.000000 0.000000           0    0.000000   0.00\n"
	"statfs                   2         2 0.000000 0.000000           0    0.000000   0.00\n"
	"statx                    2         2 0.000000 0.000000           0    0.000000   0.00\n"
	"munmap                   1           0.000000 0.000000           0    0.000000   0.00\n"
	"ioctl                    1         1 0.000000 0.000000           0    0.000000   0.00\n"
	"execve                   1           0.000000 0.000000           0    0.000000   0.00\n"
	"arch_prctl               1           0.000000 0.000000           0    0.000000   0.00\n"
	"futex                    1           0.000000 0.000000           0    0.000000   0.00\n"
	"set_tid_address          1           0.000000 0.000000           0    0.000000   0.00\n"
	"set_robust_list          1           0.000000 0.000000           0    0.000000   0.00\n"
	"prlimit64                1           0.000000 0.000000           0    0.000000   0.00\n"
	"getrandom                1           0.000000 0.000000           0    0.000000   0.00\n"
	"rseq                     1           0.000000 0.000000           0    0.000000   0.00\n"
	"---------------- --------- --------- -------- -------- ----------- ----------- ------\n"
	"total                  148        26 0.000000 0.000000           0    0.000000 100.00\n";

/* strace -c -S name ls /nonexist */
static const char golden_by_name[] =
	"% time     seconds  usecs/call     calls    errors syscall\n"
	"------ ----------- ----------- --------- --------- ----------------\n"
	"  0.93    0.000015           7         2         2 access\n"
	"  0.87    0.000014          14         1           arch_prctl\n"
	"  1.68    0.000027           9         3           brk\n"
	" 14.15    0.000228          10        22           close\n"
	"  0.00    0.000000           0         1           execve\n"
	"  0.93    0.000015          15         1           futex\n"
	"  0.93    0.000015          15         1           getrandom\n"
	"  1.18    0.000019          19         1         1 ioctl\n"
	" 14.84    0.000239           7        30           mmap\n"
	"  5.59    0.000090          18         5           mprotect\n"
	"  1.61    0.000026          26         1           munmap\n"
	" 12.04    0.000194           9        20           newfstatat\n"
	" 29.80    0.000480          12        39        19 openat\n"
	"  0.00    0.000000           0         2           pread64\n"
	"  0.93    0.000015          15         1           prlimit64\n"
	"  4.47    0.000072          10         7           read\n"
	"  0.87    0.000014          14         1           rseq\n"
	"  0.74    0.000012          12         1           set_robust_list\n"
	"  0.74    0.000012          12         1           set_tid_address\n"
	"  2.67    0.000043          21         2         2 statfs\n"
	"  1.74    0.000028          14         2         2 statx\n"
	"  3.29    0.000053          13         4           write\n"
	"------ ----------- ----------- --------- --------- ----------------\n"
	"100.00    0.001611          10       148        26 total\n";

/* strace -c -e trace=sched_getaffinity,sched_get_priority_max,getppid,openat python3 -c ...:
 * a name wider than the column */
static const char golden_wide[] =
	"% time     seconds  usecs/call     calls    errors syscall\n"
	"------ ----------- ----------- --------- --------- -----------------------\n"
	" 99.46    0.000920           2       319       118 openat\n"
	"  0.54    0.000005           0        12           getppid\n"
	"  0.00    0.000000           0         1           sched_get_priority_max\n"
	"  0.00    0.000000           0         1           sched_getaffinity\n"
	"------ ----------- ----------- --------- --------- -----------------------\n"
	"100.00    0.000925           2       333       118 total\n";

static int nr_of(const char *name)
{
	char ev[TRACE_EVENT_NAME_MAX];
	trace_event_id_t id = 0;

	snprintf(ev, sizeof(ev), "sys_enter_%s", name);
	assert_int_equal(ptbpf_system_eventid(ev, &id), 0);
	return (int)PTBPF_EV_SYSCALL_NR(id);
}

/*
 * Feed the rows of a golden table: per row, its calls (the last one
 * taking the row's seconds, the others 0) and its errors. name_first: the
 * syscall column comes first (-U name,calls,errors,...).
 */
static void feed(struct summary *s, const char *golden, int name_first)
{
	char *copy = strdup(golden), *line, *save = NULL;
	int n = 0;

	assert_non_null(copy);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[10] = { 0 }, *tok, *s2 = NULL;
		int nf = 0;
		unsigned long long calls, errors = 0;
		double secs;
		const char *name;

		/* the title, the rules and the total are printed, not fed */
		if (n++ < 2 || line[0] == '-' || strstr(line, "total"))
			continue;
		for (tok = strtok_r(line, " ", &s2); tok && nf < 10; tok = strtok_r(NULL, " ", &s2))
			f[nf++] = tok;
		if (name_first) {
			/* name calls [errors] shortest longest usecs/call seconds % */
			name = f[0];
			calls = strtoull(f[1], NULL, 10);
			if (nf == 8)
				errors = strtoull(f[2], NULL, 10);
			secs = strtod(f[nf - 2], NULL);
		} else {
			/* % seconds usecs/call calls [errors] name */
			name = f[nf - 1];
			secs = strtod(f[1], NULL);
			calls = strtoull(f[3], NULL, 10);
			if (nf == 6)
				errors = strtoull(f[4], NULL, 10);
		}
		for (unsigned long long i = 0; i < calls; i++)
			summary_add(s, nr_of(name), name,
				    i + 1 == calls ? (int64_t)(secs * 1e9 + 0.5) : 0, i < errors);
	}
	free(copy);
}

static void check(const char *golden, int name_first, int sortby, const char *columns)
{
	static struct summary s;
	uint8_t cols[SUM_COL_MAX];
	char msg[128], *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	summary_init(&s);
	memcpy(cols, summary_default_columns, sizeof(cols));
	if (columns)
		assert_int_equal(summary_columns(cols, columns, msg, sizeof(msg)), 0);
	feed(&s, golden, name_first);
	summary_print(&s, cols, sortby, f);
	fclose(f);
	assert_string_equal(out, golden);
	free(out);
}

/* The default table: sorted by time, ties in syscall number order. */
static void test_default_layout(void **state)
{
	(void)state;
	check(golden_zero, 0, SUM_COL_TIME_100S, NULL);
}

/* -U: the columns in the order given; -S calls. */
static void test_columns_and_sort(void **state)
{
	(void)state;
	check(golden_columns, 1, summary_sortby("calls"),
	      "name,calls,errors,min-time,max-time,"
	      "avg-time,total-time,time-percent");
}

/* -S name, real times: percentages and microseconds per call as strace's. */
static void test_by_name_with_times(void **state)
{
	(void)state;
	check(golden_by_name, 0, summary_sortby("name"), NULL);
}

/* A name longer than the column widens it, the rules with it. */
static void test_wide_name(void **state)
{
	(void)state;
	check(golden_wide, 0, SUM_COL_TIME_100S, NULL);
}

/* No call counted: no table, as strace prints none. */
static void test_empty(void **state)
{
	static struct summary s;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	summary_init(&s);
	summary_print(&s, summary_default_columns, SUM_COL_TIME_100S, f);
	fclose(f);
	assert_int_equal(len, 0);
	free(out);
}

/* strace's names of sort keys and columns, and the errors of -U. */
static void test_names(void **state)
{
	uint8_t cols[SUM_COL_MAX];
	char msg[128];

	(void)state;
	assert_int_equal(summary_sortby("time"), SUM_COL_TIME_100S);
	assert_int_equal(summary_sortby("calls"), SUM_COL_CALLS);
	assert_int_equal(summary_sortby("errors"), SUM_COL_ERRORS);
	assert_int_equal(summary_sortby("name"), SUM_COL_NAME);
	assert_int_equal(summary_sortby("nothing"), SUM_COL_NONE);
	assert_int_equal(summary_sortby("bogus"), -1);
	assert_int_equal(summary_columns(cols, "calls", msg, sizeof(msg)), 0);
	/* the name column is always there */
	assert_int_equal(cols[0], SUM_COL_CALLS);
	assert_int_equal(cols[1], SUM_COL_NAME);
	assert_int_equal(cols[2], 0);
	assert_int_equal(summary_columns(cols, "calls,bogus", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "bogus"));
	assert_int_equal(summary_columns(cols, "calls,count", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "more than once"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_layout),
		cmocka_unit_test(test_columns_and_sort),
		cmocka_unit_test(test_by_name_with_times),
		cmocka_unit_test(test_wide_name),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
