/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Cgroups against the real kernel: the kernel backend's cgroup programs
 * (backend/kern_cgroup.h) take in a process moved into a cgroup v2
 * directory of the test's own and the processes it creates there, drop it
 * when it moves out, leave out (and count, once) one the tracer may not
 * ptrace; and the API's ptbpf_trace_create_cgroup(),
 * ptbpf_trace_add_cgroup() and ptbpf_cgroup_id(), with their errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>

#include "backend/kern.h"
#include "backend/kern_cgroup.h"
#include "core/cgroup.h"
#include "itest.h"

#define CGROUP2_MAGIC 0x63677270
#define CALLS	      50

static char cg_root[64];   /* where cgroup v2 is mounted */
static char cg_dir[256];   /* the test's cgroup, below it */
static char cg_home[1024]; /* the cgroup the test runs in */

static bool is_cgroup2(const char *path)
{
	struct statfs sf;

	return !statfs(path, &sf) && (uint32_t)sf.f_type == CGROUP2_MAGIC;
}

/* Write pid into the cgroup.procs of dir: move it there. */
static void move_to(const char *dir, pid_t pid)
{
	char path[1100];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%d\n", (int)pid);
	assert_int_equal(fclose(f), 0);
}

/* ------------------------------------------------------------------ */
/* A child that makes its calls when told: 'g' CALLS getppid, 'f' the same
 * in a child of its own, 'q' exit; it answers each with a byte. */

struct child {
	pid_t pid;
	int cmd, ack;
};

static void child_main(int cmd, int ack)
{
	char c;

	while (read(cmd, &c, 1) == 1 && c != 'q') {
		if (c == 'g') {
			for (int i = 0; i < CALLS; i++)
				syscall(SYS_getppid);
		} else if (c == 'f') {
			pid_t p = fork();

			if (!p) {
				for (int i = 0; i < CALLS; i++)
					syscall(SYS_getppid);
				_exit(0);
			}
			waitpid(p, NULL, 0);
		}
		if (write(ack, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static void child_start(struct child *ch)
{
	int cmd[2], ack[2];

	assert_int_equal(pipe(cmd), 0);
	assert_int_equal(pipe(ack), 0);
	ch->pid = fork();
	assert_true(ch->pid >= 0);
	if (!ch->pid) {
		close(cmd[1]);
		close(ack[0]);
		child_main(cmd[0], ack[1]);
	}
	close(cmd[0]);
	close(ack[1]);
	ch->cmd = cmd[1];
	ch->ack = ack[0];
}

static void child_do(struct child *ch, char c)
{
	char r;

	assert_int_equal(write(ch->cmd, &c, 1), 1);
	assert_int_equal(read(ch->ack, &r, 1), 1);
}

static void child_stop(struct child *ch)
{
	char c = 'q';

	assert_int_equal(write(ch->cmd, &c, 1), 1);
	assert_int_equal(waitpid(ch->pid, NULL, 0), ch->pid);
	close(ch->cmd);
	close(ch->ack);
}

/* ------------------------------------------------------------------ */
/* getppid entries of the processes other than pid's parent, by process */

struct count {
	pid_t pid; /* its entries counted apart: n_pid */
	size_t n_pid, n_other;
};

static int count_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct count *c = ctx;

	if (h->id != PTBPF_EV_SYS_ENTER(SYS_getppid))
		return 0;
	if (h->pid == c->pid)
		c->n_pid++;
	else
		c->n_other++;
	return 0;
}

static void count_lost(void *ctx, uint64_t count, uint64_t first_ts)
{
	fail_msg("%llu records lost", (unsigned long long)count);
}

static void drain(struct kern_backend *kb, struct count *c, pid_t pid)
{
	struct kern_cbs cbs = { .event = count_event, .lost = count_lost, .ctx = c };
	int n, empty = 0;

	memset(c, 0, sizeof(*c));
	c->pid = pid;
	while (empty < 3) {
		n = kern_backend__poll(kb, 20, &cbs);
		assert_true(n >= 0);
		empty = n ? 0 : empty + 1;
	}
}

static struct kern_backend *open_kb(void)
{
	struct kern_opts o = { .ring_bytes = 1 << 20 };
	struct kern_backend *kb = NULL;

	assert_int_equal(kern_backend__open(&kb, &o), 0);
	return kb;
}

static uint64_t dir_id(const char *dir)
{
	uint64_t id = 0;

	assert_int_equal(cgroup__id(dir, &id), 0);
	return id;
}

/*
 * Moved in, a process is traced, and the processes it creates there (no
 * inheritance asked); moved out, it is traced no more.
 */
static void test_join_leave(void **state)
{
	struct kern_backend *kb = open_kb();
	struct kern_cgroups *cg = NULL;
	struct kern_tracer t;
	struct child ch;
	struct count c;

	cgroup__tracer(&t);
	assert_int_equal(kern_cgroups__open(&cg, kb, &t), 0);
	assert_int_equal(kern_cgroups__add(cg, dir_id(cg_dir)), 0);
	assert_int_equal(kern_cgroups__add(cg, dir_id(cg_dir)), 0); /* again: one */
	assert_int_equal(kern_backend__set_enabled(kb, true), 0);
	child_start(&ch);

	child_do(&ch, 'g'); /* outside */
	drain(kb, &c, ch.pid);
	assert_int_equal(c.n_pid, 0);

	move_to(cg_dir, ch.pid);
	child_do(&ch, 'g');
	drain(kb, &c, ch.pid);
	assert_int_equal(c.n_pid, CALLS);
	assert_int_equal(c.n_other, 0);

	child_do(&ch, 'f'); /* its child, created in the cgroup */
	drain(kb, &c, ch.pid);
	assert_int_equal(c.n_other, CALLS);

	move_to(cg_home, ch.pid);
	child_do(&ch, 'g');
	child_do(&ch, 'f');
	drain(kb, &c, ch.pid);
	assert_int_equal(c.n_pid + c.n_other, 0);
	assert_int_equal(kern_cgroups__left_out_count(cg), 0);

	child_stop(&ch);
	kern_cgroups__free(cg);
	kern_backend__destroy(kb);
}

/*
 * A tracer of another user (without CAP_SYS_PTRACE) may not ptrace the
 * test's processes: moved in, one is left out, counted once, whoever sees
 * it first (the kernel side, a walk of the cgroup).
 */
static void test_left_out(void **state)
{
	struct kern_backend *kb = open_kb();
	struct kern_cgroups *cg = NULL;
	struct kern_tracer t;
	struct child ch;
	struct count c;

	cgroup__tracer(&t);
	t.uid = t.gid = 12345;
	t.ptrace_cap = false;
	assert_int_equal(kern_cgroups__open(&cg, kb, &t), 0);
	assert_int_equal(kern_cgroups__add(cg, dir_id(cg_dir)), 0);
	assert_int_equal(kern_backend__set_enabled(kb, true), 0);
	child_start(&ch);

	move_to(cg_dir, ch.pid);
	child_do(&ch, 'g');
	drain(kb, &c, ch.pid);
	assert_int_equal(c.n_pid, 0);
	assert_int_equal(kern_cgroups__left_out_count(cg), 1);
	/* the start time user space reads is the kernel side's */
	assert_int_equal(kern_cgroups__left_out(cg, ch.pid, cgroup__proc_start(ch.pid)), 0);
	assert_int_equal(kern_cgroups__left_out_count(cg), 1);
	move_to(cg_home, ch.pid);
	move_to(cg_dir, ch.pid);
	assert_int_equal(kern_cgroups__left_out_count(cg), 1);
	child_do(&ch, 'f'); /* its child: another process, left out too */
	drain(kb, &c, ch.pid);
	assert_int_equal(c.n_pid + c.n_other, 0);
	assert_int_equal(kern_cgroups__left_out_count(cg), 2);

	move_to(cg_home, ch.pid);
	child_stop(&ch);
	kern_cgroups__free(cg);
	kern_backend__destroy(kb);
}

/* ------------------------------------------------------------------ */
/* The API */

/* getppid entries of pid in the stream, until it has none to give. */
static size_t stream_calls(trace_id_t trid, pid_t pid, size_t *others)
{
	trace_event_id_t id;
	struct posix_trace_event_info ev;
	char data[8192];
	size_t len, n = 0;
	int un;

	assert_int_equal(ptbpf_system_eventid("sys_enter_getppid", &id), 0);
	*others = 0;
	for (;;) {
		assert_int_equal(
			posix_trace_trygetnext_event(trid, &ev, data, sizeof(data), &len, &un), 0);
		if (un)
			break;
		if (ev.posix_event_id != id)
			continue;
		if (ev.posix_pid == pid)
			n++;
		else
			(*others)++;
	}
	return n;
}

/*
 * A stream of a cgroup's processes: the one in it at the start, and the
 * one that joins later, not the one outside; nothing left out as root.
 */
static void test_stream(void **state)
{
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	struct child in, later, out;
	trace_id_t trid;
	size_t others;

	child_start(&in);
	child_start(&later);
	child_start(&out);
	move_to(cg_dir, in.pid);
	assert_int_equal(ptbpf_trace_create_cgroup(cg_dir, NULL, -1, &trid), 0);
	assert_int_equal(posix_trace_start(trid), 0);
	move_to(cg_dir, later.pid);
	child_do(&in, 'g');
	child_do(&later, 'g');
	child_do(&out, 'g');
	usleep(50000);
	assert_int_equal(posix_trace_stop(trid), 0);
	assert_int_equal(stream_calls(trid, in.pid, &others), CALLS);
	assert_int_equal(others, CALLS); /* later's */
	assert_int_equal(ptbpf_trace_get_counters(trid, &cnt), 0);
	assert_int_equal(cnt.left_out, 0);
	/* the calling process is no member (pid 0 traces it) */
	move_to(cg_dir, getpid());
	assert_int_equal(ptbpf_trace_add_cgroup(trid, cg_dir), 0);
	move_to(cg_home, getpid());
	assert_int_equal(posix_trace_shutdown(trid), 0);
	move_to(cg_home, in.pid);
	move_to(cg_home, later.pid);
	child_stop(&in);
	child_stop(&later);
	child_stop(&out);
}

static void test_errors(void **state)
{
	char log[] = "/tmp/ptbpf-cg-log-XXXXXX";
	uint64_t id;
	trace_id_t trid;
	struct stat st;
	int fd;

	assert_int_equal(ptbpf_cgroup_id("/nonexistent/cgroup", &id), ENOENT);
	assert_int_equal(ptbpf_cgroup_id("/tmp", &id), EINVAL);
	assert_int_equal(ptbpf_cgroup_id(cg_root, &id), 0);
	assert_int_equal(ptbpf_cgroup_id(NULL, &id), EINVAL);
	assert_int_equal(ptbpf_cgroup_id(cg_dir, NULL), EINVAL);
	assert_int_equal(ptbpf_cgroup_id(cg_dir, &id), 0);
	assert_int_equal(id, dir_id(cg_dir));
	/* a file of a cgroup2 file system, a v1 hierarchy's directory */
	{
		char f[300];

		snprintf(f, sizeof(f), "%s/cgroup.procs", cg_dir);
		assert_int_equal(ptbpf_cgroup_id(f, &id), EINVAL);
	}
	if (!access("/sys/fs/cgroup/cpu/tasks", F_OK))
		assert_int_equal(ptbpf_cgroup_id("/sys/fs/cgroup/cpu", &id), EINVAL);

	assert_int_equal(ptbpf_trace_create_cgroup("/nonexistent", NULL, -1, &trid), ENOENT);
	assert_int_equal(ptbpf_trace_create_cgroup("/tmp", NULL, -1, &trid), EINVAL);
	assert_int_equal(ptbpf_trace_create_cgroup(NULL, NULL, -1, &trid), EINVAL);
	assert_int_equal(ptbpf_trace_create_cgroup(cg_dir, NULL, -1, NULL), EINVAL);
	assert_int_equal(ptbpf_trace_create_cgroup(cg_dir, NULL, -5, &trid), EBADF);
	/* a bad path leaves the log as it was */
	fd = mkstemp(log);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	assert_int_equal(ptbpf_trace_create_cgroup("/tmp", NULL, fd, &trid), EINVAL);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 1);
	close(fd);
	unlink(log);

	assert_int_equal(ptbpf_trace_add_cgroup(123456, cg_dir), EINVAL);
	assert_int_equal(posix_trace_create(0, NULL, &trid), 0);
	assert_int_equal(ptbpf_trace_add_cgroup(trid, "/nonexistent"), ENOENT);
	assert_int_equal(ptbpf_trace_add_cgroup(trid, "/tmp"), EINVAL);
	assert_int_equal(ptbpf_trace_add_cgroup(trid, NULL), EINVAL);
	assert_int_equal(ptbpf_trace_add_cgroup(trid, cg_dir), 0);
	assert_int_equal(posix_trace_shutdown(trid), 0);
}

static int setup(void **state)
{
	char line[512];
	FILE *f;

	if (is_cgroup2("/sys/fs/cgroup"))
		snprintf(cg_root, sizeof(cg_root), "/sys/fs/cgroup");
	else if (is_cgroup2("/sys/fs/cgroup/unified"))
		snprintf(cg_root, sizeof(cg_root), "/sys/fs/cgroup/unified");
	else
		return -1;
	/* "0::/PATH": the test's own cgroup v2 */
	f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(cg_home, sizeof(cg_home), "%s%s", cg_root, line + 3);
		}
	fclose(f);
	snprintf(cg_dir, sizeof(cg_dir), "%s/ptbpf-itest-%d", cg_root, (int)getpid());
	return cg_home[0] && !mkdir(cg_dir, 0755) ? 0 : -1;
}

static int teardown(void **state)
{
	return rmdir(cg_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_leave),
		cmocka_unit_test(test_left_out),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_errors),
	};

	itest_require_bpf();
	if (geteuid() != 0 || setup(NULL)) {
		const char *ci = getenv("CI");

		fprintf(stderr,
			"%s: no cgroup v2 directory of ours (needs root and a cgroup2 mount)\n",
			ci && !strcmp(ci, "true") ? "FAIL" : "SKIP");
		return ci && !strcmp(ci, "true") ? 1 : ITEST_SKIP;
	}
	{
		int ret = cmocka_run_group_tests(tests, NULL, NULL);

		teardown(NULL);
		return ret;
	}
}
