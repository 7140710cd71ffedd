/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Syscall names, numbers and path arguments (src/backend/syscalls.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "backend/syscall_caps.h"
#include "backend/syscalls.h"

static void test_names(void **state)
{
	assert_string_equal(syscalls__name(SYS_read), "read");
	assert_string_equal(syscalls__name(0), "read");
	assert_string_equal(syscalls__name(SYS_getppid), "getppid");
	assert_string_equal(syscalls__name(SYS_openat), "openat");
	assert_string_equal(syscalls__name(SYS_exit_group), "exit_group");
	assert_string_equal(syscalls__name(SYS_execve), "execve");
#ifdef __x86_64__
	assert_string_equal(syscalls__name(39), "getpid");
	assert_string_equal(syscalls__name(257), "openat");
	assert_string_equal(syscalls__name(435), "clone3");
	assert_string_equal(syscalls__name(462), "mseal");	 /* newer than the headers */
	assert_string_equal(syscalls__name(335), "syscall_335"); /* a hole */
#endif
#ifdef __aarch64__
	/* the asm-generic table: no open, stat, fork... */
	assert_string_equal(syscalls__name(56), "openat");
	assert_string_equal(syscalls__name(220), "clone");
	assert_string_equal(syscalls__name(2), "io_submit");
	assert_string_equal(syscalls__name(462), "mseal");
	assert_int_equal(syscalls__lookup("open"), -ENOENT);
	assert_int_equal(syscalls__lookup("fork"), -ENOENT);
#endif
	assert_string_equal(syscalls__name(PTBPF_SYSCALL_NR_MAX - 1), "syscall_511");
	assert_null(syscalls__name(-1));
	assert_null(syscalls__name(PTBPF_SYSCALL_NR_MAX));
	/* the same pointer every time: callers may keep it */
	assert_ptr_equal(syscalls__name(500), syscalls__name(500));
}

static void test_known(void **state)
{
	assert_true(syscalls__known(SYS_read));
	assert_true(syscalls__known(SYS_getppid));
	assert_false(syscalls__known(PTBPF_SYSCALL_NR_MAX - 1));
	assert_false(syscalls__known(-1));
	assert_false(syscalls__known(PTBPF_SYSCALL_NR_MAX));
}

static void test_lookup(void **state)
{
	assert_int_equal(syscalls__lookup("read"), SYS_read);
	assert_int_equal(syscalls__lookup("openat"), SYS_openat);
	assert_int_equal(syscalls__lookup("getppid"), SYS_getppid);
	assert_int_equal(syscalls__lookup("syscall_511"), 511);
	assert_int_equal(syscalls__lookup("syscall_0"), 0);
	assert_int_equal(syscalls__lookup("syscall_512"), -ENOENT);
	assert_int_equal(syscalls__lookup("syscall_"), -ENOENT);
	assert_int_equal(syscalls__lookup("syscall_-1"), -ENOENT);
	assert_int_equal(syscalls__lookup("syscall_12x"), -ENOENT);
	assert_int_equal(syscalls__lookup("no_such_call"), -ENOENT);
	assert_int_equal(syscalls__lookup(""), -ENOENT);
	assert_int_equal(syscalls__lookup(NULL), -ENOENT);
	assert_int_equal(syscalls__lookup("open"), syscalls__lookup("open"));
}

/* name -> number -> name is the identity for every number. */
static void test_roundtrip(void **state)
{
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		const char *n = syscalls__name(nr);

		assert_non_null(n);
		assert_int_equal(syscalls__lookup(n), nr);
	}
}

static void expect_paths(const char *name, int a0, int a1)
{
	int nr = syscalls__lookup(name), args[2] = { 9, 9 };
	int want = (a0 >= 0) + (a1 >= 0);

	assert_true(nr >= 0);
	assert_int_equal(syscalls__path_args(nr, args), want);
	assert_int_equal(args[0], a0);
	assert_int_equal(args[1], a1);
}

static void test_path_args(void **state)
{
	int args[2];

	expect_paths("openat", 1, -1);
	expect_paths("openat2", 1, -1);
	expect_paths("execve", 0, -1);
	expect_paths("execveat", 1, -1);
	expect_paths("newfstatat", 1, -1);
	expect_paths("statx", 1, -1);
	expect_paths("unlinkat", 1, -1);
	expect_paths("renameat2", 1, 3);
	expect_paths("linkat", 1, 3);
	expect_paths("symlinkat", 0, 2);
	expect_paths("mount", 0, 1);
	expect_paths("inotify_add_watch", 1, -1);
	expect_paths("fchmodat2", 1, -1);
#ifdef __x86_64__
	expect_paths("open", 0, -1);
	expect_paths("stat", 0, -1);
	expect_paths("rename", 0, 1);
	expect_paths("symlink", 0, 1);
	expect_paths("readlink", 0, -1);
#endif
	expect_paths("getpid", -1, -1);
	expect_paths("read", -1, -1);
	expect_paths("write", -1, -1);
	assert_int_equal(syscalls__path_args(-1, args), 0);
	assert_int_equal(args[0], -1);
	assert_int_equal(syscalls__path_args(PTBPF_SYSCALL_NR_MAX, args), 0);
	/* every entry is an argument index 0-5, path 1 only with path 0 */
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		int n = syscalls__path_args(nr, args);

		assert_true(args[0] >= -1 && args[0] <= 5);
		assert_true(args[1] >= -1 && args[1] <= 5);
		assert_true(args[1] < 0 || args[0] >= 0);
		assert_true(args[0] != args[1] || n == 0);
	}
}

static void expect_nargs(const char *name, int want)
{
	int nr = syscalls__lookup(name);

	assert_true(nr >= 0);
	assert_int_equal(syscalls__nargs(nr), want);
}

static void test_nargs(void **state)
{
	int args[2], unknown = -1;

	expect_nargs("getppid", 0);
	expect_nargs("getpid", 0);
	expect_nargs("close", 1);
	expect_nargs("read", 3);
	expect_nargs("write", 3);
	expect_nargs("openat", 4);
	expect_nargs("newfstatat", 4);
	expect_nargs("clone", 5);
	expect_nargs("mmap", 6);
	expect_nargs("futex", 6);
#ifdef __x86_64__
	expect_nargs("open", 3);
	expect_nargs("stat", 2);
#endif
	/* outside the table, or a number without a name: all six kept */
	assert_int_equal(syscalls__nargs(-1), 6);
	assert_int_equal(syscalls__nargs(PTBPF_SYSCALL_NR_MAX), 6);
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX && unknown < 0; nr++)
		if (!syscalls__known(nr))
			unknown = nr;
	assert_true(unknown >= 0);
	assert_int_equal(syscalls__nargs(unknown), 6);
	/* a path argument is one of the arguments the syscall takes */
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		int n = syscalls__nargs(nr);

		assert_true(n >= 0 && n <= 6);
		syscalls__path_args(nr, args);
		assert_true(args[0] < n && args[1] < n);
	}
}

/* nr's first capture of type, NULL: none. */
static const struct kern_cap_spec *cap_of(struct kern_cap_spec (*specs)[KERN_CAPS], int nr,
					  int type)
{
	for (int k = 0; k < KERN_CAPS; k++)
		if (specs[nr][k].type == type)
			return &specs[nr][k];
	return NULL;
}

/* The captures by the build's numbers, sized by its structs. */
static void test_caps(void **state)
{
	static struct kern_cap_spec specs[PTBPF_SYSCALL_NR_MAX][KERN_CAPS];
	static uint8_t when[PTBPF_SYSCALL_NR_MAX];
	const struct kern_cap_spec *c;

	(void)state;
	assert_true(syscall_caps__table(specs, when) > 50);
	c = cap_of(specs, SYS_fstat, PTBPF_CAP_STAT);
	assert_non_null(c);
	assert_int_equal(c->max, sizeof(struct stat)); /* 144 on x86_64, 128 on arm64 */
	c = cap_of(specs, SYS_newfstatat, PTBPF_CAP_STAT);
	assert_non_null(c);
	assert_int_equal(c->max, sizeof(struct stat));
	c = cap_of(specs, SYS_epoll_pwait, PTBPF_CAP_EPOLL_EVENT);
	assert_non_null(c);
	assert_int_equal(c->max, sizeof(struct epoll_event)); /* 12 (packed), 16 */
	assert_true(when[SYS_fstat] & KERN_CAP_EXIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nargs),	  cmocka_unit_test(test_names),
		cmocka_unit_test(test_known),	  cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_roundtrip), cmocka_unit_test(test_path_args),
		cmocka_unit_test(test_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
