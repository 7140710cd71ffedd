// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Signal masks as the ptbpf command prints them (rt_sigreturn's): the
 * strings are strace 6.1's for the same masks (rt_sigprocmask's arguments
 * when python3 blocks them), the kernel's signal numbers throughout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "view/view.h"

static uint64_t sigs(const int *s, size_t n)
{
	uint64_t m = 0;

	for (size_t i = 0; i < n; i++)
		m |= 1ULL << (s[i] - 1);
	return m;
}

static void expect(uint64_t mask, const char *want)
{
	struct sbuf b = { 0 };

	sb_reset(&b);
	decode_sigset(&b, mask);
	sb_putc(&b, '\0');
	assert_false(b.failed);
	assert_string_equal(b.s, want);
	sb_free(&b);
}

static void test_sigset(void **state)
{
	static const int few[] = { 10, 34, 35, 64 };
	uint64_t most = 0;

	(void)state;
	expect(0, "[]");
	expect(sigs(few, 4), "[USR1 RT_2 RT_3 RT_32]");
	/* more than half set: the complement after '~' */
	for (int s = 1; s < 60; s++)
		if (s != 32 && s != 33)
			most |= 1ULL << (s - 1);
	expect(most, "~[RTMIN RT_1 RT_28 RT_29 RT_30 RT_31 RT_32]");
	expect(~0ULL, "~[]");
	/* bash's SIGTSTP mask, strace 6.1: 29 is IO (glibc's name is POLL) */
	static const int bash[] = { 1, 2, 3, 13, 14, 15, 20, 24, 25, 26, 27, 29 };
	expect(sigs(bash, 12), "[HUP INT QUIT PIPE ALRM TERM TSTP XCPU XFSZ VTALRM PROF IO]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
