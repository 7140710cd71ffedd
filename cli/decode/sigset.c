/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: a kernel signal mask (64 signals), strace-like. */
#include <signal.h>
#include <string.h>

#include "decode/decode.h"

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
		sig_short_name(b, sig);
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
