/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: the printers of flag and value tables (xlat/NAME.in), as strace's. */
#include <stdio.h>
#include <string.h>

#include "decode/struct.h"

static int style = XLAT_ABBREV; /* -X */

int xlat_set_style(int s)
{
	int old = style;

	style = s;
	return old;
}

int xlat_get_style(void)
{
	return style;
}

/* v as -X raw prints it, in num; its length */
static size_t raw_num(char *num, size_t size, uint64_t v, int base)
{
	int n;

	if (base == XLAT_DEC)
		n = snprintf(num, size, "%lld", (long long)v);
	else if (base == XLAT_UDEC)
		n = snprintf(num, size, "%llu", (unsigned long long)v);
	else if (base == XLAT_OCT)
		n = snprintf(num, size, "%#03llo", (unsigned long long)v);
	else if (v)
		n = snprintf(num, size, "%#llx", (unsigned long long)v);
	else
		n = snprintf(num, size, "0");
	return n > 0 ? (size_t)n : 0;
}

void xlat_restyle(struct sbuf *b, size_t at, uint64_t v, int base)
{
	char num[32];
	size_t n, end = b->len;
	const char *t = b->s + at;

	if (style == XLAT_ABBREV || b->failed || end <= at)
		return;
	n = raw_num(num, sizeof(num), v, base);
	if (style == XLAT_RAW) {
		sb_truncate(b, at);
		sb_putn(b, num, n);
		return;
	}
	/* verbose: a value without a name (0x40, 0x40 <c> X_??? <e>) as abbrev prints it */
	if (end - at >= n && !memcmp(t, num, n) &&
	    (end - at == n || (end - at > n + 4 && !memcmp(t + n, " /* ", 4))))
		return;
	sb_putn(b, num, n);
	sb_puts(b, " /* ");
	if (b->failed)
		return;
	memmove(b->s + at + n + 4, b->s + at, end - at);
	memcpy(b->s + at, num, n);
	memcpy(b->s + at + n, " /* ", 4);
	sb_puts(b, " */");
}

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
	size_t at = b->len;

	fmt_xval(b, v, x->f, x->n, x->dflt);
	xlat_restyle(b, at, v, XLAT_HEX);
}

void xlat_flags(struct sbuf *b, const struct xlat *x, unsigned long v)
{
	const char *zero = v ? NULL : xlat_name(x, 0);
	size_t at = b->len;

	/* strace names 0 when the table does: PROT_NONE, F_OK */
	if (zero)
		sb_puts(b, zero);
	else
		fmt_flags_dflt(b, v, x->f, x->n, x->dflt);
	xlat_restyle(b, at, v, XLAT_HEX);
}
