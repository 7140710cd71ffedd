// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ptbpf command's text buffer: integers formatted without printf, and
 * a failed allocation recorded (not fatal) with every later append a no-op.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "view/view.h"

/* realloc as the command calls it (linked with --wrap): fails when told. */
static int fail_realloc;
static unsigned int realloc_calls;

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_realloc(void *p, size_t n)
{
	realloc_calls++;
	if (fail_realloc)
		return NULL;
	return __real_realloc(p, n);
}

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

/* Every kind of append on b (a failed b: none may change it or crash). */
static void append_all(struct sbuf *b)
{
	struct line_prefix p;
	static char big[4096];

	memset(&p, 0, sizeof(p));
	memset(big, 'x', sizeof(big));
	sb_putc(b, 'c');
	sb_putn(b, big, sizeof(big));
	sb_puts(b, "text");
	sb_printf(b, "%s%d", "printf", 42);
	sb_printf(b, "%.*s", (int)sizeof(big), big);
	sb_udec(b, 12345, 8);
	sb_dec(b, -12345);
	sb_xhex(b, 0xdeadbeef);
	sb_quote(b, big, sizeof(big));
	sb_json_str(b, "\"\n\x01", 3);
	sb_hex(b, big, sizeof(big));
	sb_line_prefix(b, &p, 1234567890, 1, 2);
}

/* A growth that fails: what the buffer held stays, later appends do
 * nothing, a reset empties it and it stays failed until sb_free. */
static void test_realloc_fails(void **state)
{
	struct sbuf b = { 0 }, to = { 0 };
	char big[1024];

	memset(big, 'y', sizeof(big));
	sb_puts(&b, "kept");
	assert_false(b.failed);
	fail_realloc = 1;
	/* past the room it has: fails, and what is left fits, but is refused */
	sb_putn(&b, big, sizeof(big));
	assert_true(b.failed);
	append_all(&b);
	assert_int_equal(b.len, 4);
	assert_string_equal(b.s, "kept");
	/* realloc would work again: still no append */
	fail_realloc = 0;
	sb_reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.s, "");
	append_all(&b);
	assert_true(b.failed);
	assert_int_equal(b.len, 0);
	assert_int_not_equal(sb_grow(&b, 0), 0);
	/* what it goes into fails too */
	sb_puts(&to, "to");
	sb_cat(&to, &b);
	assert_true(to.failed);
	assert_string_equal(to.s, "to");
	sb_free(&to);
	sb_free(&b);
	assert_false(b.failed);
	sb_puts(&b, "again");
	assert_string_equal(b.s, "again");
	sb_free(&b);
}

/* The first allocation fails: no text at all (s NULL), nothing crashes. */
static void test_first_alloc_fails(void **state)
{
	struct sbuf b = { 0 }, to = { 0 };

	fail_realloc = 1;
	sb_reset(&b);
	assert_true(b.failed);
	assert_null(b.s);
	append_all(&b);
	sb_truncate(&b, 0);
	assert_null(b.s);
	assert_int_equal(b.len, 0);
	fail_realloc = 0;
	sb_cat(&to, &b);
	assert_true(to.failed);
	sb_free(&to);
	sb_free(&b);
}

/* A size past what doubling can reach fails without asking realloc. */
static void test_huge_append(void **state)
{
	struct sbuf b = { 0 };
	unsigned int calls;

	sb_puts(&b, "kept");
	calls = realloc_calls;
	assert_int_not_equal(sb_grow(&b, SIZE_MAX / 2), 0);
	assert_int_equal(realloc_calls, calls);
	assert_true(b.failed);
	sb_putn(&b, "x", 1);
	assert_string_equal(b.s, "kept");
	sb_free(&b);
}

/* The formatter over buffers that fail, from the start and midway, in
 * both output formats: it says so, and ends without a crash. */
static void test_fmt_fails(void **state)
{
	for (int json = 0; json < 2; json++) {
		for (int after = 0; after < 3; after++) {
			struct ptbpf_ev_sys_enter se;
			struct ptbpf_ev_sys_exit x = { .nr = 0, .ret = 3 };
			struct ptbpf_ev_signal sig = { .signo = 10 };
			struct cli_ev ev;
			struct fmt f;
			char *s = NULL;
			size_t len = 0;
			FILE *out = open_memstream(&s, &len);
			struct fmt_look look;

			assert_non_null(out);
			fmt_look_init(&look);
			look.look = FMT_LOOK_PTBPF; /* every event printed */
			fmt_init(&f, out, json, &look);
			memset(&se, 0, sizeof(se));
			for (int i = 0; i < 4; i++) {
				fail_realloc = i >= after;
				memset(&ev, 0, sizeof(ev));
				ev.info.posix_pid = ev.tid = 100;
				ev.info.posix_event_id = PTBPF_EV_SYS_ENTER(0);
				ev.name = "sys_enter_read";
				ev.sys_off = (uint8_t)sys_name_offset(ev.name);
				ev.desc = sys_desc(ev.name + ev.sys_off);
				ev.data = &se;
				ev.len = sizeof(se);
				fmt_event(&f, &ev);
				ev.info.posix_event_id = PTBPF_EV_SIGNAL_GENERATE;
				ev.name = "signal_generate";
				ev.sys_off = 0;
				ev.desc = NULL;
				ev.data = &sig;
				ev.len = sizeof(sig);
				fmt_event(&f, &ev);
				ev.info.posix_event_id = PTBPF_EV_SYS_EXIT(0);
				ev.name = "sys_exit_read";
				ev.sys_off = (uint8_t)sys_name_offset(ev.name);
				ev.desc = sys_desc(ev.name + ev.sys_off);
				ev.data = &x;
				ev.len = sizeof(x);
				fmt_event(&f, &ev);
			}
			fmt_flush(&f);
			assert_true(fmt_failed(&f));
			fmt_fini(&f);
			fail_realloc = 0;
			fclose(out);
			free(s);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dec_like_printf),
		cmocka_unit_test(test_xhex_like_printf),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_line_prefix),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_realloc_fails),
		cmocka_unit_test(test_first_alloc_fails),
		cmocka_unit_test(test_huge_append),
		cmocka_unit_test(test_fmt_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
