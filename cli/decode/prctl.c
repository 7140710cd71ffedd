/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: prctl's arguments and result by its option, as strace 6.1 prints
 * them: a row an option (the arguments printed, what the second is, a
 * table of the result's names); an option without a row prints all five,
 * in hexadecimal.
 */
#include <sys/prctl.h>

#include "decode/struct.h"

enum prctl_arg {
	PA_HEX = 0, /* 0x1 */
	PA_UDEC,    /* 1 */
	PA_SIG,	    /* SIGKILL */
	PA_XVAL,    /* the row's table: SUID_DUMP_USER, CAP_CHOWN */
	PA_PTRACER, /* a pid, or PR_SET_PTRACER_ANY */
};

static const struct prctl_row {
	unsigned option;
	unsigned char nargs;	/* printed, the option's included */
	unsigned char arg;	/* enum prctl_arg: the second argument; the others' PA_UDEC */
	const struct xlat *x;	/* PA_XVAL's */
	const struct xlat *ret; /* the result's names: 1 (SUID_DUMP_USER) */
} prctl_rows[] = {
	{ PR_CAPBSET_READ, 2, PA_XVAL, &xlat_cap },
	{ PR_CAPBSET_DROP, 2, PA_XVAL, &xlat_cap },
	{ PR_GET_DUMPABLE, 1, PA_HEX, NULL, &xlat_pr_dumpable },
	{ PR_SET_DUMPABLE, 2, PA_XVAL, &xlat_pr_dumpable },
	{ PR_SET_PDEATHSIG, 2, PA_SIG },
	{ PR_GET_KEEPCAPS, 1 },
	{ PR_SET_KEEPCAPS, 2, PA_UDEC },
	{ PR_GET_SECUREBITS, 1 },
	{ PR_GET_NO_NEW_PRIVS, 5, PA_UDEC },
	{ PR_SET_NO_NEW_PRIVS, 5, PA_UDEC },
	{ PR_SET_CHILD_SUBREAPER, 2, PA_UDEC },
	{ PR_SET_PTRACER, 2, PA_PTRACER },
};

static const struct prctl_row *prctl_row(uint64_t option)
{
	for (size_t i = 0; i < DS_NELEM(prctl_rows); i++)
		if (prctl_rows[i].option == (unsigned)option)
			return &prctl_rows[i];
	return NULL;
}

unsigned prctl_argmask(uint64_t option)
{
	const struct prctl_row *r = prctl_row(option);

	return (1U << (r ? r->nargs : 5)) - 1;
}

void prctl_arg(struct sbuf *b, uint64_t option, int i, uint64_t v)
{
	const struct prctl_row *r = prctl_row(option);
	size_t at = b->len;

	if (!r) {
		sb_xhex(b, v);
	} else if (i > 1 || r->arg == PA_UDEC) {
		sb_udec(b, v, 0);
	} else if (r->arg == PA_SIG) {
		decode_signal(b, (int)v);
		xlat_restyle(b, at, (uint64_t)(int64_t)(int)v, XLAT_DEC);
	} else if (r->arg == PA_XVAL) {
		xlat_val(b, r->x, v);
	} else if (r->arg == PA_PTRACER) {
		if (v == (uint64_t)PR_SET_PTRACER_ANY)
			sb_puts(b, "PR_SET_PTRACER_ANY");
		else
			sb_udec(b, v, 0);
		xlat_restyle(b, at, v, XLAT_DEC);
	} else {
		sb_xhex(b, v);
	}
}

int prctl_ret(struct sbuf *b, uint64_t option, int64_t ret)
{
	const struct prctl_row *r = prctl_row(option);
	const char *name = r && r->ret ? xlat_name(r->ret, (unsigned long)ret) : NULL;

	if (!name)
		return 0;
	sb_printf(b, "%lld (%s)", (long long)ret, name);
	return 1;
}
