/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf_trace_attr_setstrsize(): syscall events carry what their pointer
 * arguments point to (struct ptbpf_sys_cap): a write's bytes at entry, cut
 * at the string size with the real length kept; at a successful exit a
 * read's bytes, a struct stat, the fds of pipe2, the count of getdents64's
 * records (a walk of hundreds: bpf_loop()'s, or a bounded loop's before
 * 5.17); none at a failed exit;
 * the same in the stream and in its log; none without the attribute.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"
#include "itest_read.h"

#define MSG "hello, capture world"

static void test_attr(void **state)
{
	trace_attr_t a;
	unsigned int n = 7;

	(void)state;
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(ptbpf_trace_attr_getstrsize(&a, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(ptbpf_trace_attr_setstrsize(&a, 8), 0);
	assert_int_equal(ptbpf_trace_attr_getstrsize(&a, &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(ptbpf_trace_attr_setstrsize(&a, PTBPF_STRSIZE_MAX + 1), EINVAL);
	assert_int_equal(ptbpf_trace_attr_getstrsize(&a, &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(ptbpf_trace_attr_setstrsize(NULL, 1), EINVAL);
	assert_int_equal(ptbpf_trace_attr_getstrsize(&a, NULL), EINVAL);
}

/* What the calls below made, to be found in the captures. */
struct made {
	int pipe[2];
	struct stat st;
	long dirents; /* the records of the getdents64 below */
};

#define DIR_FILES 600 /* more records than one 32 KiB getdents64 holds */

static struct made made;

/* A directory of DIR_FILES files, read by one getdents64 whose records
 * are counted here. */
static void make_dirents(struct made *m)
{
	static char buf[32768];
	char dir[] = "/tmp/itest_caps.XXXXXX", path[64];
	long n, off;
	int fd, i;

	assert_non_null(mkdtemp(dir));
	for (i = 0; i < DIR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		assert_true(fd >= 0);
		close(fd);
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
	assert_true(n > 0);
	m->dirents = 0;
	for (off = 0; off < n; m->dirents++) {
		unsigned short reclen;

		/* struct linux_dirent64: d_reclen after d_ino and d_off */
		memcpy(&reclen, buf + off + 16, sizeof(reclen));
		off += reclen;
	}
	assert_true(m->dirents > 256);
	close(fd);
	for (i = 0; i < DIR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		unlink(path);
	}
	rmdir(dir);
}

static void make_calls(void)
{
	struct made *m = &made;
	char buf[64];

	assert_int_equal(pipe2(m->pipe, O_CLOEXEC), 0);
	assert_int_equal(write(m->pipe[1], MSG, strlen(MSG)), (ssize_t)strlen(MSG));
	assert_int_equal(read(m->pipe[0], buf, sizeof(buf)), (ssize_t)strlen(MSG));
	/* the syscall itself: glibc's fstat() calls newfstatat */
	assert_int_equal(syscall(SYS_fstat, m->pipe[0], &m->st), 0);
	assert_int_equal(syscall(SYS_fstat, -1, &m->st), -1); /* fails: no capture */
	assert_int_equal(syscall(SYS_fstat, m->pipe[0], &m->st), 0);
	close(m->pipe[0]);
	close(m->pipe[1]);
	make_dirents(m);
}

/* The captures after off in p[0..len): into c (at most n), how many. */
static int caps_in(const unsigned char *p, size_t len, size_t off, struct ptbpf_sys_cap *c,
		   const unsigned char **bytes, int n)
{
	int k = 0;

	while (k < n && off + sizeof(*c) <= len) {
		memcpy(&c[k], p + off, sizeof(*c));
		off += sizeof(*c);
		assert_true(c[k].len <= len - off);
		bytes[k] = p + off;
		off += c[k].len;
		k++;
	}
	assert_int_equal(off, len); /* the captures run to the payload's end */
	return k;
}

/* The one capture of MSG's bytes, of argument 1, cut at strsize. */
static void check_msg(const struct ptbpf_sys_cap *c, const unsigned char **bytes, int k,
		      unsigned int strsize)
{
	assert_int_equal(k, 1);
	assert_int_equal(c[0].arg, 1);
	assert_int_equal(c[0].type, PTBPF_CAP_BYTES);
	assert_int_equal(c[0].full, strlen(MSG));
	assert_int_equal(c[0].len, strsize);
	assert_memory_equal(bytes[0], MSG, strsize);
}

struct seen {
	int write_in, read_out, stat_out, stat_failed, pipe_out, read_flag, any_caps, dirents;
};

static void check(trace_id_t t, bool log, const struct made *m, unsigned int strsize,
		  struct seen *n)
{
	static union {
		struct ptbpf_ev_sys_enter e;
		struct ptbpf_ev_sys_exit_ext x;
		unsigned char b[8192];
	} d;
	struct posix_trace_event_info ev;
	char name[TRACE_EVENT_NAME_MAX];
	struct ptbpf_sys_cap c[8];
	const unsigned char *bytes[8];
	size_t len, off;
	int k;

	memset(n, 0, sizeof(*n));
	while (itest_next_event(t, log, (struct itest_ev_ref){ &ev, name, &d, sizeof(d), &len })) {
		trace_event_id_t id = ev.posix_event_id;
		long nr;
		int exit;

		if (!PTBPF_EV_IS_SYSCALL(id) || ev.posix_pid != getpid())
			continue;
		nr = PTBPF_EV_SYSCALL_NR(id);
		exit = PTBPF_EV_SYSCALL_IS_EXIT(id);
		if (!exit && len >= offsetof(struct ptbpf_ev_sys_enter, paths)) {
			if (nr == SYS_read && (d.e.flags & PTBPF_SYS_CAPS_AT_EXIT) &&
			    PTBPF_SYS_EXIT_ARG(d.e.flags) == 1)
				n->read_flag++;
			if (!(d.e.flags & PTBPF_SYS_CAPS))
				continue;
			n->any_caps++;
			off = offsetof(struct ptbpf_ev_sys_enter, paths) + d.e.path_len[0] +
			      d.e.path_len[1];
		} else if (exit && len >= offsetof(struct ptbpf_ev_sys_exit_ext, paths)) {
			if (!(d.x.flags & PTBPF_SYS_CAPS))
				continue;
			n->any_caps++;
			if (nr == SYS_fstat && d.x.ret < 0)
				n->stat_failed++;
			off = offsetof(struct ptbpf_ev_sys_exit_ext, paths) + d.x.path_len[0] +
			      d.x.path_len[1];
		} else {
			continue;
		}
		k = caps_in(d.b, len, off, c, bytes, 8);
		if (nr == SYS_write && !exit && d.e.args[0] == (__u64)m->pipe[1]) {
			check_msg(c, bytes, k, strsize);
			n->write_in++;
		} else if (nr == SYS_read && exit && d.x.ret == (__s64)strlen(MSG)) {
			check_msg(c, bytes, k, strsize);
			n->read_out++;
		} else if (nr == SYS_fstat && exit && d.x.ret == 0) {
			struct stat st;

			assert_int_equal(k, 1);
			assert_int_equal(c[0].type, PTBPF_CAP_STAT);
			assert_int_equal(c[0].len, sizeof(st));
			memcpy(&st, bytes[0], sizeof(st));
			if (st.st_ino == m->st.st_ino && S_ISFIFO(st.st_mode))
				n->stat_out++;
		} else if (nr == SYS_getdents64 && exit && d.x.ret > 0) {
			assert_int_equal(k, 1);
			assert_int_equal(c[0].type, PTBPF_CAP_DIRENTS);
			assert_int_equal(c[0].len, 0);
			assert_int_equal(c[0].full, m->dirents);
			n->dirents++;
		} else if (nr == SYS_pipe2 && exit) {
			int fds[2];

			assert_int_equal(k, 1);
			assert_int_equal(c[0].type, PTBPF_CAP_INT);
			assert_int_equal(c[0].len, sizeof(fds));
			memcpy(fds, bytes[0], sizeof(fds));
			if (fds[0] == m->pipe[0] && fds[1] == m->pipe[1])
				n->pipe_out++;
		}
	}
}

struct caps_run {
	unsigned int strsize;
	struct seen n;
};

static void check_run(trace_id_t t, bool log, void *ctx)
{
	struct caps_run *r = ctx;

	check(t, log, &made, r->strsize, &r->n);
}

static void trace_caps(unsigned int strsize, const char *logpath)
{
	struct caps_run r = { .strsize = strsize };
	struct seen *n = &r.n;
	trace_attr_t a;

	itest_require_bpf();
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(ptbpf_trace_attr_setstrsize(&a, strsize), 0);
	itest_trace_run(&a, logpath, make_calls, check_run, &r);
	if (!strsize) {
		assert_int_equal(n->any_caps, 0);
		assert_int_equal(n->read_flag, 0);
		return;
	}
	assert_int_equal(n->write_in, 1);
	assert_int_equal(n->read_out, 1);
	assert_int_equal(n->read_flag, 1);
	assert_int_equal(n->stat_out, 2);
	assert_int_equal(n->stat_failed, 0);
	assert_int_equal(n->pipe_out, 1);
	assert_int_equal(n->dirents, 1);
}

static void test_stream(void **state)
{
	(void)state;
	trace_caps(8, NULL);
}

static void test_log(void **state)
{
	char path[] = "/tmp/ptbpf-itest-caps.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	trace_caps(8, path);
}

static void test_off(void **state)
{
	(void)state;
	trace_caps(0, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
