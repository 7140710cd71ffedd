/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel backend against the real kernel: a forked child runs a known
 * sequence of syscalls, a signal, a fork and an exec; the recorded events
 * must show exactly that. Also: the in-kernel filter, exact loss
 * accounting with a tiny ring, thread exclusion, two backends at once and
 * that destroy leaves no BPF program behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>

#include "backend/kern.h"
#include "backend/probe.h"
#include "itest.h"

#define GETPPID_K   17
#define WRITE_N	    4321
#define DROP_CALLS  100000
#define MERGE_CALLS 5000 /* per thread */
#define WM_RUN_NS   1500000000ull

/* Monotonic time now, in ns: the clock of the records. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Collected events */

struct ev {
	struct pt_event_hdr h;
	unsigned char data[1024];
};

struct col {
	struct ev *ev;
	size_t n, cap;
	uint64_t lost, lost_calls, first_lost_ts, last_lost_ts;
	size_t lost_at[8]; /* c->n when each of the first lost() calls came */
	int stop_after;	   /* > 0: event() asks to stop after that many */
};

static int col_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct col *c = ctx;
	struct ev *e;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->ev = realloc(c->ev, c->cap * sizeof(*c->ev));
		assert_non_null(c->ev);
	}
	e = &c->ev[c->n++];
	e->h = *h;
	assert_true(h->data_len <= sizeof(e->data));
	memcpy(e->data, data, h->data_len);
	return c->stop_after && (int)c->n >= c->stop_after;
}

static void col_lost(void *ctx, uint64_t count, uint64_t first_ts)
{
	struct col *c = ctx;

	assert_true(count > 0);
	assert_true(first_ts > 0);
	c->lost += count;
	if (!c->lost_calls)
		c->first_lost_ts = first_ts;
	if (c->lost_calls < 8)
		c->lost_at[c->lost_calls] = c->n;
	c->lost_calls++;
	c->last_lost_ts = first_ts;
}

static void col_drain(struct kern_backend *kb, struct col *c)
{
	struct kern_cbs cbs = { .event = col_event, .lost = col_lost, .ctx = c };
	int n, empty = 0, rounds = 0;

	/* a few empty rounds: records of other cpus may still be in flight */
	while (empty < 3) {
		n = kern_backend__poll(kb, 20, &cbs);
		assert_true(n >= 0);
		empty = n ? 0 : empty + 1;
		assert_true(++rounds < 1000); /* records keep coming: a bug */
	}
}

static int ev_cmp_ts(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	return x->h.ts < y->h.ts ? -1 : x->h.ts > y->h.ts;
}

/*
 * The backend delivers each CPU's ring in order, one ring after the other:
 * merge them by timestamp as the stream does (ties cannot be told apart
 * across CPUs anyway).
 */
static void col_sort(struct col *c)
{
	qsort(c->ev, c->n, sizeof(*c->ev), ev_cmp_ts);
}

static void col_free(struct col *c)
{
	free(c->ev);
	memset(c, 0, sizeof(*c));
}

/* ------------------------------------------------------------------ */
/* The traced child */

enum child_mode { CHILD_FULL, CHILD_GETPPID_LOOP, CHILD_TWO_PHASE, CHILD_TWO_CPUS, CHILD_WM };

#define PHASE2_CALLS 100

struct child_report {
	uint64_t thread;
	pid_t grandchild;
	pid_t thread_tid; /* a second thread that ran and exited */
	int open_fd;
	int null_fd;
};

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	got_usr1 = sig;
}

static void xwrite(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) != (ssize_t)n)
		_exit(100);
}

static void *child_thread(void *arg)
{
	*(pid_t *)arg = gettid();
	return NULL;
}

/*
 * A path of exactly len bytes (without the NUL) that does not exist:
 * "/nonexistent-kb/aaaa...".
 */
static void long_path(char *buf, size_t len)
{
	size_t pre = strlen("/nonexistent-kb/");

	memcpy(buf, "/nonexistent-kb/", pre);
	memset(buf + pre, 'a', len - pre);
	buf[len] = 0;
}

/* openat of a 255 byte path (fits), a 300 byte path (truncated), a bad pointer */
static void child_path_edges(void)
{
	char p[301];

	long_path(p, PTBPF_PATH_MAX - 1);
	openat(AT_FDCWD, p, O_RDONLY);
	long_path(p, 300);
	openat(AT_FDCWD, p, O_RDONLY);
	openat(AT_FDCWD, (const char *)8, O_RDONLY);
}

static void child_full(int wfd, const char *path, struct child_report *rep)
{
	static char buf[WRITE_N];
	char path2[256];
	pthread_t t;
	int st;

	/* with values in the argument registers it does not read */
	for (int i = 0; i < GETPPID_K; i++)
		syscall(SYS_getppid, 11, 22, 33, 44, 55, 66);
	rep->open_fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, 0600,
				    55, 66);
	snprintf(path2, sizeof(path2), "%s.renamed", path);
	renameat(AT_FDCWD, path, AT_FDCWD, path2);
	unlink(path2);
	child_path_edges();
	usleep(1000); /* sleeps for sure: sched_switch_out/in and a wakeup */
	rep->null_fd = open("/dev/null", O_WRONLY);
	if (syscall(SYS_write, rep->null_fd, buf, WRITE_N, 44, 55, 66) != WRITE_N)
		_exit(101);
	signal(SIGUSR1, on_usr1);
	kill(getpid(), SIGUSR1);
	if (!got_usr1)
		_exit(102);
	rep->grandchild = fork();
	if (rep->grandchild == 0)
		_exit(7);
	waitpid(rep->grandchild, &st, 0);
	if (pthread_create(&t, NULL, child_thread, &rep->thread_tid) || pthread_join(t, NULL))
		_exit(105);
	xwrite(wfd, rep, sizeof(*rep));
	execl("/bin/true", "true", (char *)NULL);
	_exit(103);
}

/* A thread of CHILD_TWO_CPUS: getppid calls on the CPU *arg. */
static void *merge_thread(void *arg)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(*(int *)arg, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		_exit(107);
	for (int i = 0; i < MERGE_CALLS; i++)
		syscall(SYS_getppid);
	return NULL;
}

/*
 * A thread of CHILD_WM: for WM_RUN_NS on the CPU *arg, openat of a
 * path (its entry built in a map, then copied out) and getppid (written
 * in place).
 */
static void *wm_thread(void *arg)
{
	uint64_t end = now_ns() + WM_RUN_NS;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(*(int *)arg, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		_exit(109);
	while (now_ns() < end) {
		for (int i = 0; i < 16; i++) {
			syscall(SYS_openat, AT_FDCWD, "/nonexistent-kb/watermark", O_RDONLY);
			syscall(SYS_getppid);
		}
	}
	return NULL;
}

/* CHILD_TWO_CPUS and CHILD_WM: two threads at once, each on its own CPU
 * (ring) if there are two */
static void two_threads(void *(*fn)(void *))
{
	int cpus[2] = { 0, sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0 };
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, fn, &cpus[i]))
			_exit(108);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

static void child_main(int rfd, int wfd, enum child_mode mode, const char *path)
{
	struct child_report rep = { .thread = (uint64_t)pthread_self() };
	char go;

	/* a failed test leaves us waiting: go with it, so that our copy of
	 * its stdout does not keep ctest waiting */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	xwrite(wfd, &rep.thread, sizeof(rep.thread));
	if (read(rfd, &go, 1) != 1)
		_exit(104);
	if (mode == CHILD_FULL)
		child_full(wfd, path, &rep);
	if (mode == CHILD_TWO_PHASE) {
		/* one CPU, so one ring: where lost() comes among the records
		 * is exact within a ring (rings are merged by timestamp) */
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(0, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			_exit(105);
		for (int i = 0; i < DROP_CALLS; i++)
			syscall(SYS_getppid);
		xwrite(wfd, "1", 1);
		if (read(rfd, &go, 1) != 1)
			_exit(106);
		for (int i = 0; i < PHASE2_CALLS; i++)
			syscall(SYS_getppid);
		xwrite(wfd, &rep, sizeof(rep));
		_exit(0);
	}
	if (mode == CHILD_TWO_CPUS || mode == CHILD_WM) {
		two_threads(mode == CHILD_WM ? wm_thread : merge_thread);
		xwrite(wfd, &rep, sizeof(rep));
		_exit(0);
	}
	for (int i = 0; i < DROP_CALLS; i++)
		syscall(SYS_getppid);
	xwrite(wfd, &rep, sizeof(rep));
	_exit(0);
}

struct run {
	pid_t pid;
	struct child_report rep;
	int status;
};

/*
 * Fork the child, let `setup` (add_pid, exclude...) see its pid, enable
 * the backend, let the child run and wait for it.
 */
static void run_child(struct kern_backend *kb, enum child_mode mode, const char *path, bool add,
		      bool exclude, struct run *run)
{
	int p2c[2], c2p[2];
	uint64_t thread;

	assert_int_equal(pipe(p2c), 0);
	assert_int_equal(pipe(c2p), 0);
	run->pid = fork();
	assert_true(run->pid >= 0);
	if (run->pid == 0) {
		close(p2c[1]);
		close(c2p[0]);
		child_main(p2c[0], c2p[1], mode, path);
	}
	close(p2c[0]);
	close(c2p[1]);
	assert_int_equal(read(c2p[0], &thread, sizeof(thread)), sizeof(thread));
	if (add)
		assert_int_equal(kern_backend__add_pid(kb, run->pid), 0);
	if (exclude)
		assert_int_equal(kern_backend__exclude_tid(kb, run->pid), 0);
	assert_int_equal(kern_backend__set_enabled(kb, true), 0);
	assert_int_equal(write(p2c[1], "g", 1), 1);
	assert_int_equal(read(c2p[0], &run->rep, sizeof(run->rep)), sizeof(run->rep));
	assert_int_equal(waitpid(run->pid, &run->status, 0), run->pid);
	assert_true(WIFEXITED(run->status));
	assert_int_equal(WEXITSTATUS(run->status), 0);
	assert_int_equal(run->rep.thread, thread);
	close(p2c[1]);
	close(c2p[0]);
}

static struct kern_backend *open_kb(size_t ring, bool inherit)
{
	struct kern_opts o = { .ring_bytes = ring, .inherit = inherit };
	struct kern_backend *kb = NULL;

	assert_int_equal(kern_backend__open(&kb, &o), 0);
	assert_non_null(kb);
	return kb;
}

static void unique_path(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/ptbpf-kb-%d-%ld", getpid(), (long)random());
}

/* ------------------------------------------------------------------ */
/* The full sequence */

static const struct ptbpf_ev_sys_enter *as_enter(const struct ev *e)
{
	return (const void *)e->data;
}

static const struct ptbpf_ev_sys_exit *as_exit(const struct ev *e)
{
	return (const void *)e->data;
}

/* Index of the next event at or after i of thread tid with id, or -1. */
static long find_next(const struct col *c, size_t i, pid_t tid, uint32_t id)
{
	for (; i < c->n; i++)
		if (c->ev[i].h.tid == tid && c->ev[i].h.id == id)
			return i;
	return -1;
}

static void check_getppid(const struct col *c, pid_t child)
{
	int enters = 0, exits = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];

		if (e->h.tid != child)
			continue;
		if (e->h.id == PTBPF_EV_SYS_ENTER(SYS_getppid)) {
			assert_int_equal(e->h.data_len, offsetof(struct ptbpf_ev_sys_enter, paths));
			assert_int_equal(as_enter(e)->nr, SYS_getppid);
			/* sent in the compact form (bpf/kern.h): the rest is zero,
			 * the arguments too (getppid takes none, whatever its
			 * registers held) */
			assert_int_equal(as_enter(e)->path_len[0] | as_enter(e)->path_len[1] |
						 as_enter(e)->path_arg[0] |
						 as_enter(e)->path_arg[1] | as_enter(e)->flags |
						 as_enter(e)->reserved,
					 0);
			for (int a = 0; a < 6; a++)
				assert_int_equal(as_enter(e)->args[a], 0);
			enters++;
		} else if (e->h.id == PTBPF_EV_SYS_EXIT(SYS_getppid)) {
			assert_int_equal(e->h.data_len, sizeof(struct ptbpf_ev_sys_exit));
			assert_int_equal(as_exit(e)->nr, SYS_getppid);
			assert_int_equal(as_exit(e)->ret, getpid());
			exits++;
		}
	}
	assert_int_equal(enters, GETPPID_K);
	assert_int_equal(exits, GETPPID_K);
}

static void check_openat(const struct col *c, pid_t child, const char *path, int fd)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];
		const struct ptbpf_ev_sys_enter *s = as_enter(e);
		long x;

		if (e->h.tid != child || e->h.id != PTBPF_EV_SYS_ENTER(SYS_openat))
			continue;
		if (s->path_len[0] != strlen(path) + 1 || strcmp(s->paths, path))
			continue;
		assert_int_equal(s->path_arg[0], 1);
		assert_int_equal(s->path_len[1], 0);
		/* openat takes four: the other registers (55, 66) are not
		 * recorded, as in the compact form */
		assert_int_equal(s->args[3], 0600);
		assert_int_equal(s->args[4] | s->args[5], 0);
		assert_int_equal(s->flags, 0);
		assert_int_equal(e->h.trunc, PT_NOT_TRUNCATED);
		assert_int_equal(e->h.data_len,
				 offsetof(struct ptbpf_ev_sys_enter, paths) + strlen(path) + 1);
		x = find_next(c, i + 1, child, PTBPF_EV_SYS_EXIT(SYS_openat));
		assert_true(x > 0);
		assert_int_equal(as_exit(&c->ev[x])->ret, fd);
		return;
	}
	fail_msg("no openat of %s", path);
}

/* The three openat of child_path_edges(), in order. */
static void check_path_edges(const struct col *c, pid_t child)
{
	char fits[PTBPF_PATH_MAX], longp[301];
	const size_t fixed = offsetof(struct ptbpf_ev_sys_enter, paths);
	int step = 0;

	long_path(fits, PTBPF_PATH_MAX - 1);
	long_path(longp, 300);
	for (size_t i = 0; i < c->n && step < 3; i++) {
		const struct ev *e = &c->ev[i];
		const struct ptbpf_ev_sys_enter *s = as_enter(e);

		if (e->h.tid != child || e->h.id != PTBPF_EV_SYS_ENTER(SYS_openat))
			continue;
		if (step == 0 && s->path_len[0] == PTBPF_PATH_MAX && !strcmp(s->paths, fits)) {
			assert_int_equal(s->flags, 0);
			assert_int_equal(e->h.trunc, PT_NOT_TRUNCATED);
			assert_int_equal(e->h.data_len, fixed + PTBPF_PATH_MAX);
			step++;
		} else if (step == 1) {
			assert_int_equal(s->path_len[0], PTBPF_PATH_MAX);
			assert_int_equal(s->flags, PTBPF_SYS_PATH0_TRUNCATED);
			assert_int_equal(e->h.trunc, PT_TRUNCATED_RECORD);
			assert_memory_equal(s->paths, longp, PTBPF_PATH_MAX - 1);
			assert_int_equal(s->paths[PTBPF_PATH_MAX - 1], 0);
			step++;
		} else if (step == 2) {
			assert_int_equal(s->args[1], 8);
			assert_int_equal(s->path_len[0], 0);
			assert_int_equal(s->flags, PTBPF_SYS_PATH0_FAULT);
			assert_int_equal(e->h.data_len, fixed);
			step++;
		}
	}
	assert_int_equal(step, 3);
}

/* renameat(AT_FDCWD, path, AT_FDCWD, path.renamed): two paths */
static void check_rename(const struct col *c, pid_t child, const char *path)
{
	char path2[256];

	snprintf(path2, sizeof(path2), "%s.renamed", path);
	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];
		const struct ptbpf_ev_sys_enter *s = as_enter(e);
		long x;

		if (e->h.tid != child || e->h.id != PTBPF_EV_SYS_ENTER(SYS_renameat))
			continue;
		assert_int_equal(s->path_arg[0], 1);
		assert_int_equal(s->path_arg[1], 3);
		assert_int_equal(s->path_len[0], strlen(path) + 1);
		assert_int_equal(s->path_len[1], strlen(path2) + 1);
		assert_string_equal(s->paths, path);
		assert_string_equal(s->paths + s->path_len[0], path2);
		assert_int_equal(e->h.data_len, offsetof(struct ptbpf_ev_sys_enter, paths) +
							s->path_len[0] + s->path_len[1]);
		x = find_next(c, i + 1, child, PTBPF_EV_SYS_EXIT(SYS_renameat));
		assert_true(x > 0);
		assert_int_equal(as_exit(&c->ev[x])->ret, 0);
		return;
	}
	fail_msg("no renameat");
}

/* The child slept (usleep, wait4) and was woken up. */
static void check_sched(const struct col *c, pid_t child)
{
	bool out = false, in = false, wake = false;

	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];
		const struct ptbpf_ev_sched_switch *s = (const void *)e->data;
		const struct ptbpf_ev_sched_wakeup *w = (const void *)e->data;

		if (e->h.tid != child)
			continue;
		if (e->h.id == PTBPF_EV_SCHED_SWITCH_OUT) {
			assert_int_equal(s->prev_tid, child);
			out |= s->prev_state != 0;
		} else if (e->h.id == PTBPF_EV_SCHED_SWITCH_IN) {
			assert_int_equal(s->next_tid, child);
			in = true;
		} else if (e->h.id == PTBPF_EV_SCHED_WAKEUP) {
			assert_int_equal(w->tid, child);
			assert_int_equal(w->pid, child);
			wake = true;
		}
	}
	assert_true(out);
	assert_true(in);
	assert_true(wake);
}

static void check_write(const struct col *c, pid_t child, int null_fd)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];
		long x;

		if (e->h.tid != child || e->h.id != PTBPF_EV_SYS_ENTER(SYS_write) ||
		    as_enter(e)->args[0] != (uint64_t)null_fd)
			continue;
		assert_int_equal(as_enter(e)->args[2], WRITE_N);
		/* write takes three: the other registers (44, 55, 66) are
		 * not recorded */
		assert_int_equal(as_enter(e)->args[3] | as_enter(e)->args[4] | as_enter(e)->args[5],
				 0);
		x = find_next(c, i + 1, child, PTBPF_EV_SYS_EXIT(SYS_write));
		assert_true(x > 0);
		assert_int_equal(as_exit(&c->ev[x])->ret, WRITE_N);
		return;
	}
	fail_msg("no write to /dev/null");
}

static void check_signal(const struct col *c, pid_t child)
{
	bool gen = false, del = false;

	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];
		const struct ptbpf_ev_signal *s = (const void *)e->data;

		if (e->h.id != PTBPF_EV_SIGNAL_GENERATE && e->h.id != PTBPF_EV_SIGNAL_DELIVER)
			continue;
		if (s->signo != SIGUSR1)
			continue;
		assert_int_equal(e->h.data_len, sizeof(*s));
		assert_int_equal(e->h.pid, child);
		assert_int_equal(s->target_pid, child);
		assert_int_equal(s->target_tid, child);
		if (e->h.id == PTBPF_EV_SIGNAL_GENERATE) {
			assert_int_equal(s->sender_pid, child);
			assert_int_equal(s->code, 0 /* SI_USER */);
			assert_int_equal(s->sender_uid, getuid());
			gen = true;
		} else {
			assert_true(gen);
			assert_int_equal(s->sender_pid, child);
			del = true;
		}
	}
	assert_true(gen);
	assert_true(del);
}

static void check_fork_exit(const struct col *c, pid_t child, pid_t gc, bool inherit)
{
	bool fork_seen = false, texit = false, pexit = false;

	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];
		const struct ptbpf_ev_fork *f = (const void *)e->data;
		const struct ptbpf_ev_exit *x = (const void *)e->data;

		if (e->h.id == PTBPF_EV_PROC_FORK && f->child_pid == gc) {
			assert_int_equal(e->h.pid, child);
			assert_int_equal(f->parent_pid, child);
			assert_int_equal(f->parent_tid, child);
			assert_int_equal(f->child_tid, gc);
			assert_int_equal(f->is_thread, 0);
			fork_seen = true;
		}
		if (e->h.pid != gc)
			continue;
		assert_true(inherit); /* nothing of the grandchild without inherit */
		assert_true(fork_seen);
		if (e->h.id == PTBPF_EV_THREAD_EXIT || e->h.id == PTBPF_EV_PROC_EXIT) {
			assert_int_equal(x->pid, gc);
			assert_int_equal(x->tid, gc);
			assert_int_equal(x->exit_code, 7 << 8);
			assert_int_equal(x->group_dead, 1);
			if (e->h.id == PTBPF_EV_THREAD_EXIT)
				texit = true;
			else
				pexit = texit;
		}
	}
	assert_true(fork_seen);
	assert_int_equal(texit, inherit);
	assert_int_equal(pexit, inherit);
}

/* The second thread: proc_fork as a thread, thread_exit, no proc_exit. */
static void check_thread(const struct col *c, pid_t child, pid_t tid, uint64_t thread)
{
	bool fork_seen = false, texit = false;

	assert_true(tid > 0 && tid != child);
	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];
		const struct ptbpf_ev_fork *f = (const void *)e->data;
		const struct ptbpf_ev_exit *x = (const void *)e->data;

		if (e->h.id == PTBPF_EV_PROC_FORK && f->child_tid == tid) {
			assert_int_equal(f->child_pid, child);
			assert_int_equal(f->parent_tid, child);
			assert_int_equal(f->is_thread, 1);
			fork_seen = true;
		}
		if (e->h.tid != tid)
			continue;
		assert_true(fork_seen);
		assert_int_equal(e->h.pid, child);
		if (PTBPF_EV_IS_SYSCALL(e->h.id)) {
			assert_true(e->h.thread != 0);
			assert_true(e->h.thread != thread);
		}
		assert_int_not_equal(e->h.id, PTBPF_EV_PROC_EXIT);
		if (e->h.id == PTBPF_EV_THREAD_EXIT) {
			assert_int_equal(x->tid, tid);
			assert_int_equal(x->group_dead, 0);
			assert_int_equal(x->exit_code, 0);
			texit = true;
		}
	}
	assert_true(fork_seen);
	assert_true(texit);
}

/* Index of the proc_exec of the child. */
static size_t check_exec(const struct col *c, pid_t child)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];
		const struct ptbpf_ev_exec *x = (const void *)e->data;

		if (e->h.id != PTBPF_EV_PROC_EXEC)
			continue;
		assert_int_equal(e->h.pid, child);
		assert_int_equal(x->pid, child);
		assert_int_equal(x->old_tid, child);
		assert_string_equal(x->filename, "/bin/true");
		assert_int_equal(x->filename_len, strlen("/bin/true") + 1);
		assert_int_equal(x->truncated, 0);
		return i;
	}
	fail_msg("no proc_exec");
	return 0;
}

/* Header fields: pid/tid, per-thread time order, prog_addr and thread. */
static void check_headers(const struct col *c, pid_t child, uint64_t thread, size_t exec_at)
{
	uint64_t last_ts = 0;
	bool child_exit = false;

	for (size_t i = 0; i < c->n; i++) {
		const struct ev *e = &c->ev[i];

		if (e->h.tid != child)
			continue;
		assert_int_equal(e->h.pid, child);
		/* wakeups and signals sent to the thread are written by the
		 * waker's or sender's cpu, not in thread order */
		if (e->h.id != PTBPF_EV_SCHED_WAKEUP && e->h.id != PTBPF_EV_SIGNAL_GENERATE) {
			assert_true(e->h.ts >= last_ts);
			last_ts = e->h.ts;
		}
		if (PTBPF_EV_IS_SYSCALL(e->h.id))
			assert_true(e->h.prog_addr != 0);
		if (i < exec_at && PTBPF_EV_IS_SYSCALL(e->h.id))
			assert_int_equal(e->h.thread, thread);
		if (e->h.id == PTBPF_EV_PROC_EXIT) {
			assert_int_equal(((const struct ptbpf_ev_exit *)e->data)->exit_code, 0);
			child_exit = true;
		}
	}
	assert_true(child_exit);
}

static void full_sequence(bool inherit)
{
	struct kern_backend *kb = open_kb(1 << 22, inherit);
	struct kern_counters kc;
	struct col c = { 0 };
	struct run run;
	char path[128];
	size_t exec_at;

	unique_path(path, sizeof(path));
	run_child(kb, CHILD_FULL, path, true, false, &run);
	col_drain(kb, &c);
	col_sort(&c);
	unlink(path);
	kern_backend__counters(kb, &kc);
	assert_int_equal(kc.dropped, 0);
	assert_int_equal(kc.filtered, 0);
	assert_int_equal(kc.emitted, c.n);
	assert_int_equal(c.lost, 0);

	check_getppid(&c, run.pid);
	check_openat(&c, run.pid, path, run.rep.open_fd);
	check_rename(&c, run.pid, path);
	check_path_edges(&c, run.pid);
	check_write(&c, run.pid, run.rep.null_fd);
	check_sched(&c, run.pid);
	check_signal(&c, run.pid);
	check_fork_exit(&c, run.pid, run.rep.grandchild, inherit);
	check_thread(&c, run.pid, run.rep.thread_tid, run.rep.thread);
	exec_at = check_exec(&c, run.pid);
	check_headers(&c, run.pid, run.rep.thread, exec_at);
	col_free(&c);
	kern_backend__destroy(kb);
}

static void test_full_inherit(void **state)
{
	full_sequence(true);
}

static void test_full_no_inherit(void **state)
{
	full_sequence(false);
}

/* ------------------------------------------------------------------ */

static void only_getppid(uint64_t *bits)
{
	memset(bits, 0, PTBPF_EV_ID_LIMIT / 8);
	bits[PTBPF_EV_SYS_ENTER(SYS_getppid) / 64] |= 1ULL
						      << (PTBPF_EV_SYS_ENTER(SYS_getppid) % 64);
	bits[PTBPF_EV_SYS_EXIT(SYS_getppid) / 64] |= 1ULL << (PTBPF_EV_SYS_EXIT(SYS_getppid) % 64);
}

static void test_filter(void **state)
{
	struct kern_backend *kb = open_kb(1 << 22, true);
	uint64_t bits[PTBPF_EV_ID_LIMIT / 64];
	struct kern_counters kc;
	struct col c = { 0 };
	struct run run;
	char path[128];

	only_getppid(bits);
	assert_int_equal(kern_backend__set_filter(kb, bits), 0);
	unique_path(path, sizeof(path));
	run_child(kb, CHILD_FULL, path, true, false, &run);
	col_drain(kb, &c);
	col_sort(&c);
	unlink(path);
	for (size_t i = 0; i < c.n; i++) {
		assert_true(c.ev[i].h.id == PTBPF_EV_SYS_ENTER(SYS_getppid) ||
			    c.ev[i].h.id == PTBPF_EV_SYS_EXIT(SYS_getppid));
		assert_int_equal(c.ev[i].h.tid, run.pid);
	}
	assert_int_equal(c.n, 2 * GETPPID_K);
	kern_backend__counters(kb, &kc);
	assert_true(kc.filtered > 0);
	assert_int_equal(kc.emitted, 2 * GETPPID_K);
	col_free(&c);
	kern_backend__destroy(kb);
}

/* A 4 KiB ring, 2 * 100000 records and no reader: drops, counted exactly. */
static void test_drops(void **state)
{
	struct kern_backend *kb = open_kb(4096, false);
	uint64_t bits[PTBPF_EV_ID_LIMIT / 64];
	struct kern_counters kc;
	struct col c = { 0 };
	struct run run;

	only_getppid(bits);
	assert_int_equal(kern_backend__set_filter(kb, bits), 0);
	run_child(kb, CHILD_GETPPID_LOOP, NULL, true, false, &run);
	col_drain(kb, &c);
	kern_backend__counters(kb, &kc);
	assert_true(kc.dropped > 0);
	assert_true(c.lost_calls > 0);
	assert_int_equal(c.lost, kc.dropped);
	assert_int_equal(c.n, kc.emitted);
	assert_int_equal(kc.emitted + kc.dropped, 2 * DROP_CALLS);
	assert_int_equal(c.n + c.lost, 2 * DROP_CALLS);
	col_free(&c);

	/* the ring works again after the losses, and reports no new ones */
	run_child(kb, CHILD_GETPPID_LOOP, NULL, true, false, &run);
	col_drain(kb, &c);
	kern_backend__counters(kb, &kc);
	assert_int_equal(c.lost + c.n + 2 * DROP_CALLS, kc.emitted + kc.dropped);
	col_free(&c);
	kern_backend__destroy(kb);
}

/*
 * Drops between records: the ring fills and drops, a partial drain frees
 * some space, more records then drops. lost() must come right before the
 * first record written after the first drops, and again at the end.
 */
static void test_drop_order(void **state)
{
	struct kern_backend *kb = open_kb(4096, false);
	struct kern_cbs cbs = { .event = col_event, .lost = col_lost };
	uint64_t bits[PTBPF_EV_ID_LIMIT / 64], mark;
	struct child_report rep;
	struct kern_counters kc;
	struct col c = { .stop_after = 10 };
	int p2c[2], c2p[2], st;
	size_t first2;
	pid_t pid;
	char b;

	only_getppid(bits);
	assert_int_equal(kern_backend__set_filter(kb, bits), 0);
	assert_int_equal(pipe(p2c), 0);
	assert_int_equal(pipe(c2p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		child_main(p2c[0], c2p[1], CHILD_TWO_PHASE, NULL);
	assert_int_equal(read(c2p[0], &rep.thread, sizeof(rep.thread)), sizeof(rep.thread));
	assert_int_equal(kern_backend__add_pid(kb, pid), 0);
	assert_int_equal(kern_backend__set_enabled(kb, true), 0);
	assert_int_equal(write(p2c[1], "g", 1), 1);
	assert_int_equal(read(c2p[0], &b, 1), 1);
	/* phase 1 done: take 10 records out, no lost() yet */
	cbs.ctx = &c;
	assert_int_equal(kern_backend__consume(kb, &cbs), 10);
	assert_int_equal(c.lost_calls, 0);
	mark = now_ns();
	assert_int_equal(write(p2c[1], "g", 1), 1);
	assert_int_equal(read(c2p[0], &rep, sizeof(rep)), sizeof(rep));
	assert_int_equal(waitpid(pid, &st, 0), pid);
	c.stop_after = 0;
	col_drain(kb, &c);
	kern_backend__counters(kb, &kc);
	assert_int_equal(c.lost, kc.dropped);
	assert_int_equal(c.n, kc.emitted);
	assert_int_equal(c.n + c.lost, 2 * (DROP_CALLS + PHASE2_CALLS));
	/* the first phase 2 record, and the lost() calls */
	for (first2 = 0; first2 < c.n && c.ev[first2].h.ts < mark; first2++)
		;
	assert_true(first2 > 10 && first2 < c.n);
	assert_int_equal(c.lost_calls, 2);
	assert_int_equal(c.lost_at[0], first2);
	assert_int_equal(c.lost_at[1], c.n);
	assert_true(c.first_lost_ts < mark);
	assert_true(c.last_lost_ts > mark);
	close(p2c[0]);
	close(p2c[1]);
	close(c2p[0]);
	close(c2p[1]);
	col_free(&c);
	kern_backend__destroy(kb);
}

/*
 * The CPUs' rings come out merged by timestamp, also across drains that
 * stop early (as a stream's do when its batch is full).
 */
static void test_merge(void **state)
{
	struct kern_backend *kb = open_kb(1 << 24, false);
	struct kern_cbs cbs = { .event = col_event, .lost = col_lost };
	uint64_t bits[PTBPF_EV_ID_LIMIT / 64];
	struct col c = { 0 };
	struct run run;
	size_t back = 0, i;
	pid_t tid0;
	int n;

	only_getppid(bits);
	assert_int_equal(kern_backend__set_filter(kb, bits), 0);
	run_child(kb, CHILD_TWO_CPUS, NULL, true, false, &run);
	cbs.ctx = &c;
	do {
		c.stop_after = (int)c.n + 1000;
		n = kern_backend__consume(kb, &cbs);
		assert_true(n >= 0);
	} while (n > 0);
	assert_int_equal(c.lost, 0);
	assert_int_equal(c.n, 4 * MERGE_CALLS);
	tid0 = c.ev[0].h.tid;
	for (i = 1; i < c.n; i++) {
		if (c.ev[i].h.ts < c.ev[i - 1].h.ts)
			back++;
		if (c.ev[i].h.tid != tid0)
			tid0 = 0; /* both threads seen */
	}
	assert_int_equal(tid0, 0);
	assert_int_equal(back, 0);
	col_free(&c);
	kern_backend__destroy(kb);
}

/* ------------------------------------------------------------------ */
/* The watermark */

/* What the events of consecutive consumes showed. */
struct wm_check {
	uint64_t floor; /* the watermark after the previous consume */
	uint64_t last;	/* the time of the previous event of this consume */
	uint64_t n, below, back, opens, consumes;
	int stop_after, taken; /* > 0: stop each consume after that many */
};

static int wm_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct wm_check *w = ctx;

	w->below += h->ts < w->floor;
	w->back += h->ts < w->last;
	w->last = h->ts;
	w->n++;
	w->opens += h->id == PTBPF_EV_SYS_ENTER(SYS_openat);
	return w->stop_after && ++w->taken >= w->stop_after;
}

/* One consume, its events checked against the last watermark: their number. */
static int wm_consume(struct kern_backend *kb, struct wm_check *w)
{
	struct kern_cbs cbs = { .event = wm_event, .ctx = w };
	uint64_t prev = kern_backend__watermark(kb);
	int n;

	w->last = 0;
	w->taken = 0;
	n = kern_backend__consume(kb, &cbs);
	assert_true(n >= 0);
	assert_true(kern_backend__watermark(kb) >= prev);
	assert_true(kern_backend__watermark(kb) <= now_ns());
	w->floor = kern_backend__watermark(kb);
	w->consumes++;
	return n;
}

/* 0 before the first consume, then never lower; with nothing coming, the
 * time the consume began. */
static void test_watermark(void **state)
{
	struct kern_backend *kb = open_kb(1 << 20, false);
	struct wm_check w = { 0 };
	uint64_t t;

	assert_int_equal(kern_backend__watermark(kb), 0);
	assert_int_equal(kern_backend__add_pid(kb, getpid()), 0);
	assert_int_equal(kern_backend__set_enabled(kb, true), 0);
	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < round; i++)
			syscall(SYS_getppid);
		t = now_ns();
		wm_consume(kb, &w);
		assert_true(w.floor > 0);
		if (!round)
			assert_true(w.floor >= t);
	}
	assert_true(w.n >= 2 * 190);
	assert_int_equal(w.below + w.back, 0);
	/* idle: the process makes no syscall from the clock read to the consume */
	assert_int_equal(kern_backend__set_enabled(kb, false), 0);
	wm_consume(kb, &w);
	t = now_ns();
	wm_consume(kb, &w);
	assert_true(w.floor >= t);
	kern_backend__destroy(kb);
}

/*
 * Two threads on two CPUs write records built in maps (openat's entry with
 * its path) and in place (getppid) while we consume over and over, half
 * the consumes stopped early: no event older than the watermark of the
 * consume before, and each consume's events in time order.
 */
static void test_watermark_stress(void **state)
{
	struct kern_backend *kb = open_kb(1 << 24, false);
	struct wm_check w = { 0 };
	struct child_report rep;
	int p2c[2], c2p[2], st = 0;
	uint64_t t;
	pid_t pid;

	assert_int_equal(pipe(p2c), 0);
	assert_int_equal(pipe(c2p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		child_main(p2c[0], c2p[1], CHILD_WM, NULL);
	assert_int_equal(read(c2p[0], &rep.thread, sizeof(rep.thread)), sizeof(rep.thread));
	assert_int_equal(kern_backend__add_pid(kb, pid), 0);
	assert_int_equal(kern_backend__set_enabled(kb, true), 0);
	assert_int_equal(write(p2c[1], "g", 1), 1);
	while (waitpid(pid, &st, WNOHANG) == 0) {
		w.stop_after = w.consumes % 2 ? 200 : 0;
		wm_consume(kb, &w);
	}
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	w.stop_after = 0;
	while (wm_consume(kb, &w) > 0)
		;
	t = now_ns();
	wm_consume(kb, &w);
	assert_true(w.floor >= t);
	print_message("watermark: %llu events (%llu openat) in %llu consumes, %llu below, %llu "
		      "back\n",
		      (unsigned long long)w.n, (unsigned long long)w.opens,
		      (unsigned long long)w.consumes, (unsigned long long)w.below,
		      (unsigned long long)w.back);
	assert_true(w.opens > 1000);
	/*
	 * An interrupt's record written between a map-built record's clock
	 * read and its copy can still pass a drain (the stream counts such a
	 * record late): a few in millions. Within one drain, such a record
	 * is out of order in its ring (the stream sorts it): under QEMU's
	 * TCG, whose interrupts land far more often inside that window, up
	 * to 6 in 100k; a stamp taken before the reserve gave thousands.
	 * TCG emulating arm64 on a loaded 2-core host: 92 in 100k seen.
	 */
	assert_true(w.below * 100000 <= w.n);
#if defined(__aarch64__)
	assert_true(w.back * 400 <= w.n);
#else
	assert_true(w.back * 2000 <= w.n);
#endif
	close(p2c[0]);
	close(p2c[1]);
	close(c2p[0]);
	close(c2p[1]);
	kern_backend__destroy(kb);
}

/* event() returning non-zero stops the drain; the rest comes next time.
 * kern_backend__pending() says whether records wait. */
static void test_stop(void **state)
{
	struct kern_backend *kb = open_kb(1 << 22, false);
	struct kern_cbs cbs = { .event = col_event, .lost = col_lost };
	uint64_t bits[PTBPF_EV_ID_LIMIT / 64];
	struct col c = { .stop_after = 5 };
	struct run run;

	only_getppid(bits);
	assert_int_equal(kern_backend__set_filter(kb, bits), 0);
	assert_false(kern_backend__pending(kb));
	run_child(kb, CHILD_FULL, "/nonexistent/x", true, false, &run);
	assert_true(kern_backend__pending(kb));
	cbs.ctx = &c;
	assert_int_equal(kern_backend__consume(kb, &cbs), 5);
	assert_int_equal(c.n, 5);
	assert_true(kern_backend__pending(kb));
	c.stop_after = 0;
	col_drain(kb, &c);
	assert_int_equal(c.n, 2 * GETPPID_K);
	assert_false(kern_backend__pending(kb));
	col_free(&c);
	kern_backend__destroy(kb);
}

/* An excluded thread writes nothing, not even as filtered. */
static void test_exclude(void **state)
{
	struct kern_backend *kb = open_kb(1 << 22, true);
	struct kern_counters kc;
	struct col c = { 0 };
	struct run run;
	bool gc_seen = false;

	run_child(kb, CHILD_FULL, "/nonexistent/x", true, true, &run);
	col_drain(kb, &c);
	for (size_t i = 0; i < c.n; i++) {
		assert_int_not_equal(c.ev[i].h.tid, run.pid);
		if (c.ev[i].h.pid == run.rep.grandchild)
			gc_seen = true;
	}
	assert_true(gc_seen); /* other threads of traced processes still are */
	kern_backend__counters(kb, &kc);
	assert_int_equal(kc.filtered, 0);
	col_free(&c);
	kern_backend__destroy(kb);
}

/* Two backends at once: each sees only its own processes. */
static void test_two_backends(void **state)
{
	struct kern_backend *a = open_kb(1 << 20, false), *b = open_kb(1 << 20, false);
	struct kern_counters kc;
	struct col ca = { 0 }, cb = { 0 };
	struct run run;

	run_child(a, CHILD_FULL, "/nonexistent/x", true, false, &run);
	col_drain(a, &ca);
	col_drain(b, &cb);
	assert_true(ca.n > 0);
	assert_int_equal(cb.n, 0);
	kern_backend__counters(b, &kc);
	assert_int_equal(kc.emitted, 0);
	col_free(&ca);
	col_free(&cb);
	kern_backend__destroy(a);
	kern_backend__destroy(b);
}

static void test_disabled(void **state)
{
	struct kern_backend *kb = open_kb(1 << 20, false);
	struct kern_counters kc;
	struct col c = { 0 };

	assert_int_equal(kern_backend__add_pid(kb, getpid()), 0);
	for (int i = 0; i < 10; i++)
		syscall(SYS_getppid);
	col_drain(kb, &c);
	assert_int_equal(c.n, 0);
	kern_backend__counters(kb, &kc);
	assert_int_equal(kc.emitted + kc.dropped + kc.filtered, 0);
	/* enabled: the process traces itself */
	assert_int_equal(kern_backend__set_enabled(kb, true), 0);
	for (int i = 0; i < 10; i++)
		syscall(SYS_getppid);
	assert_int_equal(kern_backend__set_enabled(kb, false), 0);
	col_drain(kb, &c);
	assert_true(c.n >= 20);
	col_free(&c);
	kern_backend__destroy(kb);
}

/* CapEff of /proc/self/status */
static uint64_t cap_eff(void)
{
	unsigned long long v = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* ptbpf_probe_features() on a machine where the backend works. */
static void test_features(void **state)
{
	struct ptbpf_features f = { .sz = sizeof(f) };
	struct utsname u;
	int major = 0, minor = 0;
	uint64_t eff;

	assert_int_equal(ptbpf_probe_features(&f), 0);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(f.kernel_release, u.release);
	assert_true(f.btf && f.ringbuf && f.tp_btf && f.bpf_load_ok);
	assert_int_equal(sscanf(u.release, "%d.%d", &major, &minor), 2);
	assert_int_equal(f.task_pt_regs, major > 5 || (major == 5 && minor >= 15));
	assert_int_equal(f.uprobes, access("/sys/bus/event_source/devices/uprobe", F_OK) == 0);
	eff = cap_eff();
	assert_int_equal(f.cap_sys_ptrace, !!(eff & (1ULL << 19)));
	assert_int_equal(f.cap_sys_admin, !!(eff & (1ULL << 21)));
	assert_int_equal(f.cap_sys_resource, !!(eff & (1ULL << 24)));
	assert_int_equal(f.cap_perfmon, !!(eff & (1ULL << 38)));
	assert_int_equal(f.cap_bpf, !!(eff & (1ULL << 39)));
	assert_int_not_equal(ptbpf_probe_features(NULL), 0);
}

/* Has program id disappeared within ms milliseconds? */
static bool prog_gone(uint32_t id, int ms)
{
	for (int t = 0; t < ms; t += 10) {
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0 && errno == ENOENT)
			return true;
		if (fd >= 0)
			close(fd);
		usleep(10000);
	}
	return false;
}

/* destroy() leaves none of the programs (nor the ring map) behind. */
static void test_destroy(void **state)
{
	struct kern_backend *kb = open_kb(1 << 16, true);
	uint32_t ids[32];
	int n, fd;

	n = kern_backend__prog_ids(kb, ids, 32);
	/* the probe programs are loaded where the kernel has BPF cookies */
	assert_int_equal(n, 11 + (probe__supported() ? 3 : 0));
	for (int i = 0; i < n; i++) {
		fd = bpf_prog_get_fd_by_id(ids[i]);
		assert_true(fd >= 0);
		close(fd);
	}
	kern_backend__destroy(kb);
	/* the kernel frees them after an RCU grace period: wait up to 5 s */
	for (int i = 0; i < n; i++)
		assert_true(prog_gone(ids[i], 5000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_inherit), cmocka_unit_test(test_full_no_inherit),
		cmocka_unit_test(test_filter),	     cmocka_unit_test(test_drops),
		cmocka_unit_test(test_drop_order),   cmocka_unit_test(test_stop),
		cmocka_unit_test(test_exclude),	     cmocka_unit_test(test_two_backends),
		cmocka_unit_test(test_disabled),     cmocka_unit_test(test_destroy),
		cmocka_unit_test(test_features),     cmocka_unit_test(test_merge),
		cmocka_unit_test(test_watermark),    cmocka_unit_test(test_watermark_stress),
	};

	itest_require_bpf();
	srandom(getpid());
	return cmocka_run_group_tests(tests, NULL, NULL);
}
