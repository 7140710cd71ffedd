/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: scalar syscall arguments (flags, commands, numbers) as strace 6.1
 * prints them on x86_64; the tables follow the order of its src/xlat files,
 * which decides the order of the names printed.
 */
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "decode/scalar.h"
#include "decode/struct.h"

#define NF(a) (sizeof(a) / sizeof(a[0]))

/* the kernel's values where glibc's differ (O_LARGEFILE is 0 in x86_64's glibc) */
#define K_O_LARGEFILE	  0100000
#define K_O_TMPFILE_IN	  020000000 /* __O_TMPFILE, without O_DIRECTORY */
#define K_F_GETOWNER_UIDS 17
#define K_F_CANCELLK	  1029
#define K_FICLONE	  0x40049409 /* _IOW(0x94, 9, int) */

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

void decode_signal(struct sbuf *b, int sig)
{
	const char *a;

	if (sig == 0) {
		sb_puts(b, "0");
		return;
	}
	/* strace's names, by the kernel's numbers: glibc's SIGRTMIN (34)
	 * leaves it 32 and 33 for itself, the kernel's does not */
	if (sig >= 32 && sig <= 64) {
		if (sig == 32)
			sb_puts(b, "SIGRTMIN");
		else
			sb_printf(b, "SIGRT_%d", sig - 32);
		return;
	}
	a = sig_abbrev(sig);
	if (a)
		sb_printf(b, "SIG%s", a);
	else
		sb_printf(b, "%d", sig);
}

/* open_mode_flags.in: O_SYNC before __O_SYNC and O_DSYNC, O_TMPFILE before O_DIRECTORY */
static const struct flag oflags[] = {
	F(O_CREAT),
	F(O_EXCL),
	F(O_NOCTTY),
	F(O_TRUNC),
	F(O_APPEND),
	F(O_NONBLOCK),
	F(O_SYNC),
	{ 04000000, "__O_SYNC" },
	F(O_DSYNC),
	F(O_DIRECT),
	{ K_O_LARGEFILE, "O_LARGEFILE" },
	F(O_NOFOLLOW),
	F(O_NOATIME),
	F(O_CLOEXEC),
	F(O_PATH),
	{ K_O_TMPFILE_IN | O_DIRECTORY, "O_TMPFILE" },
	{ K_O_TMPFILE_IN, "__O_TMPFILE" },
	F(O_DIRECTORY),
	{ FASYNC, "FASYNC" },
};

/* strace's tprint_open_modes: the access mode's name, then the flags */
static void print_oflags(struct sbuf *b, unsigned long v)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };

	sb_puts(b, acc[v & O_ACCMODE]);
	v &= ~(unsigned long)O_ACCMODE;
	if (v) {
		sb_putc(b, '|');
		print_flags(b, v, oflags, NF(oflags), NULL);
	}
}

static const struct flag prots[] = {
	F(PROT_READ), F(PROT_WRITE), F(PROT_EXEC), F(PROT_GROWSDOWN), F(PROT_GROWSUP),
};

static const struct flag mmapfl[] = {
	F(MAP_SHARED_VALIDATE), F(MAP_SHARED), F(MAP_PRIVATE),	 F(MAP_FIXED),
	F(MAP_ANONYMOUS),	F(MAP_32BIT),  F(MAP_GROWSDOWN), F(MAP_DENYWRITE),
	F(MAP_EXECUTABLE),	F(MAP_LOCKED), F(MAP_NORESERVE), F(MAP_POPULATE),
	F(MAP_NONBLOCK),	F(MAP_STACK),  F(MAP_HUGETLB),	 F(MAP_SYNC),
	F(MAP_FIXED_NOREPLACE),
};

/* clone_flags.in: no CLONE_DETACHED, which the kernel ignores */
static const struct flag clonefl[] = {
	F(CLONE_VM),
	F(CLONE_FS),
	F(CLONE_FILES),
	F(CLONE_SIGHAND),
	F(CLONE_PIDFD),
	F(CLONE_PTRACE),
	F(CLONE_VFORK),
	F(CLONE_PARENT),
	F(CLONE_THREAD),
	F(CLONE_NEWNS),
	F(CLONE_SYSVSEM),
	F(CLONE_SETTLS),
	F(CLONE_PARENT_SETTID),
	F(CLONE_CHILD_CLEARTID),
	F(CLONE_UNTRACED),
	F(CLONE_CHILD_SETTID),
	F(CLONE_NEWCGROUP),
	F(CLONE_NEWUTS),
	F(CLONE_NEWIPC),
	F(CLONE_NEWUSER),
	F(CLONE_NEWPID),
	F(CLONE_NEWNET),
	F(CLONE_IO),
};

static const struct flag accessfl[] = { F(R_OK), F(W_OK), F(X_OK) };

static const struct flag atfl[] = {
	F(AT_SYMLINK_NOFOLLOW), F(AT_REMOVEDIR),	F(AT_SYMLINK_FOLLOW),  F(AT_NO_AUTOMOUNT),
	F(AT_EMPTY_PATH),	F(AT_STATX_FORCE_SYNC), F(AT_STATX_DONT_SYNC), F(AT_RECURSIVE),
};

/* at_flags.in: the flags statx prints after its sync type */
static const struct flag statx_atfl[] = {
	F(AT_SYMLINK_NOFOLLOW), F(AT_REMOVEDIR),  F(AT_SYMLINK_FOLLOW),
	F(AT_NO_AUTOMOUNT),	F(AT_EMPTY_PATH), F(AT_RECURSIVE),
};

static const struct flag statx_sync[] = {
	F(AT_STATX_FORCE_SYNC),
	F(AT_STATX_DONT_SYNC),
};

static const struct flag waitfl[] = {
	F(WNOHANG), F(WUNTRACED),   F(WCONTINUED), F(WEXITED),
	F(WNOWAIT), F(__WNOTHREAD), F(__WALL),	   F(__WCLONE),
};

static const char *const futex_ops[] = {
	"FUTEX_WAIT",		"FUTEX_WAKE",	     "FUTEX_FD",	  "FUTEX_REQUEUE",
	"FUTEX_CMP_REQUEUE",	"FUTEX_WAKE_OP",     "FUTEX_LOCK_PI",	  "FUTEX_UNLOCK_PI",
	"FUTEX_TRYLOCK_PI",	"FUTEX_WAIT_BITSET", "FUTEX_WAKE_BITSET", "FUTEX_WAIT_REQUEUE_PI",
	"FUTEX_CMP_REQUEUE_PI", "FUTEX_LOCK_PI2",
};

/* The arguments each futex op prints (strace's do_futex), by op & 127; others: all six. */
static const unsigned char futex_args[] = {
	[FUTEX_WAIT] = 0x0f,	       [FUTEX_WAKE] = 0x07,	   [FUTEX_FD] = 0x07,
	[FUTEX_REQUEUE] = 0x1f,	       [FUTEX_CMP_REQUEUE] = 0x3f, [FUTEX_WAKE_OP] = 0x3f,
	[FUTEX_LOCK_PI] = 0x0b,	       [FUTEX_UNLOCK_PI] = 0x03,   [FUTEX_TRYLOCK_PI] = 0x03,
	[FUTEX_WAIT_BITSET] = 0x2f,    [FUTEX_WAKE_BITSET] = 0x27, [FUTEX_WAIT_REQUEUE_PI] = 0x1f,
	[FUTEX_CMP_REQUEUE_PI] = 0x3f, [FUTEX_LOCK_PI2] = 0x0b,
};

static const char *const futex_wakeops[] = {
	"FUTEX_OP_SET", "FUTEX_OP_ADD", "FUTEX_OP_OR", "FUTEX_OP_ANDN", "FUTEX_OP_XOR",
};

static const char *const futex_cmps[] = {
	"FUTEX_OP_CMP_EQ", "FUTEX_OP_CMP_NE", "FUTEX_OP_CMP_LT",
	"FUTEX_OP_CMP_LE", "FUTEX_OP_CMP_GT", "FUTEX_OP_CMP_GE",
};

static const char *const rlimits[] = {
	"RLIMIT_CPU",	   "RLIMIT_FSIZE", "RLIMIT_DATA",   "RLIMIT_STACK",
	"RLIMIT_CORE",	   "RLIMIT_RSS",   "RLIMIT_NPROC",  "RLIMIT_NOFILE",
	"RLIMIT_MEMLOCK",  "RLIMIT_AS",	   "RLIMIT_LOCKS",  "RLIMIT_SIGPENDING",
	"RLIMIT_MSGQUEUE", "RLIMIT_NICE",  "RLIMIT_RTPRIO", "RLIMIT_RTTIME",
};

static const struct flag socktypes[] = {
	F(SOCK_STREAM),	   F(SOCK_DGRAM), F(SOCK_RAW),	  F(SOCK_RDM),
	F(SOCK_SEQPACKET), F(SOCK_DCCP),  F(SOCK_PACKET),
};

static const struct flag sockfl[] = { F(SOCK_CLOEXEC), F(SOCK_NONBLOCK) };

static const struct flag archprctl[] = {
	{ 0x1001, "ARCH_SET_GS" },	  { 0x1002, "ARCH_SET_FS" },
	{ 0x1003, "ARCH_GET_FS" },	  { 0x1004, "ARCH_GET_GS" },
	{ 0x1011, "ARCH_GET_CPUID" },	  { 0x1012, "ARCH_SET_CPUID" },
	{ 0x3001, "ARCH_CET_STATUS" },	  { 0x5001, "ARCH_SHSTK_ENABLE" },
	{ 0x5002, "ARCH_SHSTK_DISABLE" }, { 0x5003, "ARCH_SHSTK_LOCK" },
	{ 0x5005, "ARCH_SHSTK_STATUS" },
};

static const struct flag fcntlcmds[] = {
	F(F_DUPFD),
	F(F_GETFD),
	F(F_SETFD),
	F(F_GETFL),
	F(F_SETFL),
	F(F_GETLK),
	F(F_SETLK),
	F(F_SETLKW),
	F(F_SETOWN),
	F(F_GETOWN),
	F(F_SETSIG),
	F(F_GETSIG),
	F(F_SETOWN_EX),
	F(F_GETOWN_EX),
	{ K_F_GETOWNER_UIDS, "F_GETOWNER_UIDS" },
	F(F_OFD_GETLK),
	F(F_OFD_SETLK),
	F(F_OFD_SETLKW),
	F(F_SETLEASE),
	F(F_GETLEASE),
	F(F_NOTIFY),
	{ K_F_CANCELLK, "F_CANCELLK" },
	F(F_DUPFD_CLOEXEC),
	F(F_SETPIPE_SZ),
	F(F_GETPIPE_SZ),
	F(F_ADD_SEALS),
	F(F_GET_SEALS),
};

static const struct flag fdflags[] = { F(FD_CLOEXEC) };

static const struct flag fseals[] = {
	F(F_SEAL_SEAL), F(F_SEAL_SHRINK), F(F_SEAL_GROW), F(F_SEAL_WRITE), F(F_SEAL_FUTURE_WRITE),
};

static const struct flag notifyfl[] = {
	F(DN_ACCESS), F(DN_MODIFY), F(DN_CREATE),    F(DN_DELETE),
	F(DN_RENAME), F(DN_ATTRIB), F(DN_MULTISHOT),
};

static const struct flag lockfcmds[] = {
	F(F_RDLCK), F(F_WRLCK), F(F_UNLCK), F(F_EXLCK), F(F_SHLCK),
};

/* The command takes no third argument (strace prints none). */
static int fcntl_noarg(unsigned cmd)
{
	switch (cmd) {
	case F_GETFD:
	case F_GETFL:
	case F_GETOWN:
	case F_GETSIG:
	case F_GETLEASE:
	case F_GETPIPE_SZ:
	case F_GET_SEALS:
		return 1;
	}
	return 0;
}

/* strace's print_fcntl: the third argument by the command */
static void print_fcntl_arg(struct sbuf *b, unsigned cmd, uint64_t v)
{
	switch (cmd) {
	case F_SETFD:
		fmt_flags_dflt(b, v, fdflags, NF(fdflags), "FD_???");
		break;
	case F_SETOWN:
	case F_SETPIPE_SZ:
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		sb_dec(b, (int64_t)v);
		break;
	case F_SETFL:
		print_oflags(b, v & 0xffffffff);
		break;
	case F_NOTIFY:
		fmt_flags_dflt(b, v, notifyfl, NF(notifyfl), "DN_???");
		break;
	case F_SETLEASE:
		fmt_xval(b, v, lockfcmds, NF(lockfcmds), "F_???");
		break;
	case F_ADD_SEALS:
		fmt_flags_dflt(b, v, fseals, NF(fseals), "F_SEAL_???");
		break;
	case F_SETSIG:
		decode_signal(b, (int)v);
		break;
	case F_SETLK:
	case F_SETLKW:
	case F_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
	case F_OFD_GETLK:
	case F_SETOWN_EX:
	case F_GETOWN_EX:
		/* structures not captured: the pointer */
		if (!v)
			sb_puts(b, "NULL");
		else
			sb_xhex(b, v);
		break;
	default:
		sb_xhex(b, v);
		break;
	}
}

static const struct flag inet_protos[] = {
	{ 0, "IPPROTO_IP" },	   { 1, "IPPROTO_ICMP" },	{ 2, "IPPROTO_IGMP" },
	{ 4, "IPPROTO_IPIP" },	   { 6, "IPPROTO_TCP" },	{ 8, "IPPROTO_EGP" },
	{ 12, "IPPROTO_PUP" },	   { 17, "IPPROTO_UDP" },	{ 22, "IPPROTO_IDP" },
	{ 29, "IPPROTO_TP" },	   { 33, "IPPROTO_DCCP" },	{ 41, "IPPROTO_IPV6" },
	{ 43, "IPPROTO_ROUTING" }, { 44, "IPPROTO_FRAGMENT" },	{ 46, "IPPROTO_RSVP" },
	{ 47, "IPPROTO_GRE" },	   { 50, "IPPROTO_ESP" },	{ 51, "IPPROTO_AH" },
	{ 58, "IPPROTO_ICMPV6" },  { 59, "IPPROTO_NONE" },	{ 60, "IPPROTO_DSTOPTS" },
	{ 92, "IPPROTO_MTP" },	   { 94, "IPPROTO_BEETPH" },	{ 98, "IPPROTO_ENCAP" },
	{ 103, "IPPROTO_PIM" },	   { 108, "IPPROTO_COMP" },	{ 115, "IPPROTO_L2TP" },
	{ 132, "IPPROTO_SCTP" },   { 135, "IPPROTO_MH" },	{ 136, "IPPROTO_UDPLITE" },
	{ 137, "IPPROTO_MPLS" },   { 143, "IPPROTO_ETHERNET" }, { 255, "IPPROTO_RAW" },
	{ 262, "IPPROTO_MPTCP" },
};

static const struct flag netlink_protos[] = {
	{ 0, "NETLINK_ROUTE" },	      { 1, "NETLINK_UNUSED" },
	{ 2, "NETLINK_USERSOCK" },    { 3, "NETLINK_FIREWALL" },
	{ 4, "NETLINK_SOCK_DIAG" },   { 5, "NETLINK_NFLOG" },
	{ 6, "NETLINK_XFRM" },	      { 7, "NETLINK_SELINUX" },
	{ 8, "NETLINK_ISCSI" },	      { 9, "NETLINK_AUDIT" },
	{ 10, "NETLINK_FIB_LOOKUP" }, { 11, "NETLINK_CONNECTOR" },
	{ 12, "NETLINK_NETFILTER" },  { 13, "NETLINK_IP6_FW" },
	{ 14, "NETLINK_DNRTMSG" },    { 15, "NETLINK_KOBJECT_UEVENT" },
	{ 16, "NETLINK_GENERIC" },    { 18, "NETLINK_SCSITRANSPORT" },
	{ 19, "NETLINK_ECRYPTFS" },   { 20, "NETLINK_RDMA" },
	{ 21, "NETLINK_CRYPTO" },     { 22, "NETLINK_SMC" },
};

/* strace's socket(): the protocol by the domain; others' unsigned */
static void print_sock_proto(struct sbuf *b, uint64_t domain, uint64_t v)
{
	if (domain == AF_INET || domain == AF_INET6)
		fmt_xval(b, v, inet_protos, NF(inet_protos), "IPPROTO_???");
	else if (domain == AF_NETLINK)
		fmt_xval(b, v, netlink_protos, NF(netlink_protos), "NETLINK_???");
	else if (domain == AF_PACKET)
		fmt_packet_proto(b, (unsigned)v);
	else
		sb_udec(b, (unsigned)v, 0);
}

/* strace's tprint_sock_type: the type's name, then the flags */
static void print_sock_type(struct sbuf *b, unsigned v)
{
	for (size_t i = 0; i < NF(socktypes); i++) {
		if (socktypes[i].v == (v & 0xf)) {
			sb_puts(b, socktypes[i].n);
			v &= ~0xfU;
			if (!v)
				return;
			sb_putc(b, '|');
			break;
		}
	}
	fmt_flags_dflt(b, v, sockfl, NF(sockfl), "SOCK_???");
}

/* strace's FUTEX_WAKE_OP val3: FUTEX_OP_ADD<<28|0x1<<12|FUTEX_OP_CMP_GT<<24|0x1 */
static void print_futex_wakeop(struct sbuf *b, unsigned v)
{
	unsigned op = (v >> 28) & 7, cmp = (v >> 24) & 0xf;

	if ((v >> 28) & 8)
		sb_puts(b, "FUTEX_OP_OPARG_SHIFT<<28|");
	if (op < NF(futex_wakeops))
		sb_printf(b, "%s<<28", futex_wakeops[op]);
	else
		sb_printf(b, "%#x<<28 /* FUTEX_OP_??? */", op);
	sb_putc(b, '|');
	sb_xhex(b, (v >> 12) & 0xfff);
	sb_puts(b, "<<12|");
	if (cmp < NF(futex_cmps))
		sb_printf(b, "%s<<24", futex_cmps[cmp]);
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

	if ((v & ~0x1ffUL) || op >= NF(futex_ops) || ((v & FUTEX_CLOCK_REALTIME) && !clock_ok)) {
		sb_xhex(b, v & 0xffffffff);
		sb_puts(b, " /* FUTEX_??? */");
		return;
	}
	sb_puts(b, futex_ops[op]);
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

/* x86_64's clone(flags, stack, parent_tid, child_tid, tls), as strace's SYS_FUNC(clone) */
static void print_clone(struct sbuf *b, const uint64_t *args)
{
	uint64_t flags = args[0] & ~0xffUL;
	int sig = (int)(args[0] & 0xff);

	sb_puts(b, "child_stack=");
	print_ptr(b, args[1]);
	sb_puts(b, ", flags=");
	if (flags) {
		fmt_flags_dflt(b, flags, clonefl, NF(clonefl), "CLONE_???");
		if (sig) {
			sb_putc(b, '|');
			decode_signal(b, sig);
		}
	} else {
		decode_signal(b, sig);
	}
	if (flags & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		sb_puts(b, ", parent_tid=");
		print_ptr(b, args[2]);
	}
	if (flags & CLONE_SETTLS) {
		sb_puts(b, ", tls=");
		print_ptr(b, args[4]);
	}
	if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		sb_puts(b, ", child_tidptr=");
		print_ptr(b, args[3]);
	}
}

static const struct flag fadvices[] = {
	F(POSIX_FADV_NORMAL),	F(POSIX_FADV_RANDOM),	F(POSIX_FADV_SEQUENTIAL),
	F(POSIX_FADV_WILLNEED), F(POSIX_FADV_DONTNEED), F(POSIX_FADV_NOREUSE),
};

static const struct flag shuthows[] = { F(SHUT_RD), F(SHUT_WR), F(SHUT_RDWR) };

static const struct flag madvices[] = {
	{ 0, "MADV_NORMAL" },		{ 1, "MADV_RANDOM" },	      { 2, "MADV_SEQUENTIAL" },
	{ 3, "MADV_WILLNEED" },		{ 4, "MADV_DONTNEED" },	      { 8, "MADV_FREE" },
	{ 9, "MADV_REMOVE" },		{ 10, "MADV_DONTFORK" },      { 11, "MADV_DOFORK" },
	{ 12, "MADV_MERGEABLE" },	{ 13, "MADV_UNMERGEABLE" },   { 14, "MADV_HUGEPAGE" },
	{ 15, "MADV_NOHUGEPAGE" },	{ 16, "MADV_DONTDUMP" },      { 17, "MADV_DODUMP" },
	{ 18, "MADV_WIPEONFORK" },	{ 19, "MADV_KEEPONFORK" },    { 20, "MADV_COLD" },
	{ 21, "MADV_PAGEOUT" },		{ 22, "MADV_POPULATE_READ" }, { 23, "MADV_POPULATE_WRITE" },
	{ 24, "MADV_DONTNEED_LOCKED" }, { 25, "MADV_COLLAPSE" },      { 100, "MADV_HWPOISON" },
	{ 101, "MADV_SOFT_OFFLINE" },
};

/* Types printed as one name of a table (strace's printxval), else hex and a comment. */
static const struct {
	unsigned char type;
	const struct flag *fl;
	size_t n;
	const char *dflt;
} xvals[] = {
	{ A_FADVICE, fadvices, NF(fadvices), "POSIX_FADV_???" },
	{ A_SHUTHOW, shuthows, NF(shuthows), "SHUT_???" },
	{ A_MADVICE, madvices, NF(madvices), "MADV_???" },
	{ A_FCNTL, fcntlcmds, NF(fcntlcmds), "F_???" },
	{ A_ARCHPRCTL, archprctl, NF(archprctl), "ARCH_???" },
};

static const struct flag grndfl[] = { F(GRND_NONBLOCK), F(GRND_RANDOM), F(GRND_INSECURE) };
static const struct flag efdfl[] = { F(EFD_SEMAPHORE), F(EFD_CLOEXEC), F(EFD_NONBLOCK) };
static const struct flag tfdfl[] = {
	F(TFD_TIMER_ABSTIME),
	{ 2, "TFD_TIMER_CANCEL_ON_SET" },
	F(TFD_CLOEXEC),
	F(TFD_NONBLOCK),
};
static const struct flag infl[] = { F(IN_NONBLOCK), F(IN_CLOEXEC) };
static const struct flag epollfl[] = { F(EPOLL_CLOEXEC) };
static const struct flag mfdfl[] = { F(MFD_CLOEXEC), F(MFD_ALLOW_SEALING), F(MFD_HUGETLB) };
static const struct flag msyncfl[] = { F(MS_SYNC), F(MS_ASYNC), F(MS_INVALIDATE) };
static const struct flag splicefl[] = {
	{ 1, "SPLICE_F_MOVE" },
	{ 2, "SPLICE_F_NONBLOCK" },
	{ 4, "SPLICE_F_MORE" },
	{ 8, "SPLICE_F_GIFT" },
};
static const struct flag fallocfl[] = {
	F(FALLOC_FL_KEEP_SIZE),	     F(FALLOC_FL_PUNCH_HOLE), F(FALLOC_FL_NO_HIDE_STALE),
	F(FALLOC_FL_COLLAPSE_RANGE), F(FALLOC_FL_ZERO_RANGE), F(FALLOC_FL_INSERT_RANGE),
	F(FALLOC_FL_UNSHARE_RANGE),
};
static const struct flag xattrfl[] = { F(XATTR_CREATE), F(XATTR_REPLACE) };
static const struct flag mclfl[] = { F(MCL_CURRENT), F(MCL_FUTURE), F(MCL_ONFAULT) };
static const struct flag flockops[] = { F(LOCK_SH), F(LOCK_EX), F(LOCK_NB), F(LOCK_UN) };
static const struct flag timerfl[] = { F(TIMER_ABSTIME) };
static const struct flag mremapfl[] = {
	F(MREMAP_MAYMOVE),
	F(MREMAP_FIXED),
	{ 4, "MREMAP_DONTUNMAP" },
};
static const struct flag crangefl[] = { { 2, "CLOSE_RANGE_UNSHARE" },
					{ 4, "CLOSE_RANGE_CLOEXEC" } };
static const struct flag accatfl[] = { F(AT_SYMLINK_NOFOLLOW), F(AT_EACCESS), F(AT_EMPTY_PATH) };

/* Types printed as flags of a table (strace's printflags): 0, or hex and a comment. */
static const struct {
	unsigned char type;
	const struct flag *fl;
	size_t n;
	const char *dflt;
} flagsets[] = {
	{ A_OFLBITS, oflags, NF(oflags), "O_???" },
	{ A_GRNDFL, grndfl, NF(grndfl), "GRND_???" },
	{ A_SOCKFL, sockfl, NF(sockfl), "SOCK_???" },
	{ A_EFDFL, efdfl, NF(efdfl), "EFD_???" },
	{ A_TFDFL, tfdfl, NF(tfdfl), "TFD_???" },
	{ A_INFL, infl, NF(infl), "IN_???" },
	{ A_EPOLLFL, epollfl, NF(epollfl), "EPOLL_???" },
	{ A_MFDFL, mfdfl, NF(mfdfl), "MFD_???" },
	{ A_MSYNCFL, msyncfl, NF(msyncfl), "MS_???" },
	{ A_SPLICEFL, splicefl, NF(splicefl), "SPLICE_F_???" },
	{ A_FALLOCFL, fallocfl, NF(fallocfl), "FALLOC_FL_???" },
	{ A_XATTRFL, xattrfl, NF(xattrfl), "XATTR_???" },
	{ A_MCLFL, mclfl, NF(mclfl), "MCL_???" },
	{ A_FLOCKOP, flockops, NF(flockops), "LOCK_???" },
	{ A_TIMERFL, timerfl, NF(timerfl), "TIMER_???" },
	{ A_ACCATFL, accatfl, NF(accatfl), "AT_???" },
	{ A_MREMAPFL, mremapfl, NF(mremapfl), "MREMAP_???" },
	{ A_CRANGEFL, crangefl, NF(crangefl), "CLOSE_RANGE_???" },
};

/* The types of the tables above; 0: not one of them. */
static int print_table(struct sbuf *b, int type, uint64_t v)
{
	size_t i;

	for (i = 0; i < NF(xvals); i++) {
		if (xvals[i].type == type) {
			fmt_xval(b, v, xvals[i].fl, xvals[i].n, xvals[i].dflt);
			return 1;
		}
	}
	for (i = 0; i < NF(flagsets); i++) {
		if (flagsets[i].type == type) {
			fmt_flags_dflt(b, v, flagsets[i].fl, flagsets[i].n, flagsets[i].dflt);
			return 1;
		}
	}
	return 0;
}

/* ioctl's third argument: FICLONE's is the source fd */
static void print_ioctl_arg(struct sbuf *b, uint64_t cmd, uint64_t v)
{
	if ((unsigned)cmd == K_FICLONE)
		sb_dec(b, (int)v);
	else
		sb_xhex(b, v);
}

void scalar_arg(struct sbuf *b, int type, const uint64_t *args, int i)
{
	uint64_t v = args[i];
	const char *s;

	if (print_table(b, type, v))
		return;
	switch (type) {
	case A_INT:
	case A_FD:
	case A_PID:
		sb_dec(b, (int)v);
		break;
	case A_UINT:
		sb_udec(b, (unsigned)v, 0);
		break;
	case A_LONG:
		sb_dec(b, (long)v);
		break;
	case A_ULONG:
		sb_udec(b, v, 0);
		break;
	case A_PTR:
	case A_OPTVAL:
	case A_STR:
		print_ptr(b, v);
		break;
	case A_DIRFD:
		if ((int)v == AT_FDCWD)
			sb_puts(b, "AT_FDCWD");
		else
			sb_dec(b, (int)v);
		break;
	case A_OFLAGS:
		print_oflags(b, v & 0xffffffff);
		break;
	case A_MODE:
		sb_printf(b, "%#03lo", (unsigned long)(v & 0xffffffff));
		break;
	case A_PROT:
		print_flags(b, v, prots, NF(prots), "PROT_NONE");
		break;
	case A_MMAPFL:
		if ((v & MAP_SHARED_VALIDATE) == MAP_SHARED_VALIDATE) {
			sb_puts(b, "MAP_SHARED_VALIDATE");
			v &= ~(uint64_t)MAP_SHARED_VALIDATE;
		} else if (v & MAP_SHARED) {
			sb_puts(b, "MAP_SHARED");
			v &= ~(uint64_t)MAP_SHARED;
		} else if (v & MAP_PRIVATE) {
			sb_puts(b, "MAP_PRIVATE");
			v &= ~(uint64_t)MAP_PRIVATE;
		} else {
			sb_puts(b, "0");
		}
		if (v) {
			sb_putc(b, '|');
			print_flags(b, v, mmapfl + 3, NF(mmapfl) - 3, NULL);
		}
		break;
	case A_SIG:
		decode_signal(b, (int)v);
		break;
	case A_CLONE:
		print_clone(b, args);
		break;
	case A_FCNTLARG:
		print_fcntl_arg(b, (unsigned)args[1], v);
		break;
	case A_ACCESS:
		print_flags(b, v, accessfl, NF(accessfl), "F_OK");
		break;
	case A_ATFL:
		print_flags(b, v & 0xffffffff, atfl, NF(atfl), "0");
		break;
	case A_STATXFL:
		/* the sync type's value 0 has a name, printed first */
		print_flags(b, v & AT_STATX_SYNC_TYPE, statx_sync, NF(statx_sync),
			    "AT_STATX_SYNC_AS_STAT");
		v &= 0xffffffff & ~(uint64_t)AT_STATX_SYNC_TYPE;
		if (v) {
			sb_putc(b, '|');
			print_flags(b, v, statx_atfl, NF(statx_atfl), NULL);
		}
		break;
	case A_STATXMASK:
		fmt_statx_mask(b, (unsigned)v);
		break;
	case A_WAITOPT:
		print_flags(b, v & 0xffffffff, waitfl, NF(waitfl), "0");
		break;
	case A_SIGHOW:
		if (v == SIG_BLOCK)
			sb_puts(b, "SIG_BLOCK");
		else if (v == SIG_UNBLOCK)
			sb_puts(b, "SIG_UNBLOCK");
		else if (v == SIG_SETMASK)
			sb_puts(b, "SIG_SETMASK");
		else
			sb_xhex(b, v);
		break;
	case A_WHENCE:
		if (v == SEEK_SET)
			sb_puts(b, "SEEK_SET");
		else if (v == SEEK_CUR)
			sb_puts(b, "SEEK_CUR");
		else if (v == SEEK_END)
			sb_puts(b, "SEEK_END");
		else if (v == SEEK_DATA)
			sb_puts(b, "SEEK_DATA");
		else if (v == SEEK_HOLE)
			sb_puts(b, "SEEK_HOLE");
		else
			sb_udec(b, v, 0);
		break;
	case A_FUTEXOP:
		print_futex_op(b, v);
		break;
	case A_FUTEX3:
		switch (args[1] & 0x7f) {
		case FUTEX_REQUEUE:
		case FUTEX_CMP_REQUEUE:
		case FUTEX_CMP_REQUEUE_PI:
		case FUTEX_WAKE_OP:
			sb_udec(b, (unsigned)v, 0); /* val2 */
			break;
		default:
			print_ptr(b, v); /* the timeout, not captured */
		}
		break;
	case A_FUTEX5:
		switch (args[1] & 0x7f) {
		case FUTEX_WAIT_BITSET:
		case FUTEX_WAKE_BITSET:
			if ((unsigned)v == FUTEX_BITSET_MATCH_ANY)
				sb_puts(b, "FUTEX_BITSET_MATCH_ANY");
			else
				sb_xhex(b, (unsigned)v);
			break;
		case FUTEX_CMP_REQUEUE:
		case FUTEX_CMP_REQUEUE_PI:
			sb_udec(b, (unsigned)v, 0);
			break;
		case FUTEX_WAKE_OP:
			print_futex_wakeop(b, (unsigned)v);
			break;
		default:
			sb_xhex(b, (unsigned)v);
		}
		break;
	case A_SOCKDOM:
		fmt_addrfam(b, (unsigned)v);
		break;
	case A_SOCKTYPE:
		print_sock_type(b, (unsigned)v);
		break;
	case A_SOCKPROTO:
		print_sock_proto(b, args[0], v);
		break;
	case A_SOCKOPT:
		fmt_sockopt_level_name(b, (int)v, i < 5 ? (int)args[i + 1] : 0);
		break;
	case A_MSGFL:
		fmt_msg_flags(b, (unsigned)v);
		break;
	case A_RLIMIT:
		if (v < NF(rlimits))
			sb_puts(b, rlimits[v]);
		else
			sb_printf(b, "%#x /* RLIMIT_??? */", (unsigned)v);
		break;
	case A_IOCTL:
		s = name_ioctl((unsigned)v);
		if (s) {
			sb_puts(b, s);
		} else {
			/* strace's form of a command it has no name for */
			static const char *const dirs[] = { "_IOC_NONE", "_IOC_WRITE", "_IOC_READ",
							    "_IOC_READ|_IOC_WRITE" };
			unsigned int c = (unsigned)v;

			sb_printf(b, "_IOC(%s, %#x, %#x, %#x)", dirs[(c >> 30) & 3],
				  (c >> 8) & 0xff, c & 0xff, (c >> 16) & 0x3fff);
		}
		break;
	case A_IOCTLARG:
		print_ioctl_arg(b, args[1], v);
		break;
	case A_EPOLLOP:
		fmt_epoll_ctl_op(b, (int)v);
		break;
	case A_CLOCKID:
		fmt_clockid(b, (int)v);
		break;
	case A_HEX:
	default:
		sb_xhex(b, v);
		break;
	}
}

unsigned scalar_argmask(const struct sysdesc *d, const uint64_t *args)
{
	unsigned m = (1U << d->nargs) - 1, op;

	for (int i = 0; i < d->nargs; i++)
		if (d->a[i] == A_SKIP)
			m &= ~(1U << i);
	switch (d->form) {
	case S_OPEN:
		/* the mode is the last argument, after the flags */
		if (!(args[d->nargs - 2] & (O_CREAT | K_O_TMPFILE_IN)))
			m &= ~(1U << (d->nargs - 1));
		break;
	case S_FCNTL:
		if (fcntl_noarg((unsigned)args[1]))
			m &= ~4U;
		break;
	case S_FUTEX:
		op = args[1] & 0x7f;
		m &= op < NF(futex_args) ? futex_args[op] : 0x3f;
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
	unsigned cmd;

	if (d && d->ret == R_TIMEOUT && !ret) {
		sb_puts(b, "0 (Timeout)");
		return 1;
	}
	if (d && d->ret == R_OCT) {
		sb_printf(b, "%#llo", (unsigned long long)ret);
		return 1;
	}
	if (!d || d->ret != R_FCNTL || !args)
		return 0;
	/* strace's print_fcntl: RVAL_HEX with a string in parentheses */
	cmd = (unsigned)args[1];
	switch (cmd) {
	case F_GETFD:
	case F_GET_SEALS:
		if (!ret)
			return 0;
		sb_xhex(b, (uint64_t)ret);
		sb_puts(b, cmd == F_GETFD ? " (flags " : " (seals ");
		if (cmd == F_GETFD)
			print_flags(b, (uint64_t)ret, fdflags, NF(fdflags), NULL);
		else
			print_flags(b, (uint64_t)ret, fseals, NF(fseals), NULL);
		sb_putc(b, ')');
		return 1;
	case F_GETFL:
		sb_xhex(b, (uint64_t)ret);
		sb_puts(b, " (flags ");
		print_oflags(b, (uint64_t)ret & 0xffffffff);
		sb_putc(b, ')');
		return 1;
	case F_GETLEASE:
		sb_xhex(b, (uint64_t)ret);
		for (size_t i = 0; i < NF(lockfcmds); i++)
			if (lockfcmds[i].v == (uint64_t)ret)
				sb_printf(b, " (%s)", lockfcmds[i].n);
		return 1;
	case F_GETSIG:
		if (!ret)
			return 0;
		sb_dec(b, ret);
		sb_puts(b, " (");
		decode_signal(b, (int)ret);
		sb_putc(b, ')');
		return 1;
	}
	return 0;
}
