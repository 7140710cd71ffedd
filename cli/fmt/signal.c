/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: the strace-like line of a delivered signal, and which ones have none. */
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "decode/struct.h"
#include "fmt/fmt.h"

static const char *sig_code_name(int code)
{
	switch (code) {
	case 0:
		return "SI_USER";
	case 0x80:
		return "SI_KERNEL";
	case -1:
		return "SI_QUEUE";
	case -2:
		return "SI_TIMER";
	case -3:
		return "SI_MESGQ";
	case -4:
		return "SI_ASYNCIO";
	case -5:
		return "SI_SIGIO";
	case -6:
		return "SI_TKILL";
	}
	return NULL;
}

void fmt_sig_code(struct sbuf *b, int signo, int code)
{
	const char *n = sig_code_name(code);

	if (n) {
		sb_puts(b, n);
		return;
	}
	if (signo == SIGCHLD) {
		static const char *const cld[] = {
			"?",	       "CLD_EXITED",  "CLD_KILLED",   "CLD_DUMPED",
			"CLD_TRAPPED", "CLD_STOPPED", "CLD_CONTINUED"
		};

		if (code > 0 && code <= 6) {
			sb_puts(b, cld[code]);
			return;
		}
	}
	sb_printf(b, "%d", code);
}

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

static int sig_hidden(const struct fmt *f, int signo)
{
	return signo > 0 && signo <= 64 && (f->look.sigs_hidden & (1ull << (signo - 1)));
}

int fmt_signal_filtered(const struct fmt *f, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	const struct ptbpf_ev_signal *e = ev->data;
	const struct ptbpf_ev_exit *x = ev->data;

	if (id == PTBPF_EV_SIGNAL_DELIVER)
		return ev->len >= offsetof(struct ptbpf_ev_signal, flags) &&
		       sig_hidden(f, e->signo);
	/* strace's "+++ killed by SIG... +++" is of the signal set too */
	return (id == PTBPF_EV_PROC_EXIT || id == PTBPF_EV_THREAD_EXIT) && ev->len >= sizeof(*x) &&
	       sig_hidden(f, x->exit_code & 0x7f);
}

/* "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=7, ...} ---"
 * (comm: the sender's name after its pid, -Y; NULL or "": none) */
void fmt_signal_deliver(struct sbuf *b, const struct ptbpf_ev_signal *e, size_t len,
			const char *comm)
{
	sb_puts(b, "--- ");
	decode_signal(b, e->signo);
	sb_puts(b, " {si_signo=");
	decode_signal(b, e->signo);
	sb_puts(b, ", si_code=");
	fmt_sig_code(b, e->signo, e->code);
	sb_printf(b, ", si_pid=%d", e->sender_pid);
	if (comm && *comm)
		sb_printf(b, "<%s>", comm);
	sb_printf(b, ", si_uid=%d", e->sender_uid);
	if (sig_flags(e, len) & PTBPF_SIG_CHLD) {
		/* as strace: an exit code is a number, any other state a signal */
		sb_puts(b, ", si_status=");
		if (e->code == CLD_EXITED)
			sb_dec(b, e->status);
		else
			decode_signal(b, e->status);
		sb_puts(b, ", si_utime=");
		fmt_clock_t(b, (uint64_t)e->utime);
		sb_puts(b, ", si_stime=");
		fmt_clock_t(b, (uint64_t)e->stime);
	}
	sb_puts(b, "} ---");
}

int fmt_signal_ignored_chld(const struct cli_ev *ev)
{
	const struct ptbpf_ev_signal *e = ev->data;

	/*
	 * A SIGCHLD to a process without a handler: the kernel drops it at
	 * once (TRACE_SIGNAL_IGNORED); under ptrace it is not ignored, and
	 * strace shows it delivered
	 */
	return ev->info.posix_event_id == PTBPF_EV_SIGNAL_GENERATE && ev->len >= sizeof(*e) &&
	       e->signo == SIGCHLD && e->result == 1 && (e->flags & PTBPF_SIG_CHLD);
}

struct fmt_chld {
	pid_t tid;
	struct sbuf text;
};

void fmt_chld_add(struct fmt *f, pid_t tid, const char *line, size_t len)
{
	struct fmt_chld *c;

	if (f->nchld == f->capchld) {
		size_t cap = f->capchld ? 2 * f->capchld : 4;

		c = realloc(f->chld, cap * sizeof(*c));
		if (!c) {
			sb_fail(&f->line);
			return;
		}
		memset(c + f->capchld, 0, (cap - f->capchld) * sizeof(*c));
		f->chld = c;
		f->capchld = cap;
	}
	c = &f->chld[f->nchld++];
	c->tid = tid;
	sb_reset(&c->text);
	sb_putn(&c->text, line, len);
	if (c->text.failed)
		sb_fail(&f->line);
}

int fmt_chld_take(struct fmt *f, pid_t tid, struct sbuf *out)
{
	size_t i = 0, n = 0;

	while (i < f->nchld) {
		struct fmt_chld *c = &f->chld[i];
		struct sbuf t;

		if (tid >= 0 && c->tid != tid) {
			i++;
			continue;
		}
		sb_cat(out, &c->text);
		n++;
		/* keeps the order of the rest, and the buffer for reuse */
		t = c->text;
		memmove(c, c + 1, (f->nchld - i - 1) * sizeof(*c));
		f->chld[--f->nchld].text = t;
	}
	return n;
}

void fmt_chld_fini(struct fmt *f)
{
	for (size_t i = 0; i < f->capchld; i++)
		sb_free(&f->chld[i].text);
	free(f->chld);
	f->chld = NULL;
	f->nchld = f->capchld = 0;
}
