/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Printers of the memory a syscall argument points to, as strace 6.1 prints
 * it (x86_64 user ABI layouts; where arm64's differ, decode/abi.h's). p[0..len) holds the bytes
 * captured from the traced process: every byte is untrusted, nothing past len is read.
 */
#ifndef PTBPF_DECODE_STRUCT_H
#define PTBPF_DECODE_STRUCT_H

#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h" /* struct sbuf, sb_*, struct flag */
#include "xlat_tables.h"

struct decode_opts {
	unsigned strsize; /* -s: bytes of a string or buffer printed (strace's default 32) */
	int verbose;	  /* -v: every field of a structure */
	int xflag;  /* -x: 1 a string with a non-printable byte all as \xNN, 2 (-xx) every string */
	int xstyle; /* -X: XLAT_ABBREV, XLAT_RAW, XLAT_VERBOSE */
};

/*
 * Each prints strace's form of the structure in p[0..len) and returns 0, or
 * returns -1 having printed nothing when len is short of what the form
 * needs (the caller prints the pointer).
 */

/*
 * Strings and buffers: "\177ELF\2\1\1\0"... ; full is the real length (count,
 * return value or string length), len <= full the bytes captured; `...`
 * after when more than strsize or than len were there. is_str: a
 * NUL-terminated string (stops at the first NUL captured; without one, full
 * is its length without the NUL, as strlen).
 */
int fmt_str(struct sbuf *b, const void *p, size_t len, size_t full, int is_str,
	    const struct decode_opts *o);
int fmt_stat(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o);
int fmt_statx(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o);
int fmt_statfs(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o);
/* AF_UNIX/INET/INET6/NETLINK/PACKET, else sa_family=...,sa_data=; addrlen: the
 * call's (what the process says the address holds) */
int fmt_sockaddr(struct sbuf *b, const void *p, size_t len, size_t addrlen);
int fmt_timespec(struct sbuf *b, const void *p, size_t len);
int fmt_timeval(struct sbuf *b, const void *p, size_t len);
int fmt_itimerspec(struct sbuf *b, const void *p, size_t len);
int fmt_wait_status(struct sbuf *b, const void *p, size_t len); /* [{WIFEXITED(s) && ...}] */
int fmt_int_array(struct sbuf *b, const void *p, size_t len, size_t n); /* pipe fds: [3, 4] */
int fmt_sigaction(struct sbuf *b, const void *p, size_t len); /* the kernel's (rt_sigaction) */
int fmt_sigset(struct sbuf *b, const void *p, size_t len);    /* [INT TERM], ~[RTMIN RT_1], [] */
int fmt_rlimit(struct sbuf *b, const void *p, size_t len);    /* {rlim_cur=8192*1024, ...} */
int fmt_utsname(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o);
int fmt_sysinfo(struct sbuf *b, const void *p, size_t len);
/* n struct pollfd: at entry (revents 0) their events; at exit (revents 1)
 * strace's " ([{fd=7, revents=POLLOUT}])" list of those with revents set,
 * nothing when none is */
int fmt_pollfds(struct sbuf *b, const void *p, size_t len, size_t n, int revents);
int fmt_epoll_event(struct sbuf *b, const void *p, size_t len); /* packed, 12 bytes */
int fmt_epoll_events(struct sbuf *b, const void *p, size_t len, size_t n);
int fmt_fd_set(struct sbuf *b, const void *p, size_t len, int nfds); /* select: [3 4] */
/*
 * getdents64 returning ret, len >= ret (every record's header is needed to
 * count them): -v the array of records; by default strace prints the
 * pointer and a comment, and as the pointer is the caller's, this prints
 * the comment only, with its leading space: " <c> 20 entries <e>" (<c> and
 * <e> the comment's delimiters) to follow the pointer.
 */
int fmt_dirents_count(struct sbuf *b, const void *p, size_t len, size_t ret,
		      const struct decode_opts *o);
int fmt_winsize(struct sbuf *b, const void *p, size_t len); /* TIOCGWINSZ */
int fmt_termios(struct sbuf *b, const void *p, size_t len,
		const struct decode_opts *o); /* TCGETS */
/* ioctl's third argument's memory for command cmd, at exit or entry */
int fmt_ioctl_mem(struct sbuf *b, unsigned long cmd, int exiting, const void *p, size_t len,
		  const struct decode_opts *o);
/* getsockopt/setsockopt values: SO_LINGER's struct, an int option's [1] */
int fmt_linger(struct sbuf *b, const void *p, size_t len);
int fmt_sockopt_int(struct sbuf *b, const void *p, size_t len);

/* Names of scalar arguments. */
const char *name_ioctl(unsigned long cmd); /* TCGETS, FIONREAD, ...; NULL: unknown */
/* msghdr's control messages, len bytes captured of full */
int fmt_cmsgs(struct sbuf *b, const void *p, size_t len, size_t full);
void fmt_msg_flags(struct sbuf *b, unsigned long v);   /* MSG_DONTWAIT|MSG_NOSIGNAL */
void fmt_addrfam(struct sbuf *b, unsigned v);	       /* AF_INET */
void fmt_packet_proto(struct sbuf *b, unsigned proto); /* AF_PACKET socket's: htons(ETH_P_ALL) */
void fmt_sockopt_level_name(struct sbuf *b, int level, int name); /* SOL_SOCKET, SO_REUSEADDR */
void fmt_clockid(struct sbuf *b, int id);			  /* CLOCK_MONOTONIC */
void fmt_epoll_ctl_op(struct sbuf *b, int op);			  /* EPOLL_CTL_ADD */
void fmt_poll_events(struct sbuf *b, unsigned v);		  /* POLLIN|POLLOUT */
void fmt_statx_mask(struct sbuf *b, unsigned v);		  /* STATX_BASIC_STATS */

/* Shared by the printers (decode_str.c). */
/* strace's quoting of s[0..n): eol_nul stops at a NUL; returns 1 when no NUL ended it */
int fmt_quote(struct sbuf *b, const unsigned char *s, size_t n, int eol_nul, int xflag);
/* " <c> 2023-11-14T22:13:20.123456789+0000 <e>" (local time; <c>, <e> a C
 * comment's delimiters), nothing when strace prints none */
void fmt_time_comment(struct sbuf *b, int64_t sec, uint64_t nsec);
/* a clock_t, as strace's print_clock_t: "101 <c> 1.01 s <e>" (no comment for 0 or -X raw) */
void fmt_clock_t(struct sbuf *b, uint64_t ticks);
/* {tv_sec=1, tv_nsec=2} of two 64-bit words */
void fmt_sec_nsec(struct sbuf *b, int64_t sec, uint64_t nsec, const char *nsec_name);
/* st_mode's S_IFREG|0644 */
void fmt_mode(struct sbuf *b, unsigned mode);
/* ld(p + off), bounded by the callers' length checks */
static inline uint64_t ld64(const void *p, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}
static inline uint32_t ld32(const void *p, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}
static inline uint16_t ld16(const void *p, size_t off)
{
	uint16_t v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}

#define DS_NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* strace's tprint_open_modes: the access mode's name, then the flags */
void fmt_open_flags(struct sbuf *b, unsigned long v);
/* fcntl.c: fcntl's third argument and result by its command (cmd) */
int fcntl_has_arg(unsigned cmd); /* 0: strace prints none (F_GETFD) */
void fcntl_arg(struct sbuf *b, unsigned cmd, uint64_t v);
int fcntl_ret(struct sbuf *b, unsigned cmd, int64_t ret); /* as scalar_ret */
/* prctl.c: prctl's arguments (a bit each, the option's included) and result by its option */
unsigned prctl_argmask(uint64_t option);
void prctl_arg(struct sbuf *b, uint64_t option, int i, uint64_t v);
int prctl_ret(struct sbuf *b, uint64_t option, int64_t ret); /* as scalar_ret */
/* the struct flock of command cmd: 0 none, 1 the entry's, 2 the exit's with l_pid */
int fcntl_flock(unsigned cmd);
int fmt_flock(struct sbuf *b, const void *p, size_t len, int with_pid);
int fmt_rusage(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o);
int fmt_siginfo(struct sbuf *b, const void *p, size_t len); /* waitid's */
int fmt_cpuset(struct sbuf *b, const void *p, size_t len);  /* [0 1] */
int fmt_stack(struct sbuf *b, const void *p, size_t len);   /* sigaltstack's stack_t */
/* timer_create's struct sigevent: a signal's notification only, else -1 */
int fmt_sigevent(struct sbuf *b, const void *p, size_t len);
/* clone3's struct clone_args; ret: the call's result (-1: not known), its
 * " => {parent_tid=[ret]}" with CLONE_PARENT_SETTID */
int fmt_clone_args(struct sbuf *b, const void *p, size_t len, int64_t ret);

#endif
