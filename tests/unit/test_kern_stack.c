/* Unit tests: the table that stores each distinct stack of a stream once
 * (backend/kern_stack). */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "backend/kern_stack.h"

static void test_same_stack_one_id(void **state)
{
	uint64_t a[3] = { 0x401000, 0x402000, 0x403000 }, b[3] = { 0x401000, 0x402000, 0x403001 };
	struct kern_stacks *t = kern_stacks__new();
	uint32_t ida, idb, idk;
	bool fresh;

	(void)state;
	assert_non_null(t);
	ida = kern_stacks__id(t, false, a, 3, &fresh);
	assert_int_not_equal(ida, 0);
	assert_true(fresh);
	/* seen again: the same id, nothing to write */
	for (int i = 0; i < 100; i++) {
		assert_int_equal(kern_stacks__id(t, false, a, 3, &fresh), ida);
		assert_false(fresh);
	}
	/* one address differs, a prefix, the other kind: other stacks */
	idb = kern_stacks__id(t, false, b, 3, &fresh);
	assert_true(fresh);
	assert_int_not_equal(idb, ida);
	assert_int_not_equal(kern_stacks__id(t, false, a, 2, &fresh), ida);
	assert_true(fresh);
	idk = kern_stacks__id(t, true, a, 3, &fresh);
	assert_true(fresh);
	assert_int_not_equal(idk, ida);
	assert_int_equal(kern_stacks__id(t, true, a, 3, &fresh), idk);
	assert_false(fresh);
	kern_stacks__free(t);
}

/* Past its bound the table starts over: a stack seen before gets a new id
 * (its stack_trace written again), no id is given twice. */
static void test_bound(void **state)
{
	struct kern_stacks *t = kern_stacks__new();
	uint32_t first, last = 0, id;
	uint64_t ip[1];
	bool fresh;

	(void)state;
	assert_non_null(t);
	ip[0] = 1;
	first = kern_stacks__id(t, false, ip, 1, &fresh);
	for (uint64_t i = 2; i <= 40000; i++) {
		ip[0] = i;
		id = kern_stacks__id(t, false, ip, 1, &fresh);
		assert_true(fresh);
		assert_true(id > last);
		last = id;
	}
	ip[0] = 1;
	id = kern_stacks__id(t, false, ip, 1, &fresh);
	assert_true(fresh);
	assert_int_not_equal(id, first);
	assert_true(id > last);
	kern_stacks__free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_stack_one_id),
		cmocka_unit_test(test_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
