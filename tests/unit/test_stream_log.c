/*
 * Unit tests: handing a stream's events over to its log (core/stream_log),
 * a swap of the stream's queue while the flusher is idle, a copy while it
 * writes; either way the log gets every event, in the order handed over.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/evtypes.h"
#include "core/queue.h"
#include "core/stream_log.h"
#include "log/log.h"

#define DATA_LEN  24
#define MARKER_ID 0x7fff0000u /* above any seq used */

struct fixture {
	struct pt_attr a;
	struct evtypes types;
	struct pt_queue q;
	struct stream_log *l;
	int fd;
	uint64_t seq; /* id and timestamp of the next event */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	attr__init(&f->a);
	f->a.stream_size = 16384;
	assert_int_equal(evtypes__init(&f->types), 0);
	assert_int_equal(queue__init(&f->q, f->a.stream_size, queue__record_size(DATA_LEN)), 0);
	f->fd = memfd_create("ptbpf-test-stream-log", 0);
	assert_true(f->fd >= 0);
	assert_int_equal(
		stream_log__open(&f->l, f->fd, &f->a, POSIX_TRACE_FLUSH, &f->types, &f->q, NULL),
		0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	queue__fini(&f->q);
	evtypes__fini(&f->types);
	close(f->fd);
	free(f);
	return 0;
}

/* Fill the stream's queue with n events; each one's data repeats its seq. */
static void push(struct fixture *f, int n)
{
	unsigned char data[DATA_LEN];

	while (n--) {
		struct pt_event_hdr h = { .id = (uint32_t)f->seq,
					  .ts = f->seq,
					  .pid = 1,
					  .tid = 1,
					  .data_len = DATA_LEN };

		memset(data, (int)(f->seq & 0xff), sizeof(data));
		assert_int_equal(queue__push(&f->q, &h, data), 0);
		f->seq++;
	}
}

static void marker(struct fixture *f)
{
	struct pt_event_hdr h = { .id = MARKER_ID, .ts = f->seq };

	stream_log__add(f->l, &h, NULL);
}

/* Close the log, then check it holds events 0..seq-1 in order, with
 * nmarkers markers among them (each before the event stamped as it). */
static void close_and_check(struct fixture *f, int nmarkers)
{
	struct posix_trace_status_info st = { 0 };
	struct ptbpf_counters cnt = { 0 };
	struct stream_log_final fin = {
		.q = &f->q, .types = &f->types, .status = &st, .cnt = &cnt
	};
	struct log_reader *r;
	struct pt_event_hdr h;
	const void *data;
	uint64_t next = 0;
	int markers = 0, err;

	assert_int_equal(stream_log__close(f->l, &fin), 0);
	assert_int_equal(queue__empty(&f->q), true);
	assert_int_equal(log_reader__open(&r, f->fd), 0);
	while ((err = log_reader__next(r, &h, &data)) == 1) {
		if (h.id == MARKER_ID) {
			assert_int_equal(h.ts, next);
			markers++;
			continue;
		}
		assert_int_equal(h.id, next);
		assert_int_equal(h.ts, next);
		assert_int_equal(h.data_len, DATA_LEN);
		assert_int_equal(((const unsigned char *)data)[0], next & 0xff);
		assert_int_equal(((const unsigned char *)data)[DATA_LEN - 1], next & 0xff);
		next++;
	}
	assert_int_equal(err, 0);
	assert_int_equal(next, f->seq);
	assert_int_equal(markers, nmarkers);
	log_reader__close(r);
}

/* An idle flusher: the queue itself is handed over (its buffer goes to the
 * log, the stream goes on with the log's spare), then comes back. */
static void test_swap(void **state)
{
	struct fixture *f = *state;
	uint8_t *mine = f->q.buf, *spare, *now;

	push(f, 100);
	assert_int_equal(stream_log__flush_queue(f->l, &f->q, UINT64_MAX, NULL), 0);
	assert_true(queue__empty(&f->q));
	assert_ptr_not_equal(f->q.buf, mine);
	spare = f->q.buf;
	stream_log__wait_idle(f->l);
	assert_false(stream_log__flushing(f->l));
	/* written, and the first buffer is the spare now; a marker handed
	 * over after a queue is written after it */
	push(f, 50);
	assert_int_equal(stream_log__flush_queue(f->l, &f->q, UINT64_MAX, NULL), 0);
	marker(f);
	push(f, 50);
	assert_int_equal(stream_log__flush_queue(f->l, &f->q, UINT64_MAX, NULL), 0);
	/* copied while the flusher wrote (kept its buffer), or swapped if it
	 * had already finished: either way one of the two */
	now = f->q.buf;
	assert_true(now == mine || now == spare);
	stream_log__wait_idle(f->l);
	push(f, 30);
	assert_int_equal(stream_log__flush_queue(f->l, &f->q, UINT64_MAX, NULL), 0);
	/* an idle flusher: swapped for the other one, back from the log */
	assert_ptr_equal(f->q.buf, now == mine ? spare : mine);
	close_and_check(f, 1);
}

/* Handovers as fast as they come, with markers between them: some swap,
 * some copy (the flusher still writes), the order is kept throughout. */
static void test_order(void **state)
{
	struct fixture *f = *state;
	int i;

	for (i = 0; i < 2000; i++) {
		push(f, 1 + i % 97);
		assert_int_equal(stream_log__flush_queue(f->l, &f->q, UINT64_MAX, NULL), 0);
		if (i % 3 == 0)
			marker(f);
	}
	push(f, 10); /* left for the close to hand over */
	close_and_check(f, 667);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_swap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
