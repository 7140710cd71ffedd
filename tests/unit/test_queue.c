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

/* A walk (queue__next) sees every record, oldest first, the oldest being
 * number first, and changes nothing. */
static void check_walk(const struct pt_queue *q, uint64_t first)
{
	struct queue_iter it = { 0 };
	const struct pt_event_hdr *h;
	size_t n = 0, count = q->count;

	while ((h = queue__next(q, &it))) {
		const uint8_t *d = queue__data(h);

		assert_int_equal(h->ts, first + n);
		if (h->data_len)
			assert_int_equal(d[h->data_len - 1], (first + n) & 0xff);
		n++;
	}
	assert_int_equal(n, count);
	assert_int_equal(q->count, count);
	assert_null(queue__next(q, &it));
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
		if (round % 7 == 0)
			check_walk(&q, popped);
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

static void collect(void *ctx, const struct pt_event_hdr *h, const void *data)
{
	uint64_t *next = ctx;
	const uint8_t *d = data;

	assert_int_equal(h->ts, *next);
	if (h->data_len)
		assert_int_equal(d[0], h->ts & 0xff);
	(*next)++;
}

/* Taking back the newest records, wrapped or not, leaves a consistent ring. */
static void test_take_newer(void **state)
{
	struct pt_queue q;
	uint8_t data[200];
	uint64_t pushed = 0, popped = 0, last = 0, next;
	size_t n;
	int round;

	(void)state;
	srand(2);
	assert_int_equal(queue__init(&q, 4096, queue__record_size(200)), 0);
	for (round = 0; round < 3000; round++) {
		uint32_t len = (uint32_t)(rand() % 201);
		struct pt_event_hdr h = hdr(pushed, len);

		memset(data, (int)(pushed & 0xff), len);
		if (queue__push(&q, &h, data) == 0)
			pushed++;
		else if (!queue__empty(&q)) {
			queue__pop(&q);
			popped++;
		}
		if (rand() % 7 == 0 && q.count > 2) {
			/* take back about half of what is held, only the newest, or nothing */
			int how = rand() % 3;
			uint64_t cut = how == 0	  ? popped + q.count / 2
				       : how == 1 ? pushed - 2
						  : pushed;

			if (how == 2) {
				assert_int_equal(queue__take_newer(&q, cut, &last, collect, &next),
						 0);
				assert_int_equal(last, pushed - 1);
				continue;
			}

			next = cut + 1;
			n = queue__take_newer(&q, cut, &last, collect, &next);
			assert_int_equal(next, pushed);
			assert_int_equal(n, pushed - cut - 1);
			assert_int_equal(last, cut);
			assert_int_equal(q.count, cut + 1 - popped);
			pushed = cut + 1;
		}
		/* the oldest is always the next expected */
		if (!queue__empty(&q))
			assert_int_equal(queue__peek(&q)->ts, popped);
	}
	/* all but the oldest */
	assert_false(queue__empty(&q));
	next = popped + 1;
	n = queue__take_newer(&q, popped, &last, collect, &next);
	assert_int_equal(next, pushed);
	assert_int_equal(q.count, 1);
	assert_int_equal(queue__peek(&q)->ts, popped);
	queue__pop(&q);
	assert_true(queue__empty(&q));
	queue__fini(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_capacity_and_wrap),
		cmocka_unit_test(test_too_big),
		cmocka_unit_test(test_take_newer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
