/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: a kernel signal mask (64 signals), strace-like. */
#include <signal.h>
#include <string.h>

#include "decode/struct.h"

#define KERNEL_SIGRTMIN 32 /* the kernel's; glibc keeps 32 and 33 for itself */

const char *sig_abbrev(int sig)
{
	/* glibc's name of 29 is POLL, strace's IO */
	if (sig == SIGIO)
		return "IO";
	return sig > 0 && sig < KERNEL_SIGRTMIN ? sigabbrev_np(sig) : NULL;
}

/* "USR1", "RTMIN", "RT_3": strace's names, by the kernel's numbers */
static void sig_short_name(struct sbuf *b, int sig)
{
	const char *a = sig_abbrev(sig);

	if (a)
		sb_puts(b, a);
	else if (sig == KERNEL_SIGRTMIN)
		sb_puts(b, "RTMIN");
	else if (sig > KERNEL_SIGRTMIN)
		sb_printf(b, "RT_%d", sig - KERNEL_SIGRTMIN);
	else
		sb_dec(b, sig);
}

void decode_sigset(struct sbuf *b, uint64_t mask)
{
	int sig, first = 1;
	size_t at;

	/* as strace: more than half of the signals set, the others after '~' */
	if (__builtin_popcountll(mask) > 32) {
		sb_putc(b, '~');
		mask = ~mask;
	}
	sb_putc(b, '[');
	for (sig = 1; sig <= 64; sig++) {
		if (!(mask & (1ULL << (sig - 1))))
			continue;
		if (!first)
			sb_putc(b, ' ');
		first = 0;
		at = b->len;
		sig_short_name(b, sig);
		xlat_restyle(b, at, (uint64_t)sig, XLAT_DEC); /* -X: 12 <c> USR2 <e> */
	}
	sb_putc(b, ']');
}

void decode_signal(struct sbuf *b, int sig)
{
	const char *a;

	if (sig == 0) {
		sb_puts(b, "0");
		return;
	}
	/* strace's names, by the kernel's numbers: glibc's SIGRTMIN (34)
	 * leaves it 32 and 33 for itself, the kernel's does not */
	if (sig >= 32 && sig <= 64) {
		if (sig == 32)
			sb_puts(b, "SIGRTMIN");
		else
			sb_printf(b, "SIGRT_%d", sig - 32);
		return;
	}
	a = sig_abbrev(sig);
	if (a)
		sb_printf(b, "SIG%s", a);
	else
		sb_printf(b, "%d", sig);
}

/* sigaltstack's stack_t (x86_64): {ss_sp=0x..., ss_flags=SS_DISABLE, ss_size=8192} */
int fmt_stack(struct sbuf *b, const void *p, size_t len)
{
	uint64_t sp;

	if (len < 24)
		return -1;
	sp = ld64(p, 0);
	sb_puts(b, "{ss_sp=");
	if (sp)
		sb_xhex(b, sp);
	else
		sb_puts(b, "NULL");
	sb_puts(b, ", ss_flags=");
	xlat_flags(b, &xlat_sigaltstack_flags, ld32(p, 8));
	sb_printf(b, ", ss_size=%llu}", (unsigned long long)ld64(p, 16));
	return 0;
}
