/* Unit tests: event sets (posix_trace_eventset_*). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <trace.h>
#include <ptbpf/events.h>

static int member(trace_event_id_t id, const trace_event_set_t *s)
{
	int m = -1;

	assert_int_equal(posix_trace_eventset_ismember(id, s, &m), 0);
	return m;
}

static void test_add_del(void **state)
{
	trace_event_set_t s;

	(void)state;
	assert_int_equal(posix_trace_eventset_empty(&s), 0);
	assert_int_equal(member(POSIX_TRACE_START, &s), 0);
	assert_int_equal(posix_trace_eventset_add(POSIX_TRACE_START, &s), 0);
	assert_int_equal(posix_trace_eventset_add(PTBPF_EV_SYS_ENTER(257), &s), 0);
	assert_int_equal(member(POSIX_TRACE_START, &s), 1);
	assert_int_equal(member(PTBPF_EV_SYS_ENTER(257), &s), 1);
	assert_int_equal(member(PTBPF_EV_SYS_EXIT(257), &s), 0);
	assert_int_equal(posix_trace_eventset_del(POSIX_TRACE_START, &s), 0);
	assert_int_equal(member(POSIX_TRACE_START, &s), 0);
	assert_int_equal(posix_trace_eventset_add(4096, &s), EINVAL);
	assert_int_equal(posix_trace_eventset_add(0, &s), EINVAL);
	assert_int_equal(posix_trace_eventset_add(1, NULL), EINVAL);
}

static void test_fill(void **state)
{
	trace_event_set_t s;

	(void)state;
	assert_int_equal(posix_trace_eventset_fill(&s, POSIX_TRACE_WOPID_EVENTS), 0);
	assert_int_equal(member(POSIX_TRACE_OVERFLOW, &s), 1);
	assert_int_equal(member(PTBPF_EV_PROC_FORK, &s), 0);
	assert_int_equal(posix_trace_eventset_fill(&s, POSIX_TRACE_SYSTEM_EVENTS), 0);
	assert_int_equal(member(PTBPF_EV_PROC_FORK, &s), 1);
	assert_int_equal(member(PTBPF_EV_SYS_EXIT(0), &s), 1);
	assert_int_equal(member(POSIX_TRACE_UNNAMED_USEREVENT, &s), 0);
	assert_int_equal(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS), 0);
	assert_int_equal(member(POSIX_TRACE_UNNAMED_USEREVENT, &s), 1);
	assert_int_equal(member(PTBPF_EV_USER_BASE + 100, &s), 1);
	assert_int_equal(posix_trace_eventset_fill(&s, 99), EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_del),
		cmocka_unit_test(test_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
