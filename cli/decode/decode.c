/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: strace-like decoding of syscall arguments, results and signals. */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "decode/decode.h"
#include "decode/caps.h"
#include "decode/scalar.h"
#include "decode/fdtable.h"

/* schema/syscalls.def's printing of each syscall, sorted by name (bsearch) */
static const struct sysdesc sysdescs[] = {
/* clang-format off */
#define SYSCALL(name, nr, nr_arm64, nargs, printed, ret, form, classes) { #name, printed, ret, form, {
#define ARG(name, type, ...) { type, XL_##__VA_ARGS__ },
#define CAP(...)
#define END } },
#define PATHTRACE(fds, paths)
#define FDOP(op, flags_arg)
#include "syscalls.def"
	/* clang-format on */
};

static int desc_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct sysdesc *)e)->name);
}

/* Looked up once per event id (see cli_ev_name()), not per event. */
const struct sysdesc *sys_desc(const char *name)
{
	const struct sysdesc *d = bsearch(name, sysdescs, sizeof(sysdescs) / sizeof(sysdescs[0]),
					  sizeof(sysdescs[0]), desc_cmp);

	/* one without a description prints its arguments raw */
	return d && d->nargs >= 0 ? d : NULL;
}

int sys_result_is_fd(const char *name)
{
	const struct sysdesc *d;

	if (!name)
		return 0;
	d = bsearch(name, sysdescs, sizeof(sysdescs) / sizeof(sysdescs[0]), sizeof(sysdescs[0]),
		    desc_cmp);
	return d && d->ret == R_FD;
}

struct argnames {
	const char *sys;
	const char *arg[6];
};

/* the ARG names of schema/syscalls.def, sorted by syscall name */
static const struct argnames argnames[] = {
/* clang-format off */
#define SYSCALL(name, nr, nr_arm64, nargs, printed, ret, form, classes) { #name, {
#define ARG(name, type, ...) #name,
#define CAP(...)
#define END } },
#define PATHTRACE(fds, paths)
#define FDOP(op, flags_arg)
#include "syscalls.def"
	/* clang-format on */
};

static int argnames_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct argnames *)e)->sys);
}

const char *sys_arg_name(const char *sys, int i)
{
	const struct argnames *a;

	if (!sys || i < 0 || i > 5)
		return NULL;
	a = bsearch(sys, argnames, sizeof(argnames) / sizeof(argnames[0]), sizeof(argnames[0]),
		    argnames_cmp);
	return a ? a->arg[i] : NULL;
}

int sys_nargs(const struct sysdesc *d)
{
	return d ? d->nargs : 6;
}

int sys_exit_uses_entry(const struct sysdesc *d)
{
	static const struct sysdesc *ioctl, *execve, *execveat;

	if (!ioctl) {
		ioctl = sys_desc("ioctl");
		execve = sys_desc("execve");
		execveat = sys_desc("execveat");
	}
	return d && (d == ioctl || d == execve || d == execveat);
}

int sys_noreturn(const struct sysdesc *d)
{
	return d && d->ret == R_NONE;
}

size_t sys_name_offset(const char *ev_name)
{
	if (strncmp(ev_name, "sys_e", 5))
		return 0;
	if (!strncmp(ev_name + 5, "nter_", 5))
		return 10;
	if (!strncmp(ev_name + 5, "xit_", 4))
		return 9;
	return 0;
}

#define NF(a) (sizeof(a) / sizeof(a[0]))

/*
 * restart: the syscall is restarted (or the signal's handler runs first),
 * so it has no result yet: strace prints "= ?" before the name, not "-1".
 */
static const struct {
	int e;
	const char *n, *d;
	int restart;
} kerrs[] = {
	{ 512, "ERESTARTSYS", "To be restarted if SA_RESTART is set", 1 },
	{ 513, "ERESTARTNOINTR", "To be restarted", 1 },
	{ 514, "ERESTARTNOHAND", "To be restarted if no handler", 1 },
	{ 515, "ENOIOCTLCMD", "No ioctl command", 0 },
	{ 516, "ERESTART_RESTARTBLOCK", "Interrupted by signal", 1 },
	{ 517, "EPROBE_DEFER", "Requested probe deferral", 0 },
	{ 518, "EOPENSTALE", "Open found a stale dentry", 0 },
	{ 521, "EBADHANDLE", "Illegal NFS file handle", 0 },
	{ 524, "ENOTSUPP", "Operation not supported", 0 },
};

static int errno_restarts(int e)
{
	size_t i;

	for (i = 0; i < NF(kerrs); i++)
		if (kerrs[i].e == e)
			return kerrs[i].restart;
	return 0;
}

const char *errno_name(int e)
{
	const char *n;
	size_t i;

	for (i = 0; i < NF(kerrs); i++)
		if (kerrs[i].e == e)
			return kerrs[i].n;
	n = strerrorname_np(e);
	return n;
}

const char *errno_desc(int e)
{
	size_t i;

	for (i = 0; i < NF(kerrs); i++)
		if (kerrs[i].e == e)
			return kerrs[i].d;
	return strerror(e);
}

static void print_path(struct sbuf *b, const struct ptbpf_ev_sys_enter *se, size_t len, int argi,
		       unsigned long raw)
{
	size_t off = 0;
	int i;

	for (i = 0; i < 2; i++) {
		size_t pl = se->path_len[i];

		if (pl && se->path_arg[i] == argi &&
		    offsetof(struct ptbpf_ev_sys_enter, paths) + off + pl <= len) {
			const char *p = se->paths + off;
			size_t n = strnlen(p, pl);
			int trunc = se->flags &
				    (i ? PTBPF_SYS_PATH1_TRUNCATED : PTBPF_SYS_PATH0_TRUNCATED);

			sb_quote(b, p, n);
			if (trunc)
				sb_puts(b, "...");
			return;
		}
		if (!pl && (se->flags & (i ? PTBPF_SYS_PATH1_FAULT : PTBPF_SYS_PATH0_FAULT)) &&
		    se->path_arg[i] == argi)
			break;
		off += pl;
	}
	if (!raw)
		sb_puts(b, "NULL");
	else
		sb_printf(b, "%#lx", raw);
}

static const char *(*pid_name_of)(void *ctx, int pid);
static void *pid_name_ctx;

void decode_set_pid_names(const char *(*name_of)(void *ctx, int pid), void *ctx)
{
	pid_name_of = name_of;
	pid_name_ctx = ctx;
}

/*
 * -Y: "<name>" after a pid argument, as strace's printpid() (a process or
 * thread id, not a process group's: setpgid's second, kill's and wait4's
 * below 0, waitid's unless P_PID).
 */
static void pid_arg_name(struct sbuf *b, const struct sysdesc *d, const uint64_t *args, int i)
{
	int pid = (int)args[i];
	const char *name;

	if (!pid_name_of || !d || pid <= 0 || (i == 1 && !strcmp(d->name, "setpgid")) ||
	    (!strcmp(d->name, "waitid") && args[0] != P_PID))
		return;
	name = pid_name_of(pid_name_ctx, pid);
	if (name && *name)
		sb_printf(b, "<%s>", name);
}

/* args: se->args as uint64_t (the printers' type; __u64 is another) */
static void print_arg(struct sbuf *b, int type, int xlat, const struct ptbpf_ev_sys_enter *se,
		      size_t len, const uint64_t *args, int argi)
{
	uint64_t v = args[argi];

	if (type == A_PATH)
		print_path(b, se, len, argi, v);
	else
		scalar_arg(b, type, xlat, args, argi);
	if (type == A_FD || type == A_DIRFD)
		fdtable_arg(b, (int)v, type == A_DIRFD); /* -y: "<path>" */
}

/* Argument i of d's call from its capture, if it has one (nonzero). */
static int cap_arg(struct sbuf *b, const struct sysdesc *d, const struct cap_set *ent,
		   const struct cap_set *exit, int i, const uint64_t *args, int type)
{
	struct decode_opts hex;
	int done, xflag;

	/* getrandom's bytes: every one as \xNN, as strace (QUOTE_FORCE_HEX) */
	if (i || !d || strcmp(d->name, "getrandom"))
		return caps_print_arg(b, ent, exit, i, args, type);
	hex = *decode_get_opts();
	xflag = hex.xflag;
	hex.xflag = 2;
	decode_set_opts(&hex);
	done = caps_print_arg(b, ent, exit, i, args, type);
	hex.xflag = xflag;
	decode_set_opts(&hex);
	return done;
}

/* The arguments in mask of [from, to), separated by ", ". */
static void decode_args(struct sbuf *b, const struct sysdesc *d,
			const struct ptbpf_ev_sys_enter *se, size_t len, const struct cap_set *ent,
			const struct cap_set *exit, int from, int to, unsigned mask)
{
	uint64_t args[6];
	int first = 1;

	memcpy(args, se->args, sizeof(args));
	for (int i = from; i < to; i++) {
		int type = d ? d->a[i].type : A_HEX;

		if (!(mask & (1U << i)))
			continue;
		if (!first)
			sb_puts(b, ", ");
		first = 0;
		if (type != A_PATH && cap_arg(b, d, ent, exit, i, args, type))
			continue;
		if (!d) {
			/* unknown syscall: a path if one was captured, else hex */
			int j;

			for (j = 0; j < 2; j++)
				if (se->path_len[j] && se->path_arg[j] == i)
					type = A_PATH;
		}
		print_arg(b, type, d ? d->a[i].xlat : XL_, se, len, args, i);
		if (type == A_PID)
			pid_arg_name(b, d, args, i);
	}
}

/* The arguments the call prints, a bit each (an unknown call's six). */
static unsigned decode_mask(const struct sysdesc *d, const struct ptbpf_ev_sys_enter *se)
{
	uint64_t args[6];

	if (!d)
		return 0x3f;
	memcpy(args, se->args, sizeof(args));
	return scalar_argmask(d, args);
}

/* One past the last argument of mask. */
static int mask_end(unsigned mask)
{
	return mask ? 32 - __builtin_clz(mask) : 0;
}

/*
 * Where a call whose exit brings captures splits when other events come
 * between (strace's "read(3, " and "<... read resumed>buf, 832)"): the
 * first argument its exit brings, with the arguments it prints (*mask)
 * and one past the last (*n); -1 when it does not split so.
 */
static int split_arg(const struct sysdesc *d, const void *data, size_t len, unsigned *mask, int *n)
{
	const struct ptbpf_ev_sys_enter *se = data;
	int a;

	if (!data || len < offsetof(struct ptbpf_ev_sys_enter, paths) ||
	    !(se->flags & PTBPF_SYS_CAPS_AT_EXIT))
		return -1;
	*mask = decode_mask(d, se);
	*n = mask_end(*mask);
	a = caps_exit_arg(se, len);
	if (a >= 0) {
		struct cap_set ent;

		/* execve's argv read whole at the entry: printed there, as strace */
		caps_of_entry(&ent, data, len);
		if (caps_vector_whole(&ent, a))
			return -1;
	}
	/* the entry read it whole: its exit's capture is only a fallback */
	if (a >= 0 && caps_entry_whole(data, len, a))
		a++;
	return a >= 0 && a < *n ? a : -1;
}

/* "openat(AT_FDCWD, "/etc/passwd", O_RDONLY|O_CLOEXEC)" */
void decode_sys_call(struct sbuf *b, const char *name, const struct sysdesc *d, const void *data,
		     size_t len, const void *xdata, size_t xlen)
{
	const struct ptbpf_ev_sys_enter *se = data;
	struct cap_set ent, exit;
	unsigned mask;

	sb_puts(b, name);
	sb_putc(b, '(');
	if (len < offsetof(struct ptbpf_ev_sys_enter, paths)) {
		sb_puts(b, "?)");
		return;
	}
	if (se->flags & PTBPF_SYS_SIGMASK) {
		/* rt_sigreturn: no argument, the mask its frame restores */
		sb_puts(b, "{mask=");
		decode_sigset(b, se->args[0]);
		sb_puts(b, "})");
		return;
	}
	caps_of_entry(&ent, data, len);
	caps_of_exit(&exit, xdata, xlen);
	mask = decode_mask(d, se);
	decode_args(b, d, se, len, &ent, &exit, 0, mask_end(mask), mask);
	sb_putc(b, ')');
}

unsigned decode_sys_argmask(const struct sysdesc *d, const void *data, size_t len)
{
	const struct ptbpf_ev_sys_enter *se = data;

	if (len < offsetof(struct ptbpf_ev_sys_enter, paths) || (se->flags & PTBPF_SYS_SIGMASK))
		return 0;
	return decode_mask(d, se);
}

void decode_sys_arg(struct sbuf *b, const struct sysdesc *d, const void *data, size_t len,
		    const void *xdata, size_t xlen, int i)
{
	const struct ptbpf_ev_sys_enter *se = data;
	struct cap_set ent, exit;

	if (len < offsetof(struct ptbpf_ev_sys_enter, paths) || i < 0 || i > 5)
		return;
	caps_of_entry(&ent, data, len);
	caps_of_exit(&exit, xdata, xlen);
	decode_args(b, d, se, len, &ent, &exit, i, i + 1, 1U << i);
}

void decode_sys_after_ret(struct sbuf *b, const void *xdata, size_t xlen)
{
	struct cap_set exit;

	caps_of_exit(&exit, xdata, xlen);
	caps_print_after_ret(b, &exit);
}

void decode_sys_args(struct sbuf *b, const char *name, const struct sysdesc *d, const void *data,
		     size_t len)
{
	decode_sys_call(b, name, d, data, len, NULL, 0);
}

int decode_sys_unfinished(struct sbuf *b, const char *name, const struct sysdesc *d,
			  const void *data, size_t len)
{
	struct cap_set ent;
	unsigned mask;
	int n, r = split_arg(d, data, len, &mask, &n);

	if (r < 0)
		return 0;
	caps_of_entry(&ent, data, len);
	sb_puts(b, name);
	sb_putc(b, '(');
	decode_args(b, d, data, len, &ent, NULL, 0, r, mask);
	if (mask & ((1U << r) - 1))
		sb_puts(b, ", ");
	return 1;
}

int decode_sys_resumed(struct sbuf *b, const struct sysdesc *d, const void *data, size_t len,
		       const void *xdata, size_t xlen)
{
	struct cap_set ent, exit;
	unsigned mask;
	int n, r = split_arg(d, data, len, &mask, &n);

	if (r < 0)
		return 0;
	caps_of_entry(&ent, data, len);
	caps_of_exit(&exit, xdata, xlen);
	decode_args(b, d, data, len, &ent, &exit, r, n, mask);
	return 1;
}

/* " = 3", " = -1 ENOENT (No such file or directory)", " = 0x7f..." */
void decode_sys_ret(struct sbuf *b, const struct sysdesc *d, const uint64_t *args, int64_t ret)
{
	if (ret < 0 && ret >= -4095) {
		int e = (int)-ret;
		const char *en = errno_name(e);

		if (en) {
			sb_puts(b, errno_restarts(e) ? " = ? " : " = -1 ");
			sb_puts(b, en);
			sb_puts(b, " (");
			sb_puts(b, errno_desc(e));
			sb_putc(b, ')');
		} else {
			sb_printf(b, " = -1 E%d (errno %d)", e, e);
		}
		return;
	}
	sb_putn(b, " = ", 3);
	if (scalar_ret(b, d, args, ret))
		return;
	if (d && d->ret == R_HEX)
		sb_xhex(b, (uint64_t)ret);
	else
		sb_dec(b, ret);
}

void decode_exit_status(struct sbuf *b, int status)
{
	if (status & 0x7f) {
		sb_puts(b, "+++ killed by ");
		decode_signal(b, status & 0x7f);
		sb_puts(b, (status & 0x80) ? " (core dumped) +++" : " +++");
	} else {
		sb_printf(b, "+++ exited with %d +++", (status >> 8) & 0xff);
	}
}

void decode_json_exit(struct sbuf *b, const char *sys, const struct sysdesc *d, const void *xdata,
		      size_t xlen, const void *entry, size_t elen)
{
	struct cap_set x;
	struct sbuf t = { 0 };
	int first = 1, bad;
	unsigned int done = 0;

	caps_of_exit(&x, xdata, xlen);
	for (int i = 0; i < x.n; i++) {
		const struct cap_ref *c = &x.c[i];
		const char *n = sys_arg_name(sys, c->h.arg);

		/* an argument once (an iovec array's elements, a msghdr's
		 * parts); an ioctl's bytes depend on the entry's command */
		if ((done & (1u << (c->h.arg & 7))) ||
		    ((c->h.type == PTBPF_CAP_IOCTL || c->h.type == PTBPF_CAP_ARG_STRINGS) &&
		     !entry))
			continue;
		done |= 1u << (c->h.arg & 7);
		sb_puts(b, first ? ",\"decoded\":{" : ",");
		first = 0;
		if (n)
			sb_json_str(b, n, strlen(n));
		else
			sb_printf(b, "\"arg%d\"", c->h.arg);
		sb_putc(b, ':');
		if (c->h.type == PTBPF_CAP_DIRENTS) {
			/* the pointer is the entry's: the count alone */
			sb_printf(b, "{\"entries\":%u}", c->h.full);
			continue;
		}
		sb_reset(&t);
		if (c->h.type == PTBPF_CAP_IOCTL || c->h.type == PTBPF_CAP_ARG_STRINGS) {
			/* as the command says (an exec's argv: as the entry
			 * counted it), as the text line has it */
			decode_sys_arg(&t, d, entry, elen, xdata, xlen, c->h.arg);
			bad = !t.len;
		} else {
			bad = caps_json_arg(&t, &x, i);
		}
		if (bad || t.failed)
			sb_puts(b, "null");
		else
			sb_json_str(b, t.s, t.len);
	}
	if (!first)
		sb_putc(b, '}');
	sb_free(&t);
}

void decode_user_data(struct sbuf *b, const void *p, size_t len, int truncated)
{
	fmt_str(b, p, len, truncated ? len + 1 : len, 0, decode_get_opts());
}

int sys_makes_child(const char *name)
{
	static const char *const forks[] = { "clone", "clone3", "fork", "vfork" };

	for (size_t i = 0; i < sizeof(forks) / sizeof(forks[0]); i++)
		if (!strcmp(name, forks[i]))
			return 1;
	return 0;
}
