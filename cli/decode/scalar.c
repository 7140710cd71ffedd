/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: scalar syscall arguments (flags, commands, numbers) as strace 6.1
 * prints them on x86_64 (arm64's differences: decode/abi.h): a printer a type of
 * schema/syscall_types.h, the names from the tables of xlat/ (in the order of strace's, which
 * decides the order of the names printed).
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "decode/scalar.h"
#include "decode/struct.h"
#include "decode/abi.h"

#define NF(a) (sizeof(a) / sizeof(a[0]))

/* the kernel's values where glibc's differ */
#define K_O_TMPFILE_IN 020000000  /* __O_TMPFILE, without O_DIRECTORY */
#define K_FICLONE      0x40049409 /* _IOW(0x94, 9, int) */

/* The arguments each futex op prints (strace's do_futex), by op & 127; others: all six. */
static const unsigned char futex_args[] = {
	[FUTEX_WAIT] = 0x0f,	       [FUTEX_WAKE] = 0x07,	   [FUTEX_FD] = 0x07,
	[FUTEX_REQUEUE] = 0x1f,	       [FUTEX_CMP_REQUEUE] = 0x3f, [FUTEX_WAKE_OP] = 0x3f,
	[FUTEX_LOCK_PI] = 0x0b,	       [FUTEX_UNLOCK_PI] = 0x03,   [FUTEX_TRYLOCK_PI] = 0x03,
	[FUTEX_WAIT_BITSET] = 0x2f,    [FUTEX_WAKE_BITSET] = 0x27, [FUTEX_WAIT_REQUEUE_PI] = 0x1f,
	[FUTEX_CMP_REQUEUE_PI] = 0x3f, [FUTEX_LOCK_PI2] = 0x0b,
};

/* strace's socket(): the protocol by the domain; others' unsigned */
static void print_sock_proto(struct sbuf *b, uint64_t domain, uint64_t v)
{
	if (domain == AF_INET || domain == AF_INET6)
		xlat_val(b, &xlat_inet_protocols, v);
	else if (domain == AF_NETLINK)
		xlat_val(b, &xlat_netlink_protocols, v);
	else if (domain == AF_PACKET)
		fmt_packet_proto(b, (unsigned)v);
	else
		sb_udec(b, (unsigned)v, 0);
}

/* strace's tprint_sock_type: the type's name, then the flags */
static void print_sock_type(struct sbuf *b, unsigned v)
{
	const char *type = xlat_name(&xlat_socktypes, v & 0xf);
	size_t at = b->len;

	/* -X: each part on its own, "0x1 <c> SOCK_STREAM <e>|0x80000 <c> SOCK_CLOEXEC <e>" */
	if (type) {
		sb_puts(b, type);
		xlat_restyle(b, at, v & 0xf, XLAT_HEX);
		v &= ~0xfU;
		if (!v)
			return;
		sb_putc(b, '|');
	}
	xlat_flags(b, &xlat_sock_type_flags, v);
}

/* strace's FUTEX_WAKE_OP val3: FUTEX_OP_ADD<<28|0x1<<12|FUTEX_OP_CMP_GT<<24|0x1 */
static void print_futex_wakeop(struct sbuf *b, unsigned v)
{
	unsigned op = (v >> 28) & 7, cmp = (v >> 24) & 0xf;
	const char *op_name = xlat_name(&xlat_futexwakeops, op);
	const char *cmp_name = xlat_name(&xlat_futexwakecmps, cmp);

	if ((v >> 28) & 8)
		sb_puts(b, "FUTEX_OP_OPARG_SHIFT<<28|");
	if (op_name)
		sb_printf(b, "%s<<28", op_name);
	else
		sb_printf(b, "%#x<<28 /* FUTEX_OP_??? */", op);
	sb_putc(b, '|');
	sb_xhex(b, (v >> 12) & 0xfff);
	sb_puts(b, "<<12|");
	if (cmp_name)
		sb_printf(b, "%s<<24", cmp_name);
	else
		sb_printf(b, "%#x<<24 /* FUTEX_OP_CMP_??? */", cmp);
	sb_putc(b, '|');
	sb_xhex(b, v & 0xfff);
}

/* futexops.in: FUTEX_CLOCK_REALTIME only with the waits, FUTEX_FD's own form */
static void print_futex_op(struct sbuf *b, uint64_t v)
{
	unsigned op = v & 0x7f;
	int clock_ok = op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET || op == FUTEX_WAIT_REQUEUE_PI;
	const char *name = xlat_name(&xlat_futexops, op);

	if ((v & ~0x1ffUL) || !name || ((v & FUTEX_CLOCK_REALTIME) && !clock_ok)) {
		sb_xhex(b, v & 0xffffffff);
		sb_puts(b, " /* FUTEX_??? */");
		return;
	}
	sb_puts(b, name);
	if (v & FUTEX_PRIVATE_FLAG)
		sb_puts(b, op == FUTEX_FD ? "|FUTEX_PRIVATE_FLAG" : "_PRIVATE");
	if (v & FUTEX_CLOCK_REALTIME)
		sb_puts(b, "|FUTEX_CLOCK_REALTIME");
}

static void print_ptr(struct sbuf *b, uint64_t v)
{
	if (!v)
		sb_puts(b, "NULL");
	else
		sb_xhex(b, v);
}

/* a signal's name, as -X says */
static void print_sig(struct sbuf *b, int sig)
{
	size_t at = b->len;

	decode_signal(b, sig);
	xlat_restyle(b, at, (uint64_t)(int64_t)sig, XLAT_DEC);
}

/* clone(flags, stack, parent_tid, child_tid, tls) on x86_64, tls before child_tid
 * on arm64 (the ABI's), as strace's SYS_FUNC(clone) */
static void print_clone(struct sbuf *b, const uint64_t *args)
{
	const struct dec_abi *a = decode_abi();
	uint64_t flags = args[0] & ~0xffUL;
	int sig = (int)(args[0] & 0xff);

	sb_puts(b, "child_stack=");
	print_ptr(b, args[1]);
	sb_puts(b, ", flags=");
	if (flags) {
		xlat_flags(b, &xlat_clone_flags, flags);
		if (sig) {
			sb_putc(b, '|');
			print_sig(b, sig);
		}
	} else {
		print_sig(b, sig);
	}
	if (flags & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		sb_puts(b, ", parent_tid=");
		print_ptr(b, args[2]);
	}
	if (flags & CLONE_SETTLS) {
		sb_puts(b, ", tls=");
		print_ptr(b, args[a->clone_tls]);
	}
	if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		sb_puts(b, ", child_tidptr=");
		print_ptr(b, args[a->clone_child_tid]);
	}
}

/* ioctl's third argument: FICLONE's is the source fd */
static void p_ioctlarg(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	if ((unsigned)args[1] == K_FICLONE)
		sb_dec(b, (int)args[i]);
	else
		sb_xhex(b, args[i]);
}

static void p_int(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	sb_dec(b, (int)args[i]);
}

static void p_uint(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	sb_udec(b, (unsigned)args[i], 0);
}

static void p_long(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	sb_dec(b, (long)args[i]);
}

static void p_ulong(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	sb_udec(b, args[i], 0);
}

static void p_hex(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	sb_xhex(b, args[i]);
}

static void p_ptr(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	print_ptr(b, args[i]);
}

static void p_mode(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	sb_printf(b, "%#03lo", (unsigned long)(args[i] & 0xffffffff));
}

static void p_dirfd(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	const char *n = xlat_name(&xlat_at_fdcwd, (unsigned long)(long)(int)args[i]);

	if (n)
		sb_puts(b, n);
	else
		sb_dec(b, (int)args[i]);
}

/* strace's printxval: the value's name in the ARG's table, else hex and its default */
static void p_xval(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	xlat_val(b, x, args[i]);
}

/* the same of an int (strace prints its low 32 bits) */
static void p_xval32(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	xlat_val(b, x, (unsigned)args[i]);
}

static void p_flags(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	xlat_flags(b, x, args[i]);
}

static void p_flags32(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	xlat_flags(b, x, (unsigned)args[i]);
}

static void p_oflags(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	fmt_open_flags(b, args[i] & 0xffffffff);
}

/* strace's print_mmap_flags: the mapping's type, then the other flags */
static void p_mmapfl(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	uint64_t v = args[i];
	const char *type = "0";

	for (size_t t = 0; t < 3; t++) {
		const struct flag *f = &xlat_mmap_flags.f[t];

		if ((v & f->v) == f->v) {
			type = f->n;
			v &= ~(uint64_t)f->v;
			break;
		}
	}
	sb_puts(b, type);
	if (v) {
		sb_putc(b, '|');
		print_flags(b, v, xlat_mmap_flags.f + 3, xlat_mmap_flags.n - 3, NULL);
	}
}

static void p_sig(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	decode_signal(b, (int)args[i]);
}

static void p_clone(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	print_clone(b, args);
}

/* strace's IOPRIO_PRIO_VALUE(class, data): the class in the top 3 of 16 bits */
static void print_ioprio(struct sbuf *b, unsigned v)
{
	sb_puts(b, "IOPRIO_PRIO_VALUE(");
	xlat_val(b, &xlat_ioprio_class, v >> 13);
	sb_printf(b, ", %u)", v & 0x1fff);
}

static void p_ioprio(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	print_ioprio(b, (unsigned)args[i]);
}

static void p_prctlarg(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	prctl_arg(b, args[0], i, args[i]);
}

static void p_fcntlarg(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	fcntl_arg(b, (unsigned)args[1], args[i]);
}

/* statx's flags: the sync type's value 0 has a name, printed first */
static void p_statxfl(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	uint64_t v = args[i];

	size_t at;

	/* -X raw: strace prints nothing of a sync type of 0, then "|0x900" */
	if (xlat_get_style() != XLAT_RAW || (v & AT_STATX_SYNC_TYPE))
		xlat_flags(b, &xlat_at_statx_sync_types, v & AT_STATX_SYNC_TYPE);
	v &= 0xffffffff & ~(uint64_t)AT_STATX_SYNC_TYPE;
	if (v) {
		sb_putc(b, '|');
		at = b->len;
		print_flags(b, v, xlat_at_flags.f, xlat_at_flags.n, NULL);
		xlat_restyle(b, at, v, XLAT_HEX);
	}
}

static void p_futexop(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	print_futex_op(b, args[i]);
}

/* futex's timeout (not captured) or val2, by its op */
static void p_futex3(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	unsigned op = args[1] & 0x7f;

	if (op == FUTEX_REQUEUE || op == FUTEX_CMP_REQUEUE || op == FUTEX_CMP_REQUEUE_PI ||
	    op == FUTEX_WAKE_OP)
		sb_udec(b, (unsigned)args[i], 0);
	else
		print_ptr(b, args[i]);
}

/* futex's val3, by its op */
static void p_futex5(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	unsigned op = args[1] & 0x7f, v = (unsigned)args[i];

	if ((op == FUTEX_WAIT_BITSET || op == FUTEX_WAKE_BITSET) && xlat_name(&xlat_futexbitset, v))
		sb_puts(b, xlat_name(&xlat_futexbitset, v));
	else if (op == FUTEX_CMP_REQUEUE || op == FUTEX_CMP_REQUEUE_PI)
		sb_udec(b, v, 0);
	else if (op == FUTEX_WAKE_OP)
		print_futex_wakeop(b, v);
	else
		sb_xhex(b, v);
}

static void p_socktype(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	print_sock_type(b, (unsigned)args[i]);
}

static void p_sockproto(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	print_sock_proto(b, args[0], args[i]);
}

static void p_sockopt(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	fmt_sockopt_level_name(b, (int)args[i], i < 5 ? (int)args[i + 1] : 0);
}

/* an ioctl command: its name, else strace's _IOC() form */
static void p_ioctl(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	unsigned c = (unsigned)args[i];
	const char *s = name_ioctl(c);

	if (s) {
		sb_puts(b, s);
		return;
	}
	sb_puts(b, "_IOC(");
	xlat_flags(b, &xlat_ioctl_dirs, (c >> 30) & 3);
	sb_printf(b, ", %#x, %#x, %#x)", (c >> 8) & 0xff, c & 0xff, (c >> 16) & 0x3fff);
}

static void p_clockid(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i)
{
	fmt_clockid(b, (int)args[i]);
}

typedef void scalar_printer(struct sbuf *b, const struct xlat *x, const uint64_t *args, int i);

/* Each type's printer (schema/syscall_types.h), given the ARG's table; none: hex. */
static scalar_printer *const printers[A_COUNT] = {
	[A_INT] = p_int,	   [A_FD] = p_int,
	[A_PID] = p_int,	   [A_UINT] = p_uint,
	[A_LONG] = p_long,	   [A_ULONG] = p_ulong,
	[A_HEX] = p_hex,	   [A_PTR] = p_ptr,
	[A_OPTVAL] = p_ptr,	   [A_STR] = p_ptr,
	[A_HEXBUF] = p_ptr,	   [A_PRCTLARG] = p_prctlarg,
	[A_IOPRIO] = p_ioprio,	   [A_DIRFD] = p_dirfd,
	[A_MODE] = p_mode,	   [A_XVAL] = p_xval,
	[A_XVAL32] = p_xval32,	   [A_FLAGS] = p_flags,
	[A_FLAGS32] = p_flags32,   [A_OFLAGS] = p_oflags,
	[A_MMAPFL] = p_mmapfl,	   [A_SIG] = p_sig,
	[A_CLONE] = p_clone,	   [A_FCNTLARG] = p_fcntlarg,
	[A_STATXFL] = p_statxfl,   [A_FUTEXOP] = p_futexop,
	[A_FUTEX3] = p_futex3,	   [A_FUTEX5] = p_futex5,
	[A_SOCKTYPE] = p_socktype, [A_SOCKPROTO] = p_sockproto,
	[A_SOCKOPT] = p_sockopt,   [A_IOCTL] = p_ioctl,
	[A_IOCTLARG] = p_ioctlarg, [A_CLOCKID] = p_clockid,
};

/* -X: the raw value of the types whose printers print constants of their own as
 * one (the table types' printers, and socket types' and statx flags' parts, follow
 * -X themselves) */
enum { RS_NONE = 0, RS_HEX, RS_HEX32, RS_DEC32, RS_DEC32_NESTED /* its parts follow -X too */ };
static const unsigned char restyled[A_COUNT] = {
	[A_OFLAGS] = RS_HEX32, [A_MMAPFL] = RS_HEX,	     [A_FUTEXOP] = RS_HEX32,
	[A_IOCTL] = RS_HEX32,  [A_CLOCKID] = RS_HEX32,	     [A_DIRFD] = RS_DEC32,
	[A_SIG] = RS_DEC32,    [A_IOPRIO] = RS_DEC32_NESTED,
};

void scalar_arg(struct sbuf *b, int type, int xlat, const uint64_t *args, int i)
{
	scalar_printer *p = type >= 0 && type < A_COUNT ? printers[type] : NULL;
	const struct xlat *x = xlat > 0 && xlat < XL_COUNT ? xlat_by_id[xlat] : NULL;
	int rs = p ? restyled[type] : RS_NONE, style;
	size_t at = b->len;

	/* a table type without its table (a schema error the unit test catches): hex */
	if (!p || (!x && type >= A_XVAL && type <= A_FLAGS32))
		p = p_hex;
	if (rs == RS_NONE) {
		p(b, x, args, i);
		return;
	}
	style = xlat_get_style();
	if (rs != RS_DEC32_NESTED)
		xlat_set_style(XLAT_ABBREV);
	p(b, x, args, i);
	xlat_set_style(style);
	xlat_restyle(b, at,
		     rs == RS_HEX     ? args[i]
		     : rs == RS_HEX32 ? (uint32_t)args[i]
				      : (uint64_t)(int64_t)(int32_t)args[i],
		     rs >= RS_DEC32 ? XLAT_DEC : XLAT_HEX);
}

unsigned scalar_argmask(const struct sysdesc *d, const uint64_t *args)
{
	unsigned m = (1U << d->nargs) - 1, op;

	for (int i = 0; i < d->nargs; i++)
		if (d->a[i].type == A_SKIP)
			m &= ~(1U << i);
	switch (d->form) {
	case S_OPEN:
		/* the mode is the last argument, after the flags */
		if (!(args[d->nargs - 2] & (O_CREAT | K_O_TMPFILE_IN)))
			m &= ~(1U << (d->nargs - 1));
		break;
	case S_FCNTL:
		if (!fcntl_has_arg((unsigned)args[1]))
			m &= ~4U;
		break;
	case S_FUTEX:
		op = args[1] & 0x7f;
		m &= op < NF(futex_args) ? futex_args[op] : 0x3f;
		break;
	case S_PRCTL:
		m &= prctl_argmask(args[0]);
		break;
	case S_IOCTL:
		if (xlat_name(&xlat_ioctl_noarg, (unsigned)args[1]))
			m &= ~4U;
		break;
	case S_MREMAP:
		if ((args[3] & (MREMAP_MAYMOVE | MREMAP_FIXED)) != (MREMAP_MAYMOVE | MREMAP_FIXED))
			m &= ~0x10U;
		break;
	}
	return m;
}

int scalar_ret(struct sbuf *b, const struct sysdesc *d, const uint64_t *args, int64_t ret)
{
	if (d && d->ret == R_TIMEOUT && !ret) {
		sb_puts(b, "0 (Timeout)");
		return 1;
	}
	if (d && d->ret == R_OCT) {
		sb_printf(b, "%#03llo", (unsigned long long)ret);
		return 1;
	}
	if (d && d->ret == R_IOPRIO) {
		sb_printf(b, "%lld (", (long long)ret);
		print_ioprio(b, (unsigned)ret);
		sb_putc(b, ')');
		return 1;
	}
	if (d && d->ret == R_PRCTL && args)
		return prctl_ret(b, args[0], ret);
	if (!d || d->ret != R_FCNTL || !args)
		return 0;
	return fcntl_ret(b, (unsigned)args[1], ret);
}
