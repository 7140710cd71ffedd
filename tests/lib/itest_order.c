/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Timestamps are never rewritten, and events are read in order: this
 * process traces itself while two threads make syscalls and user events,
 * each bracketed by clock readings of its own (a side channel), with the
 * CPUs kept busy by spinning children. Every event's timestamp must lie
 * within its brackets (up to the stream's constant clock offset), and the
 * events come in timestamp order but for those the stream counts as late.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"

#define NCALLS	 20000
#define NSPIN	 2
#define LOG_SIZE (256u << 20)

struct bracket {
	uint64_t before, after; /* CLOCK_MONOTONIC ns */
};

static struct bracket ub[NCALLS], sb[NCALLS];
/* the events' timestamps, checked once the calls' brackets are all known */
static uint64_t uts[NCALLS], ents[NCALLS], exts[NCALLS];
static trace_event_id_t uev_id;
static volatile pid_t sys_tid;
static volatile int producers_done;
static pid_t spinners[NSPIN];

static uint64_t mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t ts_of(const struct posix_trace_event_info *e)
{
	return (uint64_t)e->posix_timestamp.tv_sec * 1000000000u +
	       (uint64_t)e->posix_timestamp.tv_nsec;
}

/* Children that keep both CPUs busy, at the test's own priority. */
static void spin_start(void)
{
	int i;

	for (i = 0; i < NSPIN; i++) {
		spinners[i] = fork();
		assert_true(spinners[i] >= 0);
		if (!spinners[i])
			for (;;)
				;
	}
}

static void spin_stop(void)
{
	int i;

	for (i = 0; i < NSPIN; i++) {
		kill(spinners[i], SIGKILL);
		waitpid(spinners[i], NULL, 0);
	}
}

static void *uev_thread(void *arg)
{
	uint32_t i;

	(void)arg;
	for (i = 0; i < NCALLS; i++) {
		ub[i].before = mono();
		posix_trace_event(uev_id, &i, sizeof(i));
		ub[i].after = mono();
	}
	return NULL;
}

static void *sys_thread(void *arg)
{
	int i;

	(void)arg;
	sys_tid = (pid_t)syscall(SYS_gettid);
	for (i = 0; i < NCALLS; i++) {
		sb[i].before = mono();
		syscall(SYS_getppid);
		sb[i].after = mono();
	}
	return NULL;
}

static void *both(void *arg)
{
	pthread_t u, s;

	(void)arg;
	pthread_create(&u, NULL, uev_thread, NULL);
	pthread_create(&s, NULL, sys_thread, NULL);
	pthread_join(u, NULL);
	pthread_join(s, NULL);
	producers_done = 1;
	return NULL;
}

/* What the events read so far say. */
struct check {
	trace_event_id_t enter, exit;
	int nu, nenter, nexit, inversions, flushes;
	uint64_t newest;
	int64_t lo, hi;		       /* the stream's clock offset lies in [lo, hi] */
	char lo_what[64], hi_what[64]; /* the events that set them */
};

static void check_init(struct check *c, trace_id_t t)
{
	memset(c, 0, sizeof(*c));
	c->lo = INT64_MIN;
	c->hi = INT64_MAX;
	assert_int_equal(posix_trace_trid_eventid_open(t, "sys_enter_getppid", &c->enter), 0);
	assert_int_equal(posix_trace_trid_eventid_open(t, "sys_exit_getppid", &c->exit), 0);
}

/* The event's own time must lie between the readings around its call. */
static void bracket(struct check *c, uint64_t ts, const struct bracket *b, const char *what,
		    int idx)
{
	int64_t lo = (int64_t)(ts - b->after), hi = (int64_t)(ts - b->before);

	if (lo > c->lo) {
		c->lo = lo;
		snprintf(c->lo_what, sizeof(c->lo_what), "%s #%d", what, idx);
	}
	if (hi < c->hi) {
		c->hi = hi;
		snprintf(c->hi_what, sizeof(c->hi_what), "%s #%d", what, idx);
	}
}

static void check_event(struct check *c, const struct posix_trace_event_info *e, const void *data,
			size_t len, trace_event_id_t uev)
{
	uint64_t ts = ts_of(e);
	uint32_t idx;

	if (ts < c->newest)
		c->inversions++;
	else
		c->newest = ts;
	if (e->posix_event_id == POSIX_TRACE_FLUSH_START)
		c->flushes++;
	if (e->posix_event_id == uev && len == sizeof(idx)) {
		memcpy(&idx, data, sizeof(idx));
		assert_true(idx < NCALLS);
		uts[idx] = ts;
		c->nu++;
	} else if (e->posix_event_id == c->enter && c->nenter < NCALLS) {
		ents[c->nenter++] = ts;
	} else if (e->posix_event_id == c->exit && c->nexit < NCALLS) {
		exts[c->nexit++] = ts;
	}
}

static void check_done(struct check *c, const struct ptbpf_counters *cnt)
{
	int i;

	for (i = 0; i < c->nu; i++)
		bracket(c, uts[i], &ub[i], "user event", i);
	for (i = 0; i < c->nenter; i++)
		bracket(c, ents[i], &sb[i], "sys_enter", i);
	for (i = 0; i < c->nexit; i++)
		bracket(c, exts[i], &sb[i], "sys_exit", i);
	print_message("%d user events, %d+%d syscall events, %d inversions, %llu late, "
		      "%llu lost, offset window %lld ns\n",
		      c->nu, c->nenter, c->nexit, c->inversions, (unsigned long long)cnt->late,
		      (unsigned long long)cnt->lost, (long long)(c->hi - c->lo));
	assert_int_equal(cnt->lost, 0);
	assert_int_equal(c->nu, NCALLS);
	assert_int_equal(c->nenter, NCALLS);
	assert_int_equal(c->nexit, NCALLS);
	/* a timestamp raised (or lowered) out of its brackets empties the window */
	if (c->lo > c->hi)
		fail_msg("timestamps outside their calls: offsets from %lld (%s) to %lld ns (%s)",
			 (long long)c->lo, c->lo_what, (long long)c->hi, c->hi_what);
	/* order holds, but for the events counted late */
	if ((uint64_t)c->inversions > cnt->late)
		fail_msg("%d events older than one read before them, %llu counted late",
			 c->inversions, (unsigned long long)cnt->late);
}

static trace_attr_t big_attr(void)
{
	trace_attr_t a;

	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(posix_trace_attr_setstreamsize(&a, 64u << 20), 0);
	return a;
}

/* A live stream read while the events come. */
static void test_live_order(void **state)
{
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	struct posix_trace_event_info e;
	trace_attr_t a = big_attr();
	struct timespec until;
	struct check c;
	pthread_t th;
	char data[64];
	size_t len;
	int un, err;
	trace_id_t t;

	(void)state;
	producers_done = 0;
	spin_start();
	assert_int_equal(posix_trace_create(0, &a, &t), 0);
	assert_int_equal(posix_trace_eventid_open("order_live", &uev_id), 0);
	check_init(&c, t);
	assert_int_equal(posix_trace_start(t), 0);
	pthread_create(&th, NULL, both, NULL);
	while (!producers_done) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 50000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		err = posix_trace_timedgetnext_event(t, &e, data, sizeof(data), &len, &un, &until);
		if (!err && !un)
			check_event(&c, &e, data, len, uev_id);
	}
	pthread_join(th, NULL);
	assert_int_equal(posix_trace_stop(t), 0);
	while (!posix_trace_trygetnext_event(t, &e, data, sizeof(data), &len, &un) && !un)
		check_event(&c, &e, data, len, uev_id);
	spin_stop();
	assert_int_equal(ptbpf_trace_get_counters(t, &cnt), 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
	posix_trace_attr_destroy(&a);
	check_done(&c, &cnt);
}

/* A stream flushed to its log 200 times while the events come. */
static void test_log_order(void **state)
{
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	char path[] = "/tmp/itest_order_XXXXXX", data[64];
	struct posix_trace_event_info e;
	trace_attr_t a = big_attr();
	trace_event_id_t uev;
	struct check c;
	pthread_t th;
	trace_id_t t;
	size_t len;
	int fd, i, un;

	(void)state;
	producers_done = 0;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(posix_trace_attr_setlogsize(&a, LOG_SIZE), 0);
	assert_int_equal(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_FLUSH), 0);
	spin_start();
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
	assert_int_equal(posix_trace_eventid_open("order_log", &uev_id), 0);
	assert_int_equal(posix_trace_start(t), 0);
	pthread_create(&th, NULL, both, NULL);
	for (i = 0; i < 200 || !producers_done; i++) {
		assert_int_equal(posix_trace_flush(t), 0);
		usleep(500);
	}
	pthread_join(th, NULL);
	assert_int_equal(posix_trace_stop(t), 0);
	spin_stop();
	assert_int_equal(ptbpf_trace_get_counters(t, &cnt), 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
	posix_trace_attr_destroy(&a);

	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(posix_trace_open(fd, &t), 0);
	check_init(&c, t);
	assert_int_equal(posix_trace_trid_eventid_open(t, "order_log", &uev), 0);
	while (!posix_trace_getnext_event(t, &e, data, sizeof(data), &len, &un) && !un)
		check_event(&c, &e, data, len, uev);
	posix_trace_close(t);
	close(fd);
	/* every FLUSH_START is in order with the events around it */
	assert_true(c.flushes >= 200);
	check_done(&c, &cnt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_order),
		cmocka_unit_test(test_log_order),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
