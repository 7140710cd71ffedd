/*
 * Integration tests of user events through the public API: a controller
 * traces an instrumented program (tests/progs/uevent_app.c), or itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"
#include "itest_read.h"

struct ev {
	struct posix_trace_event_info info;
	size_t len;
	char name[TRACE_EVENT_NAME_MAX];
	unsigned char data[2048];
};

#define MAXEV 300000
static struct ev *evs;

struct app {
	pid_t pid;
	int go;
};

/* Start uevent_app held after it registered pre.event; unprivileged: run it
 * as nobody (the controller stays root). */
static void app_spawn(struct app *a, const char *mode, int n, int unpriv)
{
	int ready[2], go[2];
	char r[16], g[16], ns[16], ch;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	a->pid = fork();
	if (a->pid == 0) {
		close(ready[0]);
		close(go[1]);
		if (unpriv && (setgid(65534) || setuid(65534)))
			_exit(126);
		snprintf(r, sizeof(r), "%d", ready[1]);
		snprintf(g, sizeof(g), "%d", go[0]);
		snprintf(ns, sizeof(ns), "%d", n);
		execl(itest_prog("uevent_app"), "uevent_app", r, g, mode, ns, (char *)NULL);
		_exit(127);
	}
	close(ready[1]);
	close(go[0]);
	assert_int_equal(read(ready[0], &ch, 1), 1);
	close(ready[0]);
	a->go = go[1];
}

static int app_run(struct app *a)
{
	int st;

	assert_int_equal(write(a->go, "g", 1), 1);
	close(a->go);
	assert_int_equal(waitpid(a->pid, &st, 0), a->pid);
	return st;
}

static uint64_t timespec_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static int read_all(trace_id_t t)
{
	int n = 0;

	while (n < MAXEV && itest_next_event(t, false, ITEST_EV_REF(&evs[n])))
		n++;
	return n;
}

/* The first n events read are in time order. */
static void assert_time_order(int n)
{
	int i;

	for (i = 1; i < n; i++)
		assert_true(timespec_ns(&evs[i].info.posix_timestamp) >=
			    timespec_ns(&evs[i - 1].info.posix_timestamp));
}

static int find(int n, int from, const char *name)
{
	int i;

	for (i = from; i < n; i++)
		if (!strcmp(evs[i].name, name))
			return i;
	return -1;
}

/* The sum of the OVERFLOW markers' counts (8 bytes of data each). */
static uint64_t lost_in(int n)
{
	uint64_t sum = 0, k;
	int i;

	for (i = 0; i < n; i++) {
		if (evs[i].info.posix_event_id != POSIX_TRACE_OVERFLOW)
			continue;
		assert_int_equal(evs[i].len, sizeof(k));
		memcpy(&k, evs[i].data, sizeof(k));
		sum += k;
	}
	return sum;
}

static int count(int n, const char *name, pid_t pid)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(evs[i].name, name) && (!pid || evs[i].info.posix_pid == pid))
			c++;
	return c;
}

/* An unprivileged traced process, names before and after the stream was
 * created, truncation, the id limit, order against kernel events. */
static void test_cross_process(void **state)
{
	struct app a;
	trace_id_t t;
	int n, i, j, k, st, gen = 0, unnamed = 0;

	(void)state;
	app_spawn(&a, "script", 0, 1);
	assert_int_equal(posix_trace_create(a.pid, NULL, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	st = app_run(&a);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(posix_trace_stop(t), 0);
	n = read_all(t);
	/* pre.event between the two getppid, post.event after the second */
	i = find(n, 0, "sys_exit_getppid");
	j = find(n, 0, "pre.event");
	k = find(n, i + 1, "sys_enter_getppid");
	assert_true(i >= 0 && j > i && k > j);
	assert_int_equal(evs[j].len, 1);
	assert_int_equal(evs[j].data[0], 'A');
	assert_int_equal(evs[j].info.posix_pid, a.pid);
	assert_non_null(evs[j].info.posix_prog_address);
	assert_true(evs[j].info.posix_thread_id != 0);
	assert_int_equal(evs[j].info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
	i = find(n, k, "post.event");
	assert_true(i > k);
	assert_int_equal(evs[i].len, 1024); /* max-data-size */
	assert_int_equal(evs[i].info.posix_truncation_status, POSIX_TRACE_TRUNCATED_RECORD);
	for (i = 0; i < n; i++) {
		if (!strncmp(evs[i].name, "gen.", 4))
			gen++;
		if (evs[i].info.posix_event_id == POSIX_TRACE_UNNAMED_USEREVENT)
			unnamed++;
	}
	/* TRACE_USER_EVENT_MAX ids in the process: the unnamed one,
	 * pre.event, post.event, then gen.* until the table is full */
	assert_int_equal(gen, TRACE_USER_EVENT_MAX - 3);
	assert_int_equal(unnamed, TRACE_USER_EVENT_MAX + 10 - gen);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* A process traces itself (pid 0). */
static void test_pid0(void **state)
{
	trace_id_t t;
	trace_event_id_t id, id2;
	int n, i, v = 42;

	(void)state;
	assert_int_equal(posix_trace_eventid_open("self.before", &id), 0);
	assert_int_equal(posix_trace_create(0, NULL, &t), 0);
	assert_int_equal(posix_trace_eventid_open("self.before", &id2), 0);
	assert_int_equal(id, id2);
	assert_int_equal(posix_trace_start(t), 0);
	posix_trace_event(id, &v, sizeof(v));
	assert_int_equal(posix_trace_stop(t), 0);
	posix_trace_event(id, &v, sizeof(v)); /* stopped: not recorded */
	n = read_all(t);
	assert_int_equal(count(n, "self.before", getpid()), 1);
	i = find(n, 0, "self.before");
	assert_int_equal(*(int *)evs[i].data, 42);
	assert_true(pthread_equal(evs[i].info.posix_thread_id, pthread_self()));
	assert_int_equal(posix_trace_eventid_open(NULL, &id), EINVAL);
	{
		char lng[TRACE_EVENT_NAME_MAX + 8];

		memset(lng, 'n', sizeof(lng) - 1);
		lng[sizeof(lng) - 1] = 0;
		assert_int_equal(posix_trace_eventid_open(lng, &id), ENAMETOOLONG);
	}
	assert_int_equal(posix_trace_shutdown(t), 0);
}

static void check_fork(int inherit)
{
	struct app a;
	trace_attr_t at;
	trace_id_t t;
	int n, i, parent = 0, child = 0;

	app_spawn(&a, "fork", 0, 0);
	posix_trace_attr_init(&at);
	posix_trace_attr_setinherited(&at, inherit ? POSIX_TRACE_INHERITED
						   : POSIX_TRACE_CLOSE_FOR_CHILD);
	assert_int_equal(posix_trace_create(a.pid, &at, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	app_run(&a);
	assert_int_equal(posix_trace_stop(t), 0);
	n = read_all(t);
	for (i = 0; i < n; i++) {
		if (strcmp(evs[i].name, "pre.event"))
			continue;
		if (evs[i].info.posix_pid == a.pid && evs[i].data[0] == 'P')
			parent++;
		else if (evs[i].info.posix_pid != a.pid && evs[i].data[0] == 'C')
			child++;
	}
	assert_int_equal(parent, 1);
	assert_int_equal(child, inherit ? 1 : 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

static void test_fork_inherited(void **state)
{
	(void)state;
	check_fork(1);
}

static void test_fork_close_for_child(void **state)
{
	(void)state;
	check_fork(0);
}

/* A filtered-out user event is not recorded. */
static void test_filter(void **state)
{
	struct app a;
	trace_event_set_t set;
	trace_event_id_t pre;
	trace_id_t t;
	int n;

	(void)state;
	app_spawn(&a, "script", 0, 0);
	assert_int_equal(posix_trace_create(a.pid, NULL, &t), 0);
	assert_int_equal(posix_trace_trid_eventid_open(t, "pre.event", &pre), 0);
	posix_trace_eventset_empty(&set);
	posix_trace_eventset_add(pre, &set);
	assert_int_equal(posix_trace_set_filter(t, &set, POSIX_TRACE_SET_EVENTSET), 0);
	assert_int_equal(posix_trace_start(t), 0);
	app_run(&a);
	assert_int_equal(posix_trace_stop(t), 0);
	n = read_all(t);
	assert_int_equal(count(n, "pre.event", 0), 0);
	assert_int_equal(count(n, "post.event", 0), 1);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/*
 * A flood of big events overruns the shared ring itself: what the ring had
 * no room for is counted in user_dropped (and in lost), marked by an
 * OVERFLOW, and the events read plus those lost are the events sent.
 */
static void test_ring_drops(void **state)
{
	struct app a;
	trace_attr_t at;
	trace_event_set_t set;
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	trace_id_t t;
	int n, got, start_read, nev = 50000;

	(void)state;
	app_spawn(&a, "bigflood", nev, 0);
	posix_trace_attr_init(&at);
	posix_trace_attr_setmaxdatasize(&at, 2000);
	posix_trace_attr_setstreamsize(&at, 8u << 20);
	posix_trace_attr_setstreamfullpolicy(&at, POSIX_TRACE_LOOP);
	assert_int_equal(posix_trace_create(a.pid, &at, &t), 0);
	posix_trace_eventset_fill(&set, POSIX_TRACE_SYSTEM_EVENTS); /* user events only */
	assert_int_equal(posix_trace_set_filter(t, &set, POSIX_TRACE_SET_EVENTSET), 0);
	assert_int_equal(posix_trace_start(t), 0);
	app_run(&a);
	n = read_all(t);
	assert_int_equal(ptbpf_trace_get_counters(t, &cnt), 0);
	got = count(n, "pre.event", a.pid);
	print_message("read %d, lost %llu, of them dropped by the ring %llu\n", got,
		      (unsigned long long)cnt.lost, (unsigned long long)cnt.user_dropped);
	assert_true(cnt.user_dropped > 0);
	assert_true(cnt.user_dropped <= cnt.lost);
	/* lost counts START too when it was overwritten (the gap markers,
	 * OVERFLOW and RESUME, are not counted) */
	start_read = find(n, 0, "posix_trace_start") >= 0;
	assert_int_equal((uint64_t)got + cnt.lost, (uint64_t)nev + !start_read);
	assert_true(find(n, 0, "posix_trace_overflow") >= 0);
	/* the gaps (ring full, LOOP overwrite) hold every event lost */
	assert_int_equal(lost_in(n), cnt.lost);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* A flood overruns a small stream: overrun is reported and the events
 * read plus those lost are exactly the events sent. */
static void test_flood(void **state)
{
	struct app a;
	trace_attr_t at;
	trace_event_set_t set;
	struct posix_trace_status_info st;
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	trace_id_t t;
	int n, got, i, nev = 200000, last = -1;

	(void)state;
	app_spawn(&a, "flood", nev, 0);
	posix_trace_attr_init(&at);
	posix_trace_attr_setstreamsize(&at, 65536);
	posix_trace_attr_setstreamfullpolicy(&at, POSIX_TRACE_UNTIL_FULL);
	assert_int_equal(posix_trace_create(a.pid, &at, &t), 0);
	posix_trace_eventset_fill(&set, POSIX_TRACE_SYSTEM_EVENTS); /* user events only */
	assert_int_equal(posix_trace_set_filter(t, &set, POSIX_TRACE_SET_EVENTSET), 0);
	assert_int_equal(posix_trace_start(t), 0);
	app_run(&a);
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
	assert_int_equal(ptbpf_trace_get_counters(t, &cnt), 0);
	n = read_all(t);
	got = count(n, "pre.event", a.pid);
	assert_true(got > 100 && got < nev);
	assert_int_equal((uint64_t)got + cnt.lost, (uint64_t)nev);
	for (i = 0; i < n; i++) {
		int seq;

		if (strcmp(evs[i].name, "pre.event"))
			continue;
		memcpy(&seq, evs[i].data, sizeof(seq));
		assert_true(seq > last); /* in order, none twice */
		last = seq;
	}
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/*
 * Two threads alternate a user event and a syscall: the stream merges the
 * user-event ring and the kernel's rings in time order, so each thread's
 * events read back in its program order (user event i, sys_enter, sys_exit,
 * user event i + 1 ...), and timestamps never go back. Drains meet one
 * source or both: rounds stored as they come and rounds sorted in a batch.
 */
static void test_mixed_order(void **state)
{
	struct app a;
	trace_attr_t at;
	struct posix_trace_status_info st;
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	trace_id_t t;
	pthread_t tids[2] = { 0, 0 };
	int n, i, k, nev = 10000, step[2] = { 0, 0 }, threads = 0;
	const char *want[3] = { "pre.event", "sys_enter_getppid", "sys_exit_getppid" };

	(void)state;
	app_spawn(&a, "mixed", nev, 0);
	posix_trace_attr_init(&at);
	posix_trace_attr_setstreamsize(&at, 16u << 20);
	posix_trace_attr_setstreamfullpolicy(&at, POSIX_TRACE_UNTIL_FULL);
	assert_int_equal(posix_trace_create(a.pid, &at, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	assert_int_equal(app_run(&a), 0);
	assert_int_equal(posix_trace_stop(t), 0);
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
	assert_int_equal(ptbpf_trace_get_counters(t, &cnt), 0);
	assert_int_equal(cnt.lost, 0);
	n = read_all(t);
	assert_time_order(n);
	for (i = 0; i < n; i++) {
		const struct ev *e = &evs[i];
		int w;

		if (e->info.posix_pid != a.pid)
			continue;
		for (w = 0; w < 3 && strcmp(e->name, want[w]); w++)
			;
		if (w == 3)
			continue;
		for (k = 0; k < threads && !pthread_equal(tids[k], e->info.posix_thread_id); k++)
			;
		if (k == threads) {
			assert_true(threads < 2);
			tids[threads++] = e->info.posix_thread_id;
		}
		/* this thread's next event in program order */
		assert_int_equal(w, step[k] % 3);
		if (w == 0) {
			int seq;

			memcpy(&seq, e->data, sizeof(seq));
			assert_int_equal(seq, step[k] / 3);
		}
		step[k]++;
	}
	assert_int_equal(threads, 2);
	assert_int_equal(step[0], 3 * nev);
	assert_int_equal(step[1], 3 * nev);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/*
 * Two threads flood user events into a LOOP stream nobody reads meanwhile:
 * the drainer takes what fits and leaves the rest in the sub-rings, so one
 * thread's sub-ring is often drained after the other's newer events were
 * stored, its events all older than them (a round that meets it turns
 * into a batch, merged once). Read back: each thread's events in its
 * program order, timestamps never back, and read + lost = sent.
 */
static void test_late_source(void **state)
{
	struct app a;
	trace_attr_t at;
	trace_event_set_t set;
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	trace_id_t t;
	pthread_t tids[2] = { 0, 0 };
	int n, i, k, nev = 100000, last[2] = { -1, -1 }, got = 0, threads = 0, start = 0;

	(void)state;
	app_spawn(&a, "flood2", nev, 0);
	posix_trace_attr_init(&at);
	posix_trace_attr_setstreamsize(&at, 1u << 20);
	assert_int_equal(posix_trace_create(a.pid, &at, &t), 0);
	posix_trace_eventset_fill(&set, POSIX_TRACE_SYSTEM_EVENTS); /* user events only */
	assert_int_equal(posix_trace_set_filter(t, &set, POSIX_TRACE_SET_EVENTSET), 0);
	assert_int_equal(posix_trace_start(t), 0);
	assert_int_equal(app_run(&a), 0);
	assert_int_equal(posix_trace_stop(t), 0);
	assert_int_equal(ptbpf_trace_get_counters(t, &cnt), 0);
	n = read_all(t);
	assert_time_order(n);
	for (i = 0; i < n; i++) {
		const struct ev *e = &evs[i];
		int seq;

		if (!strcmp(e->name, "posix_trace_start"))
			start = 1;
		if (strcmp(e->name, "pre.event"))
			continue;
		for (k = 0; k < threads && !pthread_equal(tids[k], e->info.posix_thread_id); k++)
			;
		if (k == threads) {
			assert_true(threads < 2);
			tids[threads++] = e->info.posix_thread_id;
		}
		memcpy(&seq, e->data, sizeof(seq));
		assert_true(seq > last[k]); /* in order, none twice */
		last[k] = seq;
		got++;
	}
	/* lost counts START too when LOOP overwrote it */
	assert_int_equal((uint64_t)got + cnt.lost, 2 * (uint64_t)nev + !start);
	assert_true(got > 1000);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* A traced process killed while it writes: the controller goes on. */
static void test_dies_midwrite(void **state)
{
	struct app a;
	trace_id_t t;
	int n;

	(void)state;
	app_spawn(&a, "die", 0, 0);
	assert_int_equal(posix_trace_create(a.pid, NULL, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	assert_int_equal(write(a.go, "g", 1), 1);
	usleep(100000);
	kill(a.pid, SIGKILL);
	waitpid(a.pid, NULL, 0);
	close(a.go);
	usleep(50000);
	assert_int_equal(posix_trace_stop(t), 0);
	n = read_all(t);
	assert_true(count(n, "pre.event", a.pid) > 0);
	assert_int_equal(count(n, "proc_exit", a.pid), 1);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* A process that scribbles over its shared memory: the controller records
 * POSIX_TRACE_ERROR and survives; another stream is untouched. */
static void test_scribbler(void **state)
{
	struct app a;
	trace_id_t t, self;
	trace_event_id_t mine;
	int n, i, v = 7;

	(void)state;
	app_spawn(&a, "scribble", 0, 0);
	assert_int_equal(posix_trace_create(a.pid, NULL, &t), 0);
	assert_int_equal(posix_trace_create(0, NULL, &self), 0);
	assert_int_equal(posix_trace_eventid_open("controller.event", &mine), 0);
	assert_int_equal(posix_trace_start(t), 0);
	assert_int_equal(posix_trace_start(self), 0);
	app_run(&a);
	posix_trace_event(mine, &v, sizeof(v));
	assert_int_equal(posix_trace_stop(t), 0);
	assert_int_equal(posix_trace_stop(self), 0);
	n = read_all(t);
	i = find(n, 0, "posix_trace_error");
	assert_true(i >= 0);
	assert_int_equal(*(int *)evs[i].data, EBADMSG);
	assert_int_equal(count(n, "proc_exit", a.pid), 1);
	n = read_all(self);
	assert_int_equal(count(n, "controller.event", getpid()), 1);
	assert_int_equal(count(n, "posix_trace_error", 0), 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
	assert_int_equal(posix_trace_shutdown(self), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cross_process),  cmocka_unit_test(test_pid0),
		cmocka_unit_test(test_fork_inherited), cmocka_unit_test(test_fork_close_for_child),
		cmocka_unit_test(test_filter),	       cmocka_unit_test(test_flood),
		cmocka_unit_test(test_ring_drops),     cmocka_unit_test(test_mixed_order),
		cmocka_unit_test(test_late_source),    cmocka_unit_test(test_dies_midwrite),
		cmocka_unit_test(test_scribbler),
	};

	itest_require_bpf();
	evs = calloc(MAXEV, sizeof(*evs));
	if (!evs)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
