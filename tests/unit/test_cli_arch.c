/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The command by the architecture of the events it reads: arm64's syscall
 * numbers (schema/syscalls.def's column) and classes, arm64's layouts in
 * the decoders (cli/decode/abi.h), and a log written with arm64's
 * architecture read on this host (and one without it, as logs before 3.2
 * are, read as x86_64's).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "decode/abi.h"
#include "decode/caps.h"
#include "decode/scalar.h"
#include "decode/struct.h"
#include "log/log.h"
#include "common/event.h"
#include "view_out.h"

/* arm64's numbers (its <asm/unistd.h>: the asm-generic table) */
#define A64_OPENAT     56
#define A64_CLOSE      57
#define A64_NEWFSTATAT 79
#define A64_CLONE      220
#define A64_IO_SUBMIT  2

static void test_arm64_names(void **state)
{
	static const char *const absent[] = { "open",  "stat",	 "lstat", "fork",      "vfork",
					      "poll",  "select", "pipe",  "dup2",      "access",
					      "mkdir", "rename", "time",  "arch_prctl" };
	int named = 0;

	(void)state;
	assert_string_equal(sysname_of(SC_ARCH_ARM64, A64_OPENAT), "openat");
	assert_string_equal(sysname_of(SC_ARCH_ARM64, A64_NEWFSTATAT), "newfstatat");
	assert_string_equal(sysname_of(SC_ARCH_ARM64, A64_CLONE), "clone");
	assert_string_equal(sysname_of(SC_ARCH_ARM64, A64_IO_SUBMIT), "io_submit");
	assert_string_equal(sysname_of(SC_ARCH_ARM64, 435), "clone3");
	assert_string_equal(sysname_of(SC_ARCH_ARM64, 462), "mseal"); /* newer than the headers */
	assert_string_equal(sysname_of(SC_ARCH_X86_64, 2), "open");
	assert_string_equal(sysname_of(SC_ARCH_X86_64, 257), "openat");
	assert_null(sysname_of(SC_ARCH_ARM64, 244)); /* arch_specific_syscall: no call */
	assert_null(sysname_of(SC_ARCH_ARM64, -1));
	assert_null(sysname_of(SC_ARCH_ARM64, PTBPF_SYSCALL_NR_MAX));
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		const char *n = sysname_of(SC_ARCH_ARM64, nr);

		if (!n)
			continue;
		named++;
		for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
			assert_string_not_equal(n, absent[i]);
	}
	/* 295 calls below the 6.1 headers' 451, and those since */
	assert_true(named > 300);
	assert_true(named < 379);
}

static void test_arm64_classes(void **state)
{
	(void)state;
	assert_true(sysclass_of_arch(SC_ARCH_ARM64, A64_OPENAT) & SC_FILE);
	assert_true(sysclass_of_arch(SC_ARCH_ARM64, A64_OPENAT) & SC_DESC);
	assert_true(sysclass_of_arch(SC_ARCH_ARM64, A64_NEWFSTATAT) & SC_FSTAT);
	assert_true(sysclass_of_arch(SC_ARCH_ARM64, A64_CLONE) & SC_PROCESS);
	assert_int_equal(sysclass_of_arch(SC_ARCH_ARM64, A64_IO_SUBMIT), 0);
	/* x86_64's 56 is clone, 2 open */
	assert_true(sysclass_of_arch(SC_ARCH_X86_64, 56) & SC_PROCESS);
	assert_true(sysclass_of_arch(SC_ARCH_X86_64, 2) & SC_FILE);
	assert_int_equal(sysclass_of_arch(SC_ARCH_X86_64, 257),
			 sysclass_of_arch(SC_ARCH_ARM64, 56));
	assert_int_equal(sysclass_of_arch(SC_ARCH_NATIVE, 3), sysclass_of(3));
	assert_int_equal(sysclass_of_arch(-1, 3), 0);
}

/* A struct stat of arch's layout (abi.h) with the same values on both. */
static void put(unsigned char *p, struct dec_field f, uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	if (f.size == 4)
		memcpy(p + f.off, &v32, 4);
	else
		memcpy(p + f.off, &v, 8);
}

static void stat_bytes(const struct dec_abi *a, unsigned char *p)
{
	memset(p, 0, 144);
	put(p, a->f_st_dev, 0x803);
	put(p, a->f_st_ino, 1234);
	put(p, a->f_st_mode, 0100644);
	put(p, a->f_st_nlink, 3);
	put(p, a->f_st_uid, 1000);
	put(p, a->f_st_gid, 100);
	put(p, a->f_st_size, 4096);
	put(p, a->f_st_blksize, 4096);
	put(p, a->f_st_blocks, 8);
	put(p, a->f_st_atime, 1);
	put(p, a->f_st_mtime, 2);
	put(p, a->f_st_ctime, 3);
}

/* What printer prints with arch's ABI. */
static char *with_abi(int arch, int (*printer)(struct sbuf *, const void *, size_t), const void *p,
		      size_t len)
{
	struct sbuf b = { 0 };
	char *s;

	decode_set_abi(dec_abi(arch));
	assert_int_equal(printer(&b, p, len), 0);
	decode_set_abi(NULL);
	s = strndup(b.s, b.len);
	free(b.s);
	return s;
}

static int stat_verbose(struct sbuf *b, const void *p, size_t len)
{
	return fmt_stat(b, p, len, &(struct decode_opts){ .strsize = 32, .verbose = 1 });
}

static int stat_short(struct sbuf *b, const void *p, size_t len)
{
	return fmt_stat(b, p, len, &(struct decode_opts){ .strsize = 32 });
}

static void test_arm64_stat(void **state)
{
	unsigned char x[144], a[144];
	char *sx, *sa;

	(void)state;
	assert_int_equal(dec_abi(SC_ARCH_ARM64)->stat_size, 128);
	stat_bytes(dec_abi(SC_ARCH_X86_64), x);
	stat_bytes(dec_abi(SC_ARCH_ARM64), a);
	sx = with_abi(SC_ARCH_X86_64, stat_verbose, x, 144);
	sa = with_abi(SC_ARCH_ARM64, stat_verbose, a, 128);
	assert_non_null(strstr(sa, "st_ino=1234, st_mode=S_IFREG|0644, st_nlink=3, st_uid=1000, "
				   "st_gid=100, st_blksize=4096, st_blocks=8, st_size=4096"));
	assert_string_equal(sa, sx);
	free(sx);
	free(sa);
	sa = with_abi(SC_ARCH_ARM64, stat_short, a, 128);
	assert_string_equal(sa, "{st_mode=S_IFREG|0644, st_size=4096, ...}");
	free(sa);
	/* the arm64 bytes read as x86_64's are something else */
	sx = with_abi(SC_ARCH_X86_64, stat_verbose, a, 144);
	assert_null(strstr(sx, "st_nlink=3,"));
	free(sx);
}

static int epoll_one(struct sbuf *b, const void *p, size_t len)
{
	return fmt_epoll_event(b, p, len);
}

static int epoll_two(struct sbuf *b, const void *p, size_t len)
{
	return fmt_epoll_events(b, p, len, 2);
}

static void test_arm64_epoll(void **state)
{
	/* arm64: u32 events, 4 bytes of padding, u64 data; x86_64: packed */
	unsigned char a[32] = { 0 }, x[24] = { 0 };
	uint32_t ev = 1 | 4; /* EPOLLIN|EPOLLOUT */
	uint64_t d0 = 7, d1 = 0x100000005ull;
	char *s;

	(void)state;
	memcpy(a, &ev, 4);
	memcpy(a + 8, &d0, 8);
	memcpy(a + 16, &ev, 4);
	memcpy(a + 24, &d1, 8);
	memcpy(x, &ev, 4);
	memcpy(x + 4, &d0, 8);
	memcpy(x + 12, &ev, 4);
	memcpy(x + 16, &d1, 8);
	s = with_abi(SC_ARCH_ARM64, epoll_one, a, 16);
	assert_string_equal(s, "{events=EPOLLIN|EPOLLOUT, data={u32=7, u64=7}}");
	free(s);
	s = with_abi(SC_ARCH_ARM64, epoll_two, a, 32);
	assert_string_equal(s, "[{events=EPOLLIN|EPOLLOUT, data={u32=7, u64=7}}, "
			       "{events=EPOLLIN|EPOLLOUT, data={u32=5, u64=4294967301}}]");
	free(s);
	s = with_abi(SC_ARCH_X86_64, epoll_two, x, 24);
	assert_string_equal(s, "[{events=EPOLLIN|EPOLLOUT, data={u32=7, u64=7}}, "
			       "{events=EPOLLIN|EPOLLOUT, data={u32=5, u64=4294967301}}]");
	free(s);
	/* 12 bytes are not one of arm64's */
	decode_set_abi(dec_abi(SC_ARCH_ARM64));
	{
		struct sbuf b = { 0 };

		assert_int_equal(fmt_epoll_event(&b, a, 12), -1);
		free(b.s);
	}
	decode_set_abi(NULL);
}

/* arm64's O_DIRECTORY is x86_64's O_DIRECT, its O_NOFOLLOW x86_64's O_LARGEFILE */
static void test_arm64_open_flags(void **state)
{
	struct sbuf b = { 0 };

	(void)state;
	decode_set_abi(dec_abi(SC_ARCH_ARM64));
	fmt_open_flags(&b, 040000 | 0100000 | 02000000);
	assert_string_equal(b.s, "O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_DIRECTORY");
	b.len = 0;
	fmt_open_flags(&b, 02 | 0200000 | 0400000 | 0100);
	assert_string_equal(b.s, "O_RDWR|O_CREAT|O_DIRECT|O_LARGEFILE");
	decode_set_abi(dec_abi(SC_ARCH_X86_64));
	b.len = 0;
	fmt_open_flags(&b, 0200000 | 0400000 | 02000000);
	assert_string_equal(b.s, "O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_DIRECTORY");
	decode_set_abi(NULL);
	free(b.s);
}

/* arm64's clone(flags, stack, parent_tid, tls, child_tid) */
static void test_arm64_clone(void **state)
{
	const uint64_t flags =
		CLONE_VM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD;
	const uint64_t a64[6] = { flags, 0x7f0000100000, 0x7f0000000990, 0x7f00000006c0,
				  0x7f0000000a10 };
	const uint64_t x86[6] = { flags, 0x7f0000100000, 0x7f0000000990, 0x7f0000000a10,
				  0x7f00000006c0 };
	struct sbuf b = { 0 };
	char *s;

	(void)state;
	decode_set_abi(dec_abi(SC_ARCH_X86_64));
	scalar_arg(&b, A_CLONE, 0, x86, 0);
	s = strndup(b.s, b.len);
	decode_set_abi(dec_abi(SC_ARCH_ARM64));
	b.len = 0;
	scalar_arg(&b, A_CLONE, 0, a64, 0);
	decode_set_abi(NULL);
	assert_non_null(strstr(s, "tls=0x7f00000006c0, child_tidptr=0x7f0000000a10"));
	assert_string_equal(b.s, s);
	free(s);
	free(b.s);
}

/* ------------------------------------------------------------------------- */
/* logs */

static void put_event(struct log_writer *w, uint32_t id, int64_t ts, const void *d, size_t len)
{
	struct pt_event_hdr h = {
		.id = id, .pid = 100, .tid = 100, .ts = (uint64_t)ts, .data_len = (uint32_t)len
	};

	assert_int_equal(log_writer__append(w, &h, d), 0);
}

static void put_call(struct log_writer *w, int nr, int64_t ts, const uint64_t *args,
		     const char *path, int64_t ret)
{
	union {
		struct ptbpf_ev_sys_enter se;
		char raw[sizeof(struct ptbpf_ev_sys_enter) + 64];
	} u;
	struct ptbpf_ev_sys_exit x = { .nr = nr, .ret = ret };
	size_t len = offsetof(struct ptbpf_ev_sys_enter, paths);

	memset(&u, 0, sizeof(u));
	u.se.nr = nr;
	memcpy(u.se.args, args, sizeof(u.se.args));
	if (path) {
		u.se.path_arg[0] = 1;
		u.se.path_len[0] = (uint16_t)(strlen(path) + 1);
		memcpy(u.se.paths, path, strlen(path) + 1);
		len += strlen(path) + 1;
	}
	put_event(w, PTBPF_EV_SYS_ENTER((unsigned)nr), ts, &u, len);
	put_event(w, PTBPF_EV_SYS_EXIT((unsigned)nr), ts + 1000, &x, sizeof(x));
}

/*
 * A log of machine (0: none recorded, as before 3.2) whose syscalls are
 * named by its writer (the type records): openat, close and io_submit by
 * arm64's numbers. Returns the fd of the file, open for reading.
 */
static int write_log(uint32_t machine, const struct log_type_name *types, size_t ntypes,
		     const int nrs[3])
{
	char path[] = "/tmp/ptbpf-arch-XXXXXX";
	const uint64_t open_args[6] = { (uint64_t)AT_FDCWD, 0x1000, 040000 | 02000000 };
	const uint64_t close_args[6] = { 3 };
	const uint64_t io_args[6] = { 5, 1, 0x2000 };
	struct log_meta m = { .stream_min_size = 1 << 20,
			      .max_data_size = 4096,
			      .log_full_policy = LOG_POLICY_APPEND,
			      .arch = machine };
	struct log_writer *w;
	int fd = mkstemp(path), rfd;

	assert_true(fd >= 0);
	rfd = open(path, O_RDONLY);
	assert_true(rfd >= 0);
	unlink(path);
	strcpy(m.name, "arch");
	assert_int_equal(log_writer__open(&w, fd, &m, NULL), 0);
	assert_int_equal(log_writer__add_types(w, types, ntypes), 0);
	put_call(w, nrs[0], 1000000, open_args, "/etc", 3);
	put_call(w, nrs[1], 2000000, io_args, NULL, 1);
	put_call(w, nrs[2], 3000000, close_args, NULL, 0);
	assert_int_equal(log_writer__close(w, NULL), 0);
	close(fd);
	return rfd;
}

/* trid's architecture, from its attributes and in show --json's first line */
static void expect_arch(trace_id_t trid, unsigned int want, const char *json)
{
	unsigned int machine = 0;
	trace_attr_t attr;
	char *s = NULL;
	size_t sl = 0;
	FILE *f = open_memstream(&s, &sl);

	assert_int_equal(posix_trace_get_attr(trid, &attr), 0);
	assert_int_equal(ptbpf_trace_attr_getarch(&attr, &machine), 0);
	posix_trace_attr_destroy(&attr);
	assert_int_equal(machine, want);
	assert_non_null(f);
	assert_int_equal(fmt_json_attr(f, trid), 0);
	fclose(f);
	assert_non_null(strstr(s, json));
	free(s);
}

/* The log shown as ptbpf show shows it, with opts. */
static char *show(trace_id_t trid, void (*opts)(struct view_opts *))
{
	static char buf[65536];
	struct cli_ev ev;
	struct out o;
	int unav = 0;
	char *s = NULL;
	size_t sl = 0;
	FILE *f;

	out_begin(&o);
	if (opts)
		opts(&o.o);
	out_view(&o);
	for (;;) {
		assert_int_equal(cli_ev_next(trid, &ev, buf, sizeof(buf), &unav), 0);
		if (unav)
			break;
		view_event(o.v, &ev);
	}
	f = open_memstream(&s, &sl);
	assert_non_null(f);
	fputs(out_text(&o), f);
	assert_int_equal(view_report(o.v, f), 0);
	fclose(f);
	out_close(&o);
	return s;
}

static void opt_count(struct view_opts *o)
{
	o->cflag = VIEW_C_ONLY;
	o->sortby = SUM_COL_NAME;
}

static void opt_path(struct view_opts *o)
{
	o->paths[0] = "/etc";
	o->npaths = 1;
}

/* --histogram=openat,close: the build's names */
static void opt_histogram(struct view_opts *o)
{
	char msg[128];

	o->histogram = 1;
	o->cflag = VIEW_C_ONLY;
	assert_int_equal(hist_select(o->hist_sel, "openat,close", msg, sizeof(msg)), 0);
}

/* The log shown from its start with opts: every line of want in it, not unwanted. */
static void expect_show(trace_id_t trid, void (*opts)(struct view_opts *), const char *const *want,
			const char *unwanted)
{
	char *s;

	assert_int_equal(posix_trace_rewind(trid), 0);
	s = show(trid, opts);
	for (size_t i = 0; want[i]; i++)
		if (!strstr(s, want[i]))
			fail_msg("no \"%s\" in:\n%s", want[i], s);
	if (unwanted)
		assert_null(strstr(s, unwanted));
	free(s);
}

static void test_arm64_log(void **state)
{
	static const struct log_type_name types[] = {
		{ PTBPF_EV_SYS_ENTER(A64_OPENAT), "sys_enter_openat" },
		{ PTBPF_EV_SYS_EXIT(A64_OPENAT), "sys_exit_openat" },
		{ PTBPF_EV_SYS_ENTER(A64_IO_SUBMIT), "sys_enter_io_submit" },
		{ PTBPF_EV_SYS_EXIT(A64_IO_SUBMIT), "sys_exit_io_submit" },
		{ PTBPF_EV_SYS_ENTER(A64_CLOSE), "sys_enter_close" },
		{ PTBPF_EV_SYS_EXIT(A64_CLOSE), "sys_exit_close" },
	};
	static const int nrs[3] = { A64_OPENAT, A64_IO_SUBMIT, A64_CLOSE };
	static const char *const lines[] = {
		"openat(AT_FDCWD, \"/etc\", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = 3\n",
		"io_submit(0x5, 0x1, 0x2000", "close(3) = 0\n", NULL
	};
	/* -c names the calls by arm64's numbers (x86_64's 2 and 56 are open and clone) */
	static const char *const counted[] = { " openat\n", " io_submit\n", " close\n", NULL };
	/* -P: arm64's openat is a %file call, its close one of an fd */
	/* --histogram's names, given by the build's numbers, are arm64's calls */
	static const char *const histogram[] = { "@ns[openat]:", "@ns[close]:", NULL };
	static const char *const by_path[] = { "openat(AT_FDCWD, \"/etc\"", "close(3) = 0\n",
					       NULL };
	trace_id_t trid;
	int fd;

	(void)state;
	fd = write_log(PTBPF_ARCH_AARCH64, types, 6, nrs);
	assert_int_equal(posix_trace_open(fd, &trid), 0);
	expect_arch(trid, PTBPF_ARCH_AARCH64, ",\"arch\":\"aarch64\"");
	expect_show(trid, NULL, lines, NULL);
	expect_show(trid, opt_count, counted, "clone");
	expect_show(trid, opt_path, by_path, "io_submit");
	expect_show(trid, opt_histogram, histogram, "@ns[io_submit]");
	assert_int_equal(posix_trace_close(trid), 0);
	close(fd);
}

/* A log without an architecture (before 3.2) is x86_64's. */
static void test_old_log(void **state)
{
	static const struct log_type_name types[] = {
		{ PTBPF_EV_SYS_ENTER(257), "sys_enter_openat" },
		{ PTBPF_EV_SYS_EXIT(257), "sys_exit_openat" },
		{ PTBPF_EV_SYS_ENTER(209), "sys_enter_io_submit" },
		{ PTBPF_EV_SYS_EXIT(209), "sys_exit_io_submit" },
		{ PTBPF_EV_SYS_ENTER(3), "sys_enter_close" },
		{ PTBPF_EV_SYS_EXIT(3), "sys_exit_close" },
	};
	static const int nrs[3] = { 257, 209, 3 };
	/* x86_64's bits: 040000 is O_DIRECT there */
	static const char *const lines[] = {
		"openat(AT_FDCWD, \"/etc\", O_RDONLY|O_DIRECT|O_CLOEXEC) = 3\n", NULL
	};
	static const char *const counted[] = { " openat\n", " io_submit\n", " close\n", NULL };
	trace_id_t trid;
	int fd;

	(void)state;
	fd = write_log(0, types, 6, nrs);
	assert_int_equal(posix_trace_open(fd, &trid), 0);
	expect_arch(trid, PTBPF_ARCH_X86_64, ",\"arch\":\"x86_64\"");
	expect_show(trid, NULL, lines, NULL);
	expect_show(trid, opt_count, counted, NULL);
	assert_int_equal(posix_trace_close(trid), 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm64_names),	 cmocka_unit_test(test_arm64_classes),
		cmocka_unit_test(test_arm64_stat),	 cmocka_unit_test(test_arm64_epoll),
		cmocka_unit_test(test_arm64_open_flags), cmocka_unit_test(test_arm64_clone),
		cmocka_unit_test(test_arm64_log),	 cmocka_unit_test(test_old_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
