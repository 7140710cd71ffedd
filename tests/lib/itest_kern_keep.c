/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kept programs against the real kernel: a backend opened with keep_ms
 * hands its programs to ptbpf-keep when destroyed, and the next backend of
 * the same settings takes them (the same program ids), with nothing of the
 * last one's processes or events; other settings load their own; the
 * helper hands the set to no other user. The library, linked statically,
 * finds the helper next to this test (a link made by the build).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ptbpf/events.h>

#include "backend/kern.h"
#include "itest.h"

#define CALLS 17

/* A child that makes CALLS getppid() calls when told, then exits. */
struct kid {
	pid_t pid;
	int go;
};

static void kid_start(struct kid *k)
{
	int p[2];
	char c;

	assert_int_equal(pipe(p), 0);
	k->pid = fork();
	assert_true(k->pid >= 0);
	if (k->pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(1);
		for (int i = 0; i < CALLS; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	close(p[0]);
	k->go = p[1];
}

static void kid_run(struct kid *k)
{
	int st;

	assert_int_equal(write(k->go, "g", 1), 1);
	close(k->go);
	assert_int_equal(waitpid(k->pid, &st, 0), k->pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

struct seen {
	pid_t want;
	int getppid, others;
};

static int on_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct seen *s = ctx;

	(void)data;
	if (!PTBPF_EV_IS_SYSCALL(h->id))
		return 0;
	if (h->pid != s->want)
		s->others++;
	else if (h->id == PTBPF_EV_SYS_ENTER(SYS_getppid))
		s->getppid++;
	return 0;
}

static void on_lost(void *ctx, uint64_t count, uint64_t first_ts)
{
	(void)ctx;
	(void)count;
	(void)first_ts;
	fail_msg("events lost");
}

static void drain(struct kern_backend *kb, struct seen *s)
{
	struct kern_cbs cbs = { .event = on_event, .lost = on_lost, .ctx = s };

	for (int i = 0; i < 20; i++)
		assert_true(kern_backend__poll(kb, 10, &cbs) >= 0);
}

static struct kern_backend *open_kb(unsigned int strsize)
{
	struct kern_opts o = { .ring_bytes = 1 << 20, .strsize = strsize, .keep_ms = 5000 };
	struct kern_backend *kb = NULL;

	assert_int_equal(kern_backend__open(&kb, &o), 0);
	return kb;
}

static int prog_ids(struct kern_backend *kb, uint32_t *ids)
{
	int n = kern_backend__prog_ids(kb, ids, 32);

	assert_true(n > 0);
	return n;
}

/* Two backends' programs: the same (a set taken), or none in common. */
static void ids_check(const uint32_t *a, int na, const uint32_t *b, int nb, bool same)
{
	if (same) {
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, sizeof(uint32_t) * (size_t)na);
		return;
	}
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			assert_int_not_equal(a[i], b[j]);
}

/* The helper gives the set once it runs: a moment after the destroy. */
static void destroy_kept(struct kern_backend *kb)
{
	kern_backend__destroy(kb);
	usleep(100000);
}

/* A new child traced by kb: its CALLS getppid() recorded and nothing else,
 * though other (if any) makes its calls meanwhile. */
static void record_kid(struct kern_backend *kb, struct kid *other)
{
	struct seen s = { 0 };
	struct kid cur;

	kid_start(&cur);
	assert_int_equal(kern_backend__add_pid(kb, cur.pid), 0);
	assert_int_equal(kern_backend__set_enabled(kb, true), 0);
	if (other)
		kid_run(other);
	kid_run(&cur);
	s.want = cur.pid;
	drain(kb, &s);
	assert_int_equal(s.getppid, CALLS);
	assert_int_equal(s.others, 0);
}

/* Taken by the next backend of these settings; the last one's process,
 * still running, is not traced by it. */
static void test_taken(void **state)
{
	uint32_t ids1[32], ids2[32];
	struct kern_backend *kb;
	struct kid old;
	int n1, n2;

	(void)state;
	/* forked first: it holds none of the programs' links */
	kid_start(&old);
	kb = open_kb(0);
	n1 = prog_ids(kb, ids1);
	assert_int_equal(kern_backend__add_pid(kb, old.pid), 0);
	assert_int_equal(kern_backend__set_enabled(kb, true), 0);
	destroy_kept(kb);

	kb = open_kb(0);
	n2 = prog_ids(kb, ids2);
	ids_check(ids1, n1, ids2, n2, true);
	record_kid(kb, &old);
	destroy_kept(kb);
}

/*
 * A process forked while the programs were attached (not exec'd) holds
 * their links: the set is not taken (its programs would run twice), the
 * next backend loads its own and records once.
 */
static void test_attached_elsewhere(void **state)
{
	uint32_t ids1[32], ids2[32];
	struct kern_backend *kb;
	struct kid holder;
	int n1, n2;

	(void)state;
	kb = open_kb(0);
	n1 = prog_ids(kb, ids1);
	kid_start(&holder);
	destroy_kept(kb);
	kb = open_kb(0);
	n2 = prog_ids(kb, ids2);
	ids_check(ids1, n1, ids2, n2, false);
	record_kid(kb, NULL);
	kid_run(&holder);
	kern_backend__destroy(kb);
}

/* Rings larger than keep_rings_max in all: not kept. */
static void test_large_rings(void **state)
{
	struct kern_opts o = { .ring_bytes = 4 << 20, .keep_ms = 5000, .keep_rings_max = 2 << 20 };
	uint32_t ids1[32], ids2[32];
	struct kern_backend *kb = NULL;
	int n1, n2;

	(void)state;
	assert_int_equal(kern_backend__open(&kb, &o), 0);
	n1 = prog_ids(kb, ids1);
	destroy_kept(kb);
	assert_int_equal(kern_backend__open(&kb, &o), 0);
	n2 = prog_ids(kb, ids2);
	ids_check(ids1, n1, ids2, n2, false);
	kern_backend__destroy(kb);
}

/* Other settings: a set of their own, loaded. */
static void test_other_settings(void **state)
{
	uint32_t ids1[32], ids2[32];
	struct kern_backend *kb;
	int n1, n2;

	(void)state;
	kb = open_kb(0);
	n1 = prog_ids(kb, ids1);
	destroy_kept(kb);
	kb = open_kb(64);
	n2 = prog_ids(kb, ids2);
	ids_check(ids1, n1, ids2, n2, false);
	kern_backend__destroy(kb);
}

/* The abstract address of root's helper, from /proc/net/unix. */
static socklen_t helper_addr(struct sockaddr_un *sa)
{
	FILE *f = fopen("/proc/net/unix", "re");
	char line[512], *at;
	socklen_t len = 0;

	assert_non_null(f);
	while (!len && fgets(line, sizeof(line), f)) {
		at = strstr(line, "@ptbpf-keep/0/");
		if (!at)
			continue;
		at[strcspn(at, "\n")] = '\0';
		memset(sa, 0, sizeof(*sa));
		sa->sun_family = AF_UNIX;
		memcpy(sa->sun_path + 1, at + 1, strlen(at + 1));
		len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(at));
	}
	fclose(f);
	assert_true(len > 0);
	return len;
}

/* Another user reaches the helper but gets no fd; root still takes it. */
static void test_other_user(void **state)
{
	uint32_t ids1[32], ids2[32];
	struct kern_backend *kb;
	struct sockaddr_un sa;
	socklen_t len;
	pid_t pid;
	int n1, n2, st;

	(void)state;
	kb = open_kb(0);
	n1 = prog_ids(kb, ids1);
	destroy_kept(kb);
	len = helper_addr(&sa);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char buf[CMSG_SPACE(sizeof(int) * 64)], d[64];
		struct iovec iov = { .iov_base = d, .iov_len = sizeof(d) };
		struct msghdr m = { .msg_iov = &iov,
				    .msg_iovlen = 1,
				    .msg_control = buf,
				    .msg_controllen = sizeof(buf) };
		int s;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		if (s < 0 || connect(s, (struct sockaddr *)&sa, len))
			_exit(3);
		/* the helper hangs up: no message, no fd */
		_exit(recvmsg(s, &m, 0) == 0 && m.msg_controllen == 0 ? 0 : 4);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	kb = open_kb(0);
	n2 = prog_ids(kb, ids2);
	ids_check(ids1, n1, ids2, n2, true);
	kern_backend__destroy(kb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taken),	    cmocka_unit_test(test_attached_elsewhere),
		cmocka_unit_test(test_large_rings), cmocka_unit_test(test_other_settings),
		cmocka_unit_test(test_other_user),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
