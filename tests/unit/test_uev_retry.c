/*
 * Unit tests: how often a stream looks for the user-event region of a
 * traced process that has none yet (core/stream_uev.c): every 2 ms
 * while a library constructor would create it, then less and less often,
 * never more than the time already waited nor 128 ms apart, until 3 s.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/stream_int.h"

#define MS (NSEC_PER_SEC / 1000)

/* Looks from the exec at t0 until the window closes, as the drain does. */
static unsigned int looks(uint64_t t0, uint64_t *gaps, unsigned int max)
{
	struct uev_src u = { .retry_until = t0 + UEV_RETRY_NS, .retry_gap = UEV_RETRY_EVERY_NS };
	uint64_t now = t0;
	unsigned int n = 0;

	while (now <= u.retry_until) {
		uint64_t gap = uev_src__retry_gap(&u, now);

		if (n < max)
			gaps[n] = gap;
		n++;
		now += gap;
	}
	return n;
}

static void test_schedule(void **state)
{
	uint64_t gaps[200], t0 = 5 * NSEC_PER_SEC, waited = 0;
	unsigned int n = looks(t0, gaps, 200), i;

	(void)state;
	assert_true(n <= 200);
	/* about 40 looks in 3 s, not 1500 */
	assert_in_range(n, 30, 50);
	for (i = 0; i < n; i++) {
		if (waited < UEV_RETRY_FAST_NS)
			assert_int_equal(gaps[i], UEV_RETRY_EVERY_NS);
		else
			assert_true(gaps[i] <= waited && gaps[i] <= UEV_RETRY_GAP_MAX_NS);
		if (i)
			assert_true(gaps[i] >= gaps[i - 1]);
		waited += gaps[i];
	}
	/* the fast looks cover the first 20 ms */
	assert_int_equal(gaps[9], 2 * MS);
	assert_true(gaps[10] > 2 * MS);
	assert_int_equal(gaps[n - 1], UEV_RETRY_GAP_MAX_NS);
}

/* The schedule depends only on the time since the exec (the window and
 * the gap are set again at each exec, see stream__uev_add). */
static void test_restart(void **state)
{
	uint64_t a[200], b[200];
	unsigned int na = looks(NSEC_PER_SEC, a, 200), nb = looks(100 * NSEC_PER_SEC, b, 200);

	(void)state;
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na * sizeof(a[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_restart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
