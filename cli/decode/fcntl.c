/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: fcntl's third argument and result by its command, as strace 6.1's
 * print_fcntl prints them: a row a command.
 */
#include <fcntl.h>

#include "decode/struct.h"
#include "decode/abi.h"

void fmt_open_flags(struct sbuf *b, unsigned long v)
{
	v = dec_oflags_native(decode_abi(), v); /* the tables have the build's bits */
	sb_puts(b, xlat_name(&xlat_open_access_modes, v & O_ACCMODE));
	v &= ~(unsigned long)O_ACCMODE;
	if (v) {
		sb_putc(b, '|');
		print_flags(b, v, xlat_open_mode_flags.f, xlat_open_mode_flags.n, NULL);
	}
}

enum fcntl_arg {
	FA_HEX = 0,   /* a command without a row: 0x... */
	FA_NONE,      /* no third argument printed */
	FA_DEC,	      /* a number (fd, pid, size) */
	FA_PTR,	      /* a structure not captured: NULL or 0x... */
	FA_OFLAGS,    /* O_RDONLY|O_NONBLOCK */
	FA_SIG,	      /* SIGIO */
	FA_FLAGS,     /* the row's flags: FD_CLOEXEC */
	FA_XVAL,      /* the row's name: F_RDLCK */
	FA_FLOCK,     /* a struct flock (its capture at entry), else a pointer */
	FA_FLOCK_PID, /* the same, as the call left it (at exit), with l_pid */
};

enum fcntl_ret {
	FR_INT = 0, /* as any call's */
	FR_FLAGS,   /* 0x1 (flags FD_CLOEXEC), of the row's table; 0 as any */
	FR_OFLAGS,  /* 0x8002 (flags O_RDWR|O_LARGEFILE) */
	FR_XVAL,    /* 0x1 (F_WRLCK) */
	FR_SIG,	    /* 29 (SIGIO); 0 as any */
};

static const struct fcntl_row {
	unsigned cmd;
	unsigned char arg, ret; /* enum fcntl_arg, enum fcntl_ret */
	const struct xlat *x;	/* FA_FLAGS, FA_XVAL, FR_FLAGS, FR_XVAL */
	const char *what;	/* FR_FLAGS: "flags", "seals" */
} fcntl_rows[] = {
	{ F_DUPFD, FA_DEC },
	{ F_DUPFD_CLOEXEC, FA_DEC },
	{ F_GETFD, FA_NONE, FR_FLAGS, &xlat_fdflags, "flags" },
	{ F_SETFD, FA_FLAGS, FR_INT, &xlat_fdflags },
	{ F_GETFL, FA_NONE, FR_OFLAGS },
	{ F_SETFL, FA_OFLAGS },
	{ F_GETOWN, FA_NONE },
	{ F_SETOWN, FA_DEC },
	{ F_GETSIG, FA_NONE, FR_SIG },
	{ F_SETSIG, FA_SIG },
	{ F_GETLEASE, FA_NONE, FR_XVAL, &xlat_lockfcmds },
	{ F_SETLEASE, FA_XVAL, FR_INT, &xlat_lockfcmds },
	{ F_NOTIFY, FA_FLAGS, FR_INT, &xlat_notifyflags },
	{ F_GETPIPE_SZ, FA_NONE },
	{ F_SETPIPE_SZ, FA_DEC },
	{ F_GET_SEALS, FA_NONE, FR_FLAGS, &xlat_f_seals, "seals" },
	{ F_ADD_SEALS, FA_FLAGS, FR_INT, &xlat_f_seals },
	{ F_GETLK, FA_FLOCK_PID },
	{ F_SETLK, FA_FLOCK },
	{ F_SETLKW, FA_FLOCK },
	{ F_OFD_GETLK, FA_FLOCK_PID },
	{ F_OFD_SETLK, FA_FLOCK },
	{ F_OFD_SETLKW, FA_FLOCK },
	{ F_GETOWN_EX, FA_PTR },
	{ F_SETOWN_EX, FA_PTR },
};

static const struct fcntl_row *fcntl_row(unsigned cmd)
{
	static const struct fcntl_row none = { 0 };

	for (size_t i = 0; i < DS_NELEM(fcntl_rows); i++)
		if (fcntl_rows[i].cmd == cmd)
			return &fcntl_rows[i];
	return &none;
}

int fcntl_has_arg(unsigned cmd)
{
	return fcntl_row(cmd)->arg != FA_NONE;
}

void fcntl_arg(struct sbuf *b, unsigned cmd, uint64_t v)
{
	const struct fcntl_row *r = fcntl_row(cmd);

	if (r->arg == FA_DEC)
		sb_dec(b, (int64_t)v);
	else if ((r->arg == FA_PTR || r->arg == FA_FLOCK || r->arg == FA_FLOCK_PID) && !v)
		sb_puts(b, "NULL");
	else if (r->arg == FA_OFLAGS)
		fmt_open_flags(b, v & 0xffffffff);
	else if (r->arg == FA_SIG)
		decode_signal(b, (int)v);
	else if (r->arg == FA_FLAGS)
		xlat_flags(b, r->x, v);
	else if (r->arg == FA_XVAL)
		xlat_val(b, r->x, v);
	else
		sb_xhex(b, v);
}

int fcntl_flock(unsigned cmd)
{
	const struct fcntl_row *r = fcntl_row(cmd);

	return r->arg == FA_FLOCK ? 1 : r->arg == FA_FLOCK_PID ? 2 : 0;
}

/* struct flock (x86_64): {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=100} */
int fmt_flock(struct sbuf *b, const void *p, size_t len, int with_pid)
{
	if (len < 32)
		return -1;
	sb_puts(b, "{l_type=");
	xlat_val(b, &xlat_lockfcmds, ld16(p, 0));
	sb_puts(b, ", l_whence=");
	xlat_val(b, &xlat_whence_codes, ld16(p, 2));
	sb_printf(b, ", l_start=%lld, l_len=%lld", (long long)ld64(p, 8), (long long)ld64(p, 16));
	if (with_pid)
		sb_printf(b, ", l_pid=%d", (int)ld32(p, 24));
	sb_putc(b, '}');
	return 0;
}

int fcntl_ret(struct sbuf *b, unsigned cmd, int64_t ret)
{
	const struct fcntl_row *r = fcntl_row(cmd);
	uint64_t v = (uint64_t)ret;
	const char *name;
	size_t at;

	/* strace's RVAL_HEX with a string in parentheses, or a signal's name */
	if (r->ret == FR_INT || (!ret && (r->ret == FR_FLAGS || r->ret == FR_SIG)))
		return 0;
	if (r->ret == FR_SIG) {
		sb_dec(b, ret);
		sb_puts(b, " (");
		decode_signal(b, (int)ret);
		sb_putc(b, ')');
		return 1;
	}
	sb_xhex(b, v);
	if (r->ret == FR_XVAL) {
		name = xlat_name(r->x, v);
		if (name)
			sb_printf(b, " (%s)", name);
		return 1;
	}
	sb_printf(b, " (%s ", r->ret == FR_OFLAGS ? "flags" : r->what);
	at = b->len;
	if (r->ret == FR_OFLAGS)
		fmt_open_flags(b, v & 0xffffffff);
	else
		print_flags(b, v, r->x->f, r->x->n, NULL);
	if (r->ret != FR_OFLAGS) /* strace's -X leaves F_GETFL's names */
		xlat_restyle(b, at, v, XLAT_HEX);
	sb_putc(b, ')');
	return 1;
}
