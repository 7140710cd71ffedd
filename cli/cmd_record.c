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

int cmd_record(int argc, char **argv)
{
	struct record_args a = { .policy = -1,
				 .log_policy = POSIX_TRACE_APPEND,
				 .bufsize = RECORD_DEFAULT_BUFSIZE,
				 .nice = NICE_DEFAULT };
	struct rec r;
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	struct evsel sel = { 0 };
	trace_attr_t attr;
	trace_event_set_t filter, shown, kset;
	struct sigaction sa;
	int logfd = -1, err, ret = CLI_EXIT_OK, i, created = 0;
	char *path = NULL;
	pid_t first_pid = 0;

	view_opts_init(&a.view);
	if (argp_parse(&record_argp, argc, argv, ARGP_IN_ORDER, NULL, &a))
		return CLI_EXIT_USAGE;
	/* before anything is started or written: a bad -e changes nothing */
	if (evsel_parse(&sel, a.events ? a.events : EVSEL_DEFAULT))
		return CLI_EXIT_USAGE;
	sel.strace_lines = 1;
	/* before the command starts: the library finds the targets in /proc,
	 * and another namespace's names other processes by their pids */
	ret = cli_env_check_proc();
	if (ret) {
		evsel_free(&sel);
		return ret;
	}
	memset(&r, 0, sizeof(r));
	r.a = &a;
	r.status_tty = isatty(STDERR_FILENO);
	if (view_new(&r.view, &a.view, NULL, 1)) {
		ret = CLI_EXIT_USAGE;
		goto out_free;
	}
	ret = check_cgroups(&a);
	if (ret)
		goto out_free;

	if (a.pids) {
		ret = parse_pids(&r, a.pids);
		if (ret)
			goto out_free;
		first_pid = r.pids[0];
	} else if (a.cmd) {
		path = resolve_cmd(a.cmd[0], &err);
		if (!path) {
			cli_err("%s: %s", a.cmd[0],
				err == ENOENT ? "command not found" : strerror(err));
			ret = CLI_EXIT_NOCMD;
			goto out_free;
		}
		r.child.early_uev = a.early_uev;
		err = start_child(&r.child, path, a.cmd);
		if (err) {
			cli_err("cannot start %s: %s", a.cmd[0], strerror(-err));
			ret = CLI_EXIT_FAIL;
			goto out_free;
		}
		r.have_child = 1;
		first_pid = r.child.pid;
		early_uev_attach(&r.early, r.child.pid, path);
	}
	/* a probe on a missing file or symbol: said before anything is traced */
	if (evsel_check_probes(&sel, a.pids ? first_pid : 0)) {
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	/* -P: the fds the processes have open already (the command's, from us) */
	for (i = 0; i < r.npids; i++)
		view_scan_pid(r.view, r.pids[i]);
	if (r.have_child)
		view_scan_pid(r.view, r.child.pid);

	if (a.output) {
		/* not truncated here: the library does it once it can trace, and
		 * a failed start leaves the file as it was (or gone, if new) */
		logfd = open(a.output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		created = logfd >= 0;
		if (logfd < 0 && errno == EEXIST)
			logfd = open(a.output, O_WRONLY | O_CLOEXEC);
		if (logfd < 0) {
			cli_err("cannot create %s: %s", a.output, strerror(errno));
			ret = CLI_EXIT_FAIL;
			goto abort_child;
		}
	}

	if (!a.output) {
		if (live_out_open(&r.out, a.text_out)) {
			ret = CLI_EXIT_FAIL;
			goto abort_child;
		}
		/* the status line would break the lines printed on the terminal */
		if (r.out.tty)
			r.status_tty = 0;
	}

	posix_trace_attr_init(&attr);
	if (a.name && (err = posix_trace_attr_setname(&attr, a.name))) {
		cli_err("--name: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	if (a.bufsize && (err = posix_trace_attr_setstreamsize(&attr, a.bufsize))) {
		cli_err("--buffer-size: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	if (a.policy >= 0 && (err = posix_trace_attr_setstreamfullpolicy(&attr, a.policy))) {
		cli_err("--policy: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	if (a.follow)
		posix_trace_attr_setinherited(&attr, POSIX_TRACE_INHERITED);
	if (a.output && (err = posix_trace_attr_setlogfullpolicy(&attr, a.log_policy))) {
		cli_err("--log-policy: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	if (a.output && a.log_size && (err = posix_trace_attr_setlogsize(&attr, a.log_size))) {
		cli_err("--log-size: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	/* -z, -Z: the other calls dropped in the kernel, where it can */
	ptbpf_trace_attr_setsyscallstatus(&attr, view_opts_kernel_status(&a.view));
	/* -y: what each fd is, recorded as fd_info events */
	if (a.view.fds)
		ptbpf_trace_attr_setfdinfo(&attr, 1);
	/* -s: what arguments point to, captured for the decoding */
	ptbpf_trace_attr_setstrsize(&attr, a.view.strsize);
	/* what may be shown, or what the view needs: the kernel loads and
	 * checks only their programs (-e openat: neither the captures of
	 * other syscalls nor the scheduler's programs) */
	evsel_kernel(&sel, &kset);
	view_need(r.view, &kset);
	ptbpf_trace_attr_setevents(&attr, &kset);
	if (a.view.stacks && record_set_stacks(&attr, &a)) {
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}

	set_nice(a.nice);
	if (!first_pid) /* --cgroup alone: its processes only, not ours */
		err = ptbpf_trace_create_cgroup(a.cgroups[0], &attr, logfd, &r.trid);
	else if (a.output)
		err = posix_trace_create_withlog(first_pid, &attr, logfd, &r.trid);
	else
		err = posix_trace_create(first_pid, &attr, &r.trid);
	posix_trace_attr_destroy(&attr);
	if (err) {
		if (first_pid)
			ret = cli_trace_error(err, "cannot trace", (long)first_pid);
		else
			ret = cli_trace_error(err, "cannot trace cgroup", 0);
		goto abort_child;
	}
	/* processes add up: those of the cgroups and the others */
	for (i = first_pid ? 0 : 1; i < a.ncgroups; i++) {
		err = ptbpf_trace_add_cgroup(r.trid, a.cgroups[i]);
		if (err) {
			cli_err("--cgroup %s: %s", a.cgroups[i],
				err == E2BIG ? "too many cgroups" : strerror(err));
			ret = CLI_EXIT_FAIL;
			goto shutdown;
		}
	}
	for (i = 1; i < r.npids; i++) {
		err = ptbpf_trace_add_pid(r.trid, r.pids[i]);
		if (err) {
			ret = cli_trace_error(err, "cannot trace", (long)r.pids[i]);
			goto shutdown;
		}
	}
	if (evsel_select(&sel, r.trid, &shown)) {
		ret = CLI_EXIT_USAGE;
		goto shutdown;
	}
	/* what -e selects is shown; recorded, that and what -P needs */
	if (view_opts_active(&a.view))
		view_set_shown(r.view, &shown);
	view_need(r.view, &shown);
	evsel_complement(&shown, &filter);
	err = posix_trace_set_filter(r.trid, &filter, POSIX_TRACE_SET_EVENTSET);
	if (err) {
		cli_err("cannot set the event filter: %s", strerror(err));
		ret = CLI_EXIT_FAIL;
		goto shutdown;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (r.have_child) {
		early_uev_wait(&r.early); /* before the exec */
		child_ready(&r.child);
	}
	err = posix_trace_start(r.trid);
	if (err) {
		ret = cli_trace_error(err, "cannot start tracing", (long)first_pid);
		goto shutdown;
	}
	r.t0 = now_mono();
	r.cpu0 = cpu_self();
	if (r.have_child) {
		err = child_go(&r.child, 1);
		if (err) {
			cli_err("%s: cannot execute: %s", a.cmd[0], strerror(err));
			ret = CLI_EXIT_NOCMD;
			waitpid(r.child.pid, NULL, 0);
			r.have_child = 0;
			posix_trace_stop(r.trid);
			goto shutdown;
		}
	}

	if (a.output)
		record_log(&r);
	else if (record_live(&r))
		ret = CLI_EXIT_FAIL;

	if (got_signal && r.have_child && !r.child_done && !r.sig_passed_at)
		kill(r.child.pid, got_signal);
	/* --duration ran out, the log or the text cannot be written or memory
	 * ran out: the command goes on untraced; do not wait for it */
	if ((!got_signal || r.log_error || r.out.err) && r.have_child && !r.child_done &&
	    !targets_done(&r))
		r.have_child = 0;
	memset(&cnt, 0, sizeof(cnt));
	cnt.sz = sizeof(cnt);
	ptbpf_trace_get_counters(r.trid, &cnt);
	err = posix_trace_shutdown(r.trid);
	if (!r.log_error && a.output)
		r.log_error = err ? err : cnt.log_error;
	if (r.log_error)
		cli_err("writing %s: %s: the events before the error are in it", a.output,
			strerror(r.log_error));
	else if (err)
		cli_err("closing the trace: %s", strerror(err));
	if (r.out.err)
		cli_err("writing %s: %s: the lines before the error are in it", r.out.name,
			strerror(r.out.err));
	if (a.output && !r.log_error && (a.view.cflag || a.view.threads) &&
	    (err = record_log_view(&r)))
		ret = err;
	/* as strace -c: the table on stderr, after the events */
	if (view_report(r.view, stderr)) {
		cli_err("out of memory");
		ret = CLI_EXIT_FAIL;
	}
	print_summary(&r, &cnt, logfd);
	if (a.output && close(logfd) && !r.log_error) {
		cli_err("writing %s: %s", a.output, strerror(errno));
		ret = CLI_EXIT_FAIL;
	}
	if (r.log_error || r.out.err)
		ret = CLI_EXIT_FAIL;
	if (r.have_child) {
		if (!r.child_done && waitpid(r.child.pid, &r.child_status, 0) == r.child.pid)
			r.child_done = 1;
		if (r.child_done && ret == CLI_EXIT_OK)
			ret = exit_code_of(r.child_status);
	}
	/* an error closing it (the writes were checked before the summary) */
	if (r.out.f && !r.out.err && live_out_close(&r.out)) {
		cli_err("writing %s: %s", r.out.name, strerror(r.out.err));
		if (ret == CLI_EXIT_OK)
			ret = CLI_EXIT_FAIL;
	}
	goto out_free;

shutdown:
	posix_trace_shutdown(r.trid);
abort_child:
	if (r.have_child) {
		child_go(&r.child, 0);
		close(r.child.go_fd);
		waitpid(r.child.pid, NULL, 0);
	}
	if (logfd >= 0)
		close(logfd);
	if (created)
		unlink(a.output);
out_free:
	early_uev_detach(&r.early);
	live_out_close(&r.out);
	for (i = 0; i < r.npids; i++)
		if (r.pidfds[i] >= 0)
			close(r.pidfds[i]);
	free(r.pids);
	free(r.pidfds);
	free(path);
	evsel_free(&sel);
	view_free(r.view);
	return ret;
}
