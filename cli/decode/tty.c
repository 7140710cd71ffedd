/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: ioctl command names and the terminal structures TCGETS and
 * TIOCGWINSZ fill, as strace 6.1 prints them (src/term.c, ioctlent).
 */
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "decode/struct.h"

/* struct termios2 is the kernel's (asm/termbits.h), not to be had beside glibc's termios */
#ifndef BOTHER
#define BOTHER 0010000 /* asm-generic/termbits.h */
#endif
#ifndef IBSHIFT
#define IBSHIFT 16
#endif

/* the commands of everyday programs, in strace's names */
static const struct flag ioctls[] = {
	F(TCGETS),
	F(TCSETS),
	F(TCSETSW),
	F(TCSETSF),
	F(TCGETA),
	F(TCSETA),
	F(TCSETAW),
	F(TCSETAF),
	F(TCSBRK),
	F(TCXONC),
	F(TCFLSH),
	F(TIOCEXCL),
	F(TIOCNXCL),
	F(TIOCSCTTY),
	F(TIOCGPGRP),
	F(TIOCSPGRP),
	F(TIOCOUTQ),
	F(TIOCSTI),
	F(TIOCGWINSZ),
	F(TIOCSWINSZ),
	F(TIOCMGET),
	F(TIOCMBIS),
	F(TIOCMBIC),
	F(TIOCMSET),
	F(TIOCGSOFTCAR),
	F(TIOCSSOFTCAR),
	F(FIONREAD),
	F(TIOCLINUX),
	F(TIOCCONS),
	F(TIOCGSERIAL),
	F(TIOCSSERIAL),
	F(TIOCPKT),
	F(FIONBIO),
	F(TIOCNOTTY),
	F(TIOCSETD),
	F(TIOCGETD),
	F(TCSBRKP),
	F(TIOCSBRK),
	F(TIOCCBRK),
	F(TIOCGSID),
	{ 0x802c542a, "TCGETS2" },
	{ 0x402c542b, "TCSETS2" },
	{ 0x402c542c, "TCSETSW2" },
	{ 0x402c542d, "TCSETSF2" },
	F(TIOCGPTN),
	F(TIOCSPTLCK),
	F(TIOCGDEV),
	F(TIOCSIG),
	F(TIOCVHANGUP),
	F(TIOCGPKT),
	F(TIOCGPTLCK),
	F(TIOCGEXCL),
	F(TIOCGPTPEER),
	F(FIONCLEX),
	F(FIOCLEX),
	F(FIOASYNC),
	F(TIOCSERCONFIG),
	F(TIOCSERGWILD),
	F(TIOCSERSWILD),
	F(TIOCGLCKTRMIOS),
	F(TIOCSLCKTRMIOS),
	F(TIOCSERGSTRUCT),
	F(TIOCSERGETLSR),
	F(TIOCMIWAIT),
	F(TIOCGICOUNT),
	F(FIOQSIZE),
	F(FIOGETOWN),
	F(FIOSETOWN),
	F(SIOCGPGRP),
	F(SIOCSPGRP),
	F(SIOCATMARK),
	F(SIOCGSTAMP),
	F(SIOCGIFNAME),
	F(SIOCGIFCONF),
	F(SIOCGIFFLAGS),
	F(SIOCSIFFLAGS),
	F(SIOCGIFADDR),
	F(SIOCSIFADDR),
	F(SIOCGIFNETMASK),
	F(SIOCGIFMTU),
	F(SIOCGIFHWADDR),
	F(SIOCGIFINDEX),
	F(SIOCGIFBRDADDR),
	F(SIOCETHTOOL),
	F(FIBMAP),
	F(FIGETBSZ),
	/* strace names all the commands of a number */
	{ FICLONE, "BTRFS_IOC_CLONE or FICLONE" },
	{ FICLONERANGE, "BTRFS_IOC_CLONE_RANGE or FICLONERANGE" },
	{ FIDEDUPERANGE, "BTRFS_IOC_FILE_EXTENT_SAME or FIDEDUPERANGE" },
	F(FS_IOC_GETFLAGS),
	F(FS_IOC_SETFLAGS),
	F(FS_IOC_FIEMAP),
	F(BLKGETSIZE64),
	F(BLKSSZGET),
	F(BLKGETSIZE),
	F(BLKROGET),
	F(BLKFLSBUF),
	F(BLKDISCARD),
};

const char *name_ioctl(unsigned long cmd)
{
	for (size_t i = 0; i < DS_NELEM(ioctls); i++)
		if (ioctls[i].v == cmd)
			return ioctls[i].n;
	return NULL;
}

int fmt_winsize(struct sbuf *b, const void *p, size_t len)
{
	if (len < 8)
		return -1;
	sb_printf(b, "{ws_row=%u, ws_col=%u, ws_xpixel=%u, ws_ypixel=%u}", ld16(p, 0), ld16(p, 2),
		  ld16(p, 4), ld16(p, 6));
	return 0;
}

static const struct flag iflags[] = {
	F(IGNBRK), F(BRKINT), F(IGNPAR), F(PARMRK), F(INPCK), F(ISTRIP),  F(INLCR), F(IGNCR),
	F(ICRNL),  F(IUCLC),  F(IXON),	 F(IXANY),  F(IXOFF), F(IMAXBEL), F(IUTF8),
};

static const struct flag oflags[] = {
	F(XTABS), F(OPOST), F(OLCUC), F(ONLCR), F(OCRNL), F(ONOCR), F(ONLRET), F(OFILL), F(OFDEL),
};

static const struct flag cflags[] = {
	F(CSTOPB), F(CREAD), F(PARENB), F(PARODD), F(HUPCL), F(CLOCAL), F(CMSPAR), F(CRTSCTS),
};

static const struct flag lflags[] = {
	F(ISIG),   F(ICANON),  F(XCASE),   F(ECHO),   F(ECHOE),	 F(ECHOK),  F(ECHONL), F(NOFLSH),
	F(IEXTEN), F(ECHOCTL), F(ECHOPRT), F(ECHOKE), F(FLUSHO), F(PENDIN), F(TOSTOP), F(EXTPROC),
};

static const struct flag bauds[] = {
	F(B0),	     F(B50),	  F(B75),      F(B110),	    F(B134),	 F(B150),     F(B200),
	F(B300),     F(B600),	  F(B1200),    F(B1800),    F(B2400),	 F(B4800),    F(B9600),
	F(B19200),   F(B38400),	  F(B57600),   F(B115200),  F(B230400),	 F(B460800),  F(B500000),
	F(B576000),  F(B921600),  F(B1000000), F(B1152000), F(B1500000), F(B2000000), F(B2500000),
	F(B3000000), F(B3500000), F(B4000000), F(BOTHER),
};

static const struct flag csizes[] = { F(CS5), F(CS6), F(CS7), F(CS8) };

/* strace's term_oflags_*dly tables, in its order of fields */
static const struct flag nldly[] = { F(NL0), F(NL1) };
static const struct flag crdly[] = { F(CR0), F(CR1), F(CR2), F(CR3) };
static const struct flag tabdly[] = { F(XTABS), F(TAB0), F(TAB1), F(TAB2), F(TAB3) };
static const struct flag bsdly[] = { F(BS1), F(BS0) };
static const struct flag vtdly[] = { F(VT0), F(VT1) };
static const struct flag ffdly[] = { F(FF0), F(FF1) };

static const char *const line_discs[] = {
	"N_TTY",	 "N_SLIP",  "N_MOUSE",	  "N_PPP",     "N_STRIP",	 "N_AX25",
	"N_X25",	 "N_6PACK", "N_MASC",	  "N_R3964",   "N_PROFIBUS_FDL", "N_IRDA",
	"N_SMSBLOCK",	 "N_HDLC",  "N_SYNC_PPP", "N_HCI",     "N_GIGASET_M101", "N_SLCAN",
	"N_PPS",	 "N_V253",  "N_CAIF",	  "N_GSM0710", "N_TI_WL",	 "N_TRACESINK",
	"N_TRACEROUTER", "N_NCI",   "N_SPEAKUP",  "N_NULL",
};

/* c_cc's indexes (x86_64) */
static const char *const cc_names[] = {
	"VINTR", "VQUIT", "VERASE", "VKILL",	"VEOF",	    "VTIME",   "VMIN",	 "VSWTC", "VSTART",
	"VSTOP", "VSUSP", "VEOL",   "VREPRINT", "VDISCARD", "VWERASE", "VLNEXT", "VEOL2",
};

/* printflags64(..., NULL): a zero value prints nothing (strace's "c_iflag=, ") */
static void flags_or_nothing(struct sbuf *b, unsigned long v, const struct flag *fl, size_t n)
{
	if (v)
		fmt_flags_dflt(b, v, fl, n, NULL);
}

static void oflag(struct sbuf *b, unsigned long v)
{
	static const struct {
		const struct flag *fl;
		size_t n;
		unsigned long mask;
		const char *dflt;
	} dly[] = {
		{ nldly, DS_NELEM(nldly), NLDLY, "NL?" },
		{ crdly, DS_NELEM(crdly), CRDLY, "CR?" },
		{ tabdly, DS_NELEM(tabdly), TABDLY, "TAB?" },
		{ bsdly, DS_NELEM(bsdly), BSDLY, "BS?" },
		{ vtdly, DS_NELEM(vtdly), VTDLY, "VT?" },
		{ ffdly, DS_NELEM(ffdly), FFDLY, "FF?" },
	};

	for (size_t i = 0; i < DS_NELEM(dly); i++) {
		fmt_xval(b, v & dly[i].mask, dly[i].fl, dly[i].n, dly[i].dflt);
		sb_putc(b, '|');
		v &= ~dly[i].mask;
	}
	flags_or_nothing(b, v, oflags, DS_NELEM(oflags));
}

static void cflag(struct sbuf *b, unsigned long v)
{
	fmt_xval(b, v & CBAUD, bauds, DS_NELEM(bauds), "B???");
	sb_putc(b, '|');
	if (v & CIBAUD) {
		fmt_xval(b, (v & CIBAUD) >> IBSHIFT, bauds, DS_NELEM(bauds), "B???");
		sb_puts(b, "<<IBSHIFT|");
	}
	fmt_xval(b, v & CSIZE, csizes, DS_NELEM(csizes), "CS?");
	sb_putc(b, '|');
	flags_or_nothing(b, v & ~(unsigned long)(CBAUD | CIBAUD | CSIZE), cflags, DS_NELEM(cflags));
}

#define KTERMIOS_SIZE 36 /* the kernel's: four flags, c_line, c_cc[19] */

int fmt_termios(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o)
{
	const unsigned char *t = p;

	if (len < (o->verbose ? KTERMIOS_SIZE : 16))
		return -1;
	sb_puts(b, "{c_iflag=");
	flags_or_nothing(b, ld32(t, 0), iflags, DS_NELEM(iflags));
	sb_puts(b, ", c_oflag=");
	oflag(b, ld32(t, 4));
	sb_puts(b, ", c_cflag=");
	cflag(b, ld32(t, 8));
	sb_puts(b, ", c_lflag=");
	flags_or_nothing(b, ld32(t, 12), lflags, DS_NELEM(lflags));
	if (!o->verbose) {
		sb_puts(b, ", ...}");
		return 0;
	}
	sb_puts(b, ", c_line=");
	if (t[16] < DS_NELEM(line_discs))
		sb_puts(b, line_discs[t[16]]);
	else
		sb_printf(b, "%#x /* N_??? */", t[16]);
	sb_puts(b, ", c_cc=[");
	for (size_t i = 0; i < 19; i++) {
		if (i)
			sb_puts(b, ", ");
		if (i < DS_NELEM(cc_names))
			sb_printf(b, "[%s]=", cc_names[i]);
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
