/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: the strace-like line of a delivered signal, and which ones have none. */
#include <signal.h>
#include <stddef.h>
#include <ptbpf/ptbpf.h>

#include "cli.h"

/* The payload's flags, 0 for an older log's 32-byte one. */
static uint32_t sig_flags(const struct ptbpf_ev_signal *e, size_t len)
{
	return len >= sizeof(*e) ? e->flags : 0;
}

int fmt_signal_hidden(const struct cli_ev *ev)
{
	/* strace shows no signal for the SIGKILLs of a process going away */
	return ev->info.posix_event_id == PTBPF_EV_SIGNAL_DELIVER &&
	       (sig_flags(ev->data, ev->len) & PTBPF_SIG_GROUP_KILL);
}

/* "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=7, ...} ---" */
void fmt_signal_deliver(struct sbuf *b, const struct ptbpf_ev_signal *e, size_t len)
{
	sb_puts(b, "--- ");
	decode_signal(b, e->signo);
	sb_puts(b, " {si_signo=");
	decode_signal(b, e->signo);
	sb_puts(b, ", si_code=");
	fmt_sig_code(b, e->signo, e->code);
	sb_printf(b, ", si_pid=%d, si_uid=%d", e->sender_pid, e->sender_uid);
	if (sig_flags(e, len) & PTBPF_SIG_CHLD) {
		/* as strace: an exit code is a number, any other state a signal */
		sb_puts(b, ", si_status=");
		if (e->code == CLD_EXITED)
			sb_dec(b, e->status);
		else
			decode_signal(b, e->status);
		sb_printf(b, ", si_utime=%lld, si_stime=%lld", (long long)e->utime,
			  (long long)e->stime);
	}
	sb_puts(b, "} ---");
}
