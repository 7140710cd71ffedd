/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * posix_trace_create: the kernel rings are in place when it returns (their
 * update overlaps the rest of the creation on a thread of its own, gone by
 * then); a big stream, whose buffers past their first MiBs are faulted in
 * by the drainer once it has run a while, keeps every event meanwhile.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"

/*
 * Has thread tid begun to exit (PF_EXITING in its stat flags)? A joined
 * thread may still be on its way out of the kernel for a moment.
 */
static int thread_exiting(const char *tid)
{
	char path[300], buf[512], *p;
	unsigned long flags = 0;
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%s/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 1; /* gone */
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		n = sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %lu", &flags);
	fclose(f);
	return n == 1 && (flags & 0x4); /* PF_EXITING */
}

/* Is a thread of this process named name now (no wait), not exiting? */
static int has_thread(const char *name)
{
	char path[300], comm[32];
	struct dirent *d;
	DIR *dir = opendir("/proc/self/task");
	int found = 0;

	assert_non_null(dir);
	while (!found && (d = readdir(dir))) {
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = 0;
			found = !strcmp(comm, name) && !thread_exiting(d->d_name);
		}
		fclose(f);
	}
	closedir(dir);
	return found;
}

/* n getppid calls recorded between start and stop, of stream size sz */
static void record_getppid(size_t sz, int n)
{
	struct posix_trace_event_info ev;
	trace_event_id_t enter;
	trace_attr_t a;
	trace_id_t t;
	char data[256];
	size_t len;
	int un = 0, got = 0;

	posix_trace_attr_init(&a);
	assert_int_equal(posix_trace_attr_setstreamsize(&a, sz), 0);
	assert_int_equal(posix_trace_create(0, &a, &t), 0);
	assert_false(has_thread("ptbpf-rings"));
	assert_int_equal(posix_trace_start(t), 0);
	for (int i = 0; i < n; i++)
		(void)getppid();
	assert_int_equal(posix_trace_stop(t), 0);
	assert_int_equal(posix_trace_trid_eventid_open(t, "sys_enter_getppid", &enter), 0);
	while (!posix_trace_trygetnext_event(t, &ev, data, sizeof(data), &len, &un) && !un)
		if (ev.posix_event_id == enter)
			got++;
	assert_int_equal(got, n);
	assert_int_equal(posix_trace_shutdown(t), 0);
	posix_trace_attr_destroy(&a);
}

static void test_small(void **state)
{
	(void)state;
	record_getppid(1u << 20, 1000);
}

/* past the 4 MiB faulted in at create: the drainer does the rest */
static void test_big(void **state)
{
	(void)state;
	record_getppid(64u << 20, 100000);
	/* and a run long enough for the drainer to fault the rest in */
	record_getppid(64u << 20, 250000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_big),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
