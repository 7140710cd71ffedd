/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: the printers of flag and value tables (xlat/NAME.in), as strace's. */
#include "decode/struct.h"

void print_flags(struct sbuf *b, unsigned long v, const struct flag *fl, size_t n, const char *zero)
{
	int first = 1;
	size_t i;

	if (!v) {
		sb_puts(b, zero ? zero : "0");
		return;
	}
	for (i = 0; i < n && v; i++) {
		if (fl[i].v && (v & fl[i].v) == fl[i].v) {
			if (!first)
				sb_putc(b, '|');
			sb_puts(b, fl[i].n);
			v &= ~fl[i].v;
			first = 0;
		}
	}
	if (v) {
		if (!first)
			sb_putc(b, '|');
		sb_xhex(b, v);
	}
}

void fmt_flags_dflt(struct sbuf *b, unsigned long v, const struct flag *fl, size_t n,
		    const char *dflt)
{
	size_t i;

	for (i = 0; i < n && v; i++)
		if (fl[i].v && (v & fl[i].v) == fl[i].v)
			break;
	if (v && i == n) {
		sb_xhex(b, v);
		if (dflt)
			sb_printf(b, " /* %s */", dflt);
		return;
	}
	print_flags(b, v, fl, n, NULL);
}

void fmt_xval(struct sbuf *b, unsigned long v, const struct flag *fl, size_t n, const char *dflt)
{
	for (size_t i = 0; i < n; i++) {
		if (fl[i].v == v) {
			sb_puts(b, fl[i].n);
			return;
		}
	}
	sb_xhex(b, v);
	if (dflt)
		sb_printf(b, " /* %s */", dflt);
}

const char *xlat_name(const struct xlat *x, unsigned long v)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->f[i].v == v)
			return x->f[i].n;
	return NULL;
}

void xlat_val(struct sbuf *b, const struct xlat *x, unsigned long v)
{
	fmt_xval(b, v, x->f, x->n, x->dflt);
}

void xlat_flags(struct sbuf *b, const struct xlat *x, unsigned long v)
{
	const char *zero = v ? NULL : xlat_name(x, 0);

	/* strace names 0 when the table does: PROT_NONE, F_OK */
	if (zero)
		sb_puts(b, zero);
	else
		fmt_flags_dflt(b, v, x->f, x->n, x->dflt);
}
