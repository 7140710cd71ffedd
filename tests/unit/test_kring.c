/* Unit tests: a BPF ring's consumer (backend/kring) on a ring in memory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/kring.h"

#define RING_SZ 4096u

static uint8_t ring_mem[RING_SZ] __attribute__((aligned(8)));
static unsigned long consumer_pos;

/* What kring__open() sets up, over ring_mem (no record wraps here). */
static void fake_ring(struct kring *r)
{
	memset(ring_mem, 0, sizeof(ring_mem));
	memset(r, 0, sizeof(*r));
	consumer_pos = 0;
	r->mask = RING_SZ - 1;
	r->consumer = &consumer_pos;
	r->data = ring_mem;
	r->publish_every = RING_SZ / 16;
}

/* A record of len bytes at off, with the kernel's header bits; its end. */
static unsigned long put_record(unsigned long off, uint32_t len, uint32_t bits, uint8_t fill)
{
	uint32_t *hdr = (uint32_t *)(ring_mem + off);

	memset(hdr + 2, fill, len);
	hdr[1] = 0;
	__atomic_store_n(hdr, len | bits, __ATOMIC_RELEASE);
	return off + ((KRING_HDR_SZ + len + 7) & ~7ul);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The drain's loop (kern_ring__peek): peek, and wait while one is busy. */
static int peek_waiting(struct kring *r, unsigned long limit, uint64_t wait_ns, const void **data,
			size_t *size)
{
	uint64_t deadline = 0;

	do {
		if (kring__peek(r, limit, data, size))
			return 1;
	} while (kring__wait_busy(r, limit, now_ns(), wait_ns, &deadline));
	return 0;
}

static void test_taken_in_order_then_none(void **state)
{
	struct kring r;
	unsigned long limit;
	const void *data = NULL;
	size_t size = 0;
	uint64_t deadline = 0;

	(void)state;
	fake_ring(&r);
	limit = put_record(0, 16, 0, 1);
	limit = put_record(limit, 5, BPF_RINGBUF_DISCARD_BIT, 2);
	limit = put_record(limit, 12, 0, 3);
	assert_int_equal(kring__peek(&r, limit, &data, &size), 1);
	assert_int_equal(size, 16);
	assert_int_equal(((const uint8_t *)data)[0], 1);
	kring__advance(&r);
	/* the discarded one is skipped */
	assert_int_equal(kring__peek(&r, limit, &data, &size), 1);
	assert_int_equal(size, 12);
	assert_int_equal(((const uint8_t *)data)[11], 3);
	kring__advance(&r);
	assert_int_equal(kring__peek(&r, limit, &data, &size), 0);
	/* at the limit: nothing is waited for, the deadline is not set */
	assert_false(kring__wait_busy(&r, limit, now_ns(), 1000000000u, &deadline));
	assert_int_equal(deadline, 0);
}

static void test_busy_gives_up_after_wait(void **state)
{
	struct kring r;
	unsigned long limit, first;
	const void *data = NULL;
	size_t size = 0;
	uint64_t t0, wait_ns = 2000000;

	(void)state;
	fake_ring(&r);
	first = put_record(0, 16, 0, 1);
	limit = put_record(first, 16, BPF_RINGBUF_BUSY_BIT, 2);
	assert_int_equal(peek_waiting(&r, limit, wait_ns, &data, &size), 1);
	kring__advance(&r);
	t0 = now_ns();
	assert_int_equal(peek_waiting(&r, limit, wait_ns, &data, &size), 0);
	assert_true(now_ns() - t0 >= wait_ns);
	/* the busy record stays for the next drain */
	assert_int_equal(r.cons, first);
}

static void *commit_later(void *arg)
{
	uint32_t *hdr = arg;

	usleep(20000);
	__atomic_store_n(hdr, __atomic_load_n(hdr, __ATOMIC_RELAXED) & ~BPF_RINGBUF_BUSY_BIT,
			 __ATOMIC_RELEASE);
	return NULL;
}

static void test_busy_waited_for(void **state)
{
	struct kring r;
	unsigned long limit, first;
	const void *data = NULL;
	size_t size = 0;
	pthread_t th;

	(void)state;
	fake_ring(&r);
	first = put_record(0, 16, 0, 1);
	limit = put_record(first, 24, BPF_RINGBUF_BUSY_BIT, 2);
	assert_int_equal(peek_waiting(&r, limit, 1000000000u, &data, &size), 1);
	kring__advance(&r);
	assert_int_equal(pthread_create(&th, NULL, commit_later, ring_mem + first), 0);
	assert_int_equal(peek_waiting(&r, limit, 1000000000u, &data, &size), 1);
	pthread_join(th, NULL);
	assert_int_equal(size, 24);
	assert_int_equal(((const uint8_t *)data)[0], 2);
	kring__advance(&r);
	assert_int_equal(r.cons, limit);
}

/* The data's two copies are faulted in by chunks, to their end and no further. */
static void test_populate_ends_at_second_copy(void **state)
{
	static uint8_t copies[2 * 4 * RING_SZ]; /* ASan: a read past them fails */
	struct kring r = { .mask = 4 * RING_SZ - 1, .data = copies, .touched = RING_SZ };
	size_t want = RING_SZ;

	(void)state;
	while (want + 5000 < sizeof(copies)) {
		assert_true(kring__populate(&r, 5000));
		want += 5000;
		assert_int_equal(r.touched, want);
	}
	assert_false(kring__populate(&r, 5000));
	assert_int_equal(r.touched, sizeof(copies));
	assert_false(kring__populate(&r, 5000));
	assert_int_equal(r.touched, sizeof(copies));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taken_in_order_then_none),
		cmocka_unit_test(test_busy_gives_up_after_wait),
		cmocka_unit_test(test_busy_waited_for),
		cmocka_unit_test(test_populate_ends_at_second_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
