/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: ioctl command names and the terminal structures TCGETS and
 * TIOCGWINSZ fill, as strace 6.1 prints them (src/term.c, ioctlent).
 */
#include <sys/ioctl.h>
#include <termios.h>

#include "decode/struct.h"

/* the kernel's (asm/termbits.h), not to be had beside glibc's termios */
#ifndef IBSHIFT
#define IBSHIFT 16
#endif

const char *name_ioctl(unsigned long cmd)
{
	return xlat_name(&xlat_ioctls, cmd);
}

int fmt_winsize(struct sbuf *b, const void *p, size_t len)
{
	if (len < 8)
		return -1;
	sb_printf(b, "{ws_row=%u, ws_col=%u, ws_xpixel=%u, ws_ypixel=%u}", ld16(p, 0), ld16(p, 2),
		  ld16(p, 4), ld16(p, 6));
	return 0;
}

/* printflags64(..., NULL): a zero value prints nothing (strace's "c_iflag=, ") */
static void flags_or_nothing(struct sbuf *b, unsigned long v, const struct xlat *x)
{
	if (v)
		xlat_flags(b, x, v);
}

static void oflag(struct sbuf *b, unsigned long v)
{
	/* strace's term_oflags_*dly tables, in its order of fields */
	static const struct {
		const struct xlat *x;
		unsigned long mask;
	} dly[] = {
		{ &xlat_term_oflags_nldly, NLDLY },   { &xlat_term_oflags_crdly, CRDLY },
		{ &xlat_term_oflags_tabdly, TABDLY }, { &xlat_term_oflags_bsdly, BSDLY },
		{ &xlat_term_oflags_vtdly, VTDLY },   { &xlat_term_oflags_ffdly, FFDLY },
	};

	for (size_t i = 0; i < DS_NELEM(dly); i++) {
		xlat_val(b, dly[i].x, v & dly[i].mask);
		sb_putc(b, '|');
		v &= ~dly[i].mask;
	}
	flags_or_nothing(b, v, &xlat_term_oflags);
}

static void cflag(struct sbuf *b, unsigned long v)
{
	xlat_val(b, &xlat_baud_options, v & CBAUD);
	sb_putc(b, '|');
	if (v & CIBAUD) {
		xlat_val(b, &xlat_baud_options, (v & CIBAUD) >> IBSHIFT);
		sb_puts(b, "<<IBSHIFT|");
	}
	xlat_val(b, &xlat_term_cflags_csize, v & CSIZE);
	sb_putc(b, '|');
	flags_or_nothing(b, v & ~(unsigned long)(CBAUD | CIBAUD | CSIZE), &xlat_term_cflags);
}

#define KTERMIOS_SIZE 36 /* the kernel's: four flags, c_line, c_cc[19] */

int fmt_termios(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o)
{
	const unsigned char *t = p;

	if (len < (o->verbose ? KTERMIOS_SIZE : 16))
		return -1;
	sb_puts(b, "{c_iflag=");
	flags_or_nothing(b, ld32(t, 0), &xlat_term_iflags);
	sb_puts(b, ", c_oflag=");
	oflag(b, ld32(t, 4));
	sb_puts(b, ", c_cflag=");
	cflag(b, ld32(t, 8));
	sb_puts(b, ", c_lflag=");
	flags_or_nothing(b, ld32(t, 12), &xlat_term_lflags);
	if (!o->verbose) {
		sb_puts(b, ", ...}");
		return 0;
	}
	sb_puts(b, ", c_line=");
	xlat_val(b, &xlat_term_line_discs, t[16]);
	sb_puts(b, ", c_cc=[");
	for (size_t i = 0; i < 19; i++) {
		const char *cc = xlat_name(&xlat_term_cc, i);

		if (i)
			sb_puts(b, ", ");
		if (cc)
			sb_printf(b, "[%s]=", cc);
		else
			sb_printf(b, "[%zu]=", i);
		sb_xhex(b, t[17 + i]);
	}
	sb_puts(b, "]}");
	return 0;
}

/*
 * What ioctl's third argument points to for command cmd, as strace prints
 * it: at exit (exiting) for what the kernel wrote, at entry for what it
 * reads. -1: nothing for this command at this end (its raw value stays).
 */
int fmt_ioctl_mem(struct sbuf *b, unsigned long cmd, int exiting, const void *p, size_t len,
		  const struct decode_opts *o)
{
	switch (cmd) {
	case TCGETS:
		return exiting ? fmt_termios(b, p, len, o) : -1;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return exiting ? -1 : fmt_termios(b, p, len, o);
	case TIOCGWINSZ:
		return exiting ? fmt_winsize(b, p, len) : -1;
	case TIOCSWINSZ:
		return exiting ? -1 : fmt_winsize(b, p, len);
	/* an int the kernel writes, printed in decimal */
	case TIOCGPGRP:
	case TIOCGSID:
	case TIOCGPTN:
	case FIONREAD:
	case TIOCOUTQ:
		return exiting && len >= 4 ? fmt_int_array(b, p, 4, 1) : -1;
	/* an int the kernel reads */
	case TIOCSPGRP:
	case TIOCSPTLCK:
	case FIONBIO:
	case FIOASYNC:
		return !exiting && len >= 4 ? fmt_int_array(b, p, 4, 1) : -1;
	}
	return -1;
}
