/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The command's flag and value tables (xlat/NAME.in, generated into
 * xlat_NAME by tools/xlat_gen.cmake) and their printers, as strace's
 * printxval and printflags print them.
 */
#ifndef PTBPF_DECODE_XLAT_H
#define PTBPF_DECODE_XLAT_H

#include <stddef.h>

struct sbuf;

/* A flag's value and name, for print_flags (F(O_CREAT) names itself). */
struct flag {
	unsigned long v;
	const char *n;
};

#define F(x)                                                                                       \
	{                                                                                          \
		x, #x                                                                              \
	}

/* One xlat/NAME.in: its rows in the file's order. */
struct xlat {
	const struct flag *f;
	size_t n;
	const char *dflt; /* #default: "O_???", NULL: none */
	const char *name; /* "open_mode_flags" */
};

/* "A|B|0x40" in the order of fl (a value covering several bits first); v 0: zero, or "0". */
void print_flags(struct sbuf *b, unsigned long v, const struct flag *fl, size_t n,
		 const char *zero);
/* print_flags, but a value with no known bit as strace's "0x40 <c> ST_??? <e>" */
void fmt_flags_dflt(struct sbuf *b, unsigned long v, const struct flag *fl, size_t n,
		    const char *dflt);
/* A value's name in fl (exact match), else "0x.. <c> dflt <e>" (dflt NULL: "0x.."). */
void fmt_xval(struct sbuf *b, unsigned long v, const struct flag *fl, size_t n, const char *dflt);

/* The name of value v in x, NULL: none. */
const char *xlat_name(const struct xlat *x, unsigned long v);
/* strace's printxval: fmt_xval with the table's default */
void xlat_val(struct sbuf *b, const struct xlat *x, unsigned long v);
/* strace's printflags: fmt_flags_dflt with the table's default */
void xlat_flags(struct sbuf *b, const struct xlat *x, unsigned long v);

#endif
