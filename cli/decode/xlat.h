/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The command's flag and value tables (xlat/NAME.in, generated into
 * xlat_NAME by tools/xlat_gen.cmake) and their printers, as strace's
 * printxval and printflags print them.
 */
#ifndef PTBPF_DECODE_XLAT_H
#define PTBPF_DECODE_XLAT_H

#include <stddef.h>
#include <stdint.h>

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

/* -X: how a constant prints (strace's -X raw|abbrev|verbose) */
enum { XLAT_ABBREV = 0, XLAT_RAW, XLAT_VERBOSE };
/* the base of a constant's value: 0x3, -100, 8388608, 0100644 */
enum { XLAT_HEX = 0, XLAT_DEC, XLAT_UDEC, XLAT_OCT };
/* the style from now on (default XLAT_ABBREV); returns the one before */
int xlat_set_style(int s);
int xlat_get_style(void);
/*
 * The abbreviated form of a constant that b holds from at on (a name, names
 * or a number), made the style's: raw, the value alone (v, in base, enum
 * above); verbose, "0x3 <c> PROT_READ|PROT_WRITE <e>". The table printers
 * below do it; a printer of its own form calls it on what it printed.
 */
void xlat_restyle(struct sbuf *b, size_t at, uint64_t v, int base);

/* The name of value v in x, NULL: none. */
const char *xlat_name(const struct xlat *x, unsigned long v);
/* strace's printxval: fmt_xval with the table's default */
void xlat_val(struct sbuf *b, const struct xlat *x, unsigned long v);
/* strace's printflags: fmt_flags_dflt with the table's default */
void xlat_flags(struct sbuf *b, const struct xlat *x, unsigned long v);

#endif
