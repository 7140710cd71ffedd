/* Unit tests: trace stream attributes (posix_trace_attr_*). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

static void test_defaults(void **state)
{
	trace_attr_t a;
	int v;
	size_t sz;
	char name[TRACE_NAME_MAX];
	struct timespec ts;
	unsigned int arch;

	(void)state;
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(posix_trace_attr_getinherited(&a, &v), 0);
	assert_int_equal(v, POSIX_TRACE_CLOSE_FOR_CHILD);
	assert_int_equal(posix_trace_attr_getstreamfullpolicy(&a, &v), 0);
	assert_int_equal(v, POSIX_TRACE_LOOP);
	assert_int_equal(posix_trace_attr_getlogfullpolicy(&a, &v), 0);
	assert_int_equal(v, POSIX_TRACE_LOOP);
	assert_int_equal(posix_trace_attr_getstreamsize(&a, &sz), 0);
	assert_int_equal(sz, 4u << 20);
	assert_int_equal(posix_trace_attr_getmaxdatasize(&a, &sz), 0);
	assert_int_equal(sz, 1024);
	assert_int_equal(posix_trace_attr_getname(&a, name), 0);
	assert_string_equal(name, "");
	assert_int_equal(posix_trace_attr_getgenversion(&a, name), 0);
	assert_non_null(strstr(name, "ptbpf"));
	assert_int_equal(posix_trace_attr_getclockres(&a, &ts), 0);
	assert_true(ts.tv_sec == 0 && ts.tv_nsec >= 1);
	assert_int_equal(posix_trace_attr_getcreatetime(&a, &ts), 0);
	/* the build's architecture */
	assert_int_equal(ptbpf_trace_attr_getarch(&a, &arch), 0);
#if defined(__aarch64__)
	assert_int_equal(arch, PTBPF_ARCH_AARCH64);
#else
	assert_int_equal(arch, PTBPF_ARCH_X86_64);
#endif
	assert_int_equal(ptbpf_trace_attr_getarch(&a, NULL), EINVAL);
	assert_int_equal(posix_trace_attr_destroy(&a), 0);
	assert_int_equal(ptbpf_trace_attr_getarch(&a, &arch), EINVAL);
}

static void test_set_get(void **state)
{
	trace_attr_t a;
	int v;
	size_t sz, sz2;
	char name[TRACE_NAME_MAX];
	char longname[200];

	(void)state;
	posix_trace_attr_init(&a);
	assert_int_equal(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED), 0);
	assert_int_equal(posix_trace_attr_getinherited(&a, &v), 0);
	assert_int_equal(v, POSIX_TRACE_INHERITED);
	assert_int_equal(posix_trace_attr_setinherited(&a, 42), EINVAL);
	assert_int_equal(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_UNTIL_FULL), 0);
	assert_int_equal(posix_trace_attr_getstreamfullpolicy(&a, &v), 0);
	assert_int_equal(v, POSIX_TRACE_UNTIL_FULL);
	assert_int_equal(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_APPEND), EINVAL);
	assert_int_equal(posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND), 0);
	assert_int_equal(posix_trace_attr_getlogfullpolicy(&a, &v), 0);
	assert_int_equal(v, POSIX_TRACE_APPEND);
	assert_int_equal(posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_FLUSH), EINVAL);
	assert_int_equal(posix_trace_attr_setstreamsize(&a, 65536), 0);
	assert_int_equal(posix_trace_attr_getstreamsize(&a, &sz), 0);
	assert_int_equal(sz, 65536);
	assert_int_equal(posix_trace_attr_setstreamsize(&a, 1), 0);
	assert_int_equal(posix_trace_attr_getstreamsize(&a, &sz), 0);
	assert_int_equal(sz, 4096); /* the documented minimum */
	assert_int_equal(posix_trace_attr_setlogsize(&a, 1 << 20), 0);
	assert_int_equal(posix_trace_attr_getlogsize(&a, &sz), 0);
	assert_int_equal(sz, 1 << 20);
	assert_int_equal(posix_trace_attr_setmaxdatasize(&a, 100), 0);
	assert_int_equal(posix_trace_attr_getmaxdatasize(&a, &sz), 0);
	assert_int_equal(sz, 100);
	/* user event size grows with data up to max-data-size only */
	assert_int_equal(posix_trace_attr_getmaxusereventsize(&a, 10, &sz), 0);
	assert_int_equal(posix_trace_attr_getmaxusereventsize(&a, 100, &sz2), 0);
	assert_true(sz2 > sz);
	assert_int_equal(posix_trace_attr_getmaxusereventsize(&a, 5000, &sz), 0);
	assert_int_equal(sz, sz2);
	assert_int_equal(posix_trace_attr_getmaxsystemeventsize(&a, &sz), 0);
	assert_true(sz >= 2 * sizeof(trace_event_set_t));
	assert_int_equal(posix_trace_attr_setname(&a, "mytrace"), 0);
	assert_int_equal(posix_trace_attr_getname(&a, name), 0);
	assert_string_equal(name, "mytrace");
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	assert_int_equal(posix_trace_attr_setname(&a, longname), 0);
	assert_int_equal(posix_trace_attr_getname(&a, name), 0);
	assert_int_equal(strlen(name), TRACE_NAME_MAX - 1);
}

static void test_invalid(void **state)
{
	trace_attr_t a;
	int v;
	size_t sz;

	(void)state;
	memset(&a, 0, sizeof(a)); /* never initialized */
	assert_int_equal(posix_trace_attr_getinherited(&a, &v), EINVAL);
	assert_int_equal(posix_trace_attr_setstreamsize(&a, 4096), EINVAL);
	assert_int_equal(posix_trace_attr_init(NULL), EINVAL);
	posix_trace_attr_init(&a);
	assert_int_equal(posix_trace_attr_getstreamsize(&a, NULL), EINVAL);
	posix_trace_attr_destroy(&a);
	assert_int_equal(posix_trace_attr_getstreamsize(&a, &sz), EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_set_get),
		cmocka_unit_test(test_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
