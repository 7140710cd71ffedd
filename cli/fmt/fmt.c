/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: the strace-like text output of events (JSON Lines: fmt_jsonl.c):
 * a syscall's entry merged with its exit, or <unfinished ...> and resumed,
 * and the lines of other events put where strace has them.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "fmt/fmt.h"
#include "decode/fdtable.h"

void fmt_init(struct fmt *f, FILE *out, int json, const struct fmt_look *look)
{
	memset(f, 0, sizeof(*f));
	f->out = out;
	f->json = json;
	if (look)
		f->look = *look;
	else
		fmt_look_init(&f->look);
	/* strace's [pid N] and -Y need the threads that run; nothing else does */
	f->count_threads =
		f->look.look == FMT_LOOK_STRACE && (f->look.pids == FMT_PID_AUTO || f->look.comm);
	f->tty = isatty(fileno(out));
	f->times = -1;
}

void fmt_fini(struct fmt *f)
{
	fmt_flush(f);
	fmt_hold_fini(&f->hold);
	fmt_chld_fini(f);
	fmt_pending_free(f);
	sb_free(&f->resume_data);
	sb_free(&f->held_text);
	sb_free(&f->held_data);
	sb_free(&f->deferred);
	sb_free(&f->line);
	sb_free(&f->tmp);
	fmt_json_entries_free(f);
	fmt_threads_fini(f);
	if (f->look.comm)
		decode_set_pid_names(NULL, NULL); /* not f's, gone */
}

int fmt_failed(const struct fmt *f)
{
	return f->line.failed || f->held_text.failed || f->deferred.failed || f->tmp.failed;
}

/* Ends the current line as an open one (fmt_hold.c) from cut on. */
static void emit_open(struct fmt *f, size_t cut, pid_t tid, int kind, int64_t ts,
		      const struct sbuf *data)
{
	sb_putc(&f->line, '\n');
	if (f->line.failed || fmt_hold_open(&f->hold, f->line.s + f->line_at,
					    f->line.len - f->line_at, cut - f->line_at, tid, kind,
					    ts, data ? data->s : NULL, data ? data->len : 0)) {
		fmt_lines_done_from(f, f->line_at);
		return;
	}
	sb_truncate(&f->line, f->line_at);
}

/* The held lines that may go now (all: every one), and the SIGCHLD lines
 * waiting for tid's syscall (tid < 0: all). */
static void hold_out(struct fmt *f, int64_t now, int all)
{
	if (f->hold.n && fmt_hold_drain(&f->hold, &f->line, now, all))
		fmt_lines_done(f);
}

static void chld_out(struct fmt *f, pid_t tid)
{
	size_t from = f->line.len;

	if (f->nchld && fmt_chld_take(f, tid, &f->line))
		fmt_lines_done_from(f, from);
}

void fmt_lines_after(struct fmt *f, const char *text)
{
	size_t from = f->line.len;

	if (f->ndeferred) {
		sb_puts(&f->deferred, text);
		return;
	}
	sb_puts(&f->line, text);
	fmt_lines_done_from(f, from);
}

static void line_start(struct fmt *f, int64_t ts, pid_t pid, pid_t tid)
{
	fmt_leader(f, ts, pid, tid, f->nalive, NULL);
}

/* The held entry's line: its leader as strace printed it at the entry
 * (the threads counted then, not those seen since). */
static void held_start(struct fmt *f, pid_t tid)
{
	fmt_leader(f, f->held_ts, f->held.info.posix_pid, tid, f->held_nalive, f->held_comm);
}

/* -T: " <S.UUUUUU>", the time from entry to exit, as strace prints it. */
static void syscall_time(struct fmt *f, int64_t entry_ts, int64_t exit_ts)
{
	/* nanoseconds per last digit, by the digits printed */
	static const int64_t scale[] = { 1000000000, 100000000, 10000000, 1000000, 100000,
					 10000,	     1000,	100,	  10,	   1 };
	int64_t d = exit_ts - entry_ts;

	if (f->times < 0 || f->times > 9 || entry_ts < 0 || d < 0)
		return;
	sb_puts(&f->line, " <");
	sb_dec(&f->line, d / 1000000000);
	if (f->times) {
		sb_putc(&f->line, '.');
		sb_udec(&f->line, (uint64_t)(d % 1000000000) / (uint64_t)scale[f->times], f->times);
	}
	sb_putc(&f->line, '>');
}

static void emit_deferred(struct fmt *f)
{
	size_t from = f->line.len;

	if (!f->ndeferred)
		return;
	sb_cat(&f->line, &f->deferred);
	fmt_lines_done_from(f, from);
	sb_reset(&f->deferred);
	f->ndeferred = 0;
}

/*
 * A call's text without its closing parenthesis, as strace prints an
 * entry before "<unfinished ...>" (the parenthesis comes with the resumed
 * line): "vfork(", "execve("/bin/ls", ["ls"], 0x7ffd1000 <c> 41 vars <e>"
 * (<c> <e>: the comment's delimiters).
 */
static void call_open(struct sbuf *b, const char *text, size_t len)
{
	if (len && text[len - 1] == ')')
		len--;
	sb_putn(b, text, len);
}

/* The held entry as a line of its own, ended by " <unfinished ...>" (its
 * exit prints resumed), or detached: " <detached ...>" (none comes: the
 * trace ends with it in progress). */
static void held_out(struct fmt *f, int detached)
{
	const char *tail = detached ? " <detached ...>" : " <unfinished ...>";
	pid_t pid, tid;
	const char *sys;
	size_t cut;

	if (!f->have_held)
		return;
	f->have_held = 0;
	pid = f->held.info.posix_pid;
	tid = f->held.tid;
	sys = sys_name_of(&f->held);
	held_start(f, tid);
	cut = f->line.len;
	/* detached: no resumed line, so the whole entry (an exec's argv too) */
	if (!detached && f->held_data.len && !fmt_late_faults(&f->held_data) &&
	    decode_sys_unfinished(&f->line, sys, f->held.desc, f->held_data.s, f->held_data.len)) {
		/* "read(3,  <unfinished ...>": the rest when it resumes */
		sb_puts(&f->line, tail);
		fmt_line_end(f);
		if (!detached)
			fmt_pending_add(f, pid, tid, sys, f->held_ts, &f->held_data,
					f->held_args_ok ? f->held_args : NULL);
		emit_deferred(f);
		return;
	}
	call_open(&f->line, f->held_text.s, f->held_text.len);
	sb_puts(&f->line, tail);
	/* a path its exit brings: the line waits for it (fmt_late_redo) */
	if (!detached && f->held_data.len && fmt_late_faults(&f->held_data))
		emit_open(f, cut, tid, FMT_HOLD_LATE, f->held_ts, &f->held_data);
	else
		fmt_line_end(f);
	if (!detached)
		fmt_pending_add(f, pid, tid, sys, f->held_ts, NULL,
				f->held_args_ok ? f->held_args : NULL);
	emit_deferred(f);
}

static void held_unfinished(struct fmt *f)
{
	held_out(f, 0);
}

void fmt_held_unfinished(struct fmt *f)
{
	held_unfinished(f);
}

/*
 * The calls in progress when the trace leaves their processes running, as
 * strace's on detach: those printed <unfinished ...> (oldest first, then
 * by tid) as "<... NAME resumed> <detached ...>" at trace time now, then
 * the held entry as "NAME(ARGS <detached ...>".
 */
void fmt_detach(struct fmt *f, int64_t now)
{
	if (f->json)
		return;
	while (f->nunfinished) {
		struct fmt_pending *p = &f->unfinished[0];

		for (size_t i = 1; i < f->nunfinished; i++) {
			struct fmt_pending *q = &f->unfinished[i];

			if (q->ts < p->ts || (q->ts == p->ts && q->tid < p->tid))
				p = q;
		}
		line_start(f, now, p->pid, p->tid);
		sb_puts(&f->line, "<... ");
		sb_puts(&f->line, p->name);
		sb_puts(&f->line, " resumed> <detached ...>");
		fmt_line_end(f);
		fmt_pending_del(f, p->tid);
	}
	held_out(f, 1);
}

/* -b execve: tid's call in progress ends its lines, as strace's detach */
void fmt_detached(struct fmt *f, pid_t tid)
{
	if (f->json || !f->have_held || f->held.tid != tid) {
		/* printed <unfinished ...> already: nothing resumes it */
		fmt_pending_del(f, tid);
		return;
	}
	held_out(f, 1);
}

void fmt_flush(struct fmt *f)
{
	held_unfinished(f);
	hold_out(f, 0, 1);
	chld_out(f, -1);
	fmt_out(f);
}

/* A restart error that a SIGKILL ends: strace sees no exit, "= ?". */
static int is_restart(const struct cli_ev *ev)
{
	const struct ptbpf_ev_sys_exit *x = ev->data;

	return ev->len >= sizeof(*x) && x->ret <= -512 && x->ret >= -516;
}

/* Ends an exit's line (its result from ret_at), then what waits for it. */
static void exit_done(struct fmt *f, const struct cli_ev *ev, size_t ret_at, int64_t ts)
{
	if (is_restart(ev))
		emit_open(f, ret_at, ev->tid, FMT_HOLD_RESTART, ts, NULL);
	else
		fmt_line_end(f);
	/* the call's stack right under it, before the events met meanwhile */
	if (f->exit_after) {
		size_t from = f->line.len;

		sb_puts(&f->line, f->exit_after);
		f->exit_after = NULL;
		fmt_lines_done_from(f, from);
	}
	emit_deferred(f);
	chld_out(f, ev->tid);
}

/* The next event of the thread of an open restart error closes it. */
static void restart_close(struct fmt *f, const struct cli_ev *ev)
{
	struct fmt_hold_line *l =
		f->hold.n ? fmt_hold_find(&f->hold, ev->tid, FMT_HOLD_RESTART) : NULL;

	if (l)
		fmt_hold_close(l, fmt_signal_hidden(ev) ? " = ?\n" : NULL, 5);
}

/* An exit whose entry waits for its late path (fmt_hold.c): it has it now. */
static void late_close(struct fmt *f, const struct cli_ev *ev, const char *sys)
{
	struct fmt_hold_line *l =
		f->hold.n ? fmt_hold_find(&f->hold, ev->tid, FMT_HOLD_LATE) : NULL;

	if (!l)
		return;
	sb_reset(&f->tmp);
	fmt_late_redo(&f->tmp, &l->data, sys, ev);
	if (f->tmp.len) {
		if (f->tmp.s[f->tmp.len - 1] == ')')
			sb_truncate(&f->tmp, f->tmp.len - 1);
		sb_puts(&f->tmp, " <unfinished ...>\n");
		fmt_hold_close(l, f->tmp.s, f->tmp.len);
	} else {
		fmt_hold_close(l, NULL, 0);
	}
}

/* The current line (not ended) of an event that is no syscall. */
static void other_done(struct fmt *f)
{
	if (f->have_held) {
		/* printed after the held syscall's line, strace-like */
		if (!f->ndeferred)
			sb_reset(&f->deferred);
		if (f->line.failed)
			sb_fail(&f->deferred);
		else
			sb_putn(&f->deferred, f->line.s + f->line_at, f->line.len - f->line_at);
		sb_putc(&f->deferred, '\n');
		f->ndeferred++;
		sb_truncate(&f->line, f->line_at); /* not emitted: taken back */
		return;
	}
	fmt_line_end(f);
}

/* -Y: the name of a signal's sender (strace's si_pid=N<name>), or NULL */
static const char *sender_comm(struct fmt *f, const struct cli_ev *ev)
{
	const struct ptbpf_ev_signal *e = ev->data;

	if (!f->look.comm || ev->len < offsetof(struct ptbpf_ev_signal, flags) ||
	    e->sender_pid <= 0)
		return NULL;
	return fmt_thread_comm(f, e->sender_pid);
}

/*
 * The SIGCHLD strace shows delivered though the kernel ignored it: where
 * strace has it, after the syscall its thread is in (else at once).
 */
static void chld_ignored(struct fmt *f, const struct cli_ev *ev, int64_t ts)
{
	pid_t tid = ev->tid;

	line_start(f, ts, ev->info.posix_pid, tid);
	fmt_signal_deliver(&f->line, ev->data, ev->len, sender_comm(f, ev));
	if ((f->have_held && f->held.tid == tid) || fmt_pending_has(f, tid)) {
		sb_putc(&f->line, '\n');
		if (!f->line.failed)
			fmt_chld_add(f, tid, f->line.s + f->line_at, f->line.len - f->line_at);
		sb_truncate(&f->line, f->line_at);
		return;
	}
	other_done(f);
}

/*
 * Whose line an exit is, as strace -f: a thread's +++ under its tid, the
 * process's under its pid (the leader's own thread_exit has none).
 */
static pid_t exit_tid(const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;

	if (id == PTBPF_EV_PROC_EXIT)
		return ev->info.posix_pid;
	if (id == PTBPF_EV_THREAD_EXIT && ev->tid == ev->info.posix_pid)
		return -1;
	return ev->tid;
}

/* A syscall entry: held until its exit (or a line of its own if it never
 * returns). */
static void text_entry(struct fmt *f, const struct cli_ev *ev, int64_t ts, const char *sys)
{
	held_unfinished(f);
	sb_reset(&f->held_text);
	decode_sys_args(&f->held_text, sys, ev->desc, ev->data, ev->len);
	if (sys_noreturn(ev->desc)) {
		line_start(f, ts, ev->info.posix_pid, ev->tid);
		sb_cat(&f->line, &f->held_text);
		fmt_tab(f);
		sb_puts(&f->line, " = ?");
		fmt_line_end(f);
		return;
	}
	fmt_late_keep(&f->held_data, ev);
	f->held_args_ok = ev->len >= offsetof(struct ptbpf_ev_sys_enter, paths);
	if (f->held_args_ok)
		memcpy(f->held_args, ((const struct ptbpf_ev_sys_enter *)ev->data)->args,
		       sizeof(f->held_args));
	f->held = *ev;
	if (ev->name == ev->name_buf)
		f->held.name = f->held.name_buf;
	f->held.data = NULL;
	f->held_ts = ts;
	f->held_nalive = f->nalive;
	f->held_comm[0] = '\0';
	if (f->look.comm)
		snprintf(f->held_comm, sizeof(f->held_comm), "%s", fmt_thread_comm(f, ev->tid));
	f->have_held = 1;
}

/* " = RESULT" of exit ev, with -y's path and what follows it (args: the
 * entry's arguments, NULL: unknown). */
static void text_result(struct fmt *f, const struct cli_ev *ev, const char *sys,
			const uint64_t *args)
{
	int64_t ret;

	if (ev->len < sizeof(struct ptbpf_ev_sys_exit)) {
		sb_puts(&f->line, " = ?");
		return;
	}
	ret = ((const struct ptbpf_ev_sys_exit *)ev->data)->ret;
	decode_sys_ret(&f->line, ev->desc, args, ret);
	if (f->look.comm && ret > 0 && ret <= INT32_MAX)
		fmt_pid_result(f, sys, (pid_t)ret);		/* -Y */
	fdtable_ret(&f->line, sys, ret, sys_result_is_fd(sys)); /* -y */
	decode_sys_after_ret(&f->line, ev->data, ev->len);
}

/* The exit of the held entry: one line for both. */
static void text_exit_held(struct fmt *f, const struct cli_ev *ev, int64_t ts, const char *sys)
{
	size_t ret_at;

	f->have_held = 0;
	f->held_ts = exit_entry_ts(ev, f->held_ts);
	fmt_late_redo(&f->held_text, &f->held_data, sys, ev);
	held_start(f, ev->tid);
	sb_cat(&f->line, &f->held_text);
	fmt_tab(f);
	ret_at = f->line.len;
	text_result(f, ev, sys, f->held_args_ok ? f->held_args : NULL);
	syscall_time(f, f->held_ts, ts);
	exit_done(f, ev, ret_at, ts);
}

/*
 * A new thread's return from the clone, fork or vfork that made it (its
 * entry was its parent's): strace never prints it.
 */
static int child_return(const struct fmt *f, const struct cli_ev *ev, const char *sys)
{
	const struct ptbpf_ev_sys_exit *x = ev->data;

	if (f->look.look != FMT_LOOK_STRACE || f->look.all_events || ev->len < sizeof(*x) ||
	    x->ret != 0)
		return 0;
	return sys_makes_child(sys);
}

/* The exit of an entry printed <unfinished ...>: "<... sys resumed>". */
static void text_resumed(struct fmt *f, const struct cli_ev *ev, int64_t ts, const char *sys)
{
	int64_t entry_ts;
	size_t ret_at;

	/* not printed: the held entry of another thread is not cut by it */
	if (!fmt_pending_has(f, ev->tid) && child_return(f, ev, sys))
		return;
	held_unfinished(f);
	late_close(f, ev, sys);
	entry_ts = fmt_pending_del(f, ev->tid);
	line_start(f, ts, ev->info.posix_pid, ev->tid);
	sb_puts(&f->line, "<... ");
	sb_puts(&f->line, sys);
	sb_puts(&f->line, " resumed>");
	if (f->resume_data.len)
		decode_sys_resumed(&f->line, ev->desc, f->resume_data.s, f->resume_data.len,
				   ev->data, ev->len);
	sb_putc(&f->line, ')');
	fmt_tab(f);
	ret_at = f->line.len;
	text_result(f, ev, sys, f->resume_args_ok ? f->resume_args : NULL);
	syscall_time(f, exit_entry_ts(ev, entry_ts), ts);
	exit_done(f, ev, ret_at, ts);
}

/* An event that is no syscall. */
static void text_other(struct fmt *f, const struct cli_ev *ev, int64_t ts)
{
	pid_t tid = exit_tid(ev);

	if (fmt_signal_hidden(ev) || tid < 0 || fmt_signal_filtered(f, ev))
		return;
	if (!fmt_look_hides(f, ev)) {
		/* 64 lines deferred already: the held entry goes out
		 * unfinished first (before, its line took the place of this one) */
		if (f->have_held && f->ndeferred >= 64)
			held_unfinished(f);
		line_start(f, ts, ev->info.posix_pid, tid);
		if (ev->info.posix_event_id == PTBPF_EV_SIGNAL_DELIVER && sender_comm(f, ev))
			fmt_signal_deliver(&f->line, ev->data, ev->len, sender_comm(f, ev));
		else
			fmt_other_text(&f->line, ev, f->look.look);
		other_done(f);
	}
	if (fmt_signal_ignored_chld(ev) && !(f->look.sigs_hidden & (1ull << (SIGCHLD - 1))))
		chld_ignored(f, ev, ts);
}

/*
 * An exec by a thread other than the leader: the thread takes the
 * leader's id, its call in progress goes on under it ("<... execve
 * resumed>"), and strace says "+++ superseded by execve in pid TID +++"
 * under the new id.
 */
static void exec_switch(struct fmt *f, const struct cli_ev *ev, int64_t ts)
{
	const struct ptbpf_ev_exec *e = ev->data;
	pid_t from, to;

	if (ev->len < offsetof(struct ptbpf_ev_exec, filename) || e->old_tid <= 0 ||
	    e->old_tid == e->pid)
		return;
	from = e->old_tid;
	to = e->pid;
	if (f->have_held && f->held.tid == from)
		held_unfinished(f);
	fmt_pending_del(f, to); /* the leader's call: gone with it */
	fmt_pending_rekey(f, from, to);
	fmt_hold_rekey(&f->hold, from, to);
	/* one thread fewer, as strace's leader dropped before its line */
	fmt_thread_gone(f, from);
	if (f->look.look == FMT_LOOK_STRACE && !(f->look.quiet & FMT_Q_EXECVE)) {
		line_start(f, ts, to, to);
		sb_printf(&f->line, "+++ superseded by execve in pid %d +++", (int)from);
		other_done(f);
	}
}

static void fmt_text_one(struct fmt *f, const struct cli_ev *ev, int64_t ts)
{
	const char *sys = sys_name_of(ev);
	trace_event_id_t id = ev->info.posix_event_id;

	if (id == PTBPF_EV_PROC_EXEC)
		exec_switch(f, ev, ts);
	if (!sys || !PTBPF_EV_IS_SYSCALL(id))
		text_other(f, ev, ts);
	else if (!PTBPF_EV_SYSCALL_IS_EXIT(id))
		text_entry(f, ev, ts, sys);
	else if (f->have_held && f->held.tid == ev->tid && f->held.info.posix_event_id + 1 == id)
		text_exit_held(f, ev, ts, sys);
	else
		text_resumed(f, ev, ts, sys);
}

/*
 * A new thread (its first event, or its fork): on stderr, the line held
 * goes out unfinished with the leader it had before, as strace's attach
 * message splits it there ("vfork(" then the child's "[pid N]" lines; -q:
 * no message); then it counts.
 */
static void threads_before(struct fmt *f, const struct cli_ev *ev)
{
	pid_t tid = f->have_held && f->look.pids == FMT_PID_AUTO && !(f->look.quiet & FMT_Q_ATTACH)
			    ? fmt_new_thread(f, ev)
			    : 0;

	if (tid > 0 && tid != f->held.tid)
		held_unfinished(f);
	fmt_threads_event(f, ev);
}

void fmt_note(struct fmt *f, const struct cli_ev *ev)
{
	if (f->json || !f->count_threads)
		return;
	threads_before(f, ev);
	fmt_threads_after(f, ev);
}

static const char *pid_name(void *ctx, int pid)
{
	return fmt_thread_comm(ctx, pid);
}

static void fmt_text(struct fmt *f, const struct cli_ev *ev)
{
	int64_t ts = ts_ns(&ev->info.posix_timestamp);

	/* -Y: pid arguments with this output's names (-ff has several) */
	if (f->look.comm)
		decode_set_pid_names(pid_name, f);

	restart_close(f, ev);
	if (f->count_threads)
		threads_before(f, ev);
	fmt_text_one(f, ev, ts);
	if (f->count_threads)
		fmt_threads_after(f, ev);
	hold_out(f, ts, 0);
}

void fmt_event(struct fmt *f, const struct cli_ev *ev)
{
	if (!f->have_origin) {
		f->origin = ts_ns(&ev->info.posix_timestamp);
		f->have_origin = 1;
	}
	f->nevents++;
	if (ev->info.posix_event_id == POSIX_TRACE_OVERFLOW)
		f->noverflow++;
	if (f->json)
		fmt_json_event(f, ev);
	else
		fmt_text(f, ev);
}
