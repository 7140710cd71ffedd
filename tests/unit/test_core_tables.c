/* Unit tests: the event type table, timestamp batches and trid registry. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <ptbpf/events.h>

#include "core/batch.h"
#include "core/evtypes.h"
#include "core/registry.h"

static void test_evtypes_names(void **state)
{
	struct evtypes t;
	char name[TRACE_EVENT_NAME_MAX];
	uint32_t id;

	(void)state;
	assert_int_equal(evtypes__init(&t), 0);
	assert_int_equal(evtypes__name(&t, POSIX_TRACE_START, name), 0);
	assert_string_equal(name, "posix_trace_start");
	assert_int_equal(evtypes__name(&t, POSIX_TRACE_UNNAMED_USEREVENT, name), 0);
	assert_string_equal(name, "posix_trace_unnamed_userevent");
	assert_int_equal(evtypes__name(&t, PTBPF_EV_SYS_ENTER(257), name), 0);
	assert_string_equal(name, "sys_enter_openat");
	assert_int_equal(evtypes__name(&t, PTBPF_EV_SYS_EXIT(39), name), 0);
	assert_string_equal(name, "sys_exit_getpid");
	assert_int_equal(evtypes__name(&t, PTBPF_EV_PROC_EXEC, name), 0);
	assert_string_equal(name, "proc_exec");
	assert_int_equal(evtypes__name(&t, 15, name), -EINVAL);
	assert_int_equal(evtypes__name(&t, PTBPF_EV_USER_BASE + 1, name), -EINVAL);

	assert_int_equal(evtypes__lookup(&t, "sys_exit_close", false, &id), 0);
	assert_int_equal(id, PTBPF_EV_SYS_EXIT(3));
	assert_int_equal(evtypes__lookup(&t, "posix_trace_stop", false, &id), 0);
	assert_int_equal(id, POSIX_TRACE_STOP);
	assert_int_equal(evtypes__lookup(&t, "my.event", false, &id), -ENOENT);
	assert_int_equal(evtypes__lookup(&t, "my.event", true, &id), 0);
	assert_int_equal(id, PTBPF_EV_USER_BASE + 1);
	assert_int_equal(evtypes__lookup(&t, "my.event", true, &id), 0);
	assert_int_equal(id, PTBPF_EV_USER_BASE + 1);
	assert_int_equal(evtypes__lookup(&t, "other", true, &id), 0);
	assert_int_equal(id, PTBPF_EV_USER_BASE + 2);
	assert_int_equal(evtypes__name(&t, id, name), 0);
	assert_string_equal(name, "other");
	evtypes__fini(&t);
}

static void test_evtypes_iterate_and_full(void **state)
{
	struct evtypes t;
	uint32_t id, n = 0, last = 0;
	char name[TRACE_EVENT_NAME_MAX];
	int i;

	(void)state;
	assert_int_equal(evtypes__init(&t), 0);
	while (!evtypes__next(&t, &id)) {
		assert_true(id > last || n == 0);
		assert_int_equal(evtypes__name(&t, id, name), 0);
		last = id;
		n++;
	}
	/* 8 POSIX, 9 kernel, >= 300 syscalls x 2, the unnamed user event */
	assert_true(n > 8 + 9 + 600);
	evtypes__rewind(&t);
	assert_int_equal(evtypes__next(&t, &id), 0);
	assert_int_equal(id, POSIX_TRACE_ERROR);
	for (i = 1; i < EVTYPES_USER_MAX; i++) {
		snprintf(name, sizeof(name), "ev%d", i);
		assert_int_equal(evtypes__lookup(&t, name, true, &id), 0);
		assert_int_equal(id, PTBPF_EV_USER_BASE + (uint32_t)i);
	}
	assert_int_equal(evtypes__lookup(&t, "one.too.many", true, &id), 0);
	assert_int_equal(id, POSIX_TRACE_UNNAMED_USEREVENT);
	{
		char lng[TRACE_EVENT_NAME_MAX + 1];

		memset(lng, 'a', sizeof(lng));
		lng[TRACE_EVENT_NAME_MAX] = 0; /* TRACE_EVENT_NAME_MAX chars: too long */
		assert_int_equal(evtypes__lookup(&t, lng, true, &id), -ENAMETOOLONG);
		lng[TRACE_EVENT_NAME_MAX - 1] = 0; /* the longest name that fits */
		assert_int_equal(evtypes__lookup(&t, lng, false, &id), -ENOENT);
	}
	evtypes__fini(&t);
}

static void test_batch_sort(void **state)
{
	struct batch b;
	uint64_t ts[] = { 5, 3, 9, 3, 1 };
	uint32_t payload;
	size_t i;

	(void)state;
	batch__init(&b);
	for (i = 0; i < 5; i++) {
		struct pt_event_hdr h = { .id = (uint32_t)i, .ts = ts[i], .data_len = 4 };

		payload = (uint32_t)i * 100;
		assert_int_equal(batch__add(&b, &h, &payload), 0);
	}
	batch__sort(&b);
	assert_int_equal(batch__hdr(&b, 0)->ts, 1);
	/* equal timestamps keep their arrival order */
	assert_int_equal(batch__hdr(&b, 1)->id, 1);
	assert_int_equal(batch__hdr(&b, 2)->id, 3);
	assert_int_equal(batch__hdr(&b, 4)->ts, 9);
	memcpy(&payload, batch__data(&b, 4), 4);
	assert_int_equal(payload, 200);
	batch__fini(&b);
}

/* Stable order by (ts, arrival): what every batch__sort must give. */
static int ref_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b; /* {ts, arrival} */

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/*
 * Segments (sources) of several shapes: in order, two CPUs interleaved a
 * little, reversed (insertion sort gives up: qsort), random, empty, equal
 * timestamps; more segments than BATCH_MAX_SEGS.
 */
static void test_batch_sort_segments(void **state)
{
	enum { NMAX = 3000 };
	static uint64_t ref[NMAX][2];
	unsigned int seed = 12345;
	struct batch b;

	(void)state;
	batch__init(&b);
	for (int round = 0; round < 200; round++) {
		int nsrc = 1 + round % (BATCH_MAX_SEGS + 4);
		size_t n = 0;

		batch__reset(&b);
		for (int src = 0; src < nsrc; src++) {
			int shape = (round + src) % 6;
			size_t len = (size_t)(rand_r(&seed) % (NMAX / (nsrc + 1)));
			uint64_t base = (uint64_t)(rand_r(&seed) % 1000);

			if (src)
				batch__new_source(&b);
			for (size_t i = 0; i < len && n < NMAX; i++, n++) {
				uint64_t ts;
				struct pt_event_hdr h = { .data_len = 8 };

				switch (shape) {
				case 0:
					ts = base + i;
					break;
				case 1:
					ts = base + i + (rand_r(&seed) % 8);
					break;
				case 2:
					ts = base + len - i;
					break;
				case 3:
					ts = (uint64_t)rand_r(&seed) % 5000;
					break;
				case 4:
					ts = base;
					break;
				default:
					ts = base + i / 3;
					break;
				}
				h.ts = ts;
				h.id = (uint32_t)n;
				ref[n][0] = ts;
				ref[n][1] = n;
				assert_int_equal(batch__add(&b, &h, &ref[n][1]), 0);
			}
		}
		batch__sort(&b);
		qsort(ref, n, sizeof(ref[0]), ref_cmp);
		assert_int_equal(b.n, n);
		for (size_t i = 0; i < n; i++) {
			uint64_t arrival;

			assert_int_equal(batch__hdr(&b, i)->ts, ref[i][0]);
			assert_int_equal(batch__hdr(&b, i)->id, ref[i][1]);
			memcpy(&arrival, batch__data(&b, i), 8);
			assert_int_equal(arrival, ref[i][1]);
		}
	}
	batch__fini(&b);
}

/* A preallocated batch grows when it must and trim gives that back. */
static void test_batch_prealloc_trim(void **state)
{
	unsigned char payload[200] = { 1 };
	struct batch b;
	size_t cap, ncap;

	(void)state;
	batch__init(&b);
	assert_int_equal(batch__prealloc(&b, 100000, 1000, true), 0);
	cap = b.cap;
	ncap = b.ncap;
	assert_true(cap >= 100000 && ncap >= 1000);
	for (uint64_t i = 0; i < 5000; i++) {
		struct pt_event_hdr h = { .ts = 5000 - i, .data_len = sizeof(payload) };

		assert_int_equal(batch__add(&b, &h, payload), 0);
	}
	assert_true(b.cap > cap && b.ncap > ncap);
	/* not while the events are still there */
	batch__trim(&b);
	assert_true(b.cap > cap);
	batch__sort(&b);
	assert_int_equal(batch__hdr(&b, 0)->ts, 1);
	assert_int_equal(batch__hdr(&b, 4999)->ts, 5000);
	batch__reset(&b);
	batch__trim(&b);
	assert_int_equal(b.cap, cap);
	assert_int_equal(b.ncap, ncap);
	/* and it is still usable */
	{
		struct pt_event_hdr h = { .ts = 7, .data_len = sizeof(payload) };

		assert_int_equal(batch__add(&b, &h, payload), 0);
		assert_int_equal(batch__hdr(&b, 0)->ts, 7);
	}
	batch__fini(&b);
}

static void test_registry(void **state)
{
	trace_id_t ids[TRACE_SYS_MAX], extra, stale;
	int obj[TRACE_SYS_MAX];
	void *p;
	int kind, has_log, i;
	pid_t c;

	(void)state;
	for (i = 0; i < TRACE_SYS_MAX; i++)
		assert_int_equal(registry__add(TRACE_KIND_ACTIVE, &obj[i], 0, &ids[i]), 0);
	assert_int_equal(registry__add(TRACE_KIND_LOG, &obj[0], 1, &extra), -EAGAIN);
	assert_int_equal(registry__get(ids[3], TRACE_KIND_ACTIVE, &p, &kind, &has_log), 0);
	assert_ptr_equal(p, &obj[3]);
	assert_int_equal(kind, TRACE_KIND_ACTIVE);
	registry__put(ids[3]);
	/* the wrong kind, a made-up id */
	assert_int_equal(registry__get(ids[3], TRACE_KIND_LOG, &p, &kind, &has_log), -EINVAL);
	assert_int_equal(registry__get(ids[3] ^ 0x40000, TRACE_KIND_ACTIVE, &p, &kind, NULL),
			 -EINVAL);
	/* removed: stale ids are refused, the slot is reused with a new id */
	assert_int_equal(registry__remove(ids[3], TRACE_KIND_ACTIVE, NULL, &p), 0);
	stale = ids[3];
	assert_int_equal(registry__get(stale, TRACE_KIND_ACTIVE, &p, &kind, NULL), -EINVAL);
	assert_int_equal(registry__add(TRACE_KIND_LOG, &obj[3], 1, &ids[3]), 0);
	assert_int_not_equal(ids[3], stale);
	/* a forked child may not use its parent's trids */
	c = fork();
	if (c == 0)
		_exit(registry__get(ids[0], TRACE_KIND_ACTIVE, &p, &kind, NULL) == -EINVAL ? 0 : 1);
	assert_true(c > 0);
	assert_int_equal(waitpid(c, &i, 0), c);
	assert_true(WIFEXITED(i) && WEXITSTATUS(i) == 0);
	for (i = 0; i < TRACE_SYS_MAX; i++)
		assert_int_equal(
			registry__remove(ids[i], TRACE_KIND_ACTIVE | TRACE_KIND_LOG, NULL, &p), 0);
}

/* A thread holds a reference for a while: a remove waits for its put. */
struct holder {
	trace_id_t trid;
	int got;
	int put; /* set right before the put */
	pthread_mutex_t m;
	pthread_cond_t c;
};

static void *hold_ref(void *arg)
{
	struct holder *h = arg;
	struct timespec ts = { .tv_nsec = 50 * 1000000L };
	void *p;
	int kind;

	pthread_mutex_lock(&h->m);
	h->got = registry__get(h->trid, TRACE_KIND_ACTIVE, &p, &kind, NULL) == 0 ? 1 : -1;
	pthread_cond_signal(&h->c);
	pthread_mutex_unlock(&h->m);
	if (h->got < 0)
		return NULL;
	nanosleep(&ts, NULL);
	__atomic_store_n(&h->put, 1, __ATOMIC_SEQ_CST);
	registry__put(h->trid);
	return NULL;
}

static void remove_waits_for_holder(void)
{
	struct holder h = { .m = PTHREAD_MUTEX_INITIALIZER, .c = PTHREAD_COND_INITIALIZER };
	trace_id_t other;
	pthread_t t;
	int obj, obj2, kind;
	void *p;

	assert_int_equal(registry__add(TRACE_KIND_ACTIVE, &obj, 0, &h.trid), 0);
	assert_int_equal(registry__add(TRACE_KIND_ACTIVE, &obj2, 0, &other), 0);
	assert_int_equal(pthread_create(&t, NULL, hold_ref, &h), 0);
	pthread_mutex_lock(&h.m);
	while (!h.got)
		pthread_cond_wait(&h.c, &h.m);
	pthread_mutex_unlock(&h.m);
	assert_int_equal(h.got, 1);
	/* another trid's remove does not wait for it */
	assert_int_equal(registry__remove(other, TRACE_KIND_ACTIVE, NULL, &p), 0);
	assert_int_equal(__atomic_load_n(&h.put, __ATOMIC_SEQ_CST), 0);
	assert_int_equal(registry__remove(h.trid, TRACE_KIND_ACTIVE, NULL, &p), 0);
	assert_int_equal(__atomic_load_n(&h.put, __ATOMIC_SEQ_CST), 1);
	assert_ptr_equal(p, &obj);
	assert_int_equal(pthread_join(t, NULL), 0);
	/* the thread has exited: its count left with it, nothing dangles */
	assert_int_equal(registry__add(TRACE_KIND_ACTIVE, &obj, 0, &h.trid), 0);
	assert_int_equal(registry__get(h.trid, TRACE_KIND_ACTIVE, &p, &kind, NULL), 0);
	registry__put(h.trid);
	assert_int_equal(registry__remove(h.trid, TRACE_KIND_ACTIVE, NULL, &p), 0);
}

static void test_registry_remove_waits(void **state)
{
	(void)state;
	remove_waits_for_holder(); /* per-thread counts (membarrier) */
	registry__force_atomic();
	remove_waits_for_holder(); /* counts in the slots */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evtypes_names),
		cmocka_unit_test(test_evtypes_iterate_and_full),
		cmocka_unit_test(test_batch_sort),
		cmocka_unit_test(test_batch_sort_segments),
		cmocka_unit_test(test_batch_prealloc_trim),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_registry_remove_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
