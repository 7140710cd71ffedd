// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The flag and value tables generated from xlat/NAME.in (their values are
 * checked against the system headers when they compile): every table
 * walked for names that are unique and well formed, and every printer
 * column of schema/syscalls.def naming a table of the right kind.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "view/view.h"
#include "decode/scalar.h"
#include "xlat_tables.h"

/* a C name ("O_CREAT"), or strace's names of one ioctl number ("A or B") */
static int well_formed(const char *n)
{
	const char * or = strstr(n, " or ");

	if (or)
		return well_formed(or +4) && or > n;
	if (!*n || isdigit((unsigned char)*n))
		return 0;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && *n != '_')
			return 0;
	return 1;
}

static void test_tables(void **state)
{
	size_t rows = 0;

	assert_null(xlat_by_id[XL_]);
	for (int id = 1; id < XL_COUNT; id++) {
		const struct xlat *x = xlat_by_id[id];

		assert_non_null(x);
		assert_true(x->n > 0);
		assert_true(well_formed(x->name));
		for (size_t i = 0; i < x->n; i++) {
			if (!well_formed(x->f[i].n))
				fail_msg("xlat/%s.in: %s", x->name, x->f[i].n);
			for (size_t j = 0; j < i; j++)
				if (!strcmp(x->f[i].n, x->f[j].n))
					fail_msg("xlat/%s.in: %s twice", x->name, x->f[i].n);
		}
		/* a default names what the table's names look like: "O_???" */
		if (x->dflt && !strstr(x->dflt, "?"))
			fail_msg("xlat/%s.in: #default %s", x->name, x->dflt);
		rows += x->n;
	}
	assert_true(rows > 1000);
}

static const char *const sys_names[] = {
#define SYSCALL(name, nr, nr_arm64, nargs, printed, ret, form, classes) #name,
#define ARG(...)
#define CAP(...)
#define END
#define PATHTRACE(fds, paths)
#define FDOP(op, flags_arg)
#include "syscalls.def"
};

static void test_schema_tables(void **state)
{
	int used[XL_COUNT] = { 0 };

	for (size_t s = 0; s < sizeof(sys_names) / sizeof(sys_names[0]); s++) {
		const struct sysdesc *d = sys_desc(sys_names[s]);

		for (int i = 0; d && i < 6; i++) {
			int t = d->a[i].type, x = d->a[i].xlat;
			int table_type =
				t == A_XVAL || t == A_XVAL32 || t == A_FLAGS || t == A_FLAGS32;

			if (table_type != (x != XL_))
				fail_msg("%s: argument %d: type %d, table %d", sys_names[s], i, t,
					 x);
			used[x]++;
		}
	}
	assert_true(used[XL_open_mode_flags] > 0);
	assert_true(used[XL_mmap_prot] >= 2);
}

/* the printers of the table types, as strace 6.1 prints these arguments */
static void expect(int type, int xlat, uint64_t v, const char *want)
{
	struct sbuf b = { 0 };
	uint64_t args[6] = { v };

	sb_reset(&b);
	scalar_arg(&b, type, xlat, args, 0);
	sb_putc(&b, '\0');
	assert_string_equal(b.s, want);
	sb_free(&b);
}

static void test_printers(void **state)
{
	expect(A_FLAGS32, XL_mmap_prot, 0, "PROT_NONE");
	expect(A_FLAGS32, XL_mmap_prot, 0x40, "0x40 /* PROT_??? */");
	expect(A_FLAGS32, XL_mmap_prot, (1ULL << 32) | 3, "PROT_READ|PROT_WRITE");
	expect(A_FLAGS32, XL_access_modes, 0, "F_OK");
	expect(A_FLAGS32, XL_access_modes, 0x14, "R_OK|0x10");
	expect(A_FLAGS32, XL_wait4_options, 0, "0");
	expect(A_FLAGS, XL_mremap_flags, 0x100000001ULL, "MREMAP_MAYMOVE|0x100000000");
	expect(A_XVAL32, XL_whence_codes, 7, "0x7 /* SEEK_??? */");
	expect(A_XVAL32, XL_resources, (1ULL << 32) | 7, "RLIMIT_NOFILE");
	expect(A_XVAL, XL_madvise_cmds, 4, "MADV_DONTNEED");
	expect(A_XVAL, XL_fcntlcmds, 1029, "F_CANCELLK");
	/* the order and names of strace 6.1's tables (its output for these values) */
	expect(A_FLAGS32, XL_wait4_options, 4 | 8, "WEXITED|WCONTINUED");
	expect(A_FLAGS32, XL_wait4_options, 0xe0000001, "WNOHANG|__WCLONE|__WALL|__WNOTHREAD");
	expect(A_FLAGS32, XL_flockcmds, 0xffffffff,
	       "LOCK_SH|LOCK_EX|LOCK_NB|LOCK_UN|LOCK_MAND|LOCK_RW|0xffffff10");
	expect(A_FLAGS, XL_mmap_prot, UINT64_MAX,
	       "PROT_READ|PROT_WRITE|PROT_EXEC|PROT_SEM|PROT_GROWSDOWN|PROT_GROWSUP|"
	       "0xfffffffffcfffff0");
	expect(A_IOCTL, XL_, 0xabcd, "_IOC(_IOC_NONE, 0xab, 0xcd, 0)");
	expect(A_IOCTL, XL_, 0xc008abcd, "_IOC(_IOC_READ|_IOC_WRITE, 0xab, 0xcd, 0x8)");
	expect(A_CLOCKID, XL_, (uint64_t)-6, "0xfffffffa /* CLOCK_??? */");
	expect(A_OFLAGS, XL_, 3 | O_CLOEXEC, "O_ACCMODE|O_CLOEXEC");
	expect(A_XVAL, XL_archvals, 0x1021, "ARCH_GET_XCOMP_SUPP");
	expect(A_XVAL, XL_archvals, 0x3001, "0x3001 /* ARCH_??? */");
	/* a table type without its table: the value in hex */
	expect(A_FLAGS, XL_, 3, "0x3");
}

/* -X raw and verbose, as strace 6.1 -X prints these arguments */
static void test_styles(void **state)
{
	(void)state;
	xlat_set_style(XLAT_VERBOSE);
	expect(A_FLAGS32, XL_mmap_prot, 3, "0x3 /* PROT_READ|PROT_WRITE */");
	expect(A_FLAGS32, XL_mmap_prot, 0, "0 /* PROT_NONE */");
	expect(A_FLAGS32, XL_mmap_prot, 0x40, "0x40 /* PROT_??? */");
	expect(A_FLAGS32, XL_wait4_options, 0, "0");
	expect(A_XVAL, XL_fcntlcmds, 6, "0x6 /* F_SETLK */");
	expect(A_OFLAGS, XL_, O_CLOEXEC, "0x80000 /* O_RDONLY|O_CLOEXEC */");
	expect(A_DIRFD, XL_, (uint64_t)-100, "-100 /* AT_FDCWD */");
	expect(A_DIRFD, XL_, 3, "3");
	expect(A_SIG, XL_, 17, "17 /* SIGCHLD */");
	expect(A_CLOCKID, XL_, 1, "0x1 /* CLOCK_MONOTONIC */");
	/* a socket type and statx's flags: each part on its own, as strace */
	expect(A_SOCKTYPE, XL_, 1 | 0x80000, "0x1 /* SOCK_STREAM */|0x80000 /* SOCK_CLOEXEC */");
	expect(A_STATXFL, XL_, 0x900,
	       "0 /* AT_STATX_SYNC_AS_STAT */|0x900 /* AT_SYMLINK_NOFOLLOW|AT_NO_AUTOMOUNT */");
	xlat_set_style(XLAT_RAW);
	expect(A_SOCKTYPE, XL_, 1 | 0x80000, "0x1|0x80000");
	expect(A_STATXFL, XL_, 0x900, "|0x900");
	expect(A_FLAGS32, XL_mmap_prot, 3, "0x3");
	expect(A_FLAGS32, XL_mmap_prot, 0x40, "0x40");
	expect(A_OFLAGS, XL_, O_CLOEXEC, "0x80000");
	expect(A_DIRFD, XL_, (uint64_t)-100, "-100");
	expect(A_SIG, XL_, 17, "17");
	xlat_set_style(XLAT_ABBREV);
	expect(A_FLAGS32, XL_mmap_prot, 3, "PROT_READ|PROT_WRITE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_schema_tables),
		cmocka_unit_test(test_printers),
		cmocka_unit_test(test_styles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
