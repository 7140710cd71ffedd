/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: the text of an event that is no syscall (process, signal,
 * scheduler, user and overflow events), as the line after "ts pid/tid ".
 */
#include <ctype.h>
#include <signal.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "fmt/fmt.h"
#include "decode/decode.h"

static void user_data(struct sbuf *b, const void *data, size_t len)
{
	const unsigned char *c = data;
	size_t i;

	sb_printf(b, " len=%zu", len);
	if (!len)
		return;
	sb_puts(b, " data=");
	sb_hex(b, data, len);
	sb_puts(b, " \"");
	for (i = 0; i < len; i++)
		sb_putc(b, isprint(c[i]) ? c[i] : '.');
	sb_putc(b, '"');
}

static const char *sched_state(int64_t st)
{
	if (st == 0)
		return "R";
	if (st & 0x1)
		return "S";
	if (st & 0x2)
		return "D";
	if (st & 0x4)
		return "T";
	if (st & 0x8)
		return "t";
	if (st & 0x10)
		return "X";
	if (st & 0x20)
		return "Z";
	return "?";
}

/* The reasons of proc_untraced: a name (JSON) and a phrase (text). */
struct untraced_reason {
	const char *name, *why;
};

static const struct untraced_reason *untraced_reason(uint32_t r)
{
	static const struct untraced_reason reasons[] = {
		[0] = { "unknown", "" },
		[PTBPF_UNTRACED_SECURE_EXEC] = { "secure_exec", " changes its credentials" },
		[PTBPF_UNTRACED_UNREADABLE] = { "unreadable", " that the tracer may not read" },
	};

	return &reasons[r < sizeof(reasons) / sizeof(reasons[0]) ? r : 0];
}

/* A file name of a payload, quoted: at most the avail bytes the payload has
 * and the len it says it has, up to its NUL. */
static void quote_name(struct sbuf *b, const char *name, size_t avail, size_t len)
{
	if (avail > len)
		avail = len;
	sb_quote(b, name, strnlen(name, avail));
}

static void text_fork(struct sbuf *b, const struct cli_ev *ev)
{
	const struct ptbpf_ev_fork *e = ev->data;

	sb_printf(b, "proc_fork %s %d/%d comm=", e->is_thread ? "thread" : "process", e->child_pid,
		  e->child_tid);
	sb_quote(b, e->comm, strnlen(e->comm, sizeof(e->comm)));
}

static void text_exec(struct sbuf *b, const struct cli_ev *ev)
{
	const struct ptbpf_ev_exec *e = ev->data;

	sb_puts(b, "proc_exec ");
	quote_name(b, e->filename, ev->len - offsetof(struct ptbpf_ev_exec, filename),
		   e->filename_len);
	if (e->truncated)
		sb_puts(b, "...");
	if (e->old_tid != e->pid)
		sb_printf(b, " old_tid=%d", e->old_tid);
}

static void text_untraced(struct sbuf *b, const struct cli_ev *ev)
{
	const struct ptbpf_ev_untraced *e = ev->data;

	sb_puts(b, "+++ untraced: exec of ");
	quote_name(b, e->filename, ev->len - offsetof(struct ptbpf_ev_untraced, filename),
		   e->filename_len);
	sb_puts(b, untraced_reason(e->reason)->why);
	sb_puts(b, " (tracing it needs CAP_SYS_PTRACE) +++");
}

/* strace -f: each thread's own +++ line (see exit_tid) */
static void text_exit(struct sbuf *b, const struct cli_ev *ev)
{
	const struct ptbpf_ev_exit *e = ev->data;

	decode_exit_status(b, e->exit_code);
}

static void text_signal_generate(struct sbuf *b, const struct cli_ev *ev)
{
	const struct ptbpf_ev_signal *e = ev->data;

	sb_puts(b, "signal_generate ");
	decode_signal(b, e->signo);
	sb_printf(b, " to %d/%d from pid %d code=", e->target_pid, e->target_tid, e->sender_pid);
	fmt_sig_code(b, e->signo, e->code);
	sb_printf(b, " result=%d%s", e->result, e->group ? " group" : "");
}

static void text_signal_deliver(struct sbuf *b, const struct cli_ev *ev)
{
	fmt_signal_deliver(b, ev->data, ev->len, NULL);
}

/* Not sb_printf: a blocking syscall brings three of these, as many lines
 * as the syscall's own. */
static void text_switch(struct sbuf *b, const struct cli_ev *ev)
{
	const struct ptbpf_ev_sched_switch *e = ev->data;

	if (ev->info.posix_event_id == PTBPF_EV_SCHED_SWITCH_OUT) {
		sb_puts(b, "sched_switch_out state=");
		sb_puts(b, sched_state(e->prev_state));
		sb_puts(b, " next=");
		sb_dec(b, e->next_tid);
	} else {
		sb_puts(b, "sched_switch_in prev=");
		sb_dec(b, e->prev_tid);
	}
	sb_puts(b, " cpu=");
	sb_udec(b, e->cpu, 0);
}

static void text_wakeup(struct sbuf *b, const struct cli_ev *ev)
{
	const struct ptbpf_ev_sched_wakeup *e = ev->data;

	sb_puts(b, "sched_wakeup ");
	sb_dec(b, e->pid);
	sb_putc(b, '/');
	sb_dec(b, e->tid);
	sb_puts(b, " by ");
	sb_dec(b, e->waker_tid);
	sb_puts(b, " cpu=");
	sb_udec(b, e->target_cpu, 0);
}

/* The kernel's events: the payload each needs at least, and its printer. */
static const struct other_text {
	trace_event_id_t id;
	size_t min_len;
	void (*print)(struct sbuf *b, const struct cli_ev *ev);
} other_texts[] = {
	{ PTBPF_EV_PROC_FORK, sizeof(struct ptbpf_ev_fork), text_fork },
	{ PTBPF_EV_PROC_EXEC, offsetof(struct ptbpf_ev_exec, filename), text_exec },
	{ PTBPF_EV_PROC_UNTRACED, offsetof(struct ptbpf_ev_untraced, filename), text_untraced },
	{ PTBPF_EV_THREAD_EXIT, sizeof(struct ptbpf_ev_exit), text_exit },
	{ PTBPF_EV_PROC_EXIT, sizeof(struct ptbpf_ev_exit), text_exit },
	{ PTBPF_EV_SIGNAL_GENERATE, offsetof(struct ptbpf_ev_signal, flags), text_signal_generate },
	{ PTBPF_EV_SIGNAL_DELIVER, offsetof(struct ptbpf_ev_signal, flags), text_signal_deliver },
	{ PTBPF_EV_SCHED_SWITCH_OUT, sizeof(struct ptbpf_ev_sched_switch), text_switch },
	{ PTBPF_EV_SCHED_SWITCH_IN, sizeof(struct ptbpf_ev_sched_switch), text_switch },
	{ PTBPF_EV_SCHED_WAKEUP, sizeof(struct ptbpf_ev_sched_wakeup), text_wakeup },
};

/*
 * strace's look: a user event as strace shows what is no syscall, its data
 * as strace prints a buffer (-s, -x); a loss as a message of ptbpf's.
 */
static int text_user_strace(struct sbuf *b, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;

	if (id >= PTBPF_EV_USER_BASE) {
		if (!probe_fmt(b, ev->name, ev->data, ev->len, true))
			return 1;
		sb_puts(b, "--- user:");
		sb_puts(b, ev->name);
		if (ev->len) {
			sb_putc(b, ' ');
			decode_user_data(b, ev->data, ev->len, ev->info.posix_truncation_status);
		}
		sb_puts(b, " ---");
		return 1;
	}
	if (id == POSIX_TRACE_OVERFLOW) {
		if (ev->len >= sizeof(uint64_t))
			sb_printf(b, "%s: %llu event%s lost here", cli_prog,
				  (unsigned long long)overflow_count(ev->data),
				  overflow_count(ev->data) == 1 ? "" : "s");
		else
			sb_printf(b, "%s: events lost here", cli_prog);
		return 1;
	}
	return 0;
}

/* User events, probes' and the POSIX markers; 0: ev is none of them. */
static int text_user_or_marker(struct sbuf *b, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;

	if (id >= PTBPF_EV_USER_BASE) {
		if (probe_fmt(b, ev->name, ev->data, ev->len, true)) {
			sb_printf(b, "user %s", ev->name);
			user_data(b, ev->data, ev->len);
			if (ev->info.posix_truncation_status)
				sb_puts(b, " (truncated)");
		}
		return 1;
	}
	if (id == POSIX_TRACE_OVERFLOW) {
		if (ev->len >= sizeof(uint64_t))
			sb_printf(b, "=== %s: %llu event%s lost ===", ev->name,
				  (unsigned long long)overflow_count(ev->data),
				  overflow_count(ev->data) == 1 ? "" : "s");
		else /* a log of a version that did not count */
			sb_printf(b, "=== %s: events lost here ===", ev->name);
		return 1;
	}
	if (id < PTBPF_EV_KERNEL_FIRST) {
		sb_printf(b, "=== %s ===", ev->name);
		return 1;
	}
	return 0;
}

void fmt_other_text(struct sbuf *b, const struct cli_ev *ev, int look)
{
	size_t i;

	for (i = 0; i < sizeof(other_texts) / sizeof(other_texts[0]); i++) {
		if (other_texts[i].id != ev->info.posix_event_id)
			continue;
		if (ev->len < other_texts[i].min_len)
			break;
		other_texts[i].print(b, ev);
		return;
	}
	if (i == sizeof(other_texts) / sizeof(other_texts[0]) &&
	    (look == FMT_LOOK_STRACE ? text_user_strace(b, ev) : 0))
		return;
	if (i == sizeof(other_texts) / sizeof(other_texts[0]) && text_user_or_marker(b, ev))
		return;
	/* unknown or short payload */
	sb_puts(b, ev->name);
	user_data(b, ev->data, ev->len);
}
