// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A syscall's line from its captures (cli/decode_caps.c through
 * decode_sys_call and the split forms): payloads built by hand as BPF
 * writes them, each expected line strace's for the same call; and hostile
 * payloads (a capture longer than the payload, a header cut short, a
 * vector without its end, path lengths past the end), each copied into a
 * buffer of its exact size so that ASan sees any read past it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <cmocka.h>
#include <ptbpf/events.h>

#include "view/view.h"
#include "decode/caps.h"

/* A payload under construction. */
struct pl {
	unsigned char b[4096];
	size_t len;
};

static void pl_enter(struct pl *p, long nr, const uint64_t *args, uint16_t flags)
{
	struct ptbpf_ev_sys_enter e = { .nr = nr, .flags = flags };

	memcpy(e.args, args, sizeof(e.args));
	memcpy(p->b, &e, offsetof(struct ptbpf_ev_sys_enter, paths));
	p->len = offsetof(struct ptbpf_ev_sys_enter, paths);
}

static void pl_exit(struct pl *p, long nr, int64_t ret)
{
	struct ptbpf_ev_sys_exit_ext x = { .nr = nr, .ret = ret, .flags = PTBPF_SYS_CAPS };

	memcpy(p->b, &x, offsetof(struct ptbpf_ev_sys_exit_ext, paths));
	p->len = offsetof(struct ptbpf_ev_sys_exit_ext, paths);
}

/* A path of the entry (before any capture). */
static void pl_path(struct pl *p, int i, int arg, const char *s)
{
	struct ptbpf_ev_sys_enter *e = (void *)p->b;
	size_t n = strlen(s) + 1;

	e->path_len[i] = (uint16_t)n;
	e->path_arg[i] = (uint8_t)arg;
	memcpy(p->b + p->len, s, n);
	p->len += n;
}

static void pl_cap(struct pl *p, int arg, int type, const void *bytes, size_t len, uint32_t full)
{
	struct ptbpf_sys_cap h = {
		.arg = (uint8_t)arg, .type = (uint8_t)type, .len = (uint16_t)len, .full = full
	};

	memcpy(p->b + p->len, &h, sizeof(h));
	p->len += sizeof(h);
	memcpy(p->b + p->len, bytes, len);
	p->len += len;
}

/* decode_sys_call on copies of exactly the payloads' sizes */
static void expect_call(const char *want, const char *name, const struct pl *e, const struct pl *x)
{
	struct sbuf b = { 0 };
	void *ec = malloc(e->len), *xc = x ? malloc(x->len ? x->len : 1) : NULL;

	memcpy(ec, e->b, e->len);
	if (x)
		memcpy(xc, x->b, x->len);
	decode_sys_call(&b, name, sys_desc(name), ec, e->len, xc, x ? x->len : 0);
	assert_false(b.failed);
	assert_string_equal(b.s, want);
	sb_free(&b);
	free(ec);
	free(xc);
}

static void test_read_write(void **state)
{
	uint64_t rd[6] = { 3, 0x7ffd1000, 832 }, wr[6] = { 1, 0x55aa0000, 3 };
	struct pl e, x;

	(void)state;
	/* read(3, "\177ELF\2\1\1\3\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0\20t\2\0\0\0\0\0"..., 832) = 832
	 */
	pl_enter(&e, 0, rd, PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	pl_exit(&x, 0, 832);
	pl_cap(&x, 1, PTBPF_CAP_BYTES,
	       "\177ELF\2\1\1\3\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0\20t\2\0\0\0\0\0", 32, 832);
	expect_call(
		"read(3, "
		"\"\\177ELF\\2\\1\\1\\3\\0\\0\\0\\0\\0\\0\\0\\0\\3\\0>\\0\\1\\0\\0\\0\\20t\\2\\0\\0"
		"\\0\\0\\0\"..., 832)",
		"read", &e, &x);
	/* the call failed: no capture, the pointer */
	expect_call("read(3, 0x7ffd1000, 832)", "read", &e, NULL);
	/* write(1, "hi\n", 3) = 3 */
	pl_enter(&e, 1, wr, PTBPF_SYS_CAPS);
	pl_cap(&e, 1, PTBPF_CAP_BYTES, "hi\n", 3, 3);
	expect_call("write(1, \"hi\\n\", 3)", "write", &e, NULL);
}

/* getgroups' gids at exit, as many as it returns; setgroups' at entry (strace 6.1) */
static void test_groups(void **state)
{
	static const uint32_t gids[3] = { 4, 24, 27 };
	uint64_t q[6] = { 0, 0x7ffd1000 }, g[6] = { 8, 0x7ffd1000 }, s[6] = { 3, 0x7ffd2000 };
	struct pl e, x;

	(void)state;
	pl_enter(&e, 115, q, PTBPF_SYS_CAPS_AT_EXIT);
	pl_exit(&x, 115, 0);
	pl_cap(&x, 1, PTBPF_CAP_INT, "", 0, 0);
	expect_call("getgroups(0, [])", "getgroups", &e, &x);
	pl_enter(&e, 115, g, PTBPF_SYS_CAPS_AT_EXIT);
	pl_exit(&x, 115, 3);
	pl_cap(&x, 1, PTBPF_CAP_INT, gids, sizeof(gids), sizeof(gids));
	expect_call("getgroups(8, [4, 24, 27])", "getgroups", &e, &x);
	/* failed: no capture, the address */
	expect_call("getgroups(8, 0x7ffd1000)", "getgroups", &e, NULL);
	pl_enter(&e, 116, s, PTBPF_SYS_CAPS);
	pl_cap(&e, 1, PTBPF_CAP_INT, gids, sizeof(gids), sizeof(gids));
	expect_call("setgroups(3, [4, 24, 27])", "setgroups", &e, NULL);
}

static void test_execve(void **state)
{
	uint64_t a[6] = { 0x55aa0000, 0x7ffd2000, 0x7ffd3000 };
	struct pl e;

	(void)state;
	pl_enter(&e, 59, a, PTBPF_SYS_CAPS);
	pl_path(&e, 0, 0, "/bin/ls");
	pl_cap(&e, 1, PTBPF_CAP_STR, "ls", 2, 2);
	pl_cap(&e, 1, PTBPF_CAP_STR, "-la", 3, 3);
	pl_cap(&e, 1, PTBPF_CAP_VECTOR_END, "", 0, 2);
	pl_cap(&e, 2, PTBPF_CAP_VECTOR_END, "", 0, 23);
	expect_call("execve(\"/bin/ls\", [\"ls\", \"-la\"], 0x7ffd3000 /* 23 vars */)", "execve",
		    &e, NULL);
	/* more entries than captured (the room ran out) */
	pl_enter(&e, 59, a, PTBPF_SYS_CAPS);
	pl_path(&e, 0, 0, "/bin/ls");
	pl_cap(&e, 1, PTBPF_CAP_STR, "ls", 2, 2);
	pl_cap(&e, 1, PTBPF_CAP_VECTOR_END, "", 0, 40);
	pl_cap(&e, 2, PTBPF_CAP_VECTOR_END, "", 0, 1);
	expect_call("execve(\"/bin/ls\", [\"ls\", ...], 0x7ffd3000 /* 1 var */)", "execve", &e,
		    NULL);
	/* a string longer than -s: its length says so */
	pl_enter(&e, 59, a, PTBPF_SYS_CAPS);
	pl_path(&e, 0, 0, "/bin/echo");
	pl_cap(&e, 1, PTBPF_CAP_STR, "0123456789012345678901234567890123", 32, 33);
	pl_cap(&e, 1, PTBPF_CAP_VECTOR_END, "", 0, 1);
	expect_call("execve(\"/bin/echo\", [\"01234567890123456789012345678901\"...], 0x7ffd3000)",
		    "execve", &e, NULL);
}

/* An argv whose walk stopped at a string not in memory: the strings the
 * kernel copied, from the exit, when they are the same (strace 6.1's line
 * for tests/progs/decode_proc's child); the entry's otherwise. */
static void test_execve_late_argv(void **state)
{
	static const char area[] = "./decode_proc\0child\0two words\0quote\"d\n";
	static const char script[] = "/bin/sh\0./s.sh\0child\0two words\0quote\"d\n";
	uint64_t a[6] = { 0x55aa0000, 0x7ffd2000, 0x7ffd3000 };
	const char *partial = "execve(\"./decode_proc\", [\"./decode_proc\", ...], 0x7ffd3000 "
			      "/* 2 vars */)";
	struct pl e, x;

	(void)state;
	pl_enter(&e, 59, a, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT);
	pl_path(&e, 0, 0, "./decode_proc");
	pl_cap(&e, 1, PTBPF_CAP_STR, "./decode_proc", 13, 13);
	pl_cap(&e, 1, PTBPF_CAP_VECTOR_END, "", 0, 4);
	pl_cap(&e, 2, PTBPF_CAP_VECTOR_END, "", 0, 2);
	pl_exit(&x, 59, 0);
	pl_cap(&x, 1, PTBPF_CAP_ARG_STRINGS, area, sizeof(area), sizeof(area));
	expect_call("execve(\"./decode_proc\", [\"./decode_proc\", \"child\", \"two words\", "
		    "\"quote\\\"d\\n\"], 0x7ffd3000 /* 2 vars */)",
		    "execve", &e, &x);
	/* a script: the kernel's strings begin with its interpreter (a count
	 * of its own); cut short; not ending in a NUL; another first string */
	pl_exit(&x, 59, 0);
	pl_cap(&x, 1, PTBPF_CAP_ARG_STRINGS, script, sizeof(script), sizeof(script));
	expect_call(partial, "execve", &e, &x);
	pl_exit(&x, 59, 0);
	pl_cap(&x, 1, PTBPF_CAP_ARG_STRINGS, area, 20, sizeof(area));
	expect_call(partial, "execve", &e, &x);
	pl_exit(&x, 59, 0);
	pl_cap(&x, 1, PTBPF_CAP_ARG_STRINGS, area, sizeof(area) - 1, sizeof(area) - 1);
	expect_call(partial, "execve", &e, &x);
	pl_exit(&x, 59, 0);
	pl_cap(&x, 1, PTBPF_CAP_ARG_STRINGS, "/x\0a\0b\0c", 9, 9);
	expect_call(partial, "execve", &e, &x);
	/* a first string longer than -s: the entry has its 32 bytes and "more" */
	pl_enter(&e, 59, a, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT);
	pl_path(&e, 0, 0, "./decode_proc");
	pl_cap(&e, 1, PTBPF_CAP_STR, "/work/main/build/tests/decode_proc", 32, 33);
	pl_cap(&e, 1, PTBPF_CAP_VECTOR_END, "", 0, 2);
	pl_exit(&x, 59, 0);
	pl_cap(&x, 1, PTBPF_CAP_ARG_STRINGS, "/work/main/build/tests/decode_proc\0child", 41, 41);
	expect_call("execve(\"./decode_proc\", [\"/work/main/build/tests/decode_pr\"..., "
		    "\"child\"], 0x7ffd3000)",
		    "execve", &e, &x);
	/* an argv the entry read whole: the entry's */
	pl_enter(&e, 59, a, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT);
	pl_path(&e, 0, 0, "./decode_proc");
	pl_cap(&e, 1, PTBPF_CAP_STR, "./decode_proc", 13, 13);
	pl_cap(&e, 1, PTBPF_CAP_VECTOR_END, "", 0, 1);
	pl_exit(&x, 59, 0);
	pl_cap(&x, 1, PTBPF_CAP_ARG_STRINGS, "other\0", 6, 6);
	expect_call("execve(\"./decode_proc\", [\"./decode_proc\"], 0x7ffd3000)", "execve", &e, &x);
}

static void test_split(void **state)
{
	uint64_t rd[6] = { 3, 0x7ffd1000, 832 }, mask[6] = { 0 /* SIG_BLOCK */, 0x7ffd2000, 0, 8 },
		 setlkw[6] = { 3, 7 /* F_SETLKW */, 0x7ffd0000 }, usr2 = 1ULL << (SIGUSR2 - 1);
	unsigned char fl[32] = { 1 };
	struct pl e, x;
	struct sbuf b = { 0 };

	(void)state;
	pl_enter(&e, 0, rd, PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	pl_exit(&x, 0, 5);
	pl_cap(&x, 1, PTBPF_CAP_BYTES, "hello", 5, 5);
	/* strace: "read(3,  <unfinished ...>", "<... read resumed>"hello", 832) = 5" */
	assert_int_equal(decode_sys_unfinished(&b, "read", sys_desc("read"), e.b, e.len), 1);
	assert_string_equal(b.s, "read(3, ");
	sb_reset(&b);
	assert_int_equal(decode_sys_resumed(&b, sys_desc("read"), e.b, e.len, x.b, x.len), 1);
	assert_string_equal(b.s, "\"hello\", 832");
	sb_reset(&b);
	/* an entry whose exit brings nothing: not split so */
	pl_enter(&e, 0, rd, 0);
	assert_int_equal(decode_sys_unfinished(&b, "read", sys_desc("read"), e.b, e.len), 0);
	assert_int_equal(b.len, 0);
	/* a set the entry read: split after it, "rt_sigprocmask(SIG_BLOCK, [USR2], " */
	pl_enter(&e, 14, mask,
		 PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	pl_cap(&e, 1, PTBPF_CAP_SIGSET, &usr2, 8, 8);
	assert_int_equal(
		decode_sys_unfinished(&b, "rt_sigprocmask", sys_desc("rt_sigprocmask"), e.b, e.len),
		1);
	assert_string_equal(b.s, "rt_sigprocmask(SIG_BLOCK, [USR2], ");
	sb_reset(&b);
	/* one it could not read: the exit's, unless the call wrote there too */
	pl_enter(&e, 14, mask, PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	pl_exit(&x, 14, 0);
	pl_cap(&x, 1, PTBPF_CAP_SIGSET_LATE, &usr2, 8, 8);
	expect_call("rt_sigprocmask(SIG_BLOCK, [USR2], NULL, 8)", "rt_sigprocmask", &e, &x);
	mask[2] = mask[1];
	pl_enter(&e, 14, mask, PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	pl_cap(&x, 2, PTBPF_CAP_SIGSET, &usr2, 8, 8);
	expect_call("rt_sigprocmask(SIG_BLOCK, 0x7ffd2000, [USR2], 8)", "rt_sigprocmask", &e, &x);
	/* a lock to set, read whole at the entry: not split (F_SETLKW blocks) */
	pl_enter(&e, 72, setlkw,
		 PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(2));
	pl_cap(&e, 2, PTBPF_CAP_FLOCK, fl, sizeof(fl), sizeof(fl));
	assert_int_equal(decode_sys_unfinished(&b, "fcntl", sys_desc("fcntl"), e.b, e.len), 0);
	sb_free(&b);
}

static void test_poll(void **state)
{
	uint64_t a[6] = { 0x7ffd1000, 1, 1000 };
	struct {
		int32_t fd;
		int16_t ev, rev;
	} in = { 3, 1, 0 }, out = { 3, 1, 1 };
	struct pl e, x;
	struct sbuf b = { 0 };

	(void)state;
	pl_enter(&e, 7, a, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT);
	pl_cap(&e, 0, PTBPF_CAP_POLLFD, &in, sizeof(in), sizeof(in));
	pl_exit(&x, 7, 1);
	pl_cap(&x, 0, PTBPF_CAP_POLLFD, &out, sizeof(out), sizeof(out));
	/* poll([{fd=3, events=POLLIN}], 1, 1000) = 1 ([{fd=3, revents=POLLIN}]) */
	expect_call("poll([{fd=3, events=POLLIN}], 1, 1000)", "poll", &e, &x);
	decode_sys_after_ret(&b, x.b, x.len);
	assert_string_equal(b.s, " ([{fd=3, revents=POLLIN}])");
	/* ppoll: the timeout is the entry's, what was left of it after the
	 * result (strace 6.1: ppoll([{fd=3, events=POLLIN}], 1, {tv_sec=1,
	 * tv_nsec=500}, NULL, 8) = 1 ([{fd=3, revents=POLLIN}], left {tv_sec=0,
	 * tv_nsec=999990561})) */
	{
		uint64_t pa[6] = { 0x7ffd1000, 1, 0x7ffd2000, 0, 8 };
		const int64_t ts[2] = { 1, 500 }, left[2] = { 0, 999990561 };

		pl_enter(&e, 271, pa, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT);
		pl_cap(&e, 0, PTBPF_CAP_POLLFD, &in, sizeof(in), sizeof(in));
		pl_cap(&e, 2, PTBPF_CAP_TIMESPEC, ts, sizeof(ts), sizeof(ts));
		pl_exit(&x, 271, 1);
		pl_cap(&x, 0, PTBPF_CAP_POLLFD, &out, sizeof(out), sizeof(out));
		pl_cap(&x, 2, PTBPF_CAP_TIMESPEC, left, sizeof(left), sizeof(left));
		expect_call("ppoll([{fd=3, events=POLLIN}], 1, {tv_sec=1, tv_nsec=500}, NULL, 8)",
			    "ppoll", &e, &x);
		sb_reset(&b);
		decode_sys_after_ret(&b, x.b, x.len);
		assert_string_equal(b.s, " ([{fd=3, revents=POLLIN}], left {tv_sec=0, "
					 "tv_nsec=999990561})");
	}
	sb_free(&b);
}

/* strace: readv(3, [{iov_base="head:t", iov_len=6}, {iov_base="ail\n", iov_len=10}], 2) = 10 */
static void test_iovec(void **state)
{
	uint64_t a[6] = { 3, 0x7ffd1000, 2 };
	uint64_t e0[2] = { 0x1000, 6 }, e1[2] = { 0x2000, 10 };
	unsigned char b0[16 + 6], b1[16 + 4], bad[8] = { 0 };
	struct pl e, x;

	(void)state;
	memcpy(b0, e0, 16);
	memcpy(b0 + 16, "head:t", 6);
	memcpy(b1, e1, 16);
	memcpy(b1 + 16, "ail\n", 4);
	pl_enter(&e, 19, a, PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	pl_exit(&x, 19, 10);
	pl_cap(&x, 1, PTBPF_CAP_IOV, b0, sizeof(b0), 6);
	pl_cap(&x, 1, PTBPF_CAP_IOV, b1, sizeof(b1), 4);
	pl_cap(&x, 1, PTBPF_CAP_VECTOR_END, "", 0, 2);
	expect_call("readv(3, [{iov_base=\"head:t\", iov_len=6}, {iov_base=\"ail\\n\", "
		    "iov_len=10}], 2)",
		    "readv", &e, &x);
	/* a buffer that could not be read: its address; more elements than captured */
	pl_exit(&x, 19, 10);
	pl_cap(&x, 1, PTBPF_CAP_IOV, e0, 16, 0xffffffffu);
	pl_cap(&x, 1, PTBPF_CAP_VECTOR_END, "", 0, 9);
	expect_call("readv(3, [{iov_base=0x1000, iov_len=6}, ...], 2)", "readv", &e, &x);
	/* an element shorter than its base and length: left out */
	pl_exit(&x, 19, 10);
	pl_cap(&x, 1, PTBPF_CAP_IOV, bad, sizeof(bad), 0);
	pl_cap(&x, 1, PTBPF_CAP_VECTOR_END, "", 0, 1);
	expect_call("readv(3, [...], 2)", "readv", &e, &x);
}

/* sendmsg and recvmsg: the msghdr and its parts (strace 6.1's lines for
 * the same calls of tests/progs/decode_net.c and a python UDP socket) */
static void test_msghdr(void **state)
{
	uint64_t snd[6] = { 4, 0x7ffd1000, 0 }, rcv[6] = { 6, 0x7ffd2000, 0x40 };
	uint64_t m[7] = { 0x7ffd3000, 16, 0x7ffd4000, 1, 0, 0, 0 };
	uint64_t r[7] = { 0x7ffd5000, 0, 0x7ffd6000, 1, 0x7ffd7000, 24, 0 };
	uint64_t rin[7] = { 0x7ffd5000, 110, 0x7ffd6000, 1, 0x7ffd7000, 24, 0 };
	unsigned char sin[16] = { 2, 0, 0x1f, 0x90, 127, 0, 0, 1 }, iov[16 + 5];
	/* one SCM_RIGHTS of fd 8: cmsg_len 20, padded to 24 */
	unsigned char cm[24] = { 20, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 8 };
	uint64_t base[2] = { 0x1000, 5 };
	struct pl e, x;

	(void)state;
	memcpy(iov, base, 16);
	memcpy(iov + 16, "hello", 5);
	pl_enter(&e, 46, snd, PTBPF_SYS_CAPS);
	pl_cap(&e, 1, PTBPF_CAP_MSGHDR, m, sizeof(m), sizeof(m));
	pl_cap(&e, 1, PTBPF_CAP_SOCKADDR, sin, sizeof(sin), 16);
	pl_cap(&e, 1, PTBPF_CAP_IOV, iov, sizeof(iov), 5);
	pl_cap(&e, 1, PTBPF_CAP_VECTOR_END, "", 0, 1);
	expect_call("sendmsg(4, {msg_name={sa_family=AF_INET, sin_port=htons(8080), "
		    "sin_addr=inet_addr(\"127.0.0.1\")}, msg_namelen=16, msg_iov=[{iov_base="
		    "\"hello\", iov_len=5}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, 0)",
		    "sendmsg", &e, NULL);
	/* recvmsg: the name length it offered, a name not filled in, a control */
	pl_enter(&e, 47, rcv, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	pl_cap(&e, 1, PTBPF_CAP_MSGHDR_IN, rin, sizeof(rin), sizeof(rin));
	pl_exit(&x, 47, 5);
	pl_cap(&x, 1, PTBPF_CAP_MSGHDR, r, sizeof(r), sizeof(r));
	pl_cap(&x, 1, PTBPF_CAP_IOV, iov, sizeof(iov), 5);
	pl_cap(&x, 1, PTBPF_CAP_VECTOR_END, "", 0, 1);
	pl_cap(&x, 1, PTBPF_CAP_CMSG, cm, sizeof(cm), 24);
	expect_call("recvmsg(6, {msg_name=0x7ffd5000, msg_namelen=110 => 0, msg_iov=[{iov_base="
		    "\"hello\", iov_len=5}], msg_iovlen=1, msg_control=[{cmsg_len=20, "
		    "cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS, cmsg_data=[8]}], "
		    "msg_controllen=24, msg_flags=0}, MSG_DONTWAIT)",
		    "recvmsg", &e, &x);
	/* failed: the entry's msghdr is not what the call filled in */
	expect_call("recvmsg(6, 0x7ffd2000, MSG_DONTWAIT)", "recvmsg", &e, NULL);
	/* a timeval too short for one: strace's "???" */
	cm[12] = 29; /* SO_TIMESTAMP_OLD */
	pl_exit(&x, 47, 5);
	pl_cap(&x, 1, PTBPF_CAP_MSGHDR, r, sizeof(r), sizeof(r));
	pl_cap(&x, 1, PTBPF_CAP_CMSG, cm, sizeof(cm), 24);
	expect_call("recvmsg(6, {msg_name=0x7ffd5000, msg_namelen=110 => 0, msg_iov=0x7ffd6000, "
		    "msg_iovlen=1, msg_control=[{cmsg_len=20, cmsg_level=SOL_SOCKET, "
		    "cmsg_type=SO_TIMESTAMP_OLD, cmsg_data=???}], msg_controllen=24, msg_flags=0}, "
		    "MSG_DONTWAIT)",
		    "recvmsg", &e, &x);
	/* a hostile cmsg_len, whose rounding up would wrap: one message */
	cm[12] = 1;
	memset(cm, 0xff, 8);
	cm[0] = 0xfc;
	pl_exit(&x, 47, 5);
	pl_cap(&x, 1, PTBPF_CAP_MSGHDR, r, sizeof(r), sizeof(r));
	pl_cap(&x, 1, PTBPF_CAP_CMSG, cm, sizeof(cm), 24);
	expect_call("recvmsg(6, {msg_name=0x7ffd5000, msg_namelen=110 => 0, msg_iov=0x7ffd6000, "
		    "msg_iovlen=1, msg_control=[{cmsg_len=18446744073709551612, "
		    "cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS, cmsg_data=[8, 0]}], "
		    "msg_controllen=24, msg_flags=0}, MSG_DONTWAIT)",
		    "recvmsg", &e, &x);
	/* a msghdr cut short: the pointer */
	pl_exit(&x, 47, 5);
	pl_cap(&x, 1, PTBPF_CAP_MSGHDR, r, 40, 56);
	expect_call("recvmsg(6, 0x7ffd2000, MSG_DONTWAIT)", "recvmsg", &e, &x);
}

/* timerfd_settime's struct itimerspec (strace 6.1, tests/progs/decode_proc.c) */
static void test_itimerspec(void **state)
{
	uint64_t a[6] = { 8, 0, 0x7ffd1000, 0 };
	const int64_t its[4] = { 0, 0, 0, 2000000 };
	struct pl e;

	(void)state;
	pl_enter(&e, 286, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 2, PTBPF_CAP_ITIMERSPEC, its, sizeof(its), sizeof(its));
	expect_call("timerfd_settime(8, 0, {it_interval={tv_sec=0, tv_nsec=0}, it_value={tv_sec=0, "
		    "tv_nsec=2000000}}, NULL)",
		    "timerfd_settime", &e, NULL);
	/* cut short: the address */
	pl_enter(&e, 286, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 2, PTBPF_CAP_ITIMERSPEC, its, 16, 32);
	expect_call("timerfd_settime(8, 0, 0x7ffd1000, NULL)", "timerfd_settime", &e, NULL);
}

/* pselect6: the sets asked at entry, those ready after the result (strace
 * 6.1, python's select.select) */
static void test_select(void **state)
{
	uint64_t a[6] = { 6, 0x7ffd1000, 0x7ffd2000, 0, 0x7ffd3000, 0x7ffd4000 };
	const uint64_t in = (1u << 3) | (1u << 5), out = 1u << 4, junk = in | 1u << 7;
	const int64_t ts[2] = { 1, 500000000 }, left[2] = { 1, 499997425 };
	const uint64_t sig[2] = { 0, 8 }, sig_set[2] = { 0x7ffd5000, 8 },
		       sig16[2] = { 0x7ffd5000, 16 };
	const uint64_t mask = (1u << (SIGINT - 1)) | (1u << (SIGTERM - 1));
	struct pl e, x;
	struct sbuf b = { 0 };

	(void)state;
	pl_enter(&e, 270, a, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	/* a bit past nfds (7) is not the call's: left out */
	pl_cap(&e, 1, PTBPF_CAP_FDSET, &junk, 8, 8);
	pl_cap(&e, 2, PTBPF_CAP_FDSET, &out, 8, 8);
	pl_cap(&e, 4, PTBPF_CAP_TIMESPEC, ts, sizeof(ts), sizeof(ts));
	pl_cap(&e, 5, PTBPF_CAP_SIGSET_ARG, sig, sizeof(sig), sizeof(sig));
	pl_exit(&x, 270, 3);
	pl_cap(&x, 1, PTBPF_CAP_FDSET, &in, 8, 8);
	pl_cap(&x, 2, PTBPF_CAP_FDSET, &out, 8, 8);
	pl_cap(&x, 4, PTBPF_CAP_TIMESPEC, left, sizeof(left), sizeof(left));
	expect_call("pselect6(6, [3 5], [4], NULL, {tv_sec=1, tv_nsec=500000000}, "
		    "{sigmask=NULL, sigsetsize=8})",
		    "pselect6", &e, &x);
	decode_sys_after_ret(&b, x.b, x.len);
	assert_string_equal(b.s, " (in [3 5], out [4], left {tv_sec=1, tv_nsec=499997425})");
	/* nothing ready: nothing after the result (the result says Timeout) */
	pl_exit(&x, 270, 0);
	pl_cap(&x, 1, PTBPF_CAP_FDSET, "\0\0\0\0\0\0\0\0", 8, 8);
	pl_cap(&x, 4, PTBPF_CAP_TIMESPEC, left, sizeof(left), sizeof(left));
	sb_reset(&b);
	decode_sys_after_ret(&b, x.b, x.len);
	assert_true(!b.s || !strcmp(b.s, ""));
	/* the signal set pointed to, captured after the pair (strace 6.1 of
	 * pselect() with [INT TERM] blocked) */
	pl_enter(&e, 270, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 5, PTBPF_CAP_SIGSET_ARG, sig_set, sizeof(sig_set), sizeof(sig_set));
	pl_cap(&e, 5, PTBPF_CAP_SIGSET, &mask, sizeof(mask), sizeof(mask));
	expect_call("pselect6(6, 0x7ffd1000, 0x7ffd2000, NULL, 0x7ffd3000, "
		    "{sigmask=[INT TERM], sigsetsize=8})",
		    "pselect6", &e, NULL);
	/* not read (a page not in memory): its address, as strace's when it
	 * cannot read it; and one of a size strace does not read */
	pl_enter(&e, 270, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 5, PTBPF_CAP_SIGSET_ARG, sig_set, sizeof(sig_set), sizeof(sig_set));
	expect_call("pselect6(6, 0x7ffd1000, 0x7ffd2000, NULL, 0x7ffd3000, "
		    "{sigmask=0x7ffd5000, sigsetsize=8})",
		    "pselect6", &e, NULL);
	pl_enter(&e, 270, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 5, PTBPF_CAP_SIGSET_ARG, sig16, sizeof(sig16), sizeof(sig16));
	pl_cap(&e, 5, PTBPF_CAP_SIGSET, &mask, sizeof(mask), 16);
	expect_call("pselect6(6, 0x7ffd1000, 0x7ffd2000, NULL, 0x7ffd3000, "
		    "{sigmask=0x7ffd5000, sigsetsize=16})",
		    "pselect6", &e, NULL);
	/* the pair itself not read: the argument's address */
	pl_enter(&e, 270, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 5, PTBPF_CAP_SIGSET_ARG, sig_set, 8, 16);
	expect_call("pselect6(6, 0x7ffd1000, 0x7ffd2000, NULL, 0x7ffd3000, 0x7ffd4000)", "pselect6",
		    &e, NULL);
	sb_free(&b);
}

/* utimensat's pair: names for UTIME_NOW and UTIME_OMIT, a date for a time
 * (strace 6.1, touch -d and touch -a, TZ=UTC and TZ=CET-1) */
static void test_utimensat(void **state)
{
	uint64_t a[6] = { 0, 0, 0x7ffd1000, 0 };
	const int64_t t1[4] = { 86400, 500, 0, 1073741823 }, t2[4] = { 0, 1073741822, 1583294767 };
	struct pl e;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	pl_enter(&e, 280, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 2, PTBPF_CAP_TIMESPEC, t1, sizeof(t1), sizeof(t1));
	expect_call("utimensat(0, NULL, [{tv_sec=86400, tv_nsec=500} /* "
		    "1970-01-02T00:00:00.000000500+0000 */, UTIME_NOW], 0)",
		    "utimensat", &e, NULL);
	setenv("TZ", "CET-1", 1); /* POSIX: no tzdata needed */
	tzset();
	pl_enter(&e, 280, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 2, PTBPF_CAP_TIMESPEC, t2, sizeof(t2), sizeof(t2));
	expect_call("utimensat(0, NULL, [UTIME_OMIT, {tv_sec=1583294767, tv_nsec=0} /* "
		    "2020-03-04T05:06:07+0100 */], 0)",
		    "utimensat", &e, NULL);
	unsetenv("TZ");
	tzset();
}

/* SO_LINGER's value is a struct (strace: {l_onoff=1, l_linger=0}) */
static void test_linger(void **state)
{
	uint64_t a[6] = { 5, SOL_SOCKET, SO_LINGER, 0x7ffd1000, 8 };
	const int32_t lg[2] = { 1, 0 };
	struct pl e;

	(void)state;
	pl_enter(&e, 54, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 3, PTBPF_CAP_INT, lg, sizeof(lg), sizeof(lg));
	expect_call("setsockopt(5, SOL_SOCKET, SO_LINGER, {l_onoff=1, l_linger=0}, 8)",
		    "setsockopt", &e, NULL);
	a[2] = SO_KEEPALIVE;
	pl_enter(&e, 54, a, PTBPF_SYS_CAPS);
	pl_cap(&e, 3, PTBPF_CAP_INT, lg, 4, 4);
	expect_call("setsockopt(5, SOL_SOCKET, SO_KEEPALIVE, [1], 8)", "setsockopt", &e, NULL);
}

/* ioctl: what its third argument points to by command and end (strace 6.1
 * on a pty), the address where the command or the end has nothing. */
static void test_ioctl(void **state)
{
	/* the kernel's struct termios of a fresh pty: 36 bytes */
	static const uint32_t tio[9] = { 0x500, 0x5, 0xbf, 0x8a3b };
	static const uint16_t ws[4] = { 24, 80, 0, 0 };
	static const int32_t pgrp = 4242;
	uint64_t tcgets[6] = { 0, 0x5401, 0x7ffd4000 }, tcsets[6] = { 0, 0x5402, 0x7ffd4000 },
		 winsz[6] = { 2, 0x5413, 0x7ffd5000 }, pg[6] = { 2, 0x540f, 0x7ffd6000 },
		 other[6] = { 3, 0x1234, 0x7ffd7000 };
	struct pl e, x;

	(void)state;
	pl_enter(&e, 16, tcgets, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT);
	pl_cap(&e, 2, PTBPF_CAP_IOCTL, tio, 36, 36);
	pl_exit(&x, 16, 0);
	pl_cap(&x, 2, PTBPF_CAP_IOCTL, tio, 36, 36);
	expect_call("ioctl(0, TCGETS, {c_iflag=ICRNL|IXON, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|OPOST|"
		    "ONLCR, c_cflag=B38400|CS8|CREAD, c_lflag=ISIG|ICANON|ECHO|ECHOE|ECHOK|IEXTEN|"
		    "ECHOCTL|ECHOKE, ...})",
		    "ioctl", &e, &x);
	/* failed (no exit capture): the entry's bytes are not what TCGETS gets */
	expect_call("ioctl(0, TCGETS, 0x7ffd4000)", "ioctl", &e, NULL);
	/* TCSETS: what the call reads, at entry */
	pl_enter(&e, 16, tcsets, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT);
	pl_cap(&e, 2, PTBPF_CAP_IOCTL, tio, 36, 36);
	expect_call("ioctl(0, TCSETS, {c_iflag=ICRNL|IXON, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|OPOST|"
		    "ONLCR, c_cflag=B38400|CS8|CREAD, c_lflag=ISIG|ICANON|ECHO|ECHOE|ECHOK|IEXTEN|"
		    "ECHOCTL|ECHOKE, ...})",
		    "ioctl", &e, NULL);
	pl_enter(&e, 16, winsz, PTBPF_SYS_CAPS_AT_EXIT);
	pl_exit(&x, 16, 0);
	pl_cap(&x, 2, PTBPF_CAP_IOCTL, ws, sizeof(ws), sizeof(ws));
	expect_call("ioctl(2, TIOCGWINSZ, {ws_row=24, ws_col=80, ws_xpixel=0, ws_ypixel=0})",
		    "ioctl", &e, &x);
	pl_enter(&e, 16, pg, PTBPF_SYS_CAPS_AT_EXIT);
	pl_exit(&x, 16, 0);
	pl_cap(&x, 2, PTBPF_CAP_IOCTL, &pgrp, sizeof(pgrp), sizeof(pgrp));
	expect_call("ioctl(2, TIOCGPGRP, [4242])", "ioctl", &e, &x);
	/* too short for what the command needs, or a command without a
	 * decoder: the address */
	pl_exit(&x, 16, 0);
	pl_cap(&x, 2, PTBPF_CAP_IOCTL, &pgrp, 2, 2);
	expect_call("ioctl(2, TIOCGPGRP, 0x7ffd6000)", "ioctl", &e, &x);
	pl_enter(&e, 16, other, PTBPF_SYS_CAPS_AT_EXIT);
	pl_exit(&x, 16, 0);
	pl_cap(&x, 2, PTBPF_CAP_IOCTL, tio, 36, 36);
	expect_call("ioctl(3, _IOC(_IOC_NONE, 0x12, 0x34, 0), 0x7ffd7000)", "ioctl", &e, &x);
}

/* Control messages by level and type (strace 6.1's lines for the same
 * messages of tests/progs/decode_net.c and a python socket): IP_PKTINFO,
 * IP_TTL and IP_TOS; a whole SO_TIMESTAMP_OLD; one without a printer
 * (SOL_IPV6's IPV6_PKTINFO), whose data strace leaves out. */
static void test_cmsgs(void **state)
{
	static const unsigned char
		ip[80] = {
			28,   0, 0, 0, 0,   0, 0, 0, 0,	  0, 0, 0, 8, 0, 0, 0, /* IP_PKTINFO */
			1,    0, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1, 0, 0, 0, 0,
			20,   0, 0, 0, 0,   0, 0, 0, 0,	  0, 0, 0, 2, 0, 0, 0, /* IP_TTL */
			64,   0, 0, 0, 0,   0, 0, 0, 17,  0, 0, 0, 0, 0, 0, 0,
			0,    0, 0, 0, 1,   0, 0, 0, /* IP_TOS */
			0x10, 0, 0, 0, 0,   0, 0, 0,
		};
	unsigned char ts[32] = { 32, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 29 };
	unsigned char v6[40] = { 36, 0, 0, 0, 0, 0, 0, 0, 41, 0, 0, 0, 0x32 };
	int64_t tv[2] = { 1796496201, 823998 };
	struct sbuf b = { 0 };

	(void)state;
	memcpy(ts + 16, tv, sizeof(tv));
	v6[31] = 1;
	assert_int_equal(fmt_cmsgs(&b, ip, sizeof(ip), sizeof(ip)), 0);
	assert_string_equal(
		b.s,
		"[{cmsg_len=28, cmsg_level=SOL_IP, cmsg_type=IP_PKTINFO, cmsg_data={ipi_ifindex="
		"if_nametoindex(\"lo\"), ipi_spec_dst=inet_addr(\"127.0.0.1\"), "
		"ipi_addr=inet_addr(\"127.0.0.1\")}}, {cmsg_len=20, cmsg_level=SOL_IP, "
		"cmsg_type=IP_TTL, cmsg_data=[64]}, {cmsg_len=17, cmsg_level=SOL_IP, "
		"cmsg_type=IP_TOS, cmsg_data=[0x10]}]");
	sb_reset(&b);
	assert_int_equal(fmt_cmsgs(&b, ts, sizeof(ts), sizeof(ts)), 0);
	assert_string_equal(b.s,
			    "[{cmsg_len=32, cmsg_level=SOL_SOCKET, cmsg_type=SO_TIMESTAMP_OLD, "
			    "cmsg_data={tv_sec=1796496201, tv_usec=823998}}]");
	sb_reset(&b);
	assert_int_equal(fmt_cmsgs(&b, v6, sizeof(v6), sizeof(v6)), 0);
	assert_string_equal(b.s, "[{cmsg_len=36, cmsg_level=SOL_IPV6, cmsg_type=0x32}]");
	/* an unknown type of a known level: its value, strace's comment */
	sb_reset(&b);
	ts[12] = 0x4e;
	assert_int_equal(fmt_cmsgs(&b, ts, sizeof(ts), sizeof(ts)), 0);
	assert_string_equal(b.s,
			    "[{cmsg_len=32, cmsg_level=SOL_SOCKET, cmsg_type=0x4e /* SCM_??? */}]");
	sb_free(&b);
}

/* JSON: an ioctl's exit bytes by its entry's command, left out without the entry */
static void test_ioctl_json(void **state)
{
	static const uint16_t ws[4] = { 24, 80, 0, 0 };
	uint64_t winsz[6] = { 2, 0x5413, 0x7ffd5000 }, other[6] = { 3, 0x1234, 0x7ffd7000 };
	struct sbuf b = { 0 };
	struct pl e, x;

	(void)state;
	pl_enter(&e, 16, winsz, PTBPF_SYS_CAPS_AT_EXIT);
	pl_exit(&x, 16, 0);
	pl_cap(&x, 2, PTBPF_CAP_IOCTL, ws, sizeof(ws), sizeof(ws));
	decode_json_exit(&b, "ioctl", sys_desc("ioctl"), x.b, x.len, e.b, e.len);
	assert_string_equal(
		b.s, ",\"decoded\":{\"arg\":\"{ws_row=24, ws_col=80, ws_xpixel=0, ws_ypixel=0}\"}");
	sb_reset(&b);
	decode_json_exit(&b, "ioctl", sys_desc("ioctl"), x.b, x.len, NULL, 0);
	assert_int_equal(b.len, 0);
	/* a command without a decoder: the address, as the text line */
	pl_enter(&e, 16, other, PTBPF_SYS_CAPS_AT_EXIT);
	sb_reset(&b);
	decode_json_exit(&b, "ioctl", sys_desc("ioctl"), x.b, x.len, e.b, e.len);
	assert_string_equal(b.s, ",\"decoded\":{\"arg\":\"0x7ffd7000\"}");
	sb_free(&b);
}

/* One payload through --json's formatter as thread tid's event. */
static void json_event(struct fmt *f, const char *name, trace_event_id_t id, pid_t tid,
		       const struct pl *p)
{
	struct cli_ev ev;

	memset(&ev, 0, sizeof(ev));
	ev.info.posix_event_id = id;
	ev.info.posix_pid = 100;
	ev.tid = tid;
	ev.name = name;
	ev.sys_off = (uint8_t)sys_name_offset(name);
	ev.desc = sys_desc(name + ev.sys_off);
	ev.data = p->b;
	ev.len = p->len;
	fmt_event(f, &ev);
}

/* --json pairs each thread's ioctl exit with its own entry, however many
 * threads have one in progress (101 and 109 once shared a slot). */
static void test_ioctl_json_threads(void **state)
{
	static const uint16_t ws[4] = { 24, 80, 0, 0 };
	static const int32_t pgrp = 4242;
	uint64_t winsz[6] = { 2, 0x5413, 0x7ffd5000 }, pg[6] = { 2, 0x540f, 0x7ffd6000 };
	struct pl e1, e2, x1, x2;
	struct fmt f;
	char *out = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&out, &n);

	(void)state;
	assert_non_null(mem);
	fmt_init(&f, mem, 1, NULL);
	pl_enter(&e1, 16, winsz, PTBPF_SYS_CAPS_AT_EXIT);
	pl_enter(&e2, 16, pg, PTBPF_SYS_CAPS_AT_EXIT);
	pl_exit(&x1, 16, 0);
	pl_cap(&x1, 2, PTBPF_CAP_IOCTL, ws, sizeof(ws), sizeof(ws));
	pl_exit(&x2, 16, 0);
	pl_cap(&x2, 2, PTBPF_CAP_IOCTL, &pgrp, sizeof(pgrp), sizeof(pgrp));
	for (pid_t t = 101; t < 101 + 64; t += 8)
		json_event(&f, "sys_enter_ioctl", PTBPF_EV_SYS_ENTER(16), t, t == 109 ? &e2 : &e1);
	json_event(&f, "sys_exit_ioctl", PTBPF_EV_SYS_EXIT(16), 109, &x2);
	json_event(&f, "sys_exit_ioctl", PTBPF_EV_SYS_EXIT(16), 101, &x1);
	/* an exit is paired once: a second one of 101 has no entry */
	json_event(&f, "sys_exit_ioctl", PTBPF_EV_SYS_EXIT(16), 101, &x1);
	fmt_fini(&f);
	fclose(mem);
	assert_non_null(strstr(out, "\"tid\":109,"));
	assert_non_null(strstr(out, "\"decoded\":{\"arg\":\"[4242]\"}"));
	assert_non_null(strstr(out, "\"decoded\":{\"arg\":\"{ws_row=24, ws_col=80, "
				    "ws_xpixel=0, ws_ypixel=0}\"}"));
	/* the last line: 101's second exit, without decoded bytes */
	n = strlen(out);
	assert_true(n > 1);
	out[n - 1] = '\0';
	assert_null(strstr(strrchr(out, '\n'), "decoded"));
	assert_non_null(strstr(strrchr(out, '\n'), "\"tid\":101,"));
	free(out);
}

/* issue #54's structures: fcntl's locks, rusage, sendfile's offset, clone3 */
static void test_structs(void **state)
{
	uint64_t setlk[6] = { 3, 6 /* F_SETLK */, 0x7ffd0000 },
		 getlk[6] = { 3, 5 /* F_GETLK */, 0x7ffd0000 },
		 setfd[6] = { 3, 2 /* F_SETFD */, 1 }, ru[6] = { 0, 0x7ffd0000 },
		 sf[6] = { 4, 3, 0x7ffd0000, 1100 }, cl[6] = { 0x7ffd0000, 88 },
		 w4[6] = { (uint64_t)-1, 0x7ffd0000, 1 };
	unsigned char fl[32] = { 1, 0, 0, 0 }, rus[144] = { 0 }, ca[88] = { 0 };
	int64_t off0 = 0, off1 = 1100;
	uint64_t flags = 0x3d0f00, v;
	int status = 0x1234;
	struct pl e, x;

	(void)state;
	v = 100;
	memcpy(fl + 16, &v, 8);
	pl_enter(&e, 72, setlk, PTBPF_SYS_CAPS);
	pl_cap(&e, 2, PTBPF_CAP_FLOCK, fl, sizeof(fl), sizeof(fl));
	expect_call("fcntl(3, F_SETLK, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=100})",
		    "fcntl", &e, NULL);
	/* F_GETLK: as the call left it, with l_pid */
	pl_enter(&e, 72, getlk, PTBPF_SYS_CAPS);
	pl_cap(&e, 2, PTBPF_CAP_FLOCK, fl, sizeof(fl), sizeof(fl));
	pl_exit(&x, 72, 0);
	fl[0] = 2;
	pl_cap(&x, 2, PTBPF_CAP_FLOCK, fl, sizeof(fl), sizeof(fl));
	expect_call("fcntl(3, F_GETLK, {l_type=F_UNLCK, l_whence=SEEK_SET, l_start=0, l_len=100, "
		    "l_pid=0})",
		    "fcntl", &e, &x);
	/* a command without a lock: its argument, whatever was captured */
	pl_enter(&e, 72, setfd, PTBPF_SYS_CAPS);
	pl_cap(&e, 2, PTBPF_CAP_FLOCK, fl, sizeof(fl), sizeof(fl));
	expect_call("fcntl(3, F_SETFD, FD_CLOEXEC)", "fcntl", &e, NULL);
	/* getrusage(RUSAGE_SELF, {ru_utime=..., ru_stime=..., ...}) */
	v = 7;
	memcpy(rus + 8, &v, 8);
	pl_enter(&e, 98, ru, PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	pl_exit(&x, 98, 0);
	pl_cap(&x, 1, PTBPF_CAP_RUSAGE, rus, sizeof(rus), sizeof(rus));
	expect_call("getrusage(RUSAGE_SELF, {ru_utime={tv_sec=0, tv_usec=7}, ru_stime={tv_sec=0, "
		    "tv_usec=0}, ...})",
		    "getrusage", &e, &x);
	/* sendfile(4, 3, [0] => [1100], 1100) = 1100 */
	pl_enter(&e, 40, sf, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(2));
	pl_cap(&e, 2, PTBPF_CAP_INT64, &off0, 8, 8);
	pl_exit(&x, 40, 1100);
	pl_cap(&x, 2, PTBPF_CAP_INT64, &off1, 8, 8);
	expect_call("sendfile(4, 3, [0] => [1100], 1100)", "sendfile", &e, &x);
	/* clone3 of a thread: its tid from the result */
	memcpy(ca, &flags, 8);
	pl_enter(&e, 435, cl, PTBPF_SYS_CAPS | PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(0));
	pl_cap(&e, 0, PTBPF_CAP_CLONE_ARGS, ca, sizeof(ca), sizeof(ca));
	pl_exit(&x, 435, 102);
	pl_cap(&x, 0, PTBPF_CAP_CLONE_ARGS, ca, sizeof(ca), sizeof(ca));
	expect_call("clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		    "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, "
		    "child_tid=NULL, parent_tid=NULL, exit_signal=0, stack=NULL, stack_size=0, "
		    "tls=NULL} "
		    "=> {parent_tid=[102]}, 88)",
		    "clone3", &e, &x);
	/* wait4 with WNOHANG finding nothing: the status untouched, its pointer */
	pl_enter(&e, 61, w4, PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	pl_exit(&x, 61, 0);
	pl_cap(&x, 1, PTBPF_CAP_WAIT_STATUS, &status, 4, 4);
	expect_call("wait4(-1, 0x7ffd0000, WNOHANG, NULL)", "wait4", &e, &x);
}

static void test_hostile(void **state)
{
	uint64_t rd[6] = { 3, 0x7ffd1000, 832 }, a[6] = { 0x55aa0000, 0x7ffd2000, 0x7ffd3000 };
	struct pl e, x;
	struct ptbpf_ev_sys_exit_ext *xh = (void *)x.b;
	struct ptbpf_sys_cap *h;

	(void)state;
	pl_enter(&e, 0, rd, PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
	/* a capture that says it is longer than the payload: not printed */
	pl_exit(&x, 0, 832);
	pl_cap(&x, 1, PTBPF_CAP_BYTES, "abcd", 4, 4);
	h = (void *)(x.b + offsetof(struct ptbpf_ev_sys_exit_ext, paths));
	h->len = 5000;
	expect_call("read(3, 0x7ffd1000, 832)", "read", &e, &x);
	/* a header cut short */
	pl_exit(&x, 0, 832);
	x.len += 5;
	expect_call("read(3, 0x7ffd1000, 832)", "read", &e, &x);
	/* paths said longer than the payload: no capture is looked for */
	pl_exit(&x, 0, 832);
	pl_cap(&x, 1, PTBPF_CAP_BYTES, "abcd", 4, 4);
	xh->path_len[0] = 60000;
	expect_call("read(3, 0x7ffd1000, 832)", "read", &e, &x);
	/* a capture the structure's printer finds short: the pointer */
	pl_exit(&x, 5, 0);
	pl_cap(&x, 1, PTBPF_CAP_STAT, "short", 5, 144);
	{
		uint64_t fs[6] = { 3, 0x7ffd4000 };

		pl_enter(&e, 5, fs, PTBPF_SYS_CAPS_AT_EXIT | PTBPF_SYS_EXIT_ARG_FLAG(1));
		expect_call("fstat(3, 0x7ffd4000)", "fstat", &e, &x);
	}
	/* a vector's strings without its end: the pointer */
	pl_enter(&e, 59, a, PTBPF_SYS_CAPS);
	pl_path(&e, 0, 0, "/bin/ls");
	pl_cap(&e, 1, PTBPF_CAP_STR, "ls", 2, 2);
	expect_call("execve(\"/bin/ls\", \"ls\", 0x7ffd3000)", "execve", &e, NULL);
	/* an unknown capture type: the pointer */
	pl_enter(&e, 1, rd, PTBPF_SYS_CAPS);
	pl_cap(&e, 1, 200, "xx", 2, 2);
	expect_call("write(3, 0x7ffd1000, 832)", "write", &e, NULL);
	/* a payload shorter than the fixed part */
	e.len = 10;
	expect_call("write(?)", "write", &e, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_write),
		cmocka_unit_test(test_structs),
		cmocka_unit_test(test_execve),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_poll),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_execve_late_argv),
		cmocka_unit_test(test_ioctl),
		cmocka_unit_test(test_ioctl_json),
		cmocka_unit_test(test_ioctl_json_threads),
		cmocka_unit_test(test_cmsgs),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_iovec),
		cmocka_unit_test(test_msghdr),
		cmocka_unit_test(test_linger),
		cmocka_unit_test(test_itimerspec),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_utimensat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
