// SPDX-License-Identifier: LGPL-2.1-or-later
/* The ptbpf command's text buffer: integers formatted without printf. */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"

const char *cli_prog = "test_cli_sbuf";

/* What printf makes of the same values. */
static void test_dec_like_printf(void **state)
{
	static const int64_t v[] = { 0, 1, -1, 9, 10, 99, 100, 101, 12345, -12345, INT32_MIN,
				     INT64_MAX, INT64_MIN, 4294967295LL };
	static const uint64_t u[] = { 0, 7, 10, 999999, 1000000, 123456789012345ULL, UINT64_MAX };
	struct sbuf b = { 0 };
	char ref[64];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sb_reset(&b);
		sb_dec(&b, v[i]);
		snprintf(ref, sizeof(ref), "%" PRId64, v[i]);
		assert_string_equal(b.s, ref);
	}
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		for (int w = 0; w <= 20; w++) {
			sb_reset(&b);
			sb_udec(&b, u[i], w);
			snprintf(ref, sizeof(ref), "%0*" PRIu64, w, u[i]);
			assert_string_equal(b.s, ref);
		}
		sb_reset(&b);
		sb_xhex(&b, u[i]);
		snprintf(ref, sizeof(ref), "%#" PRIx64, u[i]);
		assert_string_equal(b.s, ref);
	}
	sb_free(&b);
}

/* Appending grows the buffer and keeps it NUL-terminated. */
static void test_append(void **state)
{
	struct sbuf b = { 0 };
	char ref[8192];
	size_t n = 0;

	sb_reset(&b);
	for (int i = 0; i < 1000; i++) {
		sb_dec(&b, -i);
		sb_putn(&b, "/", 1);
		n += (size_t)snprintf(ref + n, sizeof(ref) - n, "%d/", -i);
	}
	assert_int_equal(b.len, n);
	assert_string_equal(b.s, ref);
	sb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dec_like_printf),
		cmocka_unit_test(test_append),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
