// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A stream's big buffers: their start faulted in at once, the rest by
 * populate__run (where the kernel has MADV_POPULATE_WRITE), no byte changed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/batch.h"
#include "core/populate.h"

#define LEN (16u << 20)

static size_t resident(unsigned char *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = len / page, in = 0;
	unsigned char v[LEN / 4096];

	assert_true(n <= sizeof(v));
	assert_int_equal(mincore(p, len, v), 0);
	for (size_t i = 0; i < n; i++)
		in += v[i] & 1;
	return in * page;
}

static bool can_later(void)
{
#ifdef MADV_POPULATE_WRITE
	unsigned char *p =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool ok = !madvise(p, 4096, MADV_POPULATE_WRITE);

	munmap(p, 4096);
	return ok;
#else
	return false;
#endif
}

static void test_later(void **state)
{
	unsigned char *p =
		mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct populate pl = { 0 };
	bool stop = false;

	(void)state;
	assert_true(p != MAP_FAILED);
	populate__add(&pl, p, LEN, POPULATE_EAGER);
	if (!can_later()) {
		/* Linux before 5.14: all of it now */
		assert_int_equal(resident(p, LEN), LEN);
		assert_int_equal(pl.n, 0);
		munmap(p, LEN);
		return;
	}
	assert_int_equal(pl.n, 1);
	/* the first POPULATE_EAGER bytes, and the page that asked the kernel */
	assert_true(resident(p, LEN) >= POPULATE_EAGER);
	assert_true(resident(p, LEN) <= POPULATE_EAGER + 4096);
	/* in use meanwhile: the bytes written stay */
	p[LEN - 1] = 0x5a;
	p[5u << 20] = 0xa5;
	stop = true;
	populate__run(&pl, &stop);
	assert_int_equal(pl.n, 1);
	stop = false;
	populate__run(&pl, &stop);
	assert_int_equal(pl.n, 0);
	assert_int_equal(resident(p, LEN), LEN);
	assert_int_equal(p[LEN - 1], 0x5a);
	assert_int_equal(p[5u << 20], 0xa5);
	munmap(p, LEN);
}

static void test_no_list(void **state)
{
	unsigned char *p =
		mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)state;
	assert_true(p != MAP_FAILED);
	populate__add(NULL, p, LEN, POPULATE_EAGER);
	assert_int_equal(resident(p, LEN), LEN);
	munmap(p, LEN);
}

/* a buffer no larger than what is faulted in at once: all of it now */
static void test_small(void **state)
{
	unsigned char *p = mmap(NULL, POPULATE_EAGER, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct populate pl = { 0 };

	(void)state;
	populate__add(&pl, p, POPULATE_EAGER, POPULATE_EAGER);
	assert_int_equal(pl.n, 0);
	assert_int_equal(resident(p, POPULATE_EAGER), POPULATE_EAGER);
	munmap(p, POPULATE_EAGER);
}

/* a log's handover buffer: usable at once, faulted in later */
static void test_batch(void **state)
{
	struct populate pl = { 0 };
	struct pt_event_hdr h = { .id = 7, .ts = 1, .data_len = 4 };
	struct batch b;
	bool stop = false;

	(void)state;
	assert_int_equal(batch__init(&b), 0);
	assert_int_equal(batch__prealloc_deferred(&b, LEN, LEN / 64, &pl), 0);
	assert_true(b.cap >= LEN);
	if (can_later())
		assert_true(resident(b.buf, LEN) < LEN / 2);
	assert_int_equal(batch__add(&b, &h, "abcd"), 0);
	populate__run(&pl, &stop);
	assert_int_equal(resident(b.buf, LEN), LEN);
	assert_int_equal(b.n, 1);
	assert_memory_equal(batch__data(&b, 0), "abcd", 4);
	batch__fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_later),
		cmocka_unit_test(test_no_list),
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
