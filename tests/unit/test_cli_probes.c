// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The text and JSON of probe events (cli/probes.c): each kind with its
 * types, strings, a truncated string, one that could not be read; payloads
 * of a damaged log (short, counts or lengths past the data) are refused,
 * never read past; the -e tokens that are probes and types.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "view/view.h"
#include "decode/probes.h"

#define FIXED offsetof(struct ptbpf_ev_probe, strs)

static union {
	struct ptbpf_ev_probe e;
	char raw[FIXED + PTBPF_PROBE_STRS_MAX * PTBPF_PROBE_STR_MAX];
} ev;

static void ev_set(int kind, int nargs)
{
	memset(&ev, 0, sizeof(ev));
	ev.e.kind = kind;
	ev.e.nargs = nargs;
}

static size_t ev_str(unsigned int arg, const char *s, size_t len)
{
	size_t off = 0;

	for (unsigned int i = 0; i < ev.e.nstrs; i++)
		off += ev.e.str_len[i];
	ev.e.str_arg[ev.e.nstrs] = arg;
	ev.e.str_len[ev.e.nstrs++] = len;
	memcpy(ev.e.strs + off, s, len);
	return FIXED + off + len;
}

/* The text (or JSON) of the event of type name and len bytes; NULL: refused. */
static char *fmt(const char *name, size_t len, bool text)
{
	static char out[4096];
	struct sbuf b = { 0 };
	int r = probe_fmt(&b, name, &ev, len, text);

	if (r) {
		sb_free(&b);
		return NULL;
	}
	snprintf(out, sizeof(out), "%.*s", (int)b.len, b.s);
	sb_free(&b);
	return out;
}

static void test_text(void **state)
{
	size_t len;

	(void)state;
	ev_set(PTBPF_PROBE_UPROBE, 6);
	ev.e.args[0] = 0x20;
	assert_string_equal(fmt("uprobe:libc:malloc:hex", FIXED, true), "uprobe malloc(0x20)");
	assert_string_equal(fmt("uprobe:libc:malloc", FIXED, true),
			    "uprobe malloc(0x20, 0, 0, 0, 0, 0)");
	assert_string_equal(fmt("uprobe:libc:f+0x10:int", FIXED, true), "uprobe f+0x10(32)");
	ev.e.args[1] = (uint64_t)-5;
	assert_string_equal(fmt("uprobe:libc:f:uint,int", FIXED, true), "uprobe f(32, -5)");
	ev_set(PTBPF_PROBE_URETPROBE, 1);
	ev.e.args[0] = 0x55d0c2a3b2a0;
	assert_string_equal(fmt("uretprobe:libc:malloc", FIXED, true),
			    "uretprobe malloc = 0x55d0c2a3b2a0");
	assert_string_equal(fmt("uretprobe:libc:malloc", FIXED, false), ",\"ret\":94355107066528");
	ev_set(PTBPF_PROBE_USDT, 3);
	ev.e.args[2] = 2;
	ev_str(0, "script.py", 10);
	len = ev_str(1, "fn\"ord", 7);
	assert_string_equal(fmt("usdt:python3.11:python:function__entry:str,str,int", len, true),
			    "usdt python:function__entry(\"script.py\", \"fn\\\"ord\", 2)");
	assert_string_equal(fmt("usdt:python3.11:python:function__entry:str,str,int", len, false),
			    ",\"args\":[\"script.py\",\"fn\\\"ord\",2]");
	/* without types: the note's arguments as int */
	assert_non_null(fmt("usdt:python3.11:python:function__entry", len, true));
	/* a string that could not be read: its pointer */
	ev_set(PTBPF_PROBE_USDT, 1);
	ev.e.args[0] = 0x1234;
	len = ev_str(0, "", 0);
	ev.e.flags = PTBPF_PROBE_STR_FAULT;
	assert_string_equal(fmt("usdt:x:p:n:str", len, true), "usdt p:n(0x1234)");
	/* a truncated one: "..." after it, as strace */
	{
		char s[PTBPF_PROBE_STR_MAX];

		memset(s, 'a', sizeof(s) - 1);
		s[sizeof(s) - 1] = 0;
		ev_set(PTBPF_PROBE_USDT, 1);
		len = ev_str(0, s, sizeof(s));
		ev.e.flags = PTBPF_PROBE_STR_TRUNCATED;
		assert_non_null(strstr(fmt("usdt:x:p:n:str", len, true), "(\"aaaa"));
		assert_non_null(strstr(fmt("usdt:x:p:n:str", len, true), "\"...)"));
	}
}

static void test_damaged(void **state)
{
	(void)state;
	ev_set(PTBPF_PROBE_UPROBE, 6);
	assert_null(fmt("uprobe:libc:malloc", FIXED - 1, true));
	assert_null(fmt("user_event_name", FIXED, true));
	assert_null(fmt("uprobe:libc", FIXED, true));
	/* the type's kind is not the payload's */
	assert_null(fmt("usdt:libc:a:b", FIXED, true));
	ev.e.nargs = PTBPF_PROBE_ARGS_MAX + 1;
	assert_null(fmt("uprobe:libc:malloc", FIXED, true));
	ev_set(PTBPF_PROBE_USDT, 1);
	ev.e.nstrs = PTBPF_PROBE_STRS_MAX + 1;
	assert_null(fmt("usdt:x:p:n:str", FIXED, true));
	ev_set(PTBPF_PROBE_USDT, 1);
	ev_str(0, "abc", 4);
	/* strings past the payload */
	assert_null(fmt("usdt:x:p:n:str", FIXED + 3, true));
	ev.e.str_len[0] = PTBPF_PROBE_STR_MAX + 1;
	assert_null(fmt("usdt:x:p:n:str", sizeof(ev), true));
	ev.e.str_len[0] = 4;
	ev.e.str_arg[0] = PTBPF_PROBE_ARGS_MAX;
	assert_null(fmt("usdt:x:p:n:str", FIXED + 4, true));
	/* a string without its NUL is cut at its length */
	ev_set(PTBPF_PROBE_USDT, 1);
	ev_str(0, "abcd", 2);
	assert_string_equal(fmt("usdt:x:p:n:str", FIXED + 2, true), "usdt p:n(\"ab\")");
}

static void test_tokens(void **state)
{
	(void)state;
	assert_true(probe_is_spec("uprobe:libc:malloc"));
	assert_true(probe_is_spec("uretprobe:x:y"));
	assert_true(probe_is_spec("usdt:x:y:z"));
	assert_false(probe_is_spec("user:x"));
	assert_false(probe_is_spec("openat"));
	assert_true(probe_is_type("str"));
	assert_true(probe_is_type("hex"));
	assert_false(probe_is_type("openat"));
}

/* -e: a probe's types go on past the commas; the rest stays a selection. */
static void test_evsel(void **state)
{
	struct evsel s;

	(void)state;
	assert_int_equal(evsel_parse(&s, "openat,usdt:/x:p:n:str,str,int,write,!uprobe:libc:f"), 0);
	assert_int_equal(s.n, 6); /* a syscall name: its entry and exit */
	assert_int_equal(s.ops[2].kind, EVSEL_PROBE);
	assert_string_equal(s.ops[2].probe, "usdt:/x:p:n:str,str,int");
	assert_int_equal(s.ops[5].kind, EVSEL_PROBE);
	assert_int_equal(s.ops[5].add, 0);
	assert_string_equal(s.ops[5].probe, "uprobe:libc:f");
	evsel_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_evsel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
