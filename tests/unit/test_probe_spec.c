/* Probe specs: the parser, the event type names, stapsdt note descriptors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "backend/probe_elf.h"
#include "core/probe_spec.h"

static void test_parse(void **state)
{
	struct ptbpf_probe_spec p;

	(void)state;
	assert_int_equal(probe_spec__parse("uprobe:libc:malloc", &p), 0);
	assert_int_equal(p.kind, PTBPF_PROBE_UPROBE);
	assert_string_equal(p.path, "libc");
	assert_string_equal(p.name, "malloc");
	assert_int_equal(p.ntypes, 0);
	assert_int_equal(probe_spec__parse("uprobe:/bin/x:f+0x10:str,int,uint,hex", &p), 0);
	assert_string_equal(p.path, "/bin/x");
	assert_string_equal(p.name, "f");
	assert_int_equal(p.offset, 0x10);
	assert_int_equal(p.ntypes, 4);
	assert_int_equal(p.types[0], PTBPF_PROBE_ARG_STR);
	assert_int_equal(p.types[3], PTBPF_PROBE_ARG_HEX);
	assert_int_equal(probe_spec__str_mask(&p), 1);
	assert_int_equal(probe_spec__parse("uretprobe:libc:strdup:str", &p), 0);
	assert_int_equal(p.kind, PTBPF_PROBE_URETPROBE);
	assert_int_equal(probe_spec__parse(
				 "usdt:/usr/bin/python3.11:python:function__entry:str,str,int", &p),
			 0);
	assert_int_equal(p.kind, PTBPF_PROBE_USDT);
	assert_string_equal(p.provider, "python");
	assert_string_equal(p.name, "function__entry");
	assert_int_equal(probe_spec__str_mask(&p), 3);
	assert_int_equal(probe_spec__parse("usdt:python3:gc__start", &p), 0);
	assert_string_equal(p.provider, "");
	assert_string_equal(p.name, "gc__start");
	assert_int_equal(probe_spec__parse("usdt:/bin/x", &p), 0);
	assert_string_equal(p.name, "");
	assert_int_equal(probe_spec__parse("uprobe:libc", &p), 0);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"uprobe",
		"uprobe:",
		"kprobe:libc:f",
		"uprobe::f",
		"uprobe:libc:",
		"uprobe:libc:f:",
		"uprobe:libc:f:blob",
		"uprobe:libc:f:int,",
		"uprobe:libc:f:,int",
		"uprobe:libc:f:int,int,int,int,int,int,int",
		"uretprobe:libc:f:int,int",
		"uretprobe:libc:f+4",
		"uprobe:libc:f+",
		"uprobe:libc:f+x",
		"uprobe:libc:f+-1",
		"uprobe:a:b:int:d",
		"usdt:a:b:c:int:e",
		"usdt:a:b:c:blob",
		"uprobe:libc:f+99999999999999999999999",
	};
	struct ptbpf_probe_spec p;
	char longname[400];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (probe_spec__parse(bad[i], &p) != -EINVAL)
			fail_msg("accepted '%s'", bad[i]);
	}
	memset(longname, 'a', sizeof(longname));
	memcpy(longname, "uprobe:x:", 9);
	longname[sizeof(longname) - 1] = 0;
	assert_int_equal(probe_spec__parse(longname, &p), -EINVAL);
}

static void test_type_name(void **state)
{
	struct ptbpf_probe_spec p;
	char name[TRACE_EVENT_NAME_MAX];

	(void)state;
	assert_int_equal(probe_spec__parse("uprobe:/usr/lib/libc.so.6:mall*:hex", &p), 0);
	assert_int_equal(probe_spec__type_name(&p, "", "malloc", name), 0);
	assert_string_equal(name, "uprobe:libc.so.6:malloc:hex");
	assert_int_equal(probe_spec__parse("uprobe:libc:f+16", &p), 0);
	assert_int_equal(probe_spec__type_name(&p, "", "f", name), 0);
	assert_string_equal(name, "uprobe:libc:f+0x10");
	/* the name parses back to the same probe */
	assert_int_equal(probe_spec__parse(name, &p), 0);
	assert_int_equal(p.offset, 16);
	assert_int_equal(probe_spec__parse("usdt:/x/python3.11:*:function__entry:str,str,int", &p),
			 0);
	assert_int_equal(probe_spec__type_name(&p, "python", "function__entry", name), 0);
	assert_string_equal(name, "usdt:python3.11:python:function__entry:str,str,int");
	assert_int_equal(probe_spec__parse("uprobe:libc:f", &p), 0);
	assert_int_equal(probe_spec__type_name(
				 &p, "",
				 "a_symbol_name_much_too_long_for_an_event_type_name_of_64_bytes",
				 name),
			 -ENAMETOOLONG);
}

static void test_stapsdt(void **state)
{
	static const char good[] = "0123456701234567012345"
				   "67python\0line\0-4@%rax";
	const char *prov, *name;

	(void)state;
	assert_int_equal(probe_elf__parse_stapsdt(good, sizeof(good), 8, &prov, &name), 0);
	assert_string_equal(prov, "python");
	assert_string_equal(name, "line");
	/* no NUL after the name, a short descriptor, an empty provider, a bad size */
	assert_int_equal(probe_elf__parse_stapsdt(good, 24 + 10, 8, &prov, &name), -EINVAL);
	assert_int_equal(probe_elf__parse_stapsdt(good, 20, 8, &prov, &name), -EINVAL);
	assert_int_equal(
		probe_elf__parse_stapsdt("\0\0\0\0\0\0\0\0\0\0\0\0\0x\0", 15, 4, &prov, &name),
		-EINVAL);
	assert_int_equal(probe_elf__parse_stapsdt(good, sizeof(good), 3, &prov, &name), -EINVAL);
	/* 32-bit addresses: the strings start earlier */
	assert_int_equal(probe_elf__parse_stapsdt(good, sizeof(good), 4, &prov, &name), 0);
	assert_string_equal(name, "line");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_type_name),
		cmocka_unit_test(test_stapsdt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
