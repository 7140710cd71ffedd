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
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "cli.h"
#include "decode_caps.h"
#include "fdtable.h"

enum atype {
	A_NONE = 0,
	A_INT,	     /* signed int */
	A_LONG,	     /* signed long */
	A_ULONG,     /* unsigned decimal */
	A_HEX,	     /* 0x... */
	A_PTR,	     /* NULL or 0x... */
	A_FD,	     /* int */
	A_DIRFD,     /* AT_FDCWD or int */
	A_PATH,	     /* captured path string or pointer */
	A_OFLAGS,    /* open flags */
	A_MODE,	     /* octal mode */
	A_PROT,	     /* mmap prot */
	A_MMAPFL,    /* mmap flags */
	A_SIG,	     /* signal number */
	A_CLONEFL,   /* clone flags with the exit signal */
	A_FCNTL,     /* fcntl command */
	A_ACCESS,    /* F_OK / R_OK|W_OK|X_OK */
	A_ATFL,	     /* AT_* flags */
	A_SIGHOW,    /* SIG_BLOCK ... */
	A_WHENCE,    /* SEEK_* */
	A_WAITOPT,   /* WNOHANG ... */
	A_PID,	     /* pid, decimal */
	A_FUTEXOP,   /* FUTEX_WAIT_PRIVATE ... */
	A_SOCKDOM,   /* AF_INET ... */
	A_SOCKTYPE,  /* SOCK_STREAM|SOCK_CLOEXEC ... */
	A_RLIMIT,    /* RLIMIT_STACK ... */
	A_ARCHPRCTL, /* ARCH_SET_FS ... */
};

enum rtype {
	R_INT = 0, /* decimal, -1 ERRNO on failure */
	R_HEX,	   /* 0x... (addresses) */
	R_NONE,	   /* does not return (exit) */
};

struct sysdesc {
	const char *name;
	unsigned char nargs;
	unsigned char ret;
	unsigned char a[6];
};

/* Sorted by name (bsearch). */
static const struct sysdesc sysdescs[] = {
	{ "accept", 3, R_INT, { A_FD, A_PTR, A_PTR } },
	{ "accept4", 4, R_INT, { A_FD, A_PTR, A_PTR, A_HEX } },
	{ "access", 2, R_INT, { A_PATH, A_ACCESS } },
	{ "alarm", 1, R_INT, { A_ULONG } },
	{ "arch_prctl", 2, R_INT, { A_ARCHPRCTL, A_HEX } },
	{ "bind", 3, R_INT, { A_FD, A_PTR, A_INT } },
	{ "brk", 1, R_HEX, { A_PTR } },
	{ "chdir", 1, R_INT, { A_PATH } },
	{ "chmod", 2, R_INT, { A_PATH, A_MODE } },
	{ "chown", 3, R_INT, { A_PATH, A_INT, A_INT } },
	{ "clock_gettime", 2, R_INT, { A_INT, A_PTR } },
	{ "clock_nanosleep", 4, R_INT, { A_INT, A_HEX, A_PTR, A_PTR } },
	{ "clone", 5, R_INT, { A_CLONEFL, A_PTR, A_PTR, A_PTR, A_HEX } },
	{ "clone3", 2, R_INT, { A_PTR, A_ULONG } },
	{ "close", 1, R_INT, { A_FD } },
	{ "close_range", 3, R_INT, { A_FD, A_FD, A_HEX } },
	{ "connect", 3, R_INT, { A_FD, A_PTR, A_INT } },
	{ "creat", 2, R_INT, { A_PATH, A_MODE } },
	{ "dup", 1, R_INT, { A_FD } },
	{ "dup2", 2, R_INT, { A_FD, A_FD } },
	{ "dup3", 3, R_INT, { A_FD, A_FD, A_OFLAGS } },
	{ "epoll_create1", 1, R_INT, { A_HEX } },
	{ "epoll_ctl", 4, R_INT, { A_FD, A_INT, A_FD, A_PTR } },
	{ "epoll_pwait", 6, R_INT, { A_FD, A_PTR, A_INT, A_INT, A_PTR, A_ULONG } },
	{ "epoll_wait", 4, R_INT, { A_FD, A_PTR, A_INT, A_INT } },
	{ "eventfd2", 2, R_INT, { A_ULONG, A_HEX } },
	{ "execve", 3, R_INT, { A_PATH, A_PTR, A_PTR } },
	{ "execveat", 5, R_INT, { A_DIRFD, A_PATH, A_PTR, A_PTR, A_ATFL } },
	{ "exit", 1, R_NONE, { A_INT } },
	{ "exit_group", 1, R_NONE, { A_INT } },
	{ "faccessat", 3, R_INT, { A_DIRFD, A_PATH, A_ACCESS } },
	{ "faccessat2", 4, R_INT, { A_DIRFD, A_PATH, A_ACCESS, A_ATFL } },
	{ "fchdir", 1, R_INT, { A_FD } },
	{ "fchmod", 2, R_INT, { A_FD, A_MODE } },
	{ "fchmodat", 3, R_INT, { A_DIRFD, A_PATH, A_MODE } },
	{ "fchown", 3, R_INT, { A_FD, A_INT, A_INT } },
	{ "fchownat", 5, R_INT, { A_DIRFD, A_PATH, A_INT, A_INT, A_ATFL } },
	{ "fcntl", 3, R_INT, { A_FD, A_FCNTL, A_HEX } },
	{ "fdatasync", 1, R_INT, { A_FD } },
	{ "flock", 2, R_INT, { A_FD, A_INT } },
	{ "fork", 0, R_INT, { 0 } },
	{ "fstat", 2, R_INT, { A_FD, A_PTR } },
	{ "fstatfs", 2, R_INT, { A_FD, A_PTR } },
	{ "fsync", 1, R_INT, { A_FD } },
	{ "ftruncate", 2, R_INT, { A_FD, A_LONG } },
	{ "futex", 6, R_INT, { A_PTR, A_FUTEXOP, A_INT, A_PTR, A_PTR, A_INT } },
	{ "getcwd", 2, R_INT, { A_PTR, A_ULONG } },
	{ "getdents64", 3, R_INT, { A_FD, A_PTR, A_ULONG } },
	{ "getegid", 0, R_INT, { 0 } },
	{ "geteuid", 0, R_INT, { 0 } },
	{ "getgid", 0, R_INT, { 0 } },
	{ "getpgid", 1, R_INT, { A_PID } },
	{ "getpid", 0, R_INT, { 0 } },
	{ "getppid", 0, R_INT, { 0 } },
	{ "getrandom", 3, R_INT, { A_PTR, A_ULONG, A_HEX } },
	{ "getrlimit", 2, R_INT, { A_RLIMIT, A_PTR } },
	{ "getrusage", 2, R_INT, { A_INT, A_PTR } },
	{ "gettid", 0, R_INT, { 0 } },
	{ "getuid", 0, R_INT, { 0 } },
	{ "ioctl", 3, R_INT, { A_FD, A_HEX, A_HEX } },
	{ "kill", 2, R_INT, { A_PID, A_SIG } },
	{ "lchown", 3, R_INT, { A_PATH, A_INT, A_INT } },
	{ "link", 2, R_INT, { A_PATH, A_PATH } },
	{ "linkat", 5, R_INT, { A_DIRFD, A_PATH, A_DIRFD, A_PATH, A_ATFL } },
	{ "listen", 2, R_INT, { A_FD, A_INT } },
	{ "lseek", 3, R_INT, { A_FD, A_LONG, A_WHENCE } },
	{ "lstat", 2, R_INT, { A_PATH, A_PTR } },
	{ "madvise", 3, R_INT, { A_PTR, A_ULONG, A_INT } },
	{ "mkdir", 2, R_INT, { A_PATH, A_MODE } },
	{ "mkdirat", 3, R_INT, { A_DIRFD, A_PATH, A_MODE } },
	{ "mknod", 3, R_INT, { A_PATH, A_MODE, A_HEX } },
	{ "mknodat", 4, R_INT, { A_DIRFD, A_PATH, A_MODE, A_HEX } },
	{ "mmap", 6, R_HEX, { A_PTR, A_ULONG, A_PROT, A_MMAPFL, A_FD, A_HEX } },
	{ "mprotect", 3, R_INT, { A_PTR, A_ULONG, A_PROT } },
	{ "mremap", 5, R_HEX, { A_PTR, A_ULONG, A_ULONG, A_HEX, A_PTR } },
	{ "munmap", 2, R_INT, { A_PTR, A_ULONG } },
	{ "nanosleep", 2, R_INT, { A_PTR, A_PTR } },
	{ "newfstatat", 4, R_INT, { A_DIRFD, A_PATH, A_PTR, A_ATFL } },
	{ "open", 3, R_INT, { A_PATH, A_OFLAGS, A_MODE } },
	{ "openat", 4, R_INT, { A_DIRFD, A_PATH, A_OFLAGS, A_MODE } },
	{ "openat2", 4, R_INT, { A_DIRFD, A_PATH, A_PTR, A_ULONG } },
	{ "pause", 0, R_INT, { 0 } },
	{ "pidfd_open", 2, R_INT, { A_PID, A_HEX } },
	{ "pipe", 1, R_INT, { A_PTR } },
	{ "pipe2", 2, R_INT, { A_PTR, A_OFLAGS } },
	{ "poll", 3, R_INT, { A_PTR, A_ULONG, A_INT } },
	{ "ppoll", 5, R_INT, { A_PTR, A_ULONG, A_PTR, A_PTR, A_ULONG } },
	{ "prctl", 5, R_INT, { A_INT, A_HEX, A_HEX, A_HEX, A_HEX } },
	{ "pread64", 4, R_INT, { A_FD, A_PTR, A_ULONG, A_LONG } },
	{ "prlimit64", 4, R_INT, { A_PID, A_RLIMIT, A_PTR, A_PTR } },
	{ "pselect6", 6, R_INT, { A_INT, A_PTR, A_PTR, A_PTR, A_PTR, A_PTR } },
	{ "pwrite64", 4, R_INT, { A_FD, A_PTR, A_ULONG, A_LONG } },
	{ "read", 3, R_INT, { A_FD, A_PTR, A_ULONG } },
	{ "readlink", 3, R_INT, { A_PATH, A_PTR, A_ULONG } },
	{ "readlinkat", 4, R_INT, { A_DIRFD, A_PATH, A_PTR, A_ULONG } },
	{ "readv", 3, R_INT, { A_FD, A_PTR, A_INT } },
	{ "recvfrom", 6, R_INT, { A_FD, A_PTR, A_ULONG, A_HEX, A_PTR, A_PTR } },
	{ "recvmsg", 3, R_INT, { A_FD, A_PTR, A_HEX } },
	{ "rename", 2, R_INT, { A_PATH, A_PATH } },
	{ "renameat", 4, R_INT, { A_DIRFD, A_PATH, A_DIRFD, A_PATH } },
	{ "renameat2", 5, R_INT, { A_DIRFD, A_PATH, A_DIRFD, A_PATH, A_HEX } },
	{ "rmdir", 1, R_INT, { A_PATH } },
	{ "rseq", 4, R_INT, { A_PTR, A_ULONG, A_HEX, A_HEX } },
	{ "rt_sigaction", 4, R_INT, { A_SIG, A_PTR, A_PTR, A_ULONG } },
	{ "rt_sigprocmask", 4, R_INT, { A_SIGHOW, A_PTR, A_PTR, A_ULONG } },
	{ "rt_sigqueueinfo", 3, R_INT, { A_PID, A_SIG, A_PTR } },
	{ "rt_sigreturn", 0, R_INT, { 0 } },
	{ "rt_sigsuspend", 2, R_INT, { A_PTR, A_ULONG } },
	{ "rt_sigtimedwait", 4, R_INT, { A_PTR, A_PTR, A_PTR, A_ULONG } },
	{ "rt_tgsigqueueinfo", 4, R_INT, { A_PID, A_PID, A_SIG, A_PTR } },
	{ "sched_getaffinity", 3, R_INT, { A_PID, A_ULONG, A_PTR } },
	{ "sched_yield", 0, R_INT, { 0 } },
	{ "sendmsg", 3, R_INT, { A_FD, A_PTR, A_HEX } },
	{ "sendto", 6, R_INT, { A_FD, A_PTR, A_ULONG, A_HEX, A_PTR, A_INT } },
	{ "set_robust_list", 2, R_INT, { A_PTR, A_ULONG } },
	{ "set_tid_address", 1, R_INT, { A_PTR } },
	{ "setgid", 1, R_INT, { A_INT } },
	{ "setpgid", 2, R_INT, { A_PID, A_PID } },
	{ "setsid", 0, R_INT, { 0 } },
	{ "setsockopt", 5, R_INT, { A_FD, A_INT, A_INT, A_PTR, A_INT } },
	{ "setuid", 1, R_INT, { A_INT } },
	{ "sigaltstack", 2, R_INT, { A_PTR, A_PTR } },
	{ "socket", 3, R_INT, { A_SOCKDOM, A_SOCKTYPE, A_INT } },
	{ "socketpair", 4, R_INT, { A_SOCKDOM, A_SOCKTYPE, A_INT, A_PTR } },
	{ "stat", 2, R_INT, { A_PATH, A_PTR } },
	{ "statfs", 2, R_INT, { A_PATH, A_PTR } },
	{ "statx", 5, R_INT, { A_DIRFD, A_PATH, A_ATFL, A_HEX, A_PTR } },
	{ "symlink", 2, R_INT, { A_PATH, A_PATH } },
	{ "symlinkat", 3, R_INT, { A_PATH, A_DIRFD, A_PATH } },
	{ "sysinfo", 1, R_INT, { A_PTR } },
	{ "tgkill", 3, R_INT, { A_PID, A_PID, A_SIG } },
	{ "tkill", 2, R_INT, { A_PID, A_SIG } },
	{ "truncate", 2, R_INT, { A_PATH, A_LONG } },
	{ "umask", 1, R_INT, { A_MODE } },
	{ "uname", 1, R_INT, { A_PTR } },
	{ "unlink", 1, R_INT, { A_PATH } },
	{ "unlinkat", 3, R_INT, { A_DIRFD, A_PATH, A_ATFL } },
	{ "utimensat", 4, R_INT, { A_DIRFD, A_PATH, A_PTR, A_ATFL } },
	{ "vfork", 0, R_INT, { 0 } },
	{ "wait4", 4, R_INT, { A_PID, A_PTR, A_WAITOPT, A_PTR } },
	{ "waitid", 5, R_INT, { A_INT, A_PID, A_PTR, A_WAITOPT, A_PTR } },
	{ "write", 3, R_INT, { A_FD, A_PTR, A_ULONG } },
	{ "writev", 3, R_INT, { A_FD, A_PTR, A_INT } },
};

static int desc_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct sysdesc *)e)->name);
}

/* Looked up once per event id (see cli_ev_name()), not per event. */
const struct sysdesc *sys_desc(const char *name)
{
	return bsearch(name, sysdescs, sizeof(sysdescs) / sizeof(sysdescs[0]), sizeof(sysdescs[0]),
		       desc_cmp);
}

int sys_nargs(const struct sysdesc *d)
{
	return d ? d->nargs : 6;
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

#define NF(a) (sizeof(a) / sizeof(a[0]))

static const struct flag oflags[] = {
	F(O_CREAT),	F(O_EXCL),     F(O_NOCTTY),  F(O_TRUNC),   F(O_APPEND),
	F(O_NONBLOCK),	F(O_SYNC),     F(O_DSYNC),   F(O_ASYNC),   F(O_DIRECT),
	F(O_LARGEFILE), F(O_NOFOLLOW), F(O_NOATIME), F(O_CLOEXEC), { O_TMPFILE, "O_TMPFILE" },
	F(O_DIRECTORY), F(O_PATH),
};

static void print_oflags(struct sbuf *b, unsigned long v)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };

	sb_puts(b, acc[v & O_ACCMODE]);
	v &= ~(unsigned long)O_ACCMODE;
	/* O_TMPFILE includes O_DIRECTORY */
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
	F(CLONE_DETACHED),
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

static const char *const rlimits[] = {
	"RLIMIT_CPU",	   "RLIMIT_FSIZE", "RLIMIT_DATA",   "RLIMIT_STACK",
	"RLIMIT_CORE",	   "RLIMIT_RSS",   "RLIMIT_NPROC",  "RLIMIT_NOFILE",
	"RLIMIT_MEMLOCK",  "RLIMIT_AS",	   "RLIMIT_LOCKS",  "RLIMIT_SIGPENDING",
	"RLIMIT_MSGQUEUE", "RLIMIT_NICE",  "RLIMIT_RTPRIO", "RLIMIT_RTTIME",
};

static const char *sock_domain(unsigned long v)
{
	switch (v) {
	case 0:
		return "AF_UNSPEC";
	case 1:
		return "AF_UNIX";
	case 2:
		return "AF_INET";
	case 10:
		return "AF_INET6";
	case 16:
		return "AF_NETLINK";
	case 17:
		return "AF_PACKET";
	}
	return NULL;
}

static const char *sock_type(unsigned long v)
{
	switch (v) {
	case 1:
		return "SOCK_STREAM";
	case 2:
		return "SOCK_DGRAM";
	case 3:
		return "SOCK_RAW";
	case 4:
		return "SOCK_RDM";
	case 5:
		return "SOCK_SEQPACKET";
	case 10:
		return "SOCK_PACKET";
	}
	return NULL;
}

static const char *arch_prctl_name(unsigned long v)
{
	switch (v) {
	case 0x1001:
		return "ARCH_SET_GS";
	case 0x1002:
		return "ARCH_SET_FS";
	case 0x1003:
		return "ARCH_GET_FS";
	case 0x1004:
		return "ARCH_GET_GS";
	case 0x1011:
		return "ARCH_GET_CPUID";
	case 0x1012:
		return "ARCH_SET_CPUID";
	case 0x3001:
		return "ARCH_CET_STATUS";
	case 0x5001:
		return "ARCH_SHSTK_ENABLE";
	case 0x5002:
		return "ARCH_SHSTK_DISABLE";
	case 0x5003:
		return "ARCH_SHSTK_LOCK";
	case 0x5005:
		return "ARCH_SHSTK_STATUS";
	}
	return NULL;
}

static const char *fcntl_name(long cmd)
{
	switch (cmd) {
	case F_DUPFD:
		return "F_DUPFD";
	case F_GETFD:
		return "F_GETFD";
	case F_SETFD:
		return "F_SETFD";
	case F_GETFL:
		return "F_GETFL";
	case F_SETFL:
		return "F_SETFL";
	case F_GETLK:
		return "F_GETLK";
	case F_SETLK:
		return "F_SETLK";
	case F_SETLKW:
		return "F_SETLKW";
	case F_SETOWN:
		return "F_SETOWN";
	case F_GETOWN:
		return "F_GETOWN";
	case F_SETSIG:
		return "F_SETSIG";
	case F_GETSIG:
		return "F_GETSIG";
	case F_OFD_GETLK:
		return "F_OFD_GETLK";
	case F_OFD_SETLK:
		return "F_OFD_SETLK";
	case F_OFD_SETLKW:
		return "F_OFD_SETLKW";
	case F_SETLEASE:
		return "F_SETLEASE";
	case F_GETLEASE:
		return "F_GETLEASE";
	case F_NOTIFY:
		return "F_NOTIFY";
	case F_DUPFD_CLOEXEC:
		return "F_DUPFD_CLOEXEC";
	case F_SETPIPE_SZ:
		return "F_SETPIPE_SZ";
	case F_GETPIPE_SZ:
		return "F_GETPIPE_SZ";
	case F_ADD_SEALS:
		return "F_ADD_SEALS";
	case F_GET_SEALS:
		return "F_GET_SEALS";
	}
	return NULL;
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
	a = sig > 0 && sig < 32 ? sigabbrev_np(sig) : NULL;
	if (a)
		sb_printf(b, "SIG%s", a);
	else
		sb_printf(b, "%d", sig);
}

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

static void print_arg(struct sbuf *b, int type, unsigned long v,
		      const struct ptbpf_ev_sys_enter *se, size_t len, int argi)
{
	const char *s;

	switch (type) {
	case A_INT:
	case A_FD:
	case A_PID:
		sb_dec(b, (int)v);
		break;
	case A_LONG:
		sb_dec(b, (long)v);
		break;
	case A_ULONG:
		sb_udec(b, v, 0);
		break;
	case A_PTR:
		if (!v)
			sb_puts(b, "NULL");
		else
			sb_xhex(b, v);
		break;
	case A_DIRFD:
		if ((int)v == AT_FDCWD)
			sb_puts(b, "AT_FDCWD");
		else
			sb_dec(b, (int)v);
		break;
	case A_PATH:
		print_path(b, se, len, argi, v);
		break;
	case A_OFLAGS:
		print_oflags(b, v & 0xffffffff);
		break;
	case A_MODE:
		sb_printf(b, "%#03lo", v & 0xffffffff);
		break;
	case A_PROT:
		print_flags(b, v, prots, NF(prots), "PROT_NONE");
		break;
	case A_MMAPFL:
		if ((v & MAP_SHARED_VALIDATE) == MAP_SHARED_VALIDATE) {
			sb_puts(b, "MAP_SHARED_VALIDATE");
			v &= ~(unsigned long)MAP_SHARED_VALIDATE;
		} else if (v & MAP_SHARED) {
			sb_puts(b, "MAP_SHARED");
			v &= ~(unsigned long)MAP_SHARED;
		} else if (v & MAP_PRIVATE) {
			sb_puts(b, "MAP_PRIVATE");
			v &= ~(unsigned long)MAP_PRIVATE;
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
	case A_CLONEFL: {
		unsigned long sig = v & 0xff;

		v &= ~0xffUL;
		if (v)
			print_flags(b, v, clonefl, NF(clonefl), NULL);
		if (sig) {
			if (v)
				sb_putc(b, '|');
			decode_signal(b, (int)sig);
		} else if (!v) {
			sb_puts(b, "0");
		}
		break;
	}
	case A_FCNTL:
		s = fcntl_name((long)v);
		if (s)
			sb_puts(b, s);
		else
			sb_printf(b, "%ld", (long)v);
		break;
	case A_ACCESS:
		print_flags(b, v, accessfl, NF(accessfl), "F_OK");
		break;
	case A_ATFL:
		print_flags(b, v & 0xffffffff, atfl, NF(atfl), "0");
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
			sb_printf(b, "%#lx", v);
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
			sb_printf(b, "%lu", v);
		break;
	case A_FUTEXOP: {
		unsigned long op = v & 0x7f;

		if (op < NF(futex_ops)) {
			sb_puts(b, futex_ops[op]);
			if (v & 128)
				sb_puts(b, "_PRIVATE");
			if (v & 256)
				sb_puts(b, "|FUTEX_CLOCK_REALTIME");
			if (v & ~0x1ffUL)
				sb_printf(b, "|%#lx", v & ~0x1ffUL);
		} else {
			sb_printf(b, "%#lx", v);
		}
		break;
	}
	case A_SOCKDOM:
		s = sock_domain(v & 0xffffffff);
		if (s)
			sb_puts(b, s);
		else
			sb_printf(b, "%d", (int)v);
		break;
	case A_SOCKTYPE:
		s = sock_type(v & 0xf);
		if (s)
			sb_puts(b, s);
		else
			sb_printf(b, "%lu", v & 0xf);
		if (v & SOCK_NONBLOCK)
			sb_puts(b, "|SOCK_NONBLOCK");
		if (v & SOCK_CLOEXEC)
			sb_puts(b, "|SOCK_CLOEXEC");
		if (v & ~(0xfUL | SOCK_NONBLOCK | SOCK_CLOEXEC) & 0xffffffff)
			sb_printf(b, "|%#lx",
				  v & ~(0xfUL | SOCK_NONBLOCK | SOCK_CLOEXEC) & 0xffffffff);
		break;
	case A_RLIMIT:
		if (v < NF(rlimits))
			sb_puts(b, rlimits[v]);
		else
			sb_printf(b, "%d", (int)v);
		break;
	case A_ARCHPRCTL:
		s = arch_prctl_name(v);
		if (s)
			sb_puts(b, s);
		else
			sb_printf(b, "%#lx", v);
		break;
	case A_HEX:
	default:
		sb_xhex(b, v);
		break;
	}
	if (type == A_FD || type == A_DIRFD)
		fdtable_arg(b, (int)v, type == A_DIRFD); /* -y: "<path>" */
}

/* The arguments [from, to) of the call, separated by ", ". */
static void decode_args(struct sbuf *b, const struct sysdesc *d,
			const struct ptbpf_ev_sys_enter *se, size_t len, const struct cap_set *ent,
			const struct cap_set *exit, int from, int to)
{
	for (int i = from; i < to; i++) {
		int type = d ? d->a[i] : A_HEX;

		if (i > from)
			sb_puts(b, ", ");
		if (type != A_PATH && caps_print_arg(b, ent, exit, i, se->args[i]))
			continue;
		if (!d) {
			/* unknown syscall: a path if one was captured, else hex */
			int j;

			for (j = 0; j < 2; j++)
				if (se->path_len[j] && se->path_arg[j] == i)
					type = A_PATH;
		}
		print_arg(b, type, se->args[i], se, len, i);
	}
}

/* The arguments the call prints: the mode of open/openat only with O_CREAT or O_TMPFILE. */
static int decode_nargs(const struct sysdesc *d, const struct ptbpf_ev_sys_enter *se)
{
	int n = sys_nargs(d);

	if (d && n >= 2 && d->a[n - 1] == A_MODE && d->a[n - 2] == A_OFLAGS &&
	    !(se->args[n - 2] & (O_CREAT | __O_TMPFILE)))
		n--;
	return n;
}

/* The first argument printed when the call resumes, or n: none. */
static int resume_arg(const struct ptbpf_ev_sys_enter *se, size_t len, int n)
{
	int a = caps_exit_arg(se, len);

	return a >= 0 && a < n ? a : n;
}

/* "openat(AT_FDCWD, "/etc/passwd", O_RDONLY|O_CLOEXEC)" */
void decode_sys_call(struct sbuf *b, const char *name, const struct sysdesc *d, const void *data,
		     size_t len, const void *xdata, size_t xlen)
{
	const struct ptbpf_ev_sys_enter *se = data;
	struct cap_set ent, exit;

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
	decode_args(b, d, se, len, &ent, &exit, 0, decode_nargs(d, se));
	sb_putc(b, ')');
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
	const struct ptbpf_ev_sys_enter *se = data;
	struct cap_set ent;
	int n, r;

	if (len < offsetof(struct ptbpf_ev_sys_enter, paths) ||
	    !(se->flags & PTBPF_SYS_CAPS_AT_EXIT))
		return 0;
	n = decode_nargs(d, se);
	r = resume_arg(se, len, n);
	if (r >= n)
		return 0;
	caps_of_entry(&ent, data, len);
	sb_puts(b, name);
	sb_putc(b, '(');
	decode_args(b, d, se, len, &ent, NULL, 0, r);
	if (r)
		sb_puts(b, ", ");
	return 1;
}

int decode_sys_resumed(struct sbuf *b, const struct sysdesc *d, const void *data, size_t len,
		       const void *xdata, size_t xlen)
{
	const struct ptbpf_ev_sys_enter *se = data;
	struct cap_set ent, exit;
	int n, r;

	if (!data || len < offsetof(struct ptbpf_ev_sys_enter, paths) ||
	    !(se->flags & PTBPF_SYS_CAPS_AT_EXIT))
		return 0;
	n = decode_nargs(d, se);
	r = resume_arg(se, len, n);
	if (r >= n)
		return 0;
	caps_of_entry(&ent, data, len);
	caps_of_exit(&exit, xdata, xlen);
	decode_args(b, d, se, len, &ent, &exit, r, n);
	return 1;
}

/* " = 3", " = -1 ENOENT (No such file or directory)", " = 0x7f..." */
void decode_sys_ret(struct sbuf *b, const struct sysdesc *d, int64_t ret)
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
