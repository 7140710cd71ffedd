// SPDX-License-Identifier: LGPL-2.1-or-later
/* The ptbpf command's text buffer: integers formatted without printf. */
#include <inttypes.h>
#include <limits.h>
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
	static const int64_t v[] = { 0,		1,	   -1,	      9,	   10,
				     99,	100,	   101,	      12345,	   -12345,
				     INT32_MIN, INT64_MAX, INT64_MIN, 4294967295LL };
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

/* Hex of every length, odd and even, appended after other text. */
static void test_xhex_like_printf(void **state)
{
	struct sbuf b = { 0 };
	char ref[64];
	int k;

	for (k = 0; k < 64; k++) {
		const uint64_t one = 1ULL << k;
		const uint64_t v[] = { one, one - 1, one | 0x0123456789abcdefULL >> (63 - k),
				       ~0ULL >> (63 - k) };

		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			sb_reset(&b);
			sb_putn(&b, "p=", 2);
			sb_xhex(&b, v[i]);
			snprintf(ref, sizeof(ref), "p=%#" PRIx64, v[i]);
			assert_string_equal(b.s, ref);
			assert_int_equal(b.len, strlen(ref));
		}
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

/* Line prefixes, with the cached second and ids, as printf makes them. */
static void test_line_prefix(void **state)
{
	static const int64_t ts[] = { 0,
				      999,
				      1000,
				      999999999,
				      1000000000,
				      1000000001,
				      1234567890123,
				      -1,
				      -1000,
				      -999999999,
				      -1000000000,
				      -3500000000,
				      86400000000000LL,
				      INT64_MAX,
				      INT64_MIN + 1 };
	static const pid_t ids[][2] = { { 0, 0 },   { 1, 1 },	       { 42, 43 },
					{ 42, 44 }, { 99999, 100000 }, { 4194304, 4194303 },
					{ -1, 7 },  { 42, 43 },	       { 5, 5 },
					{ 6, 5 },   { 3, -2 },	       { INT_MIN, INT_MAX } };
	struct line_prefix p;
	struct sbuf b = { 0 };
	char ref[128];

	memset(&p, 0, sizeof(p));
	/* every pair of values, in two orders, so that the caches both hit
	 * and get replaced */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
			for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
				size_t j = pass ? sizeof(ts) / sizeof(ts[0]) - 1 - i : i;
				int64_t t = ts[j];
				uint64_t u = t < 0 ? -(uint64_t)t : (uint64_t)t;

				sb_reset(&b);
				sb_putn(&b, "x", 1);
				sb_line_prefix(&b, &p, t, ids[k][0], ids[k][1]);
				snprintf(ref, sizeof(ref), "x%s%" PRIu64 ".%06" PRIu64 " %d/%d ",
					 t < 0 ? "-" : "", u / 1000000000u, u % 1000000000u / 1000u,
					 (int)ids[k][0], (int)ids[k][1]);
				assert_string_equal(b.s, ref);
				assert_int_equal(b.len, strlen(ref));
			}
		}
	}
	sb_free(&b);
}

/* Quoting: every byte value, as the printf-based escaping made it, and a
 * buffer grown from empty by the worst case (all bytes escaped). */
static void test_quote(void **state)
{
	struct sbuf b = { 0 };
	char in[256], ref[4 * 256 + 3], *o = ref;

	for (int i = 0; i < 256; i++) {
		unsigned char c = (unsigned char)i;

		in[i] = (char)c;
		switch (c) {
		case '"':
			o += sprintf(o, "\\\"");
			break;
		case '\\':
			o += sprintf(o, "\\\\");
			break;
		case '\n':
			o += sprintf(o, "\\n");
			break;
		case '\t':
			o += sprintf(o, "\\t");
			break;
		case '\r':
			o += sprintf(o, "\\r");
			break;
		case '\v':
			o += sprintf(o, "\\v");
			break;
		case '\f':
			o += sprintf(o, "\\f");
			break;
		default:
			if (c < 0x20 || c >= 0x7f)
				o += sprintf(o, "\\x%02x", c);
			else
				*o++ = (char)c;
		}
	}
	*o = '\0';
	sb_quote(&b, in, sizeof(in));
	assert_int_equal(b.len, strlen(ref) + 2);
	assert_true(b.s[0] == '"' && b.s[b.len - 1] == '"' && b.s[b.len] == '\0');
	assert_memory_equal(b.s + 1, ref, strlen(ref));
	sb_reset(&b);
	sb_quote(&b, "", 0);
	assert_string_equal(b.s, "\"\"");
	sb_quote(&b, "\x01\x01", 2);
	assert_string_equal(b.s, "\"\"\"\\x01\\x01\"");
	sb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dec_like_printf), cmocka_unit_test(test_xhex_like_printf),
		cmocka_unit_test(test_append),		cmocka_unit_test(test_line_prefix),
		cmocka_unit_test(test_quote),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
