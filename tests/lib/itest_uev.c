// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The user-event transport across processes, tested at the uev_consumer
 * layer (no trace stream, no BPF): a traced child linking the shared
 * libposixtrace, names before and after attach, truncation, filtering,
 * threads, prog address, fork with and without inheritance, a flood, a
 * writer killed mid-write and a scribbler.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <trace.h>

#include "itest.h"
#include "uevent/uev_consumer.h"
#include "uevent/uev_shm.h"

struct child {
	pid_t pid;
	int in;	 /* its stdin */
	int out; /* its stdout */
	char buf[4096];
	size_t len;
};

static void child_start_env(struct child *c, const char *mode, const char *arg, bool pending)
{
	int pin[2], pout[2];

	assert_int_equal(pipe2(pin, O_CLOEXEC), 0);
	assert_int_equal(pipe2(pout, O_CLOEXEC), 0);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (!c->pid) {
		dup2(pin[0], 0);
		dup2(pout[1], 1);
		if (pending)
			setenv("PTBPF_UEV_PENDING", "1", 1);
		else
			unsetenv("PTBPF_UEV_PENDING");
		execl(itest_prog("uev_child"), "uev_child", mode, arg, (char *)NULL);
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	c->in = pin[1];
	c->out = pout[0];
	c->len = 0;
}

static void child_start(struct child *c, const char *mode)
{
	child_start_env(c, mode, NULL, false);
}

static void child_send(struct child *c, const char *cmd)
{
	size_t n = strlen(cmd);

	assert_int_equal(write(c->in, cmd, n), (ssize_t)n);
	assert_int_equal(write(c->in, "\n", 1), 1);
}

/* Next line from the child (10 s timeout). */
static char *child_line(struct child *c, char *line, size_t size)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		struct pollfd pfd = { .fd = c->out, .events = POLLIN };
		ssize_t n;

		if (nl) {
			size_t l = (size_t)(nl - c->buf);

			assert_true(l < size);
			memcpy(line, c->buf, l);
			line[l] = 0;
			memmove(c->buf, nl + 1, c->len - l - 1);
			c->len -= l + 1;
			return line;
		}
		assert_true(poll(&pfd, 1, 10000) == 1);
		n = read(c->out, c->buf + c->len, sizeof(c->buf) - c->len);
		assert_true(n > 0);
		c->len += (size_t)n;
	}
}

static int child_finish(struct child *c)
{
	int st;

	child_send(c, "exit");
	assert_int_equal(waitpid(c->pid, &st, 0), c->pid);
	close(c->in);
	close(c->out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define MAXEV 8192

struct rec {
	struct pt_event_hdr h;
	unsigned char data[256];
};

struct rx {
	struct rec *ev;
	unsigned int n;
	uint64_t lost;
	unsigned int lost_calls;
	pid_t sharer; /* a child sharing the region (the kernel's word, in the core) */
};

static int rx_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct rx *r = ctx;

	if (r->n < MAXEV) {
		r->ev[r->n].h = *h;
		memcpy(r->ev[r->n].data, data, h->data_len < 256 ? h->data_len : 256);
	}
	r->n++;
	return 0;
}

static void rx_lost(void *ctx, uint64_t count, uint64_t ts)
{
	struct rx *r = ctx;

	r->lost += count;
	r->lost_calls++;
}

static bool rx_shares(void *ctx, pid_t pid)
{
	struct rx *r = ctx;

	return r->sharer && pid == r->sharer;
}

static void rx_init(struct rx *r, struct uev_cbs *cbs)
{
	memset(r, 0, sizeof(*r));
	r->ev = calloc(MAXEV, sizeof(*r->ev));
	assert_non_null(r->ev);
	memset(cbs, 0, sizeof(*cbs));
	cbs->event = rx_event;
	cbs->lost = rx_lost;
	cbs->shares = rx_shares;
	cbs->ctx = r;
}

static void drain(struct uev_consumer *c, struct uev_cbs *cbs)
{
	int i;

	for (i = 0; i < 1000; i++) {
		int n = uev_consumer__consume(c, cbs);

		assert_true(n >= 0);
		if (!n && !uev_consumer__pending(c))
			return;
		if (!n)
			usleep(1000);
	}
	fail_msg("ring not drained");
}

/*
 * Events of different threads or processes come from different sub-rings
 * of the slot: order them by time like the core does (stable: the order
 * of one writer is kept).
 */
static void rx_sort_ts(struct rx *r)
{
	unsigned int n = r->n < MAXEV ? r->n : MAXEV, i, j;

	for (i = 1; i < n; i++) {
		struct rec t = r->ev[i];

		for (j = i; j > 0 && r->ev[j - 1].h.ts > t.h.ts; j--)
			r->ev[j] = r->ev[j - 1];
		r->ev[j] = t;
	}
}

static void check_payload(const struct rec *e, uint32_t seq)
{
	uint32_t s;
	unsigned int i;

	memcpy(&s, e->data, 4);
	assert_int_equal(s, seq);
	for (i = 4; i < e->h.data_len && i < 256; i++)
		assert_int_equal(e->data[i], (unsigned char)(i * 7 + 3));
}

static void test_basic(void **state)
{
	struct uev_opts o = { .ring_bytes = 1 << 20, .max_data_size = 128 };
	struct uev_opts small = { .ring_bytes = 4096, .max_data_size = 64 };
	unsigned int a, b, c_id, a2, na = 0, nc = 0, nu = 0, nthr = 0, i;
	unsigned long long emit_addr, thr_self, main_self;
	struct uev_consumer *c, *cs;
	struct uev_cbs cbs, cbs2;
	struct rx rx, rx2;
	char line[256], name[64];
	struct child ch;
	int thr_tid, main_tid;
	uint64_t t0, t1, last_ts = 0;

	rx_init(&rx, &cbs);
	rx_init(&rx2, &cbs2);
	child_start(&ch, "basic");
	assert_int_equal(
		sscanf(child_line(&ch, line, sizeof(line)), "ready %u %u %llx", &a, &b, &emit_addr),
		3);
	assert_int_equal(uev_consumer__attach(&c, ch.pid, &o), 0);
	assert_int_equal(uev_consumer__attach(&cs, ch.pid, &small), 0);
	/* names registered before the attach are visible */
	assert_int_equal(uev_consumer__type_name(c, a, name, sizeof(name)), 0);
	assert_string_equal(name, "before.a");
	assert_int_equal(uev_consumer__type_name(c, b, name, sizeof(name)), 0);
	assert_string_equal(name, "before.b");
	assert_int_equal(uev_consumer__set_id_enabled(c, b, false), 0);
	assert_int_equal(uev_consumer__set_enabled(c, true), 0);
	t0 = now_ns();
	child_send(&ch, "go");
	assert_int_equal(sscanf(child_line(&ch, line, sizeof(line)), "ids %u %u", &c_id, &a2), 2);
	assert_int_equal(a2, a);
	assert_int_equal(
		sscanf(child_line(&ch, line, sizeof(line)), "thread %d %llx", &thr_tid, &thr_self),
		2);
	assert_int_equal(
		sscanf(child_line(&ch, line, sizeof(line)), "done %d %llx", &main_tid, &main_self),
		2);
	t1 = now_ns();
	drain(c, &cbs);
	/* and after */
	assert_int_equal(uev_consumer__type_name(c, c_id, name, sizeof(name)), 0);
	assert_string_equal(name, "after.c");
	assert_true(uev_consumer__type_count(c) >= 4);
	assert_int_equal(rx.lost, 0);
	assert_int_equal(rx.n, 100 * 3 + 10);
	for (i = 0; i < rx.n; i++) {
		const struct rec *e = &rx.ev[i];

		assert_int_equal(e->h.pid, ch.pid);
		assert_true(e->h.ts >= t0 && e->h.ts <= t1);
		assert_true(e->h.prog_addr >= emit_addr &&
			    e->h.prog_addr < emit_addr + 1024); /* in emit_one() */
		assert_int_not_equal(e->h.id, b);
		if (e->h.tid == thr_tid) {
			assert_int_equal(e->h.thread, thr_self);
			assert_int_equal(e->h.id, c_id);
			check_payload(e, 1000 + nthr++);
			continue;
		}
		assert_int_equal(e->h.tid, main_tid);
		assert_int_equal(e->h.thread, main_self);
		assert_true(e->h.ts >= last_ts);
		last_ts = e->h.ts;
		if (e->h.id == a) {
			assert_int_equal(e->h.data_len, 16);
			assert_int_equal(e->h.trunc, PT_NOT_TRUNCATED);
			check_payload(e, na++);
		} else if (e->h.id == c_id) {
			assert_int_equal(e->h.data_len, 128);
			assert_int_equal(e->h.trunc, PT_TRUNCATED_RECORD);
			check_payload(e, nc++);
		} else {
			assert_int_equal(e->h.id, POSIX_TRACE_UNNAMED_USEREVENT);
			assert_int_equal(e->h.data_len, 4);
			check_payload(e, nu++);
		}
	}
	assert_int_equal(na, 100);
	assert_int_equal(nc, 100);
	assert_int_equal(nu, 100);
	assert_int_equal(nthr, 10);
	/* the disabled consumer got nothing */
	assert_int_equal(uev_consumer__consume(cs, &cbs2), 0);

	/* a flood into the small ring: overrun counted exactly */
	uev_consumer__set_enabled(c, false);
	uev_consumer__set_enabled(cs, true);
	child_send(&ch, "flood");
	assert_string_equal(child_line(&ch, line, sizeof(line)), "flooded");
	drain(cs, &cbs2);
	assert_true(rx2.n > 0 && rx2.n < 1000);
	assert_int_equal(rx2.n + rx2.lost, 1000);
	for (i = 0; i < rx2.n; i++)
		check_payload(&rx2.ev[i], i);
	assert_int_equal(child_finish(&ch), 0);
	uev_consumer__detach(cs);
	uev_consumer__detach(c);
	free(rx.ev);
	free(rx2.ev);
}

/*
 * PTBPF_UEV_PENDING=1: the events a child emits first thing in main wait in
 * its provisional slot for the first controller, which attaches 100 ms later.
 */
static void test_pending(void **state)
{
	struct uev_opts o = { .ring_bytes = 1 << 20, .max_data_size = 48 };
	struct uev_consumer *c, *c2;
	struct uev_cbs cbs, cbs2;
	struct rx rx, rx2;
	char line[256], name[64];
	struct child ch;
	unsigned int id, i;
	uint64_t t0, t_attach;
	int st;

	rx_init(&rx, &cbs);
	rx_init(&rx2, &cbs2);
	t0 = now_ns();
	child_start_env(&ch, "early", NULL, true);
	assert_int_equal(sscanf(child_line(&ch, line, sizeof(line)), "emitted %u", &id), 1);
	usleep(100000);
	t_attach = now_ns();
	assert_int_equal(uev_consumer__attach(&c, ch.pid, &o), 0);
	/* adopted: the provisional ring, enabled already */
	assert_int_equal(uev_consumer__ring_size(c), UEV_PROV_RING);
	assert_int_equal(uev_consumer__max_data(c), 48);
	/* a second controller gets a fresh slot, none of the early events */
	assert_int_equal(uev_consumer__attach(&c2, ch.pid, &o), 0);
	assert_int_equal(uev_consumer__ring_size(c2), 1 << 20);
	assert_int_equal(uev_consumer__type_name(c, id, name, sizeof(name)), 0);
	assert_string_equal(name, "early.ev");
	drain(c, &cbs);
	drain(c2, &cbs2);
	assert_int_equal(rx.lost, 0);
	assert_int_equal(rx.n, 100);
	assert_int_equal(rx2.n, 0);
	for (i = 0; i < rx.n; i++) {
		const struct rec *e = &rx.ev[i];

		assert_int_equal(e->h.id, id);
		assert_int_equal(e->h.pid, ch.pid);
		/* their real time: before the attach */
		assert_true(e->h.ts >= t0 && e->h.ts < t_attach);
		assert_int_equal(e->h.data_len, 48);
		assert_int_equal(e->h.trunc, PT_TRUNCATED_RECORD);
		check_payload(e, i);
	}
	/* and it goes on as an ordinary slot, exactly once */
	assert_int_equal(uev_consumer__set_enabled(c, true), 0);
	assert_int_equal(uev_consumer__set_enabled(c2, true), 0);
	child_send(&ch, "more");
	assert_string_equal(child_line(&ch, line, sizeof(line)), "more");
	drain(c, &cbs);
	drain(c2, &cbs2);
	assert_int_equal(rx.n, 110);
	assert_int_equal(rx2.n, 10);
	for (i = 100; i < 110; i++)
		check_payload(&rx.ev[i], i);
	for (i = 0; i < 10; i++)
		check_payload(&rx2.ev[i], 100 + i);
	assert_int_equal(uev_consumer__consume(c, &cbs), 0);
	assert_int_equal(child_finish(&ch), 0);
	uev_consumer__detach(c2);
	uev_consumer__detach(c);

	/* without the variable: nothing kept */
	rx.n = 0;
	child_start_env(&ch, "early", NULL, false);
	assert_int_equal(sscanf(child_line(&ch, line, sizeof(line)), "emitted %u", &id), 1);
	assert_int_equal(uev_consumer__attach(&c, ch.pid, &o), 0);
	assert_int_equal(uev_consumer__ring_size(c), 1 << 20);
	drain(c, &cbs);
	assert_int_equal(rx.n, 0);
	child_send(&ch, "more");
	assert_string_equal(child_line(&ch, line, sizeof(line)), "more");
	assert_int_equal(child_finish(&ch), 0);
	uev_consumer__detach(c);

	/* a child that emits and returns from main at once waits (bounded)
	 * at exit for the adoption */
	rx.n = 0;
	child_start_env(&ch, "early", "exit", true);
	usleep(100000);
	assert_int_equal(waitpid(ch.pid, &st, WNOHANG), 0);
	/* its region exists once its constructor ran (slow machines, VMs) */
	{
		int aerr = -ENOENT;

		for (int t = 0; t < 500 && (aerr == -ENOENT || aerr == -EAGAIN); t++) {
			aerr = uev_consumer__attach(&c, ch.pid, &o);
			if (aerr == -ENOENT || aerr == -EAGAIN)
				usleep(10000);
		}
		assert_int_equal(aerr, 0);
	}
	assert_int_equal(uev_consumer__ring_size(c), UEV_PROV_RING);
	t_attach = now_ns();
	assert_int_equal(waitpid(ch.pid, &st, 0), ch.pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(now_ns() - t_attach < 200000000ull);
	drain(c, &cbs);
	assert_int_equal(rx.n, 20);
	assert_int_equal(rx.lost, 0);
	for (i = 0; i < rx.n; i++)
		check_payload(&rx.ev[i], i);
	close(ch.in);
	close(ch.out);
	uev_consumer__detach(c);
	free(rx.ev);
	free(rx2.ev);
}

static void test_fork(void **state)
{
	struct uev_opts inh = { .ring_bytes = 65536, .max_data_size = 64, .inherit = true };
	struct uev_opts noinh = { .ring_bytes = 65536, .max_data_size = 64, .inherit = false };
	struct uev_consumer *ci, *cn, *cc;
	struct uev_cbs cbi, cbn, cbc;
	struct rx ri, rn, rc;
	unsigned int id, id2, idn, i;
	char line[256];
	struct child ch;
	pid_t grandchild;
	uint32_t seq;

	rx_init(&ri, &cbi);
	rx_init(&rn, &cbn);
	rx_init(&rc, &cbc);
	child_start(&ch, "fork");
	assert_int_equal(sscanf(child_line(&ch, line, sizeof(line)), "ready %u", &id), 1);
	assert_int_equal(uev_consumer__attach(&ci, ch.pid, &inh), 0);
	assert_int_equal(uev_consumer__attach(&cn, ch.pid, &noinh), 0);
	uev_consumer__set_enabled(ci, true);
	uev_consumer__set_enabled(cn, true);
	child_send(&ch, "go");
	assert_int_equal(sscanf(child_line(&ch, line, sizeof(line)), "child %d %u %u", &grandchild,
				&id2, &idn),
			 3);
	assert_int_equal(id2, id);	    /* the child keeps the parent's id map */
	ri.sharer = rn.sharer = grandchild; /* forked from the traced process */
	assert_true(idn > id);
	/* a new controller attaching to the forked child */
	assert_int_equal(uev_consumer__attach(&cc, grandchild, &noinh), 0);
	uev_consumer__set_enabled(cc, true);
	child_send(&ch, "go2");
	assert_string_equal(child_line(&ch, line, sizeof(line)), "child-done");
	assert_string_equal(child_line(&ch, line, sizeof(line)), "done");
	drain(ci, &cbi);
	drain(cn, &cbn);
	drain(cc, &cbc);
	rx_sort_ts(&ri);
	rx_sort_ts(&rn);

	/* inherited: P1 C1 C2 P2, the child's under its own pid */
	assert_int_equal(ri.n, 4);
	for (i = 0; i < 4; i++) {
		memcpy(&seq, ri.ev[i].data, 4);
		assert_int_equal(seq, i + 1);
		assert_int_equal(ri.ev[i].h.pid, (seq == 2 || seq == 3) ? grandchild : ch.pid);
	}
	assert_int_equal(ri.ev[2].h.id, idn);
	/* a name the child registered after fork is known to the parent's controllers */
	{
		char name[64];

		assert_int_equal(uev_consumer__type_name(ci, idn, name, sizeof(name)), 0);
		assert_string_equal(name, "f.child");
	}
	/* close-for-child: P1 P2 only */
	assert_int_equal(rn.n, 2);
	for (i = 0; i < 2; i++) {
		memcpy(&seq, rn.ev[i].data, 4);
		assert_int_equal(seq, i == 0 ? 1 : 4);
		assert_int_equal(rn.ev[i].h.pid, ch.pid);
	}
	/* the controller of the child: C2 only */
	assert_int_equal(rc.n, 1);
	memcpy(&seq, rc.ev[0].data, 4);
	assert_int_equal(seq, 3);
	assert_int_equal(rc.ev[0].h.pid, grandchild);
	assert_int_equal(child_finish(&ch), 0);
	uev_consumer__detach(ci);
	uev_consumer__detach(cn);
	uev_consumer__detach(cc);
	free(ri.ev);
	free(rn.ev);
	free(rc.ev);
}

/* Wait until process p runs a program whose path contains name. */
static void wait_exec(pid_t p, const char *name)
{
	char path[64], target[256];
	ssize_t len;
	int t;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)p);
	for (t = 0; t < 1000; t++) {
		len = readlink(path, target, sizeof(target) - 1);
		if (len > 0) {
			target[len] = 0;
			if (strstr(target, name))
				return;
		}
		usleep(5000);
	}
	fail_msg("process %d never ran %s", (int)p, name);
}

static void test_errors(void **state)
{
	struct uev_consumer *c;
	struct uev_opts o = { .ring_bytes = 4096 };
	pid_t p;
	int err;

	/* a process without libposixtrace */
	p = fork();
	if (!p) {
		execl("/bin/sleep", "sleep", "5", (char *)NULL);
		_exit(127);
	}
	wait_exec(p, "sleep");
	err = uev_consumer__attach(&c, p, &o);
	assert_int_equal(err, -ENOENT);
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	assert_int_equal(uev_consumer__attach(&c, p, &o), -ESRCH);
	/* pid 0: this process */
	assert_int_equal(uev_consumer__attach(&c, 0, &o), 0);
	uev_consumer__detach(c);
	/* another user's process, when we are not root: no access */
	if (geteuid() != 0) {
		err = uev_consumer__attach(&c, 1, &o);
		assert_true(err == -EACCES || err == -EPERM || err == -ENOENT);
	}
	/* a region whose creator has not written the header yet: not ready
	 * (-EAGAIN, the caller tries again), then another layout: -EPROTO */
	{
		int fd = memfd_create("ptbpf-uev-test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		struct uev_ctl *ctl;

		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, (off_t)UEV_TOTAL_SIZE), 0);
		assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW), 0);
		ctl = mmap(NULL, UEV_CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		assert_true(ctl != MAP_FAILED);
		assert_int_equal(uev_consumer__attach_fd(&c, fd, getpid(), &o), -EAGAIN);
		ctl->version = UEV_VERSION + 1;
		__atomic_store_n(&ctl->magic, UEV_MAGIC, __ATOMIC_RELEASE);
		assert_int_equal(uev_consumer__attach_fd(&c, fd, getpid(), &o), -EPROTO);
		munmap(ctl, UEV_CTL_SIZE);
		close(fd);
	}
}

static void test_die_mid_write(void **state)
{
	struct uev_opts o = { .ring_bytes = 1 << 20, .max_data_size = 4096 };
	struct uev_consumer *c;
	struct uev_cbs cbs;
	struct rx rx;
	char line[64];
	struct child ch;
	int round;

	for (round = 0; round < 5; round++) {
		rx_init(&rx, &cbs);
		child_start(&ch, "die");
		assert_string_equal(child_line(&ch, line, sizeof(line)), "ready");
		assert_int_equal(uev_consumer__attach(&c, ch.pid, &o), 0);
		uev_consumer__set_enabled(c, true);
		child_send(&ch, "go");
		assert_string_equal(child_line(&ch, line, sizeof(line)), "flooding");
		/* kill it while it writes: once events flow (slow machines, VMs) */
		for (int t = 0; t < 1000 && rx.n == 0; t++) {
			assert_true(uev_consumer__consume(c, &cbs) >= 0);
			usleep(5000);
		}
		usleep(round * 5000);
		kill(ch.pid, SIGKILL);
		waitpid(ch.pid, NULL, 0);
		close(ch.in);
		close(ch.out);
		drain(c, &cbs);
		assert_int_equal(uev_consumer__pending(c), 0);
		assert_true(rx.n > 0);
		uev_consumer__detach(c);
		free(rx.ev);
	}
}

static void test_scribbler(void **state)
{
	struct uev_opts o = { .ring_bytes = 65536, .max_data_size = 64 };
	struct uev_consumer *c, *self;
	struct uev_cbs cbs, cbself;
	struct rx rx, rself;
	unsigned int id, i;
	int seen_err = 0, found, tr;
	char line[64];
	struct child ch;
	trace_event_id_t myid;

	rx_init(&rx, &cbs);
	rx_init(&rself, &cbself);
	/* another stream, on this process: must stay intact */
	assert_int_equal(uev_consumer__attach(&self, 0, &o), 0);
	uev_consumer__set_enabled(self, true);
	assert_int_equal(posix_trace_eventid_open("mine", &myid), 0);

	child_start(&ch, "scribble");
	assert_int_equal(sscanf(child_line(&ch, line, sizeof(line)), "ready %u", &id), 1);
	assert_int_equal(uev_consumer__attach(&c, ch.pid, &o), 0);
	uev_consumer__set_enabled(c, true);
	child_send(&ch, "go");
	assert_string_equal(child_line(&ch, line, sizeof(line)), "emitted");
	child_send(&ch, "scribble");
	assert_int_equal(
		sscanf(child_line(&ch, line, sizeof(line)), "scribbled %d %d", &found, &tr), 2);
	assert_int_equal(found, 1);
	assert_int_equal(tr, -EPERM); /* sealed: cannot shrink under us */
	for (i = 0; i < 100; i++) {
		int n = uev_consumer__consume(c, &cbs);

		assert_true(n >= 0 || n == -EBADMSG);
		if (n == -EBADMSG)
			seen_err++;
		posix_trace_event(myid, &i, sizeof(i));
	}
	assert_true(seen_err > 0);
	/* the names are garbage too: never more than a validated string */
	for (i = 2048; i < 2048 + 256; i++) {
		char name[64];
		int r = uev_consumer__type_name(c, i, name, sizeof(name));

		assert_true(r == 0 || r == -ENOENT || r == -EBADMSG);
	}
	assert_int_equal(child_finish(&ch), 0);
	uev_consumer__detach(c);

	drain(self, &cbself);
	assert_int_equal(rself.n, 100);
	assert_int_equal(rself.lost, 0);
	for (i = 0; i < 100; i++) {
		uint32_t v;

		memcpy(&v, rself.ev[i].data, 4);
		assert_int_equal(v, i);
		assert_int_equal(rself.ev[i].h.id, myid);
	}
	uev_consumer__detach(self);
	free(rx.ev);
	free(rself.ev);
}

/* As an unprivileged user (nobody), tracing its own unprivileged child. */
static int run_unprivileged(void)
{
	struct uev_opts o = { .ring_bytes = 65536, .max_data_size = 256 };
	struct uev_consumer *c;
	struct uev_cbs cbs;
	struct rx rx;
	char line[256];
	struct child ch;
	int err;

	if (geteuid() == 0 && (setgroups(0, NULL) || setgid(65534) || setuid(65534)))
		return 10;
	if (geteuid() == 0)
		return 11;
	/* a process of another user (the test, root): refused */
	err = uev_consumer__attach(&c, getppid(), &o);
	if (getuid() != 0 && err != -EACCES && err != -EPERM)
		return 12;
	rx_init(&rx, &cbs);
	child_start(&ch, "basic");
	child_line(&ch, line, sizeof(line));
	if (strncmp(line, "ready ", 6))
		return 13;
	err = uev_consumer__attach(&c, ch.pid, &o);
	if (err)
		return 14;
	uev_consumer__set_enabled(c, true);
	child_send(&ch, "go");
	child_line(&ch, line, sizeof(line)); /* ids */
	child_line(&ch, line, sizeof(line)); /* thread */
	child_line(&ch, line, sizeof(line)); /* done */
	drain(c, &cbs);
	if (rx.n != 4 * 100 + 10 || rx.lost)
		return 15;
	child_send(&ch, "flood");
	child_line(&ch, line, sizeof(line));
	if (child_finish(&ch))
		return 16;
	uev_consumer__detach(c);
	return 0;
}

static void test_unprivileged(void **state)
{
	pid_t p = fork();
	int st;

	assert_true(p >= 0);
	if (!p)
		_exit(run_unprivileged());
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),	      cmocka_unit_test(test_fork),
		cmocka_unit_test(test_pending),	      cmocka_unit_test(test_errors),
		cmocka_unit_test(test_die_mid_write), cmocka_unit_test(test_scribbler),
		cmocka_unit_test(test_unprivileged),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
