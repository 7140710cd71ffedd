/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: what begins a text line, as strace's printleader prints it (the
 * pid while several threads are traced, -t/-tt/-ttt, -r, -Y), the column
 * of " = " (tabto, -a), and the threads it counts; or ptbpf's own
 * "TS PID/TID " in its look.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ptbpf/ptbpf.h>

#include "fmt/fmt.h"

void fmt_look_init(struct fmt_look *l)
{
	memset(l, 0, sizeof(*l));
	l->acolumn = 40;
}

/* A thread's name (-Y): as its fork or exec made it, else /proc's. */
static const char *thread_comm(struct fmt *f, pid_t tid)
{
	char *c = pidmap_get(&f->comms, tid);
	char path[40];
	FILE *in;

	if (c || !f->look.live)
		return c ? c : "";
	c = calloc(1, PTBPF_COMM_LEN);
	if (!c)
		return "";
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	in = fopen(path, "re");
	if (in) {
		if (fgets(c, PTBPF_COMM_LEN, in))
			c[strcspn(c, "\n")] = '\0';
		fclose(in);
	}
	if (pidmap_put(&f->comms, tid, c)) {
		free(c);
		return "";
	}
	return c;
}

const char *fmt_comm(struct fmt *f, pid_t tid)
{
	return thread_comm(f, tid);
}

static void set_comm(struct fmt *f, pid_t tid, const char *name, size_t len)
{
	char *c = pidmap_get(&f->comms, tid);

	if (!c) {
		c = calloc(1, PTBPF_COMM_LEN);
		if (!c || pidmap_put(&f->comms, tid, c)) {
			free(c);
			return;
		}
	}
	if (len > PTBPF_COMM_LEN - 1)
		len = PTBPF_COMM_LEN - 1;
	memcpy(c, name, len);
	c[len] = '\0';
}

/* An exec's comm: the file name's last part, as the kernel sets it. */
static void exec_comm(struct fmt *f, const struct cli_ev *ev)
{
	const struct ptbpf_ev_exec *e = ev->data;
	size_t avail = ev->len - offsetof(struct ptbpf_ev_exec, filename);
	size_t n = strnlen(e->filename, avail < e->filename_len ? avail : e->filename_len);
	const char *base = memrchr(e->filename, '/', n);

	base = base ? base + 1 : e->filename;
	set_comm(f, e->pid, base, n - (size_t)(base - e->filename));
}

void fmt_thread_known(struct fmt *f, pid_t tid)
{
	if (tid <= 0 || tid == f->alive_last)
		return;
	if (!pidmap_get(&f->alive, tid) && !pidmap_put(&f->alive, tid, f))
		f->nalive++;
	f->alive_last = tid;
}

/* strace -f counts a new thread once attached, in its fork */
static pid_t fork_child(const struct fmt *f, const struct cli_ev *ev)
{
	const struct ptbpf_ev_fork *e = ev->data;

	if (!f->look.forks || ev->info.posix_event_id != PTBPF_EV_PROC_FORK || ev->len < sizeof(*e))
		return 0;
	return e->child_tid;
}

/* a process's exit is its line (exit_tid), whichever thread went last */
static pid_t event_thread(const struct cli_ev *ev)
{
	return ev->info.posix_event_id == PTBPF_EV_PROC_EXIT ? ev->info.posix_pid : ev->tid;
}

pid_t fmt_new_thread(const struct fmt *f, const struct cli_ev *ev)
{
	pid_t child = fork_child(f, ev), tid = event_thread(ev);

	if (child > 0 && !pidmap_get(&f->alive, child))
		return child;
	if (tid > 0 && tid != f->alive_last && !pidmap_get(&f->alive, tid))
		return tid;
	return 0;
}

void fmt_threads_event(struct fmt *f, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;

	fmt_thread_known(f, event_thread(ev));
	fmt_thread_known(f, fork_child(f, ev));
	if (id == PTBPF_EV_PROC_FORK && f->look.comm && ev->len >= sizeof(struct ptbpf_ev_fork)) {
		const struct ptbpf_ev_fork *e = ev->data;

		set_comm(f, e->child_tid, e->comm, strnlen(e->comm, sizeof(e->comm)));
	} else if (f->look.comm && id == PTBPF_EV_PROC_EXEC &&
		   ev->len >= offsetof(struct ptbpf_ev_exec, filename)) {
		exec_comm(f, ev);
	}
}

void fmt_thread_gone(struct fmt *f, pid_t tid)
{
	if (tid == f->alive_last)
		f->alive_last = 0;
	if (tid > 0 && pidmap_del(&f->alive, tid))
		f->nalive--;
}

void fmt_threads_after(struct fmt *f, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;

	/* a process's first thread counts until the process's exit, as
	 * strace's tcb of it (its +++ line is the process's) */
	if (id == PTBPF_EV_THREAD_EXIT && ev->tid != ev->info.posix_pid)
		fmt_thread_gone(f, ev->tid);
	else if (id == PTBPF_EV_PROC_EXIT)
		fmt_thread_gone(f, ev->info.posix_pid);
}

static void no_free(void *p)
{
	(void)p;
}

void fmt_threads_fini(struct fmt *f)
{
	pidmap_free(&f->alive, no_free);
	pidmap_free(&f->comms, free);
}

int fmt_look_hides(const struct fmt *f, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;

	if (f->look.look != FMT_LOOK_STRACE)
		return 0;
	/* -e quiet=exit: "+++ exited with N +++", not "+++ killed by ..." */
	if ((id == PTBPF_EV_PROC_EXIT || id == PTBPF_EV_THREAD_EXIT) &&
	    (f->look.quiet & FMT_Q_EXIT) && ev->len >= sizeof(struct ptbpf_ev_exit) &&
	    !(((const struct ptbpf_ev_exit *)ev->data)->exit_code & 0x7f))
		return 1;
	if (f->look.all_events)
		return 0;
	return id == PTBPF_EV_PROC_FORK || id == PTBPF_EV_PROC_EXEC ||
	       id == PTBPF_EV_SIGNAL_GENERATE || id == PTBPF_EV_SCHED_SWITCH_OUT ||
	       id == PTBPF_EV_SCHED_SWITCH_IN || id == PTBPF_EV_SCHED_WAKEUP ||
	       (id < PTBPF_EV_KERNEL_FIRST && id != POSIX_TRACE_OVERFLOW);
}

/* -t: "HH:MM:SS" of the second, made once a second (local time, as strace). */
static const char *clock_of(struct fmt *f, int64_t sec)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if (f->tsec_s[0] && f->tsec == sec)
		return f->tsec_s;
	if (localtime_r(&t, &tm))
		strftime(f->tsec_s, sizeof(f->tsec_s), "%T", &tm);
	else
		snprintf(f->tsec_s, sizeof(f->tsec_s), "%lld", (long long)sec);
	f->tsec = sec;
	return f->tsec_s;
}

/* -t, -tt, -ttt, -r: strace's forms */
static void leader_times(struct fmt *f, int64_t ts)
{
	struct sbuf *b = &f->line;
	int64_t sec = ts / 1000000000, us = ts % 1000000000 / 1000;

	if (f->look.tflag == 3) {
		sb_printf(b, "%lld.%06lld ", (long long)sec, (long long)us);
	} else if (f->look.tflag) {
		sb_puts(b, clock_of(f, sec));
		if (f->look.tflag == 2)
			sb_printf(b, ".%06lld", (long long)us);
		sb_putc(b, ' ');
	}
	if (f->look.rflag) {
		int64_t d = f->last_line_ts ? ts - f->last_line_ts : 0;

		if (d < 0)
			d = 0;
		sb_printf(b, "%s%6lld.%06lld%s", f->look.tflag ? "(+" : "",
			  (long long)(d / 1000000000), (long long)(d % 1000000000 / 1000),
			  f->look.tflag ? ") " : " ");
	}
	f->last_line_ts = ts;
}

const char *fmt_thread_comm(struct fmt *f, pid_t tid)
{
	return f->look.comm ? thread_comm(f, tid) : "";
}

void fmt_pid_result(struct fmt *f, const char *sys, pid_t pid)
{
	static const char *const pids[] = { "getpid", "gettid", "getppid", "fork",
					    "vfork",  "clone",	"clone3" };
	const char *c;

	if (!strcmp(sys, "wait4")) {
		set_comm(f, pid, "", 0); /* reaped: /proc has it no more */
		return;
	}
	for (size_t i = 0; i < sizeof(pids) / sizeof(pids[0]); i++) {
		if (!strcmp(sys, pids[i])) {
			c = thread_comm(f, pid);
			if (*c)
				sb_printf(&f->line, "<%s>", c);
			return;
		}
	}
}

void fmt_leader(struct fmt *f, int64_t ts, pid_t pid, pid_t tid, size_t nalive, const char *comm)
{

	fmt_line_begin(f);
	if (f->look.look == FMT_LOOK_PTBPF) {
		sb_line_prefix(&f->line, &f->prefix, f->look.tflag ? ts : ts - f->origin, pid, tid);
		return;
	}
	if (f->look.pids == FMT_PID_FILE || (f->look.pids == FMT_PID_AUTO && nalive > 1)) {
		if (!comm)
			comm = fmt_thread_comm(f, tid);
		if (f->look.pids == FMT_PID_AUTO)
			sb_printf(&f->line, "[pid %5u", (unsigned int)tid);
		else
			sb_printf(&f->line, *comm ? "%u" : "%-5u", (unsigned int)tid);
		if (*comm)
			sb_printf(&f->line, "<%s>", comm);
		sb_puts(&f->line, f->look.pids == FMT_PID_AUTO ? "] " : " ");
	}
	if (f->look.tflag || f->look.rflag)
		leader_times(f, ts);
}

void fmt_tab(struct fmt *f)
{
	size_t col = f->line.len - f->line_at;
	size_t want = f->look.acolumn > 0 ? (size_t)f->look.acolumn - 1 : 0;

	if (f->look.look != FMT_LOOK_STRACE || col >= want)
		return;
	if (sb_grow(&f->line, want - col))
		return;
	memset(f->line.s + f->line.len, ' ', want - col);
	f->line.len += want - col;
}
