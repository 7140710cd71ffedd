/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: the captures of a syscall event (struct ptbpf_sys_cap), found in
 * its payload and printed as strace prints what the argument points to.
 * The payload is the traced process's: every read is bounded by its length.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <ptbpf/ptbpf.h>

#include "decode/decode.h"
#include "decode/caps.h"
#include "decode/abi.h"
#include "decode/scalar.h"

#define ENT_FIXED  offsetof(struct ptbpf_ev_sys_enter, paths)
#define EXIT_FIXED offsetof(struct ptbpf_ev_sys_exit_ext, paths)

static struct decode_opts dopts = { .strsize = 32 };

void decode_set_opts(const struct decode_opts *o)
{
	dopts = *o;
	xlat_set_style(o->xstyle);
}

const struct decode_opts *decode_get_opts(void)
{
	return &dopts;
}

/* The run of captures from off to the end of p[0..len). */
static void caps_walk(struct cap_set *cs, const unsigned char *p, size_t len, size_t off)
{
	while (cs->n < CAP_SET_MAX && off <= len && len - off >= sizeof(struct ptbpf_sys_cap)) {
		struct cap_ref *c = &cs->c[cs->n];

		memcpy(&c->h, p + off, sizeof(c->h));
		off += sizeof(c->h);
		if (c->h.len > len - off)
			return; /* cut short: what is before stands */
		c->p = p + off;
		off += c->h.len;
		cs->n++;
	}
}

/*
 * The captures after a payload's fixed part (its header's size) and its
 * paths, if its flags (at flags_at) say there are: the sys_enter and
 * sys_exit_ext headers differ only in where these fields are.
 */
static void caps_after(struct cap_set *cs, const void *data, size_t len, size_t fixed,
		       size_t flags_at, size_t paths_at)
{
	uint16_t flags, plen[2];
	size_t paths;

	cs->n = 0;
	cs->has_ret = 0;
	if (!data || len < fixed)
		return;
	memcpy(&flags, (const char *)data + flags_at, sizeof(flags));
	memcpy(plen, (const char *)data + paths_at, sizeof(plen));
	paths = (size_t)plen[0] + plen[1];
	if (!(flags & PTBPF_SYS_CAPS) || paths > len - fixed)
		return;
	caps_walk(cs, data, len, fixed + paths);
}

void caps_of_entry(struct cap_set *cs, const void *data, size_t len)
{
	caps_after(cs, data, len, ENT_FIXED, offsetof(struct ptbpf_ev_sys_enter, flags),
		   offsetof(struct ptbpf_ev_sys_enter, path_len));
}

void caps_of_exit(struct cap_set *cs, const void *data, size_t len)
{
	caps_after(cs, data, len, EXIT_FIXED, offsetof(struct ptbpf_ev_sys_exit_ext, flags),
		   offsetof(struct ptbpf_ev_sys_exit_ext, path_len));
	if (data && len >= offsetof(struct ptbpf_ev_sys_exit, ret) + sizeof(cs->ret)) {
		memcpy(&cs->ret, (const char *)data + offsetof(struct ptbpf_ev_sys_exit_ext, ret),
		       sizeof(cs->ret));
		cs->has_ret = 1;
	}
}

int caps_exit_arg(const void *data, size_t len)
{
	const struct ptbpf_ev_sys_enter *e = data;

	if (!data || len < ENT_FIXED || !(e->flags & PTBPF_SYS_CAPS_AT_EXIT))
		return -1;
	return PTBPF_SYS_EXIT_ARG(e->flags);
}

/* The index of argument arg's vector end in cs (-1: none), and the strings before it. */
static int vector_end(const struct cap_set *cs, int arg, unsigned int *nstr)
{
	*nstr = 0;
	for (int i = 0; cs && i < cs->n; i++) {
		if (cs->c[i].h.arg != arg)
			continue;
		if (cs->c[i].h.type == PTBPF_CAP_VECTOR_END)
			return i;
		if (cs->c[i].h.type == PTBPF_CAP_STR)
			(*nstr)++;
	}
	return -1;
}

/* ["ls", "-l"] or 0x7ffd... / * 23 vars * /: the vector of argument arg. */
static int print_vector(struct sbuf *b, const struct cap_set *cs, int arg, uint64_t raw)
{
	unsigned int nstr;
	int i, end = vector_end(cs, arg, &nstr);

	if (end < 0)
		return -1;
	if (!nstr && cs->c[end].h.full) {
		/* an environment: strace shows its pointer and its size */
		sb_xhex(b, raw);
		sb_printf(b, " /* %u var%s */", cs->c[end].h.full,
			  cs->c[end].h.full == 1 ? "" : "s");
		return 0;
	}
	sb_putc(b, '[');
	nstr = 0;
	for (i = 0; i < end; i++) {
		const struct cap_ref *c = &cs->c[i];

		if (c->h.arg != arg || c->h.type != PTBPF_CAP_STR)
			continue;
		if (nstr++)
			sb_puts(b, ", ");
		fmt_str(b, c->p, c->h.len, c->h.full, 1, &dopts);
	}
	if (cs->c[end].h.full > (unsigned)nstr)
		sb_puts(b, nstr ? ", ..." : "...");
	sb_putc(b, ']');
	return 0;
}

/*
 * execve's argv from what the kernel copied (area, its exit's capture),
 * when the entry's walk stopped at a string it could not read: only if the
 * area is whole and holds as many strings as the entry counted (a script's
 * has its interpreter's more) and begins with those the entry read. 1
 * printed, 0 not (the entry's is printed).
 */
static int print_arg_strings(struct sbuf *b, const struct cap_set *ent, int arg,
			     const struct cap_ref *area)
{
	const unsigned char *p = area->p, *q;
	unsigned int count, nstr, n = 0, shown, i;
	size_t left = area->h.len;
	int end = vector_end(ent, arg, &nstr);

	count = end < 0 ? 0 : ent->c[end].h.full;
	if (end < 0 || nstr >= count || nstr >= dopts.strsize || area->h.len != area->h.full ||
	    !area->h.len || p[area->h.len - 1])
		return 0;
	for (q = p; (q = memchr(q, '\0', (size_t)(p + left - q))); q++)
		n++;
	if (n != count)
		return 0;
	/* the strings the entry read are the area's first ones */
	for (i = 0, q = p; i < (unsigned)end; i++) {
		const struct cap_ref *c = &ent->c[i];
		size_t l;

		if (c->h.arg != arg || c->h.type != PTBPF_CAP_STR)
			continue;
		/* a string longer than -s: its full is only "more" */
		l = strlen((const char *)q);
		if ((c->h.full > c->h.len ? l < c->h.full : l != c->h.full) ||
		    memcmp(c->p, q, c->h.len))
			return 0;
		q += l + 1;
	}
	shown = count < dopts.strsize ? count : dopts.strsize;
	sb_putc(b, '[');
	for (i = 0, q = p; i < shown; i++) {
		size_t l = strlen((const char *)q);

		if (i)
			sb_puts(b, ", ");
		fmt_str(b, q, l, l, 0, &dopts);
		q += l + 1;
	}
	sb_puts(b, count > shown ? ", ...]" : "]");
	return 1;
}

/* [{iov_base="abc", iov_len=3}, ...]: the iovec array of argument arg. */
static int print_iovec(struct sbuf *b, const struct cap_set *cs, int arg)
{
	unsigned int nstr;
	int i, n = 0, end = vector_end(cs, arg, &nstr);

	if (end < 0)
		return -1;
	sb_putc(b, '[');
	for (i = 0; i < end; i++) {
		const struct cap_ref *c = &cs->c[i];
		uint64_t iov[2];

		if (c->h.arg != arg || c->h.type != PTBPF_CAP_IOV || c->h.len < sizeof(iov))
			continue;
		memcpy(iov, c->p, sizeof(iov));
		sb_puts(b, n++ ? ", {iov_base=" : "{iov_base=");
		if (c->h.full == 0xffffffffu)
			sb_xhex(b, iov[0]); /* unreadable: its address, as strace */
		else
			fmt_str(b, c->p + sizeof(iov), c->h.len - sizeof(iov), c->h.full, 0,
				&dopts);
		sb_printf(b, ", iov_len=%llu}", (unsigned long long)iov[1]);
	}
	if (cs->c[end].h.full > (unsigned)n)
		sb_puts(b, n ? ", ..." : "...");
	sb_putc(b, ']');
	return 0;
}

/* Does argument arg have an iovec array's captures? */
static int has_iov(const struct cap_set *cs, int arg)
{
	for (int i = 0; cs && i < cs->n; i++)
		if (cs->c[i].h.arg == arg && cs->c[i].h.type == PTBPF_CAP_IOV)
			return 1;
	return 0;
}

/* strace's comment of a time: its date, 2020-03-04T05:06:07.000000500+0100 */
static void print_time_comment(struct sbuf *b, int64_t sec, int64_t nsec)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char buf[64];

	if (!localtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%FT%T", &tm))
		return;
	sb_printf(b, " /* %s", buf);
	if (nsec)
		sb_printf(b, ".%09lld", (long long)nsec);
	if (strftime(buf, sizeof(buf), "%z", &tm))
		sb_puts(b, buf);
	sb_puts(b, " */");
}

/*
 * One timespec, or utimensat's two: UTIME_NOW and UTIME_OMIT by name, a
 * time with its date (as strace prints the pair).
 */
static int print_timespecs(struct sbuf *b, const struct cap_ref *c)
{
	size_t n = c->h.len / 16;

	if (n == 1)
		return fmt_timespec(b, c->p, c->h.len);
	if (!n)
		return -1;
	sb_putc(b, '[');
	for (size_t i = 0; i < n; i++) {
		int64_t ts[2];

		if (i)
			sb_puts(b, ", ");
		memcpy(ts, c->p + 16 * i, sizeof(ts));
		if (ts[1] == UTIME_NOW) {
			sb_puts(b, "UTIME_NOW");
		} else if (ts[1] == UTIME_OMIT) {
			sb_puts(b, "UTIME_OMIT");
		} else {
			fmt_timespec(b, c->p + 16 * i, 16);
			print_time_comment(b, ts[0], ts[1]);
		}
	}
	sb_putc(b, ']');
	return 0;
}

/* An fd_set of len bytes, its first nbits: "[3 5]"; 0 if no bit is set. */
static int print_fdset(struct sbuf *b, const unsigned char *p, size_t len, uint64_t nbits)
{
	int n = 0;

	if (nbits > len * 8)
		nbits = len * 8;
	sb_putc(b, '[');
	for (uint64_t i = 0; i < nbits; i++)
		if (p[i / 8] & (1u << (i % 8)))
			sb_printf(b, n++ ? " %llu" : "%llu", (unsigned long long)i);
	sb_putc(b, ']');
	return n;
}

/* mincore's vector: a byte a 4 KiB page of the range (full: its bytes), -s of them */
static int print_mincore(struct sbuf *b, const struct cap_ref *c)
{
	size_t n = ((size_t)c->h.full + 4095) / 4096, shown = n;

	if (shown > dopts.strsize)
		shown = dopts.strsize;
	if (shown > c->h.len)
		return -1;
	sb_putc(b, '[');
	for (size_t i = 0; i < shown; i++)
		sb_printf(b, i ? ", %u" : "%u", c->p[i]);
	sb_puts(b, n > shown ? ", ...]" : "]");
	return 0;
}

/* The structures printed from their bytes alone, by capture type. */
static int (*const plain[])(struct sbuf *b, const void *p, size_t len) = {
	[PTBPF_CAP_TIMEVAL] = fmt_timeval, [PTBPF_CAP_SIGACTION] = fmt_sigaction,
	[PTBPF_CAP_SIGSET] = fmt_sigset,   [PTBPF_CAP_SIGSET_LATE] = fmt_sigset,
	[PTBPF_CAP_RLIMIT] = fmt_rlimit,   [PTBPF_CAP_SYSINFO] = fmt_sysinfo,
	[PTBPF_CAP_STACK] = fmt_stack,	   [PTBPF_CAP_CPUSET] = fmt_cpuset,
	[PTBPF_CAP_SIGINFO] = fmt_siginfo, [PTBPF_CAP_SIGEVENT] = fmt_sigevent,
};

/* ... and those -s, -v or -x shape. */
static int (*const with_opts[])(struct sbuf *b, const void *p, size_t len,
				const struct decode_opts *o) = {
	[PTBPF_CAP_STAT] = fmt_stat,	 [PTBPF_CAP_STATX] = fmt_statx,
	[PTBPF_CAP_STATFS] = fmt_statfs, [PTBPF_CAP_UTSNAME] = fmt_utsname,
	[PTBPF_CAP_RUSAGE] = fmt_rusage,
};

/* One capture as strace prints what its argument points to; -1: cannot. */
static int print_cap(struct sbuf *b, const struct cap_set *cs, const struct cap_ref *c,
		     uint64_t raw)
{
	const void *p = c->p;
	size_t len = c->h.len;

	if (c->h.type < DS_NELEM(plain) && plain[c->h.type])
		return plain[c->h.type](b, p, len);
	if (c->h.type < DS_NELEM(with_opts) && with_opts[c->h.type])
		return with_opts[c->h.type](b, p, len, &dopts);
	switch (c->h.type) {
	case PTBPF_CAP_BYTES:
		return fmt_str(b, p, len, c->h.full, 0, &dopts);
	case PTBPF_CAP_STR:
		if (cs && cs->n) {
			int i;

			/* a vector's entry: the vector is printed whole */
			for (i = 0; i < cs->n; i++)
				if (cs->c[i].h.arg == c->h.arg &&
				    cs->c[i].h.type == PTBPF_CAP_VECTOR_END)
					return print_vector(b, cs, c->h.arg, raw);
		}
		return fmt_str(b, p, len, c->h.full, 1, &dopts);
	case PTBPF_CAP_VECTOR_END:
		if (has_iov(cs, c->h.arg))
			return print_iovec(b, cs, c->h.arg);
		return print_vector(b, cs, c->h.arg, raw);
	case PTBPF_CAP_IOV:
		return cs ? print_iovec(b, cs, c->h.arg) : -1;
	case PTBPF_CAP_DIRENTS:
		/* strace -v would print the records: not captured */
		sb_xhex(b, raw);
		sb_printf(b, " /* %u entries */", c->h.full);
		return 0;
	case PTBPF_CAP_SOCKADDR:
		return fmt_sockaddr(b, p, len, c->h.full);
	case PTBPF_CAP_TIMESPEC:
		return print_timespecs(b, c);
	case PTBPF_CAP_ITIMERSPEC: {
		size_t at = b->len;

		if (len < 32)
			return -1;
		sb_puts(b, "{it_interval=");
		fmt_timespec(b, p, 16);
		sb_puts(b, ", it_value=");
		fmt_timespec(b, (const unsigned char *)p + 16, 16);
		sb_putc(b, '}');
		if (b->failed)
			sb_truncate(b, at);
		return b->failed ? -1 : 0;
	}
	case PTBPF_CAP_INT:
		/* none at all (getgroups' 0): strace's empty array */
		if (!len && !c->h.full) {
			sb_puts(b, "[]");
			return 0;
		}
		return len && len % 4 == 0 ? fmt_int_array(b, p, len, len / 4) : -1;
	case PTBPF_CAP_WAIT_STATUS:
		/* wait4's WNOHANG finding no child: the status is untouched */
		if (cs && cs->has_ret && cs->ret <= 0)
			return -1;
		return fmt_wait_status(b, p, len);
	case PTBPF_CAP_POLLFD:
		return fmt_pollfds(b, p, len, len / 8, 0);
	case PTBPF_CAP_INT64:
		if (len < 8)
			return -1;
		sb_printf(b, "[%llu]", (unsigned long long)ld64(p, 0));
		return 0;
	case PTBPF_CAP_FLOCK:
		return fmt_flock(b, p, len, !!cs);
	case PTBPF_CAP_MINCORE:
		return print_mincore(b, c);
	case PTBPF_CAP_CLONE_ARGS:
		return fmt_clone_args(b, p, len, cs && cs->has_ret ? cs->ret : -1);
	case PTBPF_CAP_EPOLL_EVENT: {
		size_t esz = decode_abi()->epoll_event_size;

		if (len == esz && c->h.full == esz && !cs)
			return fmt_epoll_event(b, p, len);
		return fmt_epoll_events(b, p, len, len / esz);
	}
	}
	return -1;
}

static const struct cap_ref *cap_find(const struct cap_set *cs, int arg, int skip_poll)
{
	for (int i = 0; cs && i < cs->n; i++) {
		const struct cap_ref *c = &cs->c[i];

		if (c->h.arg != arg || (skip_poll && c->h.type == PTBPF_CAP_POLLFD))
			continue;
		return c;
	}
	return NULL;
}

/*
 * The struct msghdr of argument arg, whose capture is cs->c[i] (the name,
 * iovecs and control that follow it in cs); in: recvmsg's msghdr at entry
 * (the name length it offered), or NULL. 0, or -1 having printed nothing.
 */
static int print_msghdr(struct sbuf *b, const struct cap_set *cs, int i, const struct cap_ref *in)
{
	const struct cap_ref *c = &cs->c[i], *name = NULL, *ctl = NULL;
	uint64_t m[7];
	int32_t namelen, inlen;
	size_t at = b->len;
	int j, iov = 0;

	if (c->h.len < sizeof(m))
		return -1;
	memcpy(m, c->p, sizeof(m));
	for (j = i + 1; j < cs->n && cs->c[j].h.arg == c->h.arg; j++) {
		if (cs->c[j].h.type == PTBPF_CAP_SOCKADDR && !name)
			name = &cs->c[j];
		else if (cs->c[j].h.type == PTBPF_CAP_CMSG)
			ctl = &cs->c[j];
		else if (cs->c[j].h.type == PTBPF_CAP_VECTOR_END)
			iov = 1;
	}
	namelen = (int32_t)m[1];
	sb_puts(b, "{msg_name=");
	if (!m[0])
		sb_puts(b, "NULL");
	else if (!name || fmt_sockaddr(b, name->p, name->h.len, name->h.full))
		sb_xhex(b, m[0]);
	sb_puts(b, ", msg_namelen=");
	if (in && in->h.len >= 16 && (memcpy(&inlen, in->p + 8, 4), inlen != namelen))
		sb_printf(b, "%d => ", inlen);
	sb_printf(b, "%d, msg_iov=", namelen);
	if (!m[2])
		sb_puts(b, "NULL");
	else if (!iov || print_iovec(b, cs, c->h.arg))
		sb_xhex(b, m[2]);
	sb_printf(b, ", msg_iovlen=%llu", (unsigned long long)m[3]);
	if (m[5]) {
		/* strace prints the control messages only when there is a length */
		sb_puts(b, ", msg_control=");
		if (!ctl || fmt_cmsgs(b, ctl->p, ctl->h.len, ctl->h.full))
			sb_xhex(b, m[4]);
	}
	sb_printf(b, ", msg_controllen=%llu, msg_flags=", (unsigned long long)m[5]);
	fmt_msg_flags(b, (uint32_t)m[6]);
	sb_putc(b, '}');
	if (b->failed) {
		sb_truncate(b, at);
		return -1;
	}
	return 0;
}

/* ioctl's argument arg by its command cmd: 1 printed, 0 not. */
static int print_ioctl_arg(struct sbuf *b, const struct cap_set *ent, const struct cap_set *exit,
			   int arg, uint64_t cmd)
{
	const struct cap_ref *x = cap_find(exit, arg, 0), *e = cap_find(ent, arg, 0);
	size_t at = b->len;

	if (x && x->h.type == PTBPF_CAP_IOCTL &&
	    !fmt_ioctl_mem(b, (unsigned)cmd, 1, x->p, x->h.len, &dopts))
		return 1;
	sb_truncate(b, at);
	if (e && e->h.type == PTBPF_CAP_IOCTL &&
	    !fmt_ioctl_mem(b, (unsigned)cmd, 0, e->p, e->h.len, &dopts))
		return 1;
	sb_truncate(b, at);
	return 0;
}

/* pselect6's {sigmask=[...], sigsetsize=8}: c, then the mask it points to; 1 printed */
static int print_sigset_arg(struct sbuf *b, const struct cap_set *from, const struct cap_ref *c,
			    int arg)
{
	/* pselect6's: the mask it points to, captured after it */
	const struct cap_ref *m =
		c + 1 < from->c + from->n && c[1].h.arg == arg && c[1].h.type == PTBPF_CAP_SIGSET
			? c + 1
			: NULL;
	uint64_t sa[2];

	if (c->h.len < sizeof(sa))
		return 0;
	memcpy(sa, c->p, sizeof(sa));
	sb_puts(b, "{sigmask=");
	/* a mask not read, or of a size strace does not read: its address */
	if (!sa[0])
		sb_puts(b, "NULL");
	else if (sa[1] != 8 || !m || fmt_sigset(b, m->p, m->h.len))
		sb_xhex(b, sa[0]);
	sb_printf(b, ", sigsetsize=%llu}", (unsigned long long)sa[1]);
	return 1;
}

/* fcntl's struct flock, by its command: 1 printed, 0 not (its pointer) */
static int print_flock(struct sbuf *b, const struct cap_set *ent, const struct cap_set *exit,
		       int arg, const uint64_t *args)
{
	int form = fcntl_flock((unsigned)args[1]);
	const struct cap_ref *c = cap_find(form == 2 ? exit : ent, arg, 0);

	if (!form || !c || c->h.type != PTBPF_CAP_FLOCK)
		return 0;
	return !fmt_flock(b, c->p, c->h.len, form == 2);
}

/* a number read and written (sendfile's offset): "[0] => [1100]" when the call did something */
static int print_int64_rw(struct sbuf *b, const struct cap_set *ent, const struct cap_set *exit,
			  int arg)
{
	const struct cap_ref *e = cap_find(ent, arg, 0), *x = cap_find(exit, arg, 0);

	if (!e || e->h.len < 8 || e->h.type != PTBPF_CAP_INT64)
		return 0;
	sb_printf(b, "[%llu]", (unsigned long long)ld64(e->p, 0));
	if (x && x->h.len >= 8 && exit->has_ret && exit->ret > 0)
		sb_printf(b, " => [%llu]", (unsigned long long)ld64(x->p, 0));
	return 1;
}

/*
 * A signal set the entry could not read, captured again at the exit: not
 * the one the call read if another argument points to it too (the call
 * wrote its old mask there). 1: the exit's capture is not to be printed.
 */
static int arg_aliased(const uint64_t *args, int arg)
{
	for (int i = 0; i < 6; i++)
		if (i != arg && args[i] == args[arg])
			return 1;
	return 0;
}

int caps_entry_whole(const void *data, size_t len, int arg)
{
	const struct ptbpf_ev_sys_enter *se = data;
	struct cap_set ent;
	const struct cap_ref *c;

	caps_of_entry(&ent, data, len);
	c = cap_find(&ent, arg, 0);
	if (!c)
		return 0;
	/* a signal set, a lock to set: the exit's capture is only a fallback */
	return c->h.type == PTBPF_CAP_SIGSET ||
	       (c->h.type == PTBPF_CAP_FLOCK && fcntl_flock((unsigned)se->args[1]) == 1);
}

int caps_print_arg(struct sbuf *b, const struct cap_set *ent, const struct cap_set *exit, int arg,
		   const uint64_t *args, int type)
{
	const struct cap_ref *c = cap_find(exit, arg, 1);
	const struct cap_set *from = exit;
	size_t at = b->len;
	uint64_t raw = args[arg];

	/* a timeout or fd set captured at both ends (ppoll's, select's): the
	 * entry's is the argument, the exit's what was left of it or what is
	 * ready (caps_print_after_ret) */
	if (!c || ((c->h.type == PTBPF_CAP_TIMESPEC || c->h.type == PTBPF_CAP_TIMEVAL ||
		    c->h.type == PTBPF_CAP_FDSET || c->h.type == PTBPF_CAP_SIGSET_LATE) &&
		   cap_find(ent, arg, 0))) {
		c = cap_find(ent, arg, 0);
		from = ent;
	} else if (c->h.type == PTBPF_CAP_SIGSET_LATE && arg_aliased(args, arg)) {
		return 0; /* what the call wrote there, not what it read */
	}
	if (c && c->h.type == PTBPF_CAP_ARG_STRINGS) {
		if (print_arg_strings(b, ent, arg, c))
			return 1;
		c = cap_find(ent, arg, 0);
		from = ent;
	}
	if (!c)
		return 0;
	if (c->h.type == PTBPF_CAP_IOCTL)
		return arg == 2 && print_ioctl_arg(b, ent, exit, arg, args[1]);
	if (c->h.type == PTBPF_CAP_MSGHDR) {
		const struct cap_ref *in = cap_find(ent, arg, 0);

		if (in && in->h.type != PTBPF_CAP_MSGHDR_IN)
			in = NULL;
		return !print_msghdr(b, from, (int)(c - from->c), in);
	}
	if (c->h.type == PTBPF_CAP_MSGHDR_IN)
		return 0; /* recvmsg failed: strace prints the address */
	if (c->h.type == PTBPF_CAP_FDSET) {
		print_fdset(b, c->p, c->h.len, args[0]);
		return 1;
	}
	if (c->h.type == PTBPF_CAP_SIGSET_ARG)
		return print_sigset_arg(b, from, c, arg);
	if (c->h.type == PTBPF_CAP_FLOCK)
		return print_flock(b, ent, exit, arg, args);
	if (c->h.type == PTBPF_CAP_CLONE_ARGS) /* its child's tid: the exit's result */
		return !fmt_clone_args(b, c->p, c->h.len, exit && exit->has_ret ? exit->ret : -1);
	if (c->h.type == PTBPF_CAP_INT64)
		return print_int64_rw(b, ent, exit, arg);
	/* SO_LINGER's value is a struct, not two ints */
	if (type == A_OPTVAL && args[1] == SOL_SOCKET && args[2] == SO_LINGER &&
	    c->h.type == PTBPF_CAP_INT)
		return !fmt_linger(b, c->p, c->h.len);
	if (from == exit && c->h.type == PTBPF_CAP_INT && c->h.len == 4) {
		/* a length the call read and wrote: "[128 => 16]" when it changed */
		const struct cap_ref *in = cap_find(ent, arg, 0);
		int32_t a, z;

		if (in && in->h.type == PTBPF_CAP_INT && in->h.len == 4 && memcmp(in->p, c->p, 4)) {
			memcpy(&a, in->p, 4);
			memcpy(&z, c->p, 4);
			sb_printf(b, "[%d => %d]", a, z);
			return 1;
		}
	}
	/* EPOLL_CTL_DEL ignores its event: strace prints the pointer */
	if (c->h.type == PTBPF_CAP_EPOLL_EVENT && from == ent && (unsigned)args[1] == EPOLL_CTL_DEL)
		return 0;
	/* getrandom's bytes: all in hex */
	if (type == A_HEXBUF && c->h.type == PTBPF_CAP_BYTES) {
		struct decode_opts o = dopts;

		o.xflag = 2;
		if (fmt_str(b, c->p, c->h.len, c->h.full, 0, &o)) {
			sb_truncate(b, at);
			return 0;
		}
		return 1;
	}
	/* epoll_ctl's one event is not an array */
	if (print_cap(b, c->h.type == PTBPF_CAP_EPOLL_EVENT && from == ent ? NULL : from, c, raw)) {
		sb_truncate(b, at);
		return 0;
	}
	return 1;
}

int caps_json_arg(struct sbuf *t, const struct cap_set *x, int i)
{
	const struct cap_ref *c = &x->c[i];

	if (c->h.type == PTBPF_CAP_MSGHDR)
		return print_msghdr(t, x, i, NULL);
	return print_cap(t, x, c, 0);
}

/* select's: " (in [3], out [4], left {...})", nothing when no fd is ready */
static void print_ready_fds(struct sbuf *b, const struct cap_set *exit)
{
	static const char *const what[] = { "in", "out", "except" };
	const struct cap_ref *left = cap_find(exit, 4, 0);
	size_t at = b->len, mark;
	int any = 0;

	sb_puts(b, " (");
	for (int k = 1; k <= 3; k++) {
		const struct cap_ref *c = cap_find(exit, k, 0);

		if (!c || c->h.type != PTBPF_CAP_FDSET)
			continue;
		mark = b->len;
		sb_printf(b, "%s%s ", any ? ", " : "", what[k - 1]);
		if (print_fdset(b, c->p, c->h.len, (uint64_t)c->h.len * 8))
			any = 1;
		else
			sb_truncate(b, mark);
	}
	if (!any) {
		sb_truncate(b, at);
		return;
	}
	if (left) {
		mark = b->len;
		sb_puts(b, ", left ");
		if ((left->h.type == PTBPF_CAP_TIMEVAL ? fmt_timeval(b, left->p, left->h.len)
						       : fmt_timespec(b, left->p, left->h.len)))
			sb_truncate(b, mark);
	}
	sb_putc(b, ')');
}

void caps_print_after_ret(struct sbuf *b, const struct cap_set *exit)
{
	const struct cap_ref *fds = cap_find(exit, 1, 0);

	if (!fds)
		fds = cap_find(exit, 2, 0);
	if (!fds)
		fds = cap_find(exit, 3, 0);
	if (fds && fds->h.type == PTBPF_CAP_FDSET) {
		print_ready_fds(b, exit);
		return;
	}
	for (int i = 0; exit && i < exit->n; i++) {
		const struct cap_ref *c = &exit->c[i];

		if (c->h.type == PTBPF_CAP_POLLFD) {
			const struct cap_ref *left = cap_find(exit, 2, 0);
			size_t at = b->len, list;

			sb_puts(b, " (");
			list = b->len;
			/* nothing when no fd has revents */
			if (fmt_pollfds(b, c->p, c->h.len, c->h.len / 8, 1) || b->len == list) {
				sb_truncate(b, at);
				continue;
			}
			/* ppoll's timeout: what is left of it, as strace */
			if (left && left->h.type == PTBPF_CAP_TIMESPEC) {
				size_t l = b->len;

				sb_puts(b, ", left ");
				if (fmt_timespec(b, left->p, left->h.len))
					sb_truncate(b, l);
			}
			sb_putc(b, ')');
		}
	}
}

int caps_vector_whole(const struct cap_set *ent, int arg)
{
	unsigned int nstr;
	int end = vector_end(ent, arg, &nstr);

	return end >= 0 && (nstr >= ent->c[end].h.full || nstr >= dopts.strsize);
}
