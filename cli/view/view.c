/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What ptbpf record and ptbpf show do with each event between reading it
 * and printing it: the selection shown (-e; the kernel may record more,
 * for -P), the -P path filter, the summaries fed (-c, -C, --summary=), and
 * the status filter (-z, -Z, -e status=) that holds a syscall's entry
 * until its exit says whether it is printed. What it keeps per thread is
 * the syscall in progress; per process, the fds -P follows.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "stack/stack.h"
#include "view/view.h"

/* A thread's syscall in progress. */
struct view_tid {
	pid_t pid;
	int nr; /* -1: none */
	int shown;
	int by_path; /* -P: it named a path of the set */
	int64_t enter_ts;
	uint64_t args[6];
	int held;	      /* the entry in ev, until the exit says if it is printed */
	char *frames;	      /* -k: the call's stack, printed under its line */
	int printed_noreturn; /* -k: exit_group... printed, its stack to come; -1: none */
	struct cli_ev ev;
	unsigned char *data;
	size_t cap;
	struct stack_frames *sf; /* -k: the frames of "frames" (user, kernel) */
};

struct view {
	struct view_opts o;
	struct fmt *f;	     /* where the current event's lines go */
	struct fmt *main;    /* view_attach's */
	view_route_fn route; /* -ff: a fmt per thread, else NULL */
	void *route_ctx;
	int print;	   /* events go to f */
	int any;	   /* more than printing every event as it comes */
	int status_filter; /* some statuses are not printed */
	struct summary *sum;
	struct hist *hist; /* --histogram */
	struct thsum *th;
	struct pathtrace *pt;
	struct stack_view *stk; /* -k */
	int have_shown;
	uint64_t shown[PTBPF_EV_ID_LIMIT / 64];
	struct pidmap tids;	/* tid -> struct view_tid */
	struct pidmap detached; /* -b execve: the processes no longer traced */
	pid_t keep_exec;	/* -b execve: the process whose first exec is kept */
	uint64_t nevents;
	int arch; /* SC_ARCH_* of the events' syscall numbers (the last event's) */
	int failed;
};

int view_opts_prints(const struct view_opts *o)
{
	return o->cflag != VIEW_C_ONLY && !o->threads;
}

int view_opts_active(const struct view_opts *o)
{
	return o->cflag || o->threads || o->histogram || o->times >= 0 ||
	       o->status != VIEW_ST_ALL || o->npaths || o->stacks || o->detach_exec;
}

int view_opts_aggregate_only(const struct view_opts *o)
{
	return o->cflag == VIEW_C_ONLY && !o->threads && !o->npaths && !o->stacks &&
	       o->status == VIEW_ST_ALL && !o->detach_exec;
}

int view_new(struct view **out, const struct view_opts *o, struct fmt *f, int live)
{
	struct view *v = calloc(1, sizeof(*v));

	*out = v;
	if (!v)
		goto oom;
	v->o = *o;
	v->arch = SC_ARCH_NATIVE;
	v->status_filter = o->status != VIEW_ST_ALL;
	view_attach(v, f);
	if (o->cflag) {
		v->sum = malloc(sizeof(*v->sum));
		if (!v->sum)
			goto oom;
		summary_init(v->sum);
	}
	if (o->histogram && !(v->hist = hist_new(o->hist_sel)))
		goto oom;
	if (o->threads && !(v->th = thsum_new(o->threads == VIEW_TH_PROCESS, live)))
		goto oom;
	if (o->npaths) {
		v->pt = pathtrace_new();
		if (!v->pt)
			goto oom;
		for (size_t i = 0; i < o->npaths; i++)
			if (pathtrace_add(v->pt, o->paths[i], o->quiet & FMT_Q_PATH))
				return -1;
	}
	if (o->stacks && !(v->stk = stack_view_new()))
		return -1;
	fdtable_enable(o->fds);
	decode_set_opts(&(struct decode_opts){ .strsize = o->strsize,
					       .verbose = o->verbose,
					       .xflag = o->xflag,
					       .xstyle = o->xstyle });
	return 0;
oom:
	cli_err("out of memory");
	return -1;
}

void view_attach(struct view *v, struct fmt *f)
{
	v->f = v->main = f;
	v->print = f && view_opts_prints(&v->o);
	v->any = v->have_shown || !v->print || view_opts_active(&v->o) || v->route;
	if (f && v->o.times >= 0)
		f->times = v->o.times;
}

void view_route(struct view *v, view_route_fn fn, void *ctx)
{
	v->route = fn;
	v->route_ctx = ctx;
	v->any = v->any || fn;
}

/* -ff: tid's lines go to its own fmt, which counts times from the first
 * event as the attached one does (those of no thread: to that one) */
static void view_pick(struct view *v, pid_t tid, int64_t ts)
{
	struct fmt *f;

	if (!v->route || !v->main)
		return;
	if (!v->main->have_origin) {
		v->main->origin = ts;
		v->main->have_origin = 1;
	}
	f = tid > 0 ? v->route(v->route_ctx, tid) : NULL;
	v->f = f ? f : v->main;
	if (!f)
		return;
	f->origin = v->main->origin;
	f->have_origin = 1;
	f->times = v->main->times;
}

void view_keep_exec(struct view *v, pid_t pid)
{
	v->keep_exec = pid;
}

void view_need(const struct view *v, trace_event_set_t *set)
{
	fdtable_need(set); /* -y */
	if (v->o.detach_exec) {
		/* -b execve: which exec detaches, and the children of those detached */
		posix_trace_eventset_add(PTBPF_EV_PROC_EXEC, set);
		posix_trace_eventset_add(PTBPF_EV_PROC_FORK, set);
	}
	if (!view_opts_active(&v->o))
		return;
	/* a thread's end ends what is kept about its syscall in progress */
	posix_trace_eventset_add(PTBPF_EV_THREAD_EXIT, set);
	if (v->stk) {
		posix_trace_eventset_add(PTBPF_EV_USER_STACK, set);
		posix_trace_eventset_add(PTBPF_EV_STACK_TRACE, set);
		posix_trace_eventset_add(PTBPF_EV_STACK_REF, set);
		posix_trace_eventset_add(PTBPF_EV_PROC_MAP, set);
		posix_trace_eventset_add(PTBPF_EV_PROC_EXIT, set);
	}
	if (v->pt)
		pathtrace_need(v->pt, set);
}

void view_set_shown(struct view *v, const trace_event_set_t *shown)
{
	memset(v->shown, 0, sizeof(v->shown));
	for (trace_event_id_t id = 0; id < PTBPF_EV_ID_LIMIT; id++) {
		int m = 0;

		posix_trace_eventset_ismember(id, shown, &m);
		if (m)
			v->shown[id / 64] |= 1ULL << (id % 64);
	}
	v->have_shown = 1;
	v->any = 1;
}

void view_scan_pid(struct view *v, pid_t pid)
{
	if (v->pt)
		pathtrace_scan(v->pt, pid);
}

static int is_shown(const struct view *v, trace_event_id_t id)
{
	if (!v->have_shown)
		return 1;
	return id < PTBPF_EV_ID_LIMIT && (v->shown[id / 64] >> (id % 64) & 1);
}

static struct view_tid *tid_get(struct view *v, pid_t tid)
{
	struct view_tid *t = pidmap_get(&v->tids, tid);

	if (t || tid <= 0)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t || pidmap_put(&v->tids, tid, t)) {
		free(t);
		v->failed = 1;
		return NULL;
	}
	t->nr = -1;
	t->printed_noreturn = -1;
	return t;
}

static void tid_free(void *p)
{
	struct view_tid *t = p;

	if (t) {
		free(t->data);
		free(t->frames);
		stack_frames_free(t->sf);
	}
	free(t);
}

/* Keep ev, its data copied: the reader's buffer is reused. */
static void tid_hold(struct view *v, struct view_tid *t, const struct cli_ev *ev)
{
	if (ev->len > t->cap) {
		unsigned char *d = realloc(t->data, ev->len);

		if (!d) {
			v->failed = 1;
			return;
		}
		t->data = d;
		t->cap = ev->len;
	}
	t->ev = *ev;
	if (ev->name == ev->name_buf)
		t->ev.name = t->ev.name_buf;
	if (ev->len)
		memcpy(t->data, ev->data, ev->len);
	t->ev.data = t->data;
	t->held = 1;
}

/* "openat" for syscall nr of the events' architecture, NULL: not a call of it */
static const char *sys_name_nr(const struct view *v, int nr, char *buf)
{
	if (v->arch == SC_ARCH_NATIVE) {
		/* the system's event names: the running kernel's */
		if (ptbpf_system_eventid_get_name(PTBPF_EV_SYS_ENTER(nr), buf))
			return NULL;
		return buf + sys_name_offset(buf);
	}
	return sysname_of(v->arch, nr);
}

/*
 * The syscall in progress ends without its exit: the thread began another
 * (count: the kernel writes no exit for rt_sigreturn, or the exit was
 * lost; strace, which sees every exit, counts the call, so do the
 * summaries, without time or error), its thread is gone, or the trace
 * ends. A held entry is printed if status is.
 */
static void tid_end(struct view *v, struct view_tid *t, pid_t tid, unsigned int status, int count)
{
	char buf[TRACE_EVENT_NAME_MAX];
	const char *name;
	int held = t->held;

	if (t->nr < 0)
		return;
	if (count && t->shown && (v->sum || v->th || v->hist) &&
	    (name = sys_name_nr(v, t->nr, buf))) {
		if (v->hist)
			hist_add(v->hist, t->nr, name, -1);
		if (v->sum)
			summary_add(v->sum, t->nr, name, -1, 0);
		if (v->th)
			thsum_syscall(v->th, t->pid, tid, t->nr, name, -1, 0);
	}
	t->nr = -1;
	t->held = 0;
	if (held && t->shown && v->print && (v->o.status & status))
		fmt_event(v->f, &t->ev);
	free(t->frames);
	t->frames = NULL;
}

static void view_enter(struct view *v, const struct cli_ev *ev)
{
	const struct ptbpf_ev_sys_enter *se = ev->data;
	trace_event_id_t id = ev->info.posix_event_id;
	struct view_tid *t = tid_get(v, ev->tid);

	if (!t) {
		/* no thread (a damaged log) or no memory: shown as it is */
		if (v->print && !v->status_filter && !v->pt && is_shown(v, id))
			fmt_event(v->f, ev);
		return;
	}
	tid_end(v, t, ev->tid, VIEW_ST_UNFINISHED, 1);
	t->printed_noreturn = -1;
	stack_frames_free(t->sf); /* its stacks follow it */
	t->sf = NULL;
	t->nr = (int)PTBPF_EV_SYSCALL_NR(id);
	t->pid = ev->info.posix_pid;
	t->enter_ts = ts_ns(&ev->info.posix_timestamp);
	t->by_path = 0;
	if (ev->len >= offsetof(struct ptbpf_ev_sys_enter, paths))
		memcpy(t->args, se->args, sizeof(t->args));
	else
		memset(t->args, 0, sizeof(t->args));
	/* -P looks at every entry: one not shown may still open a path */
	t->shown = (!v->pt || pathtrace_entry(v->pt, ev, &t->by_path)) && is_shown(v, id);
	if (!t->shown)
		return;
	v->nevents++;
	if (v->th)
		thsum_event(v->th, ev);
	if (sys_noreturn(ev->desc)) {
		/* exit, exit_group: no exit comes, and strace counts none;
		 * their status is "unfinished" */
		t->nr = -1;
		if (v->print && (v->o.status & VIEW_ST_UNFINISHED)) {
			fmt_event(v->f, ev);
			t->printed_noreturn = (int)PTBPF_EV_SYSCALL_NR(id);
		}
		return;
	}
	if (v->status_filter)
		tid_hold(v, t, ev);
	if (v->print && !v->status_filter)
		fmt_event(v->f, ev);
}

static void view_exit(struct view *v, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	const struct ptbpf_ev_sys_exit *x = ev->data;
	int nr = (int)PTBPF_EV_SYSCALL_NR(id), have_ret = ev->len >= sizeof(*x), err, shown, held;
	int child = 0;
	struct view_tid *t = pidmap_get(&v->tids, ev->tid);
	int64_t ret = have_ret ? x->ret : 0, ns = -1;
	const char *name = sys_name_of(ev);
	char *frames = NULL;
	unsigned int st;

	if (t && t->nr != nr)
		tid_end(v, t, ev->tid, VIEW_ST_UNFINISHED, 1);
	if (t && t->nr == nr) {
		if (v->pt)
			pathtrace_exit(v->pt, v->arch, t->pid, nr, t->args, t->by_path,
				       have_ret ? ret : -1);
		shown = t->shown;
		held = t->held;
		ns = ts_ns(&ev->info.posix_timestamp) - exit_entry_ts(ev, t->enter_ts);
		t->nr = -1;
		t->held = 0;
		frames = t->frames; /* this call's: printed with it or not at all */
		t->frames = NULL;
	} else {
		/* no entry: -P cannot tell what it touched */
		shown = is_shown(v, id) && !v->pt;
		held = 0;
		/* a new task's return from the fork that made it: strace
		 * never sees it, and counts the call once */
		child = have_ret && !ret && sys_makes_child(name);
	}
	if (!shown)
		goto out;
	err = have_ret && ret < 0 && ret >= -4095 &&
	      !(sysclass_of_arch(v->arch, nr) & SC_NEVER_FAILS);
	v->nevents++;
	if (v->sum && !child)
		summary_add(v->sum, nr, name, ns, err);
	if (v->hist && !child)
		hist_add(v->hist, nr, name, ns);
	if (v->th && !child)
		thsum_syscall(v->th, ev->info.posix_pid, ev->tid, nr, name, ns, err);
	if (v->th)
		thsum_event(v->th, ev);
	/* -ff: a thread's file begins with its first call, as strace's */
	if (!v->print || (child && v->route))
		goto out;
	st = !have_ret ? VIEW_ST_UNAVAILABLE : err ? VIEW_ST_FAILED : VIEW_ST_SUCCESSFUL;
	if (!(v->o.status & st))
		goto out;
	if (held && v->status_filter)
		fmt_event(v->f, &t->ev);
	v->f->exit_after = frames;
	fmt_event(v->f, ev);
	/* not taken by the exit's line (JSON): after whatever was printed */
	if (frames && v->f->exit_after)
		fmt_lines_after(v->f, frames);
	v->f->exit_after = NULL;
out:
	free(frames);
}

static void view_other(struct view *v, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	struct view_tid *t;

	switch (id) {
	case PTBPF_EV_PROC_FORK:
		if (v->pt && ev->len >= sizeof(struct ptbpf_ev_fork)) {
			const struct ptbpf_ev_fork *e = ev->data;

			if (!e->is_thread)
				pathtrace_fork(v->pt, e->parent_pid, e->child_pid);
		}
		break;
	case PTBPF_EV_PROC_EXEC:
		if (v->pt)
			pathtrace_exec(v->pt, ev->info.posix_pid);
		break;
	case PTBPF_EV_THREAD_EXIT:
	case PTBPF_EV_PROC_EXIT:
		t = pidmap_get(&v->tids, ev->tid);
		if (t) {
			tid_end(v, t, ev->tid, VIEW_ST_UNFINISHED, 0);
			tid_free(pidmap_del(&v->tids, ev->tid));
		}
		if (v->pt && id == PTBPF_EV_PROC_EXIT)
			pathtrace_gone(v->pt, ev->info.posix_pid);
		if (v->stk && id == PTBPF_EV_PROC_EXIT)
			stack_view_gone(v->stk, ev->info.posix_pid);
		break;
	}
	if (!is_shown(v, id)) {
		if (v->print && v->f)
			fmt_note(v->f, ev); /* strace's [pid N]: the threads that run */
		return;
	}
	v->nevents++;
	if (v->th)
		thsum_event(v->th, ev);
	if (v->print)
		fmt_event(v->f, ev);
}

/* -k: a call's stack, kept for its line; the mappings and stored stacks
 * that resolve it */
static void view_stack(struct view *v, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	struct stack_frames part;
	struct view_tid *t;
	uint32_t event_id;
	size_t from;
	int noreturn;

	if (id == PTBPF_EV_PROC_MAP) {
		stack_view_map(v->stk, ev->info.posix_pid, ev->data, ev->len);
		return;
	}
	if (id == PTBPF_EV_STACK_TRACE) {
		stack_view_table(v->stk, ev->data, ev->len);
		return;
	}
	t = pidmap_get(&v->tids, ev->tid);
	if (!t || !v->print ||
	    ev->len < (id == PTBPF_EV_STACK_REF ? sizeof(struct ptbpf_ev_stack_ref)
						: sizeof(struct ptbpf_ev_user_stack)))
		return;
	/* both begin with the id of the event they follow */
	memcpy(&event_id, ev->data, sizeof(event_id));
	/* a call that does not return was printed at its entry: its
	 * stack goes under it now */
	noreturn = t->nr < 0 && t->printed_noreturn >= 0 &&
		   event_id == PTBPF_EV_SYS_ENTER((unsigned int)t->printed_noreturn);
	/* a copied user stack may still be followed by its kernel frames */
	if (id != PTBPF_EV_USER_STACK)
		t->printed_noreturn = -1;
	/* else only the stack of the call in progress, which it follows */
	if (!noreturn &&
	    (t->nr < 0 || !t->shown || event_id != PTBPF_EV_SYS_ENTER((unsigned int)t->nr)))
		return;
	/* a stack_ref's frames go after those of a user_stack before it */
	from = id == PTBPF_EV_USER_STACK || !t->sf ? 0 : t->sf->n;
	if (id == PTBPF_EV_USER_STACK) {
		stack_frames_free(t->sf);
		t->sf = stack_view_frames(v->stk, ev->info.posix_pid, ev->data, ev->len);
	} else if (stack_view_ref(v->stk, ev->info.posix_pid, ev->data, ev->len, &t->sf) <= 0) {
		return; /* none known */
	}
	if (!t->sf)
		return;
	free(t->frames);
	/* printed already at its entry: only what is new goes under it */
	part = (struct stack_frames){ t->sf->f + (noreturn ? from : 0),
				      t->sf->n - (noreturn ? from : 0) };
	t->frames = v->f->json ? stack_frames_json(&part, ev->info.posix_pid, ev->tid)
			       : stack_frames_text(&part);
	if (noreturn) {
		fmt_lines_after(v->f, t->frames);
		free(t->frames);
		t->frames = NULL;
	}
}

/*
 * -b execve: as strace, a process is no longer traced once it has executed
 * a program (but the command's first exec): its execve line ends with
 * " <detached ...>", nothing of it follows, nor of the children it makes.
 * Nonzero: ev is not shown.
 */
static int view_detach(struct view *v, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	pid_t pid = ev->info.posix_pid;
	struct view_tid *t;

	if (pid > 0 && pidmap_get(&v->detached, pid)) {
		const struct ptbpf_ev_fork *e = ev->data;

		if (id == PTBPF_EV_PROC_FORK && ev->len >= sizeof(*e) && !e->is_thread &&
		    pidmap_put(&v->detached, e->child_pid, v))
			v->failed = 1;
		return 1;
	}
	if (id != PTBPF_EV_PROC_EXEC || pid <= 0)
		return 0;
	if (pid == v->keep_exec) {
		v->keep_exec = 0;
		return 0;
	}
	if (pidmap_put(&v->detached, pid, v))
		v->failed = 1;
	t = pidmap_get(&v->tids, ev->tid);
	if (t && t->nr >= 0 && t->shown && v->print && t->held && (v->o.status & VIEW_ST_DETACHED))
		fmt_event(v->f, &t->ev); /* held by -e status=: printed as detached */
	if (t)
		t->nr = -1, t->held = 0;
	if (v->print)
		fmt_detached(v->f, ev->tid);
	return 1;
}

void view_event(struct view *v, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;

	if (v->arch != ev->arch && v->hist)
		hist_set_arch(v->hist, v->arch, ev->arch); /* --histogram=NAME was the build's */
	v->arch = ev->arch;
	/* -y: the fd tables; an fd_info is no line of its own */
	if (fdtable_event(ev))
		return;
	view_pick(v, ev->tid, ts_ns(&ev->info.posix_timestamp));
	if (v->o.detach_exec && view_detach(v, ev))
		return;
	/* stacks and mappings are no lines of their own */
	if (id == PTBPF_EV_USER_STACK || id == PTBPF_EV_PROC_MAP || id == PTBPF_EV_STACK_TRACE ||
	    id == PTBPF_EV_STACK_REF) {
		if (v->stk)
			view_stack(v, ev);
		return;
	}

	if (!v->any) {
		v->nevents++;
		fmt_event(v->f, ev);
		return;
	}
	/* times count from the first event, whether printed or not: an
	 * entry held (-z, -Z) is printed after later events */
	if (v->f && !v->f->have_origin) {
		v->f->origin = ts_ns(&ev->info.posix_timestamp);
		v->f->have_origin = 1;
	}
	if (PTBPF_EV_IS_SYSCALL(id) && sys_name_of(ev)) {
		if (PTBPF_EV_SYSCALL_IS_EXIT(id))
			view_exit(v, ev);
		else
			view_enter(v, ev);
		return;
	}
	view_other(v, ev);
}

void view_end(struct view *v, int detached)
{
	/* in time order, as they began */
	for (;;) {
		struct view_tid *first = NULL;
		pid_t tid = 0;

		for (size_t i = 0; i < v->tids.cap; i++) {
			struct view_tid *t = v->tids.e[i].val;

			if (v->tids.e[i].key && t->nr >= 0 &&
			    (!first || t->enter_ts < first->enter_ts)) {
				first = t;
				tid = v->tids.e[i].key;
			}
		}
		if (!first)
			break;
		view_pick(v, tid, first->enter_ts);
		/* the trace ended in the call: strace's "detached" when it
		 * stops tracing, else (a log read to its end) "unfinished" */
		tid_end(v, first, tid, detached ? VIEW_ST_DETACHED : VIEW_ST_UNFINISHED, 0);
	}
}

int view_report(struct view *v, FILE *out)
{
	int ret = 0;

	if (v->sum)
		summary_print(v->sum, v->o.columns, v->o.sortby, out);
	if (v->hist)
		hist_print(v->hist, out);
	if (v->th)
		ret = thsum_print(v->th, out);
	return ret;
}

void view_add_stats(struct view *v, const struct ptbpf_syscall_stats *st, size_t n)
{
	char buf[TRACE_EVENT_NAME_MAX];

	for (size_t i = 0; i < n; i++) {
		int nr = (int)st[i].nr;
		const char *name = sys_name_nr(v, nr, buf);
		int err = st[i].err && !(sysclass_of_arch(v->arch, nr) & SC_NEVER_FAILS);

		if (!name)
			continue;
		if (v->sum)
			summary_add_counts(v->sum, nr, name, st[i].calls, err ? st[i].calls : 0,
					   st[i].total_ns, st[i].min_ns, st[i].max_ns);
		if (v->hist)
			hist_add_buckets(v->hist, nr, name, st[i].hist);
	}
}

int view_failed(const struct view *v)
{
	return v->failed || (v->pt && pathtrace_failed(v->pt));
}

uint64_t view_nevents(const struct view *v)
{
	return v->nevents;
}

void view_free(struct view *v)
{
	if (!v)
		return;
	pidmap_free(&v->tids, tid_free);
	pidmap_free(&v->detached, NULL);
	free(v->sum);
	hist_free(v->hist);
	thsum_free(v->th);
	pathtrace_free(v->pt);
	stack_view_free(v->stk);
	fdtable_free();
	free(v);
}
