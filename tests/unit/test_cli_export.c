// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptbpf export's pure parts: ClickHouse's answers parsed (a stream's
 * count and max(seq), DESCRIBE TABLE, error messages), the table's
 * check, names and SQL strings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "export/export.h"

static void test_state(void **state)
{
	uint64_t c = 9, m = 9;

	(void)state;
	assert_int_equal(ch_parse_state("370\t369\n", 8, &c, &m), 0);
	assert_int_equal(c, 370);
	assert_int_equal(m, 369);
	assert_int_equal(ch_parse_state("0\t0", 3, &c, &m), 0);
	assert_int_equal(c, 0);
	assert_int_equal(ch_parse_state("", 0, &c, &m), -1);
	assert_int_equal(ch_parse_state("1\t2\nx", 5, &c, &m), -1);
	assert_int_equal(ch_parse_state("1 2\n", 4, &c, &m), -1);
	assert_int_equal(ch_parse_state("99999999999999999999\t1\n", 23, &c, &m), -1);
	/* n bounds it, not a NUL */
	assert_int_equal(ch_parse_state("12\t34\n", 4, &c, &m), 0);
	assert_int_equal(m, 3);
}

static const char desc[] =
	"timestamp\tDateTime\t\t\t\nhost_name\tString\t\t\t\nseq\tUInt64\t\t\t\n";

static void test_describe(void **state)
{
	char t[16];

	(void)state;
	assert_int_equal(ch_describe_type(desc, strlen(desc), "host_name", t, sizeof(t)), 0);
	assert_string_equal(t, "String");
	assert_int_equal(ch_describe_type(desc, strlen(desc), "seq", t, 4), 0);
	assert_string_equal(t, "UIn");
	assert_int_equal(ch_describe_type(desc, strlen(desc), "host", t, sizeof(t)), -1);
	assert_int_equal(ch_describe_type("seq\tUInt64", 10, "seq", t, sizeof(t)), 0);
	assert_string_equal(t, "UInt64");
}

static void test_schema(void **state)
{
	char msg[200];

	(void)state;
	assert_int_equal(ch_schema_check(desc, strlen(desc), "t", msg, sizeof(msg)), -1);
	assert_string_equal(msg, "table t has no column timestamp_ns (UInt64): not ptbpf's");
	assert_int_equal(ch_schema_check("timestamp\tDateTime('UTC')\n", 26, "t", msg, sizeof(msg)),
			 -1);
	assert_string_equal(msg,
			    "table t: column timestamp is DateTime('UTC'), ptbpf writes DateTime");
}

static void test_error(void **state)
{
	static const char e[] = "Code: 60, e.displayText() = DB::Exception: Table default.x "
				"doesn't exist., e.what() = DB::Exception\n";
	char msg[40];

	(void)state;
	assert_int_equal(ch_error_text(e, strlen(e), msg, sizeof(msg)), 60);
	assert_int_equal(strlen(msg), 39);
	assert_int_equal(ch_error_text("a\nb\033\n", 5, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "a b?");
	assert_int_equal(ch_error_text("Code: x", 7, msg, sizeof(msg)), 0);
	assert_true(ch_code_transient(252));
	assert_false(ch_code_transient(60));
}

static void test_names(void **state)
{
	struct sbuf b = { 0 };

	(void)state;
	assert_true(ch_table_ok("ptbpf_events"));
	assert_true(ch_table_ok("db.t1"));
	assert_false(ch_table_ok("1t"));
	assert_false(ch_table_ok("a.b.c"));
	assert_false(ch_table_ok(".a"));
	assert_false(ch_table_ok("a."));
	assert_false(ch_table_ok("x; DROP TABLE y"));
	assert_false(ch_table_ok(""));
	ch_sql_str(&b, "it's a\\b");
	assert_string_equal(b.s, "'it\\'s a\\\\b'");
	sb_reset(&b);
	ch_sql_create(&b, "t");
	assert_non_null(strstr(b.s, "CREATE TABLE IF NOT EXISTS t (timestamp DateTime, "));
	assert_non_null(strstr(b.s, "ORDER BY (host_name, timestamp, stream_id, seq)"));
	sb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state),  cmocka_unit_test(test_describe),
		cmocka_unit_test(test_schema), cmocka_unit_test(test_error),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
