/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf record: trace a command or running processes, live or into a log. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "record/record.h"
#include "export/export.h"

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * --nice, before the stream exists: the threads the library creates for it
 * inherit this thread's nice value (a per-thread value on Linux); the
 * command, forked already, keeps the caller's. Without the privilege to
 * lower it (CAP_SYS_NICE), it stays as it is.
 */
static void set_nice(int nice)
{
	if (nice != NICE_DEFAULT)
		(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

static int exit_code_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return CLI_EXIT_FAIL;
}

static int parse_pids(struct rec *r, const char *spec)
{
	char *copy = strdup(spec), *tok, *save = NULL;
	int ret = 0;

	r->pids = calloc(strlen(spec) + 1, sizeof(*r->pids));
	r->pidfds = calloc(strlen(spec) + 1, sizeof(*r->pidfds));
	if (!copy || !r->pids || !r->pidfds) {
		free(copy);
		cli_err("out of memory");
		return CLI_EXIT_FAIL;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long p = strtol(tok, &end, 10);
		int fd;

		if (*end || p <= 0 || p > 0x3fffffff) {
			cli_err("invalid pid '%s'", tok);
			ret = CLI_EXIT_USAGE;
			break;
		}
		fd = syscall(SYS_pidfd_open, (pid_t)p, 0);
		if (fd < 0) {
			if (errno == ESRCH) {
				cli_err("no such process: %ld", p);
				ret = CLI_EXIT_NOPID;
			} else {
				cli_err("pidfd_open(%ld): %s", p, strerror(errno));
				ret = CLI_EXIT_FAIL;
			}
			break;
		}
		r->pidfds[r->npids] = fd;
		r->pids[r->npids++] = p;
	}
	free(copy);
	if (!ret && !r->npids) {
		cli_err("-p: no pid given");
		ret = CLI_EXIT_USAGE;
	}
	r->nalive = r->npids;
	return ret;
}

#define CGROUP_V1_MAGIC 0x27e0eb /* CGROUP_SUPER_MAGIC */

/*
 * --cgroup: each path a cgroup v2 directory, said before anything starts;
 * 0 or an exit code.
 */
static int check_cgroups(const struct record_args *a)
{
	for (int i = 0; i < a->ncgroups; i++) {
		const char *path = a->cgroups[i];
		struct statfs sf;
		uint64_t id;
		int err = ptbpf_cgroup_id(path, &id);

		if (!err)
			continue;
		if (err != EINVAL)
			cli_err("--cgroup %s: %s", path, strerror(err));
		else if (!statfs(path, &sf) && (uint32_t)sf.f_type == CGROUP_V1_MAGIC)
			cli_err("--cgroup %s: a cgroup v1 hierarchy's directory, not cgroup v2's "
				"(mounted at /sys/fs/cgroup, or /sys/fs/cgroup/unified beside the "
				"v1 "
				"controllers in a hybrid layout)",
				path);
		else
			cli_err("--cgroup %s: not a cgroup v2 directory (cgroup v2 is mounted at "
				"/sys/fs/cgroup, or /sys/fs/cgroup/unified in a hybrid layout)",
				path);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* One record: its arguments, its state and what it made so far. */
struct run {
	struct record_args a;
	struct rec r;
	struct evsel sel;
	int logfd, created;  /* -o's file; created: by this record (removed if it fails) */
	char *path;	     /* the command's file */
	pid_t first_pid;     /* the stream's first process, 0: --cgroup alone */
	struct separate sep; /* -ff */
	struct follow *fw;   /* --clickhouse: the exporter of the log */
	char *tmp_log;	     /* --clickhouse without -o: the log of its own */
};

/* -p's processes, or the command started held: 0 or an exit code. */
static int record_targets(struct run *u)
{
	struct rec *r = &u->r;
	int err, ret;

	if (u->a.pids) {
		ret = parse_pids(r, u->a.pids);
		if (!ret)
			u->first_pid = r->pids[0];
		return ret;
	}
	if (!u->a.cmd)
		return 0;
	u->path = resolve_cmd(u->a.cmd[0], &err);
	if (!u->path) {
		cli_err("%s: %s", u->a.cmd[0], err == ENOENT ? "command not found" : strerror(err));
		return CLI_EXIT_NOCMD;
	}
	r->child.early_uev = u->a.early_uev;
	r->child.env = u->a.env;
	r->child.nenv = u->a.nenv;
	r->child.daemonize = u->a.daemonize;
	if (u->a.user && (ret = child_user(&r->child, u->a.user)))
		return ret;
	err = start_child(&r->child, u->path, u->a.cmd);
	if (err) {
		cli_err("cannot start %s: %s", u->a.cmd[0], strerror(-err));
		return CLI_EXIT_FAIL;
	}
	r->have_child = 1;
	u->first_pid = r->child.pid;
	view_keep_exec(r->view, r->child.pid);
	early_uev_attach(&r->early, r->child.pid, u->path);
	return 0;
}

/* -o's file (not truncated here: the library does it once it can trace,
 * and a failed start leaves the file as it was, or gone if new), else the
 * live output: 0 or an exit code. */
static int record_outputs(struct run *u)
{
	const char *out = u->a.output;

	if (!out) {
		/* -ff: the lines of no thread (the stream's own) are not kept */
		if (live_out_open(&u->r.out, u->a.separately ? "/dev/null" : u->a.text_out,
				  u->a.append))
			return CLI_EXIT_FAIL;
		if (u->a.separately) {
			struct fmt_look look;

			view_look(&u->a.view, &look, 1, 1, 1);
			if (separate_init(&u->sep, u->r.view, u->a.text_out, u->a.append, &look,
					  u->first_pid))
				return CLI_EXIT_FAIL;
		}
		/* the status line would break the lines printed on the terminal */
		if (u->r.out.tty)
			u->r.status_tty = 0;
		return 0;
	}
	u->logfd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	u->created = u->logfd >= 0 || u->tmp_log;
	if (u->logfd < 0 && errno == EEXIST)
		u->logfd = open(out, O_WRONLY | O_CLOEXEC);
	if (u->logfd < 0) {
		cli_err("cannot create %s: %s", out, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	return 0;
}

/* The POSIX attributes of the options: 0, or -1 (said). */
static int posix_attrs(const struct record_args *a, trace_attr_t *attr)
{
	int err;

	if (a->name && (err = posix_trace_attr_setname(attr, a->name))) {
		cli_err("--name: %s", strerror(err));
		return -1;
	}
	if (a->bufsize && (err = posix_trace_attr_setstreamsize(attr, a->bufsize))) {
		cli_err("--buffer-size: %s", strerror(err));
		return -1;
	}
	if (a->policy >= 0 && (err = posix_trace_attr_setstreamfullpolicy(attr, a->policy))) {
		cli_err("--policy: %s", strerror(err));
		return -1;
	}
	if (a->follow)
		posix_trace_attr_setinherited(attr, POSIX_TRACE_INHERITED);
	if (a->output && (err = posix_trace_attr_setlogfullpolicy(attr, a->log_policy))) {
		cli_err("--log-policy: %s", strerror(err));
		return -1;
	}
	if (a->output && a->log_size && (err = posix_trace_attr_setlogsize(attr, a->log_size))) {
		cli_err("--log-size: %s", strerror(err));
		return -1;
	}
	return 0;
}

/* The stream's attributes: 0, or an exit code (said). */
static int record_attrs(struct run *u, trace_attr_t *attr)
{
	struct record_args *a = &u->a;
	trace_event_set_t kset;

	if (posix_attrs(a, attr))
		return CLI_EXIT_USAGE;
	/* -z, -Z: the other calls dropped in the kernel, where it can */
	ptbpf_trace_attr_setsyscallstatus(attr, view_opts_kernel_status(&a->view));
	/* -y: what each fd is, recorded as fd_info events */
	if (a->view.fds)
		ptbpf_trace_attr_setfdinfo(attr, 1);
	/* -s: what arguments point to, captured for the decoding */
	ptbpf_trace_attr_setstrsize(attr, a->view.strsize);
	/* what may be shown, or what the view needs: the kernel loads and
	 * checks only their programs (-e openat: neither the captures of
	 * other syscalls nor the scheduler's programs) */
	evsel_kernel(&u->sel, &kset);
	view_need(u->r.view, &kset);
	/* -c alone: the kernel counts the syscalls, none is recorded */
	if (record_counts_only(a))
		record_no_syscalls(&kset);
	ptbpf_trace_attr_setevents(attr, &kset);
	ptbpf_trace_attr_setaggregate(attr, record_aggregate(a));
	if (a->view.stacks && record_set_stacks(attr, a))
		return CLI_EXIT_USAGE;
	return 0;
}

/* The stream created: 0, or an exit code (said; nothing to shut down). */
static int record_create(struct run *u)
{
	trace_attr_t attr;
	int err, ret;

	posix_trace_attr_init(&attr);
	ret = record_attrs(u, &attr);
	if (ret) {
		posix_trace_attr_destroy(&attr);
		return ret;
	}
	set_nice(u->a.nice);
	if (!u->first_pid) /* --cgroup alone: its processes only, not ours */
		err = ptbpf_trace_create_cgroup(u->a.cgroups[0], &attr, u->logfd, &u->r.trid);
	else if (u->a.output)
		err = posix_trace_create_withlog(u->first_pid, &attr, u->logfd, &u->r.trid);
	else
		err = posix_trace_create(u->first_pid, &attr, &u->r.trid);
	posix_trace_attr_destroy(&attr);
	if (!err)
		return 0;
	if (u->first_pid)
		return cli_trace_error(err, "cannot trace", (long)u->first_pid);
	return cli_trace_error(err, "cannot trace cgroup", 0);
}

/* The other cgroups and processes, and the filter of -e: 0 or an exit code. */
static int record_select(struct run *u)
{
	struct rec *r = &u->r;
	trace_event_set_t filter, shown;
	int i, err;

	/* processes add up: those of the cgroups and the others */
	for (i = u->first_pid ? 0 : 1; i < u->a.ncgroups; i++) {
		err = ptbpf_trace_add_cgroup(r->trid, u->a.cgroups[i]);
		if (err) {
			cli_err("--cgroup %s: %s", u->a.cgroups[i],
				err == E2BIG ? "too many cgroups" : strerror(err));
			return CLI_EXIT_FAIL;
		}
	}
	for (i = 1; i < r->npids; i++) {
		err = ptbpf_trace_add_pid(r->trid, r->pids[i]);
		if (err)
			return cli_trace_error(err, "cannot trace", (long)r->pids[i]);
	}
	if (evsel_select(&u->sel, r->trid, &shown))
		return CLI_EXIT_USAGE;
	/* what -e selects is shown; recorded, that and what -P needs */
	if (view_opts_active(&u->a.view))
		view_set_shown(r->view, &shown);
	view_need(r->view, &shown);
	evsel_complement(&shown, &filter);
	err = posix_trace_set_filter(r->trid, &filter, POSIX_TRACE_SET_EVENTSET);
	if (err) {
		cli_err("cannot set the event filter: %s", strerror(err));
		return CLI_EXIT_FAIL;
	}
	return 0;
}

/* Tracing started, then the command let go: 0 or an exit code. */
static int record_start(struct run *u)
{
	struct rec *r = &u->r;
	struct sigaction sa = { .sa_handler = on_signal };
	int err;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (r->have_child) {
		early_uev_wait(&r->early); /* before the exec */
		child_ready(&r->child);
	}
	err = posix_trace_start(r->trid);
	if (err)
		return cli_trace_error(err, "cannot start tracing", (long)u->first_pid);
	r->t0 = now_mono();
	r->cpu0 = cpu_self();
	if (!r->have_child)
		return 0;
	err = child_go(&r->child, 1);
	if (!err)
		return 0;
	cli_err("%s: cannot execute: %s", u->a.cmd[0], strerror(err));
	child_wait(&r->child, NULL, 0);
	r->have_child = 0;
	posix_trace_stop(r->trid);
	return CLI_EXIT_NOCMD;
}

/* -c alone: the kernel's counts into the tables */
static void record_view_stats(struct rec *r)
{
	struct ptbpf_syscall_stats *st;
	size_t n;
	int err = record_stats(r->trid, &st, &n);

	if (err)
		cli_err("cannot read the syscalls' counts: %s", strerror(err));
	view_add_stats(r->view, st, n);
	for (size_t i = 0; i < n; i++)
		r->kcounted += st[i].calls;
	free(st);
}

/* The stream shut down (its counters in cnt), its errors said. */
static void record_shutdown(struct run *u, struct ptbpf_counters *cnt)
{
	struct rec *r = &u->r;
	int err;

	if (got_signal && r->have_child && !r->child_done && !r->sig_passed_at)
		kill(r->child.pid, got_signal);
	/* --duration ran out, the log or the text cannot be written or memory
	 * ran out: the command goes on untraced; do not wait for it */
	if ((!got_signal || r->log_error || r->out.err) && r->have_child && !r->child_done &&
	    !targets_done(r))
		r->have_child = 0;
	/* the last push, with every count; the server stopped */
	record_metrics_end(r, 1);
	ptbpf_trace_get_counters(r->trid, cnt);
	if (record_counts_only(&u->a))
		record_view_stats(r);
	err = posix_trace_shutdown(r->trid);
	if (!r->log_error && u->a.output)
		r->log_error = err ? err : cnt->log_error;
	if (r->log_error)
		cli_err("writing %s: %s: the events before the error are in it", u->a.output,
			strerror(r->log_error));
	else if (err)
		cli_err("closing the trace: %s", strerror(err));
	if (r->out.err)
		cli_err("writing %s: %s: the lines before the error are in it", r->out.name,
			strerror(r->out.err));
}

/*
 * --clickhouse: the log complete, the exporter sends the rest; what it
 * could not send (said by it, with the command to send it) is exit
 * status 8, and a log of its own is kept for that command.
 */
static int record_ch_end(struct run *u, int ret)
{
	int st;

	if (!u->fw)
		return ret;
	st = follow_finish(u->fw);
	u->fw = NULL;
	if (st == CLI_EXIT_OK && u->tmp_log)
		unlink(u->tmp_log);
	if (st == CLI_EXIT_OK)
		return ret;
	if (u->tmp_log)
		cli_err("the events are in %s", u->tmp_log);
	return CLI_EXIT_UNSENT;
}

/* After the events: the tables, the summary, the files closed, the
 * command's status; the exit code (ret: so far). */
static int record_end(struct run *u, int ret)
{
	struct rec *r = &u->r;
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	int err;

	record_shutdown(u, &cnt);

	if (u->a.output && !r->log_error && (u->a.view.cflag || u->a.view.threads) &&
	    (err = record_log_view(r)))
		ret = err;
	/* as strace -c: the table on stderr, after the events */
	if (view_report(r->view, stderr)) {
		cli_err("out of memory");
		ret = CLI_EXIT_FAIL;
	}
	if (u->a.separately && separate_close(&u->sep, &r->printed))
		ret = CLI_EXIT_FAIL;
	print_summary(r, &cnt, u->logfd);
	if (u->a.output && close(u->logfd) && !r->log_error) {
		cli_err("writing %s: %s", u->a.output, strerror(errno));
		ret = CLI_EXIT_FAIL;
	}
	u->logfd = -1;
	if (r->log_error || r->out.err)
		ret = CLI_EXIT_FAIL;
	ret = record_ch_end(u, ret);
	if (r->have_child) {
		if (!r->child_done && child_wait(&r->child, &r->child_status, 0) == 1)
			r->child_done = 1;
		if (r->child_done && ret == CLI_EXIT_OK)
			ret = exit_code_of(r->child_status);
	}
	/* an error closing it (the writes were checked before the summary) */
	if (r->out.f && !r->out.err && live_out_close(&r->out)) {
		cli_err("writing %s: %s", r->out.name, strerror(r->out.err));
		if (ret == CLI_EXIT_OK)
			ret = CLI_EXIT_FAIL;
	}
	return ret;
}

/* A record that failed before its end: the stream shut down (traced), the
 * command killed before its exec, the new file removed. */
static void record_abort(struct run *u, int traced)
{
	record_metrics_end(&u->r, 0);
	if (traced)
		posix_trace_shutdown(u->r.trid);
	if (u->r.have_child) {
		child_go(&u->r.child, 0);
		close(u->r.child.go_fd);
		child_wait(&u->r.child, NULL, 0);
	}
	if (u->logfd >= 0)
		close(u->logfd);
	u->logfd = -1;
	if (u->created)
		unlink(u->a.output);
}

static void record_free(struct run *u)
{
	struct rec *r = &u->r;

	early_uev_detach(&r->early);
	child_free(&r->child);
	if (u->sep.files.e) { /* the record failed before its end */
		uint64_t n = 0;

		separate_close(&u->sep, &n);
	}
	live_out_close(&r->out);
	for (int i = 0; i < r->npids; i++)
		if (r->pidfds[i] >= 0)
			close(r->pidfds[i]);
	free(r->pids);
	free(r->pidfds);
	free(u->path);
	free(u->tmp_log);
	evsel_free(&u->sel);
	view_free(r->view);
}

/*
 * --clickhouse: its URL and table checked before anything starts; without
 * -o, a log of its own in $TMPDIR (created by this record: removed if it
 * fails). 0 or an exit code.
 */
static int record_ch_check(struct run *u)
{
	const char *dir = getenv("TMPDIR");
	struct ch_conn *c;
	int fd;

	if (!u->a.clickhouse)
		return 0;
	if (u->a.ch_table && !ch_table_ok(u->a.ch_table)) {
		cli_err("--clickhouse-table: '%s' is not a table name ([DB.]NAME)", u->a.ch_table);
		return CLI_EXIT_USAGE;
	}
	c = ch_open(u->a.clickhouse);
	if (!c)
		return CLI_EXIT_USAGE;
	ch_close(c);
	if (u->a.output)
		return 0;
	if (asprintf(&u->tmp_log, "%s/ptbpf-XXXXXX.log", dir && *dir ? dir : "/tmp") < 0) {
		u->tmp_log = NULL;
		cli_err("out of memory");
		return CLI_EXIT_FAIL;
	}
	fd = mkostemps(u->tmp_log, 4, O_CLOEXEC);
	if (fd < 0) {
		cli_err("cannot create a log in %s: %s", dir && *dir ? dir : "/tmp",
			strerror(errno));
		return CLI_EXIT_FAIL;
	}
	close(fd);
	u->a.output = u->tmp_log;
	return 0;
}

static struct follow *record_follow(struct run *u)
{
	struct follow_opts o = { u->a.clickhouse, u->a.ch_table, u->a.ch_host, u->a.ch_retry };

	return follow_start(u->a.output, &o);
}

/* Until the stream exists: 0, or an exit code (the record aborted). */
static int record_prepare(struct run *u)
{
	int ret = record_targets(u);

	if (ret)
		return ret;
	/* a probe on a missing file or symbol: said before anything is traced */
	if (evsel_check_probes(&u->sel, u->a.pids ? u->first_pid : 0))
		ret = CLI_EXIT_USAGE;
	if (!ret) {
		/* -P: the fds the processes have open already (the command's, from us) */
		for (int i = 0; i < u->r.npids; i++)
			view_scan_pid(u->r.view, u->r.pids[i]);
		if (u->r.have_child)
			view_scan_pid(u->r.view, u->r.child.pid);
		ret = record_outputs(u);
	}
	if (!ret)
		ret = record_create(u);
	if (ret)
		record_abort(u, 0);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	static struct run u;
	int ret;

	memset(&u, 0, sizeof(u));
	u.a = (struct record_args){ .policy = -1,
				    .log_policy = POSIX_TRACE_APPEND,
				    .bufsize = RECORD_DEFAULT_BUFSIZE,
				    .nice = NICE_DEFAULT };
	u.logfd = -1;
	view_opts_init(&u.a.view);
	if (argp_parse(&record_argp, argc, argv, ARGP_IN_ORDER, NULL, &u.a))
		return CLI_EXIT_USAGE;
	/* before anything is started or written: a bad -e changes nothing */
	if (evsel_parse(&u.sel, u.a.events ? u.a.events : EVSEL_DEFAULT))
		return CLI_EXIT_USAGE;
	u.sel.strace_lines = 1;
	/* events other than syscalls named by -e: printed in strace's look too */
	u.a.view.named_events = u.a.events && u.sel.other && !u.sel.from_all;
	/* before the command starts: the library finds the targets in /proc,
	 * and another namespace's names other processes by their pids */
	ret = cli_env_check_proc();
	if (ret) {
		evsel_free(&u.sel);
		return ret;
	}
	u.r.a = &u.a;
	u.r.status_tty = isatty(STDERR_FILENO);
	if (view_new(&u.r.view, &u.a.view, NULL, 1))
		ret = CLI_EXIT_USAGE;
	if (!ret)
		ret = check_cgroups(&u.a);
	if (!ret)
		ret = record_ch_check(&u);
	if (!ret)
		ret = record_metrics_check(&u.a);
	if (!ret && !(ret = record_prepare(&u))) {
		ret = record_select(&u);
		/* listening before the command runs: a port in use stops it */
		if (!ret)
			ret = record_metrics_start(&u.r);
		if (!ret)
			ret = record_start(&u);
		/* --clickhouse: its exporter reads the log as it is written */
		if (!ret && u.a.clickhouse && !(u.fw = record_follow(&u)))
			ret = CLI_EXIT_FAIL;
		if (ret) {
			record_abort(&u, 1);
		} else {
			if (u.a.output)
				record_log(&u.r);
			else if (record_live(&u.r))
				ret = CLI_EXIT_FAIL;
			ret = record_end(&u, ret);
		}
	}
	record_free(&u);
	return ret;
}
