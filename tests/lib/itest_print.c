/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf_set_print(): libbpf's messages reach the function set, at their
 * levels, and never stderr; with no function set (before any call, and
 * after NULL) a stream's whole life prints nothing on stderr.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"

static unsigned int ncalls[PTBPF_DEBUG + 1];

static int count_print(enum ptbpf_print_level level, const char *fmt, va_list ap)
{
	if (level <= PTBPF_DEBUG && fmt)
		ncalls[level]++;
	return 0;
}

/* A stream created, started, given a syscall and shut down; 0 or an error. */
static int one_stream(void)
{
	trace_id_t t;
	int err = posix_trace_create(0, NULL, &t);

	if (err)
		return err;
	err = posix_trace_start(t);
	(void)getppid();
	return posix_trace_shutdown(t) ?: err;
}

/* A libbpf warning: opening an object file that is not there. */
static int libbpf_warning(void)
{
	struct bpf_object *o = bpf_object__open_file("/nonexistent/ptbpf-itest.bpf.o", NULL);

	if (!libbpf_get_error(o))
		bpf_object__close(o);
	return 0;
}

/* Runs fn with stderr sent to a memory file; the bytes it wrote there.
 * (Nothing asserted meanwhile: cmocka's own messages go to stderr.) */
static long stderr_of(int (*fn)(void), int *ret)
{
	int saved = dup(STDERR_FILENO), fd = memfd_create("stderr", MFD_CLOEXEC);
	long n;

	assert_true(saved >= 0 && fd >= 0);
	fflush(stderr);
	assert_true(dup2(fd, STDERR_FILENO) >= 0);
	*ret = fn();
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = (long)lseek(fd, 0, SEEK_END);
	close(fd);
	return n;
}

/* Before any call of ptbpf_set_print(): the library prints nothing, and
 * leaves libbpf's print function as it was. */
static void test_silent_by_default(void **state)
{
	libbpf_print_fn_t was = libbpf_set_print(NULL);
	int err;

	libbpf_set_print(was);
	assert_int_equal(stderr_of(one_stream, &err), 0);
	assert_int_equal(err, 0);
	assert_ptr_equal(libbpf_set_print(was), was);
}

/* A function set: libbpf's debug messages of the stream's set-up and its
 * warnings reach it, at their levels; stderr gets none. */
static void test_forwarded(void **state)
{
	int err;

	assert_null(ptbpf_set_print(count_print));
	memset(ncalls, 0, sizeof(ncalls));
	assert_int_equal(stderr_of(one_stream, &err), 0);
	assert_int_equal(err, 0);
	assert_true(ncalls[PTBPF_DEBUG] > 0);
	assert_int_equal(ncalls[PTBPF_WARN], 0);
	memset(ncalls, 0, sizeof(ncalls));
	assert_int_equal(stderr_of(libbpf_warning, &err), 0);
	assert_true(ncalls[PTBPF_WARN] > 0);
}

/* NULL: the messages go nowhere (the function is no longer called). */
static void test_null_silences(void **state)
{
	int err;

	assert_ptr_equal(ptbpf_set_print(NULL), count_print);
	memset(ncalls, 0, sizeof(ncalls));
	assert_int_equal(stderr_of(one_stream, &err), 0);
	assert_int_equal(err, 0);
	assert_int_equal(stderr_of(libbpf_warning, &err), 0);
	assert_int_equal(ncalls[PTBPF_WARN] + ncalls[PTBPF_INFO] + ncalls[PTBPF_DEBUG], 0);
	assert_null(ptbpf_set_print(NULL));
}

int main(void)
{
	/* in this order: the first runs before any ptbpf_set_print() */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_silent_by_default),
		cmocka_unit_test(test_forwarded),
		cmocka_unit_test(test_null_silences),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
