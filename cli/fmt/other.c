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

void fmt_other_text(struct sbuf *b, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	const void *d = ev->data;
	size_t len = ev->len;

	switch (id) {
	case PTBPF_EV_PROC_FORK:
		if (len >= sizeof(struct ptbpf_ev_fork)) {
			const struct ptbpf_ev_fork *e = d;

			sb_printf(b,
				  "proc_fork %s %d/%d comm=", e->is_thread ? "thread" : "process",
				  e->child_pid, e->child_tid);
			sb_quote(b, e->comm, strnlen(e->comm, sizeof(e->comm)));
			return;
		}
		break;
	case PTBPF_EV_PROC_EXEC:
		if (len >= offsetof(struct ptbpf_ev_exec, filename)) {
			const struct ptbpf_ev_exec *e = d;

			sb_puts(b, "proc_exec ");
			quote_name(b, e->filename, len - offsetof(struct ptbpf_ev_exec, filename),
				   e->filename_len);
			if (e->truncated)
				sb_puts(b, "...");
			if (e->old_tid != e->pid)
				sb_printf(b, " old_tid=%d", e->old_tid);
			return;
		}
		break;
	case PTBPF_EV_PROC_UNTRACED:
		if (len >= offsetof(struct ptbpf_ev_untraced, filename)) {
			const struct ptbpf_ev_untraced *e = d;

			sb_puts(b, "+++ untraced: exec of ");
			quote_name(b, e->filename,
				   len - offsetof(struct ptbpf_ev_untraced, filename),
				   e->filename_len);
			sb_puts(b, untraced_reason(e->reason)->why);
			sb_puts(b, " (tracing it needs CAP_SYS_PTRACE) +++");
			return;
		}
		break;
	case PTBPF_EV_THREAD_EXIT:
	case PTBPF_EV_PROC_EXIT:
		if (len >= sizeof(struct ptbpf_ev_exit)) {
			const struct ptbpf_ev_exit *e = d;

			/* strace -f: each thread's own +++ line (see exit_tid) */
			decode_exit_status(b, e->exit_code);
			return;
		}
		break;
	case PTBPF_EV_SIGNAL_GENERATE:
	case PTBPF_EV_SIGNAL_DELIVER:
		if (len >= offsetof(struct ptbpf_ev_signal, flags)) {
			const struct ptbpf_ev_signal *e = d;

			if (id == PTBPF_EV_SIGNAL_DELIVER) {
				fmt_signal_deliver(b, e, len);
			} else {
				sb_puts(b, "signal_generate ");
				decode_signal(b, e->signo);
				sb_printf(b, " to %d/%d from pid %d code=", e->target_pid,
					  e->target_tid, e->sender_pid);
				fmt_sig_code(b, e->signo, e->code);
				sb_printf(b, " result=%d%s", e->result, e->group ? " group" : "");
			}
			return;
		}
		break;
	case PTBPF_EV_SCHED_SWITCH_OUT:
	case PTBPF_EV_SCHED_SWITCH_IN:
		if (len >= sizeof(struct ptbpf_ev_sched_switch)) {
			const struct ptbpf_ev_sched_switch *e = d;

			/* not sb_printf: a blocking syscall brings three of
			 * these, as many lines as the syscall's own */
			if (id == PTBPF_EV_SCHED_SWITCH_OUT) {
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
			return;
		}
		break;
	case PTBPF_EV_SCHED_WAKEUP:
		if (len >= sizeof(struct ptbpf_ev_sched_wakeup)) {
			const struct ptbpf_ev_sched_wakeup *e = d;

			sb_puts(b, "sched_wakeup ");
			sb_dec(b, e->pid);
			sb_putc(b, '/');
			sb_dec(b, e->tid);
			sb_puts(b, " by ");
			sb_dec(b, e->waker_tid);
			sb_puts(b, " cpu=");
			sb_udec(b, e->target_cpu, 0);
			return;
		}
		break;
	default:
		if (id >= PTBPF_EV_USER_BASE && !probe_fmt(b, ev->name, d, len, true))
			return;
		if (id >= PTBPF_EV_USER_BASE) {
			sb_printf(b, "user %s", ev->name);
			user_data(b, d, len);
			if (ev->info.posix_truncation_status)
				sb_puts(b, " (truncated)");
			return;
		}
		if (id == POSIX_TRACE_OVERFLOW) {
			if (len >= sizeof(uint64_t))
				sb_printf(b, "=== %s: %llu event%s lost ===", ev->name,
					  (unsigned long long)overflow_count(d),
					  overflow_count(d) == 1 ? "" : "s");
			else /* a log of a version that did not count */
				sb_printf(b, "=== %s: events lost here ===", ev->name);
			return;
		}
		if (id < PTBPF_EV_KERNEL_FIRST) {
			sb_printf(b, "=== %s ===", ev->name);
			return;
		}
	}
	/* unknown or short payload */
	sb_puts(b, ev->name);
	user_data(b, d, len);
}
