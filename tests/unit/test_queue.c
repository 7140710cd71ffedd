/* Unit tests: the stream buffer (core/queue). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/queue.h"

static struct pt_event_hdr hdr(uint64_t ts, uint32_t len)
{
	struct pt_event_hdr h = { .id = 7, .ts = ts, .data_len = len };

	return h;
}

static void test_fifo(void **state)
{
	struct pt_queue q;
	uint8_t data[100];
	uint64_t i;

	(void)state;
	assert_int_equal(queue__init(&q, 4096, queue__record_size(100)), 0);
	for (i = 0; i < 10; i++) {
		struct pt_event_hdr h = hdr(i, (uint32_t)i * 10);

		memset(data, (int)i, sizeof(data));
		assert_int_equal(queue__push(&q, &h, data), 0);
	}
	for (i = 0; i < 10; i++) {
		const struct pt_event_hdr *h = queue__peek(&q);
		const uint8_t *d;

		assert_non_null(h);
		assert_int_equal(h->ts, i);
		assert_int_equal(h->data_len, i * 10);
		d = queue__data(h);
		if (i)
			assert_int_equal(d[i * 10 - 1], i);
		queue__pop(&q);
	}
	assert_null(queue__peek(&q));
	assert_true(queue__empty(&q));
	queue__fini(&q);
}

/* A stream of N bytes holds events whose costs add up to N, whatever the
 * wrap position; no record is ever corrupted across many wraps. */
static void test_capacity_and_wrap(void **state)
{
	struct pt_queue q;
	uint8_t data[200];
	uint64_t pushed = 0, popped = 0;
	size_t limit = 8192, maxrec = queue__record_size(200);
	int round;

	(void)state;
	srand(1);
	assert_int_equal(queue__init(&q, limit, maxrec), 0);
	for (round = 0; round < 20000; round++) {
		uint32_t len = (uint32_t)(rand() % 201);
		struct pt_event_hdr h = hdr(pushed, len);

		memset(data, (int)(pushed & 0xff), len);
		if (q.used + queue__record_size(len) <= limit) {
			/* must fit: cost accounting is exact */
			assert_true(queue__fits(&q, len));
			assert_int_equal(queue__push(&q, &h, data), 0);
			pushed++;
		} else {
			assert_false(queue__fits(&q, len));
			assert_int_equal(queue__push(&q, &h, data), -ENOSPC);
		}
		while (rand() % 3 == 0 && !queue__empty(&q)) {
			const struct pt_event_hdr *p = queue__peek(&q);
			const uint8_t *d = queue__data(p);
			uint32_t k;

			assert_int_equal(p->ts, popped);
			for (k = 0; k < p->data_len; k++)
				assert_int_equal(d[k], popped & 0xff);
			queue__pop(&q);
			popped++;
		}
	}
	assert_true(pushed > 1000);
	queue__clear(&q);
	assert_true(queue__empty(&q));
	queue__fini(&q);
}

static void test_too_big(void **state)
{
	struct pt_queue q;
	struct pt_event_hdr h = hdr(0, 1000);
	static uint8_t data[1000];

	(void)state;
	assert_int_equal(queue__init(&q, 4096, queue__record_size(100)), 0);
	assert_int_equal(queue__push(&q, &h, data), -EMSGSIZE);
	queue__fini(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_capacity_and_wrap),
		cmocka_unit_test(test_too_big),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
