/*
 * Integration tests of probes of unmodified programs through the public
 * API (ptbpf_trace_add_probe): libc's malloc with a uprobe and a
 * uretprobe on tests/progs/probe_alloc.c (allocation sizes and returned
 * pointers known), a function and a semaphore-guarded USDT probe of that
 * program, Debian's python3 USDT function__entry, forks under
 * inheritance, filters, errors, detaching.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"

#define PY "/usr/bin/python3.11"

struct ev {
	struct posix_trace_event_info info;
	size_t len;
	char name[TRACE_EVENT_NAME_MAX];
	union {
		struct ptbpf_ev_probe p;
		unsigned char data[1024];
	};
};

#define MAXEV 20000
static struct ev *evs;
static int nev;

/* A held traced child: started, stopped before its work until go(). */
struct app {
	pid_t pid;
	int go, out;
};

static void app_spawn(struct app *a, char **argv, int held)
{
	int ready[2], go[2], out[2];
	char r[16], g[16], ch, *args[16];
	int n = 0;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(out), 0);
	a->pid = fork();
	if (a->pid == 0) {
		close(ready[0]);
		close(go[1]);
		close(out[0]);
		dup2(out[1], 1);
		if (!held) {
			/* held by the parent until go: its exec comes after the probes */
			if (write(ready[1], "r", 1) != 1 || read(go[0], &ch, 1) != 1)
				_exit(126);
			execv(argv[0], argv);
			_exit(127);
		}
		snprintf(r, sizeof(r), "%d", ready[1]);
		snprintf(g, sizeof(g), "%d", go[0]);
		for (; argv[n]; n++)
			args[n] = argv[n];
		args[n++] = r;
		args[n++] = g;
		args[n] = NULL;
		execv(args[0], args);
		_exit(127);
	}
	close(ready[1]);
	close(go[0]);
	close(out[1]);
	assert_int_equal(read(ready[0], &ch, 1), 1);
	close(ready[0]);
	a->go = go[1];
	a->out = out[0];
}

/* Let it go, wait for its end: its output in buf. */
static void app_run(struct app *a, char *buf, size_t size)
{
	size_t got = 0;
	ssize_t k;
	int st;

	assert_int_equal(write(a->go, "g", 1), 1);
	close(a->go);
	while (got + 1 < size && (k = read(a->out, buf + got, size - 1 - got)) > 0)
		got += (size_t)k;
	buf[got] = 0;
	close(a->out);
	assert_int_equal(waitpid(a->pid, &st, 0), a->pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void read_all(trace_id_t t)
{
	int un;

	nev = 0;
	while (nev < MAXEV) {
		struct ev *e = &evs[nev];

		assert_int_equal(posix_trace_trygetnext_event(t, &e->info, e->data, sizeof(e->data),
							      &e->len, &un),
				 0);
		if (un)
			break;
		assert_int_equal(posix_trace_eventid_get_name(t, e->info.posix_event_id, e->name),
				 0);
		nev++;
	}
}

/* Stop, take everything in, shut down. */
static void finish(trace_id_t t)
{
	usleep(50000);
	assert_int_equal(posix_trace_stop(t), 0);
	read_all(t);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

static trace_id_t create_on(pid_t pid, int inherit)
{
	trace_attr_t attr;
	trace_id_t t;

	posix_trace_attr_init(&attr);
	posix_trace_attr_setstreamsize(&attr, 8u << 20);
	if (inherit)
		posix_trace_attr_setinherited(&attr, POSIX_TRACE_INHERITED);
	assert_int_equal(posix_trace_create(pid, &attr, &t), 0);
	posix_trace_attr_destroy(&attr);
	return t;
}

static trace_event_id_t add1(trace_id_t t, const char *spec)
{
	trace_event_id_t id;
	size_t n = 0;

	assert_int_equal(ptbpf_trace_add_probe(t, spec, &id, 1, &n), 0);
	assert_int_equal(n, 1);
	return id;
}

/* The pointer probe_alloc printed for pid and size, 0 if none. */
static unsigned long printed_ptr(const char *out, pid_t pid, unsigned long size)
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "ptr %d %#lx ", (int)pid, size);
	p = strstr(out, want);
	return p ? strtoul(p + strlen(want), NULL, 16) : 0;
}

/*
 * malloc's entry and return in libc: each of the program's n allocations
 * (sizes 0x5a00 + i) has its entry with the size as first argument, then
 * on the same thread a return with the pointer the program printed.
 */
static void test_libc_malloc(void **state)
{
	static char out[65536];
	char *argv[] = { (char *)itest_prog("probe_alloc"), "40", "-", NULL },
	     name[TRACE_EVENT_NAME_MAX];
	trace_event_id_t in, ret;
	struct app a;
	trace_id_t t;
	int seen = 0;

	(void)state;
	app_spawn(&a, argv, 1);
	t = create_on(a.pid, 0);
	in = add1(t, "uprobe:libc:malloc:hex");
	ret = add1(t, "uretprobe:libc:malloc");
	assert_int_not_equal(in, ret);
	assert_true(in >= PTBPF_EV_USER_BASE && ret >= PTBPF_EV_USER_BASE);
	assert_int_equal(posix_trace_eventid_get_name(t, in, name), 0);
	assert_string_equal(name, "uprobe:libc:malloc:hex");
	assert_int_equal(posix_trace_eventid_get_name(t, ret, name), 0);
	assert_string_equal(name, "uretprobe:libc:malloc");
	/* in the stream's type list */
	{
		trace_event_id_t v;
		int un = 0, found = 0;

		assert_int_equal(posix_trace_eventtypelist_rewind(t), 0);
		while (!posix_trace_eventtypelist_getnext_id(t, &v, &un) && !un)
			found += v == in || v == ret;
		assert_int_equal(found, 2);
	}
	/* added again: the same type, no second attachment */
	assert_int_equal(add1(t, "uprobe:libc:malloc:hex"), in);
	assert_int_equal(posix_trace_start(t), 0);
	app_run(&a, out, sizeof(out));
	finish(t);
	for (int i = 0; i < nev; i++) {
		struct ev *e = &evs[i];
		unsigned long sz = e->p.args[0], want;

		if (e->info.posix_event_id != in || sz < 0x5a00 || sz >= 0x5a00 + 40)
			continue;
		assert_int_equal(e->len, offsetof(struct ptbpf_ev_probe, strs));
		assert_int_equal(e->p.kind, PTBPF_PROBE_UPROBE);
		assert_int_equal(e->p.nargs, 6);
		assert_int_equal(e->info.posix_pid, a.pid);
		want = printed_ptr(out, a.pid, sz);
		assert_true(want != 0);
		/* its return: the next malloc event of the thread */
		for (int j = i + 1; j < nev; j++) {
			if (evs[j].info.posix_thread_id != e->info.posix_thread_id ||
			    (evs[j].info.posix_event_id != in && evs[j].info.posix_event_id != ret))
				continue;
			assert_int_equal(evs[j].info.posix_event_id, ret);
			assert_int_equal(evs[j].p.kind, PTBPF_PROBE_URETPROBE);
			assert_int_equal(evs[j].p.nargs, 1);
			assert_int_equal(evs[j].p.args[0], want);
			break;
		}
		seen++;
	}
	assert_int_equal(seen, 40);
}

/* A function of the program: its six arguments; a filtered probe type records nothing. */
static void test_args_filter(void **state)
{
	static char out[65536];
	char *argv[] = { (char *)itest_prog("probe_alloc"), "10", "-", NULL }, spec[PATH_MAX + 64];
	trace_event_id_t id, other;
	trace_event_set_t set;
	struct app a;
	trace_id_t t;
	int seen = 0, others = 0;

	(void)state;
	app_spawn(&a, argv, 1);
	t = create_on(a.pid, 0);
	snprintf(spec, sizeof(spec), "uprobe:%s:probe_target", argv[0]);
	id = add1(t, spec);
	other = add1(t, "uprobe:libc:free");
	posix_trace_eventset_empty(&set);
	posix_trace_eventset_add(other, &set);
	assert_int_equal(posix_trace_set_filter(t, &set, POSIX_TRACE_SET_EVENTSET), 0);
	assert_int_equal(posix_trace_start(t), 0);
	app_run(&a, out, sizeof(out));
	finish(t);
	for (int i = 0; i < nev; i++) {
		others += evs[i].info.posix_event_id == other;
		if (evs[i].info.posix_event_id != id)
			continue;
		assert_string_equal(evs[i].name, "uprobe:probe_alloc:probe_target");
		assert_int_equal(evs[i].p.args[0], seen);
		for (int k = 1; k < 6; k++)
			assert_int_equal(evs[i].p.args[k], k);
		seen++;
	}
	assert_int_equal(seen, 10);
	assert_int_equal(others, 0);
}

/* A USDT probe guarded by a semaphore: raised, so it fires; its string read. */
static void test_usdt_semaphore(void **state)
{
	static char out[65536];
	char *argv[] = { (char *)itest_prog("probe_alloc"), "12", "-", NULL }, spec[PATH_MAX + 64],
	     want[64];
	trace_event_id_t id;
	struct app a;
	trace_id_t t;
	int seen = 0;

	(void)state;
	app_spawn(&a, argv, 1);
	t = create_on(a.pid, 0);
	snprintf(spec, sizeof(spec), "usdt:%s:ptbpf_test:tick:int,str", argv[0]);
	id = add1(t, spec);
	assert_int_equal(posix_trace_start(t), 0);
	app_run(&a, out, sizeof(out));
	finish(t);
	snprintf(want, sizeof(want), "sem %d 1\n", (int)a.pid);
	assert_non_null(strstr(out, want));
	for (int i = 0; i < nev; i++) {
		struct ptbpf_ev_probe *p = &evs[i].p;

		if (evs[i].info.posix_event_id != id)
			continue;
		assert_string_equal(evs[i].name, "usdt:probe_alloc:ptbpf_test:tick:int,str");
		assert_int_equal(p->kind, PTBPF_PROBE_USDT);
		assert_int_equal(p->nargs, 2);
		assert_int_equal(p->args[0], seen);
		assert_int_equal(p->nstrs, 1);
		assert_int_equal(p->str_arg[0], 1);
		assert_int_equal(p->str_len[0], 5);
		assert_int_equal(evs[i].len, offsetof(struct ptbpf_ev_probe, strs) + 5);
		assert_string_equal(p->strs, "tick");
		seen++;
	}
	assert_int_equal(seen, 12);
}

/*
 * Debian's python3: function__return fires once per Python function call
 * (function__entry of python3.11 fires for few calls, as bpftrace sees
 * too: cli_probes.test.sh compares the two): the script calls fnord 37
 * times.
 */
static void test_python(void **state)
{
	static char out[4096];
	char script[] = "/tmp/itest_probes_XXXXXX.py", *argv[] = { PY, script, NULL };
	trace_event_id_t id;
	struct app a;
	trace_id_t t;
	int fd, seen = 0;
	const char *src = "def fnord(n):\n    return n + 1\n\nfor i in range(37):\n    fnord(i)\n";

	(void)state;
	if (access(PY, X_OK)) {
		print_message("no %s: skipped\n", PY);
		return;
	}
	fd = mkstemps(script, 3);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
	close(fd);
	app_spawn(&a, argv, 0);
	t = create_on(a.pid, 0);
	id = add1(t, "usdt:" PY ":python:function__return:str,str,int");
	assert_int_equal(posix_trace_start(t), 0);
	app_run(&a, out, sizeof(out));
	finish(t);
	unlink(script);
	for (int i = 0; i < nev; i++) {
		struct ptbpf_ev_probe *p = &evs[i].p;
		const char *file, *fn;

		if (evs[i].info.posix_event_id != id)
			continue;
		assert_int_equal(p->nargs, 3);
		assert_int_equal(p->nstrs, 2);
		file = p->strs;
		fn = p->strs + p->str_len[0];
		if (strcmp(file, script) || strcmp(fn, "fnord"))
			continue;
		assert_int_equal(p->args[2], 2); /* the line of the return */
		seen++;
	}
	assert_int_equal(seen, 37);
}

/* With inheritance the child the program forks is probed too; without, not. */
static void test_fork(void **state)
{
	static char out[65536];
	char *argv[] = { (char *)itest_prog("probe_alloc"), "15", "fork", NULL },
	     spec[PATH_MAX + 64];

	(void)state;
	snprintf(spec, sizeof(spec), "uprobe:%s:probe_target", argv[0]);
	for (int inherit = 0; inherit < 2; inherit++) {
		trace_event_id_t id;
		struct app a;
		trace_id_t t;
		int parent = 0, child = 0;

		app_spawn(&a, argv, 1);
		t = create_on(a.pid, inherit);
		id = add1(t, spec);
		assert_int_equal(posix_trace_start(t), 0);
		app_run(&a, out, sizeof(out));
		finish(t);
		for (int i = 0; i < nev; i++) {
			if (evs[i].info.posix_event_id != id)
				continue;
			if (evs[i].info.posix_pid == a.pid)
				parent++;
			else
				child++;
		}
		assert_int_equal(parent, 15);
		assert_int_equal(child, inherit ? 15 : 0);
	}
}

/* ns per call of probe_target in an untraced run of probe_alloc. */
static double untraced_ns(int n)
{
	char cmd[PATH_MAX + 64], line[128];
	double ns = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s %d time", itest_prog("probe_alloc"), n);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		sscanf(line, "ns %*d %lf", &ns);
	pclose(f);
	return ns;
}

/*
 * Without inheritance a probe is attached in the traced process only: an
 * untraced run of the same binary does not trap at each call (a trap costs
 * microseconds; a call, nanoseconds). With inheritance it does, for the
 * children to come: measured only to show the test can tell.
 */
static void test_untraced_not_trapped(void **state)
{
	char *argv[] = { (char *)itest_prog("probe_alloc"), "3", "-", NULL }, spec[PATH_MAX + 64];
	static char out[65536];
	double plain, other, wide;
	struct app a;
	trace_id_t t;
	int seen = 0;
	trace_event_id_t id;

	(void)state;
	snprintf(spec, sizeof(spec), "uprobe:%s:probe_target", argv[0]);
	plain = untraced_ns(20000);
	app_spawn(&a, argv, 1);
	t = create_on(a.pid, 0);
	id = add1(t, spec);
	assert_int_equal(posix_trace_start(t), 0);
	other = untraced_ns(20000);
	app_run(&a, out, sizeof(out));
	finish(t);
	for (int i = 0; i < nev; i++)
		seen += evs[i].info.posix_event_id == id;
	assert_int_equal(seen, 3);
	t = create_on(getpid(), 1);
	add1(t, spec);
	assert_int_equal(posix_trace_start(t), 0);
	wide = untraced_ns(20000);
	assert_int_equal(posix_trace_shutdown(t), 0);
	print_message("probe_target: %.1f ns untraced, %.1f with a probe in another process, "
		      "%.1f with one in every process\n",
		      plain, other, wide);
	assert_true(plain >= 0 && other >= 0);
	assert_true(other < 500 + 10 * plain);
	assert_true(wide > other);
}

/* A process added to the stream after its probes gets them too. */
static void test_add_pid(void **state)
{
	char *argv[] = { (char *)itest_prog("probe_alloc"), "6", "-", NULL }, spec[PATH_MAX + 64];
	static char out[65536];
	trace_event_id_t id;
	struct app a, b;
	trace_id_t t;
	int na = 0, nb = 0;

	(void)state;
	snprintf(spec, sizeof(spec), "uprobe:%s:probe_target", argv[0]);
	app_spawn(&a, argv, 1);
	app_spawn(&b, argv, 1);
	t = create_on(a.pid, 0);
	id = add1(t, spec);
	assert_int_equal(ptbpf_trace_add_pid(t, b.pid), 0);
	assert_int_equal(posix_trace_start(t), 0);
	app_run(&a, out, sizeof(out));
	app_run(&b, out, sizeof(out));
	finish(t);
	for (int i = 0; i < nev; i++) {
		if (evs[i].info.posix_event_id != id)
			continue;
		na += evs[i].info.posix_pid == a.pid;
		nb += evs[i].info.posix_pid == b.pid;
	}
	assert_int_equal(na, 6);
	assert_int_equal(nb, 6);
}

/* An exec of the same binary is probed again, under the same pid. */
static void test_exec(void **state)
{
	static char out[65536];
	char *argv[] = { (char *)itest_prog("probe_alloc"), "7", "exec", NULL },
	     spec[PATH_MAX + 64];
	trace_event_id_t id;
	struct app a;
	trace_id_t t;
	int seen = 0;

	(void)state;
	snprintf(spec, sizeof(spec), "uprobe:%s:probe_target", argv[0]);
	for (int inherit = 0; inherit < 2; inherit++) {
		app_spawn(&a, argv, 1);
		t = create_on(a.pid, inherit);
		id = add1(t, spec);
		assert_int_equal(posix_trace_start(t), 0);
		app_run(&a, out, sizeof(out));
		finish(t);
		seen = 0;
		for (int i = 0; i < nev; i++)
			if (evs[i].info.posix_event_id == id) {
				assert_int_equal(evs[i].info.posix_pid, a.pid);
				seen++;
			}
		assert_int_equal(seen, 14);
	}
}

/* Wildcards attach to each match, each a type of its own; errors are clear. */
static void test_wildcards_errors(void **state)
{
	trace_event_id_t ids[PTBPF_PROBE_MATCH_MAX];
	char name[TRACE_EVENT_NAME_MAX];
	size_t n = 0;
	trace_id_t t;

	(void)state;
	t = create_on(0, 0);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:mallo?", ids, 64, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(posix_trace_eventid_get_name(t, ids[0], name), 0);
	assert_string_equal(name, "uprobe:libc:malloc");
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:malloc_*", ids, 64, &n), 0);
	assert_true(n >= 2);
	for (size_t i = 1; i < n; i++)
		assert_int_not_equal(ids[i], ids[i - 1]);
	/* past the limit (or max) */
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:*", ids, 64, &n), E2BIG);
	assert_int_equal(n, 0);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:malloc_*", ids, 1, &n), E2BIG);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:/nonexistent/x:f", ids, 1, &n), ENOENT);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:nosuchlibxyz:f", ids, 1, &n), ENOENT);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:no_such_symbol_xyz", ids, 1, &n),
			 ESRCH);
	assert_int_equal(ptbpf_trace_add_probe(t, "usdt:libc:nosuch:probe", ids, 1, &n), ESRCH);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:/etc/passwd:f", ids, 1, &n), ENOEXEC);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:malloc:blob", ids, 1, &n), EINVAL);
	assert_int_equal(ptbpf_trace_add_probe(t, "kprobe:libc:malloc", ids, 1, &n), EINVAL);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc", ids, 1, &n), EINVAL);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:malloc", ids, 0, &n), EINVAL);
	assert_int_equal(ptbpf_trace_add_probe(t, NULL, ids, 1, &n), EINVAL);
	assert_int_equal(posix_trace_shutdown(t), 0);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:malloc", ids, 1, &n), EINVAL);
}

/* Links of the probe programs (other tests on the machine have theirs). */
static int count_links(void)
{
	__u32 id = 0;
	int n = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info li = { 0 };
		struct bpf_prog_info pi = { 0 };
		__u32 ll = sizeof(li), pl = sizeof(pi);
		int lfd = bpf_link_get_fd_by_id(id), pfd;

		if (lfd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(lfd, &li, &ll)) {
			pfd = bpf_prog_get_fd_by_id(li.prog_id);
			if (pfd >= 0 && !bpf_obj_get_info_by_fd(pfd, &pi, &pl) &&
			    (!strcmp(pi.name, "ptbpf_uprobe") ||
			     !strcmp(pi.name, "ptbpf_uretprobe")))
				n++;
			if (pfd >= 0)
				close(pfd);
		}
		close(lfd);
	}
	return n;
}

/* Shutdown detaches every probe. */
static void test_detach(void **state)
{
	trace_event_id_t ids[8];
	int before = count_links();
	size_t n;
	trace_id_t t;

	(void)state;
	t = create_on(0, 0);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:malloc", ids, 8, &n), 0);
	assert_int_equal(ptbpf_trace_add_probe(t, "uretprobe:libc:free", ids, 8, &n), 0);
	assert_true(count_links() >= before + 2);
	assert_int_equal(posix_trace_shutdown(t), 0);
	assert_int_equal(count_links(), before);
}

/* A controller that dies: the kernel detaches its probes. */
static void test_controller_dies(void **state)
{
	int before = count_links(), p[2], st;
	char c;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	if (pid == 0) {
		trace_event_id_t ids[4];
		trace_id_t t;
		size_t n;

		close(p[0]);
		if (posix_trace_create(0, NULL, &t) ||
		    ptbpf_trace_add_probe(t, "uprobe:libc:malloc", ids, 4, &n) ||
		    write(p[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	assert_true(count_links() >= before + 1);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	for (int i = 0; i < 200 && count_links() != before; i++)
		usleep(10000);
	assert_int_equal(count_links(), before);
}

/*
 * The probe programs load with every stream (their verification is part
 * of every posix_trace_create): each stays cheap to verify. The kernel
 * counts the instructions it verified from 5.16 on (0 before).
 */
static void test_verifier_cost(void **state)
{
	static const char *const names[] = { "ptbpf_uprobe", "ptbpf_uretprobe", "ptbpf_usdt" };
	int found = 0;
	__u32 id = 0;
	trace_id_t t;

	(void)state;
	t = create_on(0, 0);
	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info pi = { 0 };
		__u32 len = sizeof(pi);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &pi, &len)) {
			for (size_t i = 0; i < 3; i++) {
				if (strcmp(pi.name, names[i]))
					continue;
				found++;
				if (pi.verified_insns >= 10000)
					fail_msg("%s: %u instructions verified", pi.name,
						 pi.verified_insns);
			}
		}
		close(fd);
	}
	assert_int_equal(posix_trace_shutdown(t), 0);
	assert_true(found >= 3);
}

/* Listing: a binary's symbols and USDT probes. */
static int on_name(void *ctx, const char *name)
{
	int *found = ctx;

	if (!strcmp(name, "probe_target") || !strcmp(name, "ptbpf_test:tick"))
		(*found)++;
	return 0;
}

static void test_list(void **state)
{
	char spec[PATH_MAX + 64], path[PATH_MAX];
	int found = 0;

	(void)state;
	snprintf(spec, sizeof(spec), "uprobe:%s", itest_prog("probe_alloc"));
	assert_int_equal(ptbpf_probe_list(spec, 0, on_name, &found), 0);
	assert_int_equal(found, 1);
	snprintf(spec, sizeof(spec), "usdt:%s", itest_prog("probe_alloc"));
	assert_int_equal(ptbpf_probe_list(spec, 0, on_name, &found), 0);
	assert_int_equal(found, 2);
	assert_int_equal(ptbpf_probe_list("usdt:/nonexistent", 0, on_name, &found), ENOENT);
	assert_int_equal(ptbpf_probe_resolve("libc", 0, path, sizeof(path)), 0);
	assert_non_null(strstr(path, "libc.so.6"));
	assert_int_equal(ptbpf_probe_resolve("libc", getpid(), path, sizeof(path)), 0);
	assert_non_null(strstr(path, "libc.so.6"));
	assert_int_equal(ptbpf_probe_resolve("libc", 0, path, 4), ENAMETOOLONG);
}

/* Before Linux 5.15 (no BPF cookies): a clear EOPNOTSUPP, the stream unharmed. */
static void test_unsupported(void **state)
{
	trace_event_id_t id;
	size_t n = 0;
	trace_id_t t;

	(void)state;
	t = create_on(0, 0);
	assert_int_equal(ptbpf_trace_add_probe(t, "uprobe:libc:malloc", &id, 1, &n), EOPNOTSUPP);
	assert_int_equal(n, 0);
	assert_int_equal(posix_trace_start(t), 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* Does the running kernel have BPF cookies (5.15+)? */
static bool kernel_has_cookies(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	uname(&u);
	sscanf(u.release, "%d.%d", &major, &minor);
	return major > 5 || (major == 5 && minor >= 15);
}

int main(void)
{
	const struct CMUnitTest old[] = { cmocka_unit_test(test_unsupported) };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libc_malloc),    cmocka_unit_test(test_args_filter),
		cmocka_unit_test(test_usdt_semaphore), cmocka_unit_test(test_python),
		cmocka_unit_test(test_fork),	       cmocka_unit_test(test_wildcards_errors),
		cmocka_unit_test(test_detach),	       cmocka_unit_test(test_list),
		cmocka_unit_test(test_exec),	       cmocka_unit_test(test_controller_dies),
		cmocka_unit_test(test_verifier_cost),  cmocka_unit_test(test_untraced_not_trapped),
		cmocka_unit_test(test_add_pid),
	};

	itest_require_bpf();
	evs = calloc(MAXEV, sizeof(*evs));
	if (!evs)
		return 1;
	if (!kernel_has_cookies())
		return cmocka_run_group_tests(old, NULL, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
