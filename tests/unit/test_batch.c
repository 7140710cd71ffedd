/* Unit tests: the drain and handover batches (core/batch). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core/batch.h"

/* The event i: its timestamp, length and every data byte follow from i. */
static void add_event(struct batch *b, uint64_t i, uint64_t ts, uint32_t len)
{
	static uint8_t data[8192];
	struct pt_event_hdr h = { .id = 7, .ts = ts, .data_len = len, .pid = (int32_t)i };

	memset(data, (int)(i & 0xff), len);
	assert_int_equal(batch__add(b, &h, data), 0);
}

static void check_event(const struct batch *b, size_t k, uint64_t i, uint64_t ts, uint32_t len)
{
	const struct pt_event_hdr *h = batch__hdr(b, k);
	const uint8_t *d = batch__data(b, k);
	uint32_t j;

	assert_int_equal(h->pid, (int32_t)i);
	assert_int_equal(h->ts, ts);
	assert_int_equal(h->data_len, len);
	for (j = 0; j < len; j++)
		if (d[j] != (uint8_t)(i & 0xff))
			fail_msg("event %llu byte %u", (unsigned long long)i, j);
}

/* Growing far past the preallocated size, then trimmed back and reused. */
static void test_grow_trim(void **state)
{
	struct batch b;
	uint64_t i, n = 20000;

	(void)state;
	batch__init(&b);
	assert_int_equal(batch__prealloc(&b, 4096, 16, false), 0);
	for (i = 0; i < n; i++)
		add_event(&b, i, i, (uint32_t)(i % 200));
	assert_int_equal(b.n, n);
	for (i = 0; i < n; i++)
		check_event(&b, i, i, i, (uint32_t)(i % 200));
	assert_true(b.cap > 4096);
	batch__reset(&b);
	batch__trim(&b);
	assert_int_equal(b.cap, b.keep_bytes);
	assert_int_equal(b.ncap, b.keep_n);
	/* the kept pages still hold what is written into them, and it grows
	 * again in the same reserved range */
	for (i = 0; i < 3000; i++)
		add_event(&b, i + 7, i, 64);
	for (i = 0; i < 3000; i++)
		check_event(&b, i, i + 7, i, 64);
	batch__fini(&b);
	assert_null(b.buf);
	assert_null(b.ents);
}

/* Past the address space reserved at first (64 MiB): what is there moves
 * into a larger range, intact. */
static void test_past_reservation(void **state)
{
	struct batch b;
	uint64_t i, n = 80 * 256; /* 80 MiB of 4 KiB events */

	(void)state;
	batch__init(&b);
	assert_int_equal(batch__prealloc(&b, 1 << 20, 1024, false), 0);
	for (i = 0; i < n; i++)
		add_event(&b, i, i, 4096 - sizeof(struct pt_event_hdr));
	assert_true(b.cap >= n * 4096);
	assert_true(b.res >= b.cap);
	for (i = 0; i < n; i += 97)
		check_event(&b, i, i, i, 4096 - sizeof(struct pt_event_hdr));
	check_event(&b, n - 1, n - 1, n - 1, 4096 - sizeof(struct pt_event_hdr));
	batch__reset(&b);
	batch__trim(&b);
	assert_int_equal(b.cap, b.keep_bytes);
	batch__fini(&b);
}

/* Sorting swaps the entries with the merge space: both keep working as
 * they grow afterwards. */
static void test_sort_then_grow(void **state)
{
	struct batch b;
	uint64_t i, n = 5000, k;

	(void)state;
	batch__init(&b);
	assert_int_equal(batch__prealloc(&b, 1 << 16, 64, true), 0);
	/* two sources, interleaved in time: even timestamps, then odd ones */
	batch__new_source(&b);
	for (i = 0; i < n; i++)
		add_event(&b, 2 * i, 2 * i, 16);
	batch__new_source(&b);
	for (i = 0; i < n; i++)
		add_event(&b, 2 * i + 1, 2 * i + 1, 16);
	batch__sort(&b);
	for (k = 0; k < 2 * n; k++)
		check_event(&b, k, k, k, 16);
	for (i = 2 * n; i < 8 * n; i++)
		add_event(&b, i, i, 16);
	for (k = 0; k < 8 * n; k++)
		check_event(&b, k, k, k, 16);
	batch__reset(&b);
	batch__trim(&b);
	batch__fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_trim),
		cmocka_unit_test(test_past_reservation),
		cmocka_unit_test(test_sort_then_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
