/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rings' prefault against the real kernel: however many steps it had
 * time for, a ring ends its first lap (the traced processes start at the
 * pages it wrote) and holds no record, its consumer at its producer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/ring_prefault.h"
#include "itest.h"

#define NRINGS 2

struct rings {
	int outer;
	int fds[NRINGS];
};

static void rings_new(struct rings *r, size_t size)
{
	int tmpl = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "t_tmpl", 0, 0, 4096, NULL);
	LIBBPF_OPTS(bpf_map_create_opts, mo, .inner_map_fd = tmpl);

	assert_true(tmpl >= 0);
	r->outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "t_rings", sizeof(__u32),
				  sizeof(__u32), NRINGS, &mo);
	assert_true(r->outer >= 0);
	close(tmpl);
	for (__u32 i = 0; i < NRINGS; i++) {
		r->fds[i] = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "t_ring", 0, 0, (__u32)size, NULL);
		assert_true(r->fds[i] >= 0);
		assert_int_equal(bpf_map_update_elem(r->outer, &i, &r->fds[i], BPF_ANY), 0);
	}
}

static void rings_free(struct rings *r)
{
	for (int i = 0; i < NRINGS; i++)
		close(r->fds[i]);
	close(r->outer);
}

/* The ring's consumer and producer positions. */
static void ring_positions(int fd, unsigned long *cons, unsigned long *prod)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long *c = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	unsigned long *p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, (off_t)page);

	assert_true(c != MAP_FAILED && p != MAP_FAILED);
	*cons = *c;
	*prod = *p;
	munmap(c, page);
	munmap(p, page);
}

/* steps < 0: all of them; then every ring must be at expect_pos. */
static void check(size_t size, int steps, unsigned long expect_pos, int expect_steps)
{
	struct ring_prefault *p = NULL;
	struct rings r;
	int done = 0;

	rings_new(&r, size);
	assert_int_equal(ring_prefault__open(&p, r.outer, r.fds, NRINGS, size), 0);
	while ((steps < 0 || done < steps) && ring_prefault__step(p))
		done++;
	if (steps < 0)
		assert_int_equal(done + 1, expect_steps); /* the last returned false */
	ring_prefault__finish(p);
	for (int i = 0; i < NRINGS; i++) {
		unsigned long cons, prod;

		ring_positions(r.fds[i], &cons, &prod);
		assert_int_equal(prod, expect_pos);
		assert_int_equal(cons, prod);
	}
	rings_free(&r);
}

/* Every page written: a lap of page records, 1 MiB of a ring a step. */
static void test_all_steps(void **state)
{
	(void)state;
	check(4u << 20, -1, 4u << 20, 4 * NRINGS);
}

/* Stopped early (the rings at different points): the rest of the lap in 1 MiB records. */
static void test_stopped(void **state)
{
	(void)state;
	check(4u << 20, 3, 4u << 20, 0);
	check(4u << 20, 0, 4u << 20, 0);
}

/* A ring under a MiB is done in one step, or not at all. */
static void test_small_ring(void **state)
{
	(void)state;
	check(256u << 10, -1, 256u << 10, NRINGS);
	check(256u << 10, 0, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_steps),
		cmocka_unit_test(test_stopped),
		cmocka_unit_test(test_small_ring),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
