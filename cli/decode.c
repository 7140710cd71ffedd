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
#include "decode_scalar.h"
#include "fdtable.h"

/* Sorted by name (bsearch). */
static const struct sysdesc sysdescs[] = {
	{ "accept", 3, R_INT, S_ALL, { A_FD, A_PTR, A_PTR } },
	{ "accept4", 4, R_INT, S_ALL, { A_FD, A_PTR, A_PTR, A_SOCKFL } },
	{ "access", 2, R_INT, S_ALL, { A_PATH, A_ACCESS } },
	{ "alarm", 1, R_INT, S_ALL, { A_ULONG } },
	{ "arch_prctl", 2, R_INT, S_ALL, { A_ARCHPRCTL, A_HEX } },
	{ "bind", 3, R_INT, S_ALL, { A_FD, A_PTR, A_INT } },
	{ "brk", 1, R_HEX, S_ALL, { A_PTR } },
	{ "chdir", 1, R_INT, S_ALL, { A_PATH } },
	{ "chmod", 2, R_INT, S_ALL, { A_PATH, A_MODE } },
	{ "chown", 3, R_INT, S_ALL, { A_PATH, A_INT, A_INT } },
	{ "clock_getres", 2, R_INT, S_ALL, { A_CLOCKID, A_PTR } },
	{ "clock_gettime", 2, R_INT, S_ALL, { A_CLOCKID, A_PTR } },
	{ "clock_nanosleep", 4, R_INT, S_ALL, { A_CLOCKID, A_TIMERFL, A_PTR, A_PTR } },
	{ "clone", 1, R_INT, S_ALL, { A_CLONE } },
	{ "clone3", 2, R_INT, S_ALL, { A_PTR, A_ULONG } },
	{ "close", 1, R_INT, S_ALL, { A_FD } },
	{ "close_range", 3, R_INT, S_ALL, { A_UINT, A_UINT, A_CRANGEFL } },
	{ "connect", 3, R_INT, S_ALL, { A_FD, A_PTR, A_INT } },
	{ "copy_file_range", 6, R_INT, S_ALL, { A_FD, A_PTR, A_FD, A_PTR, A_ULONG, A_UINT } },
	{ "creat", 2, R_INT, S_ALL, { A_PATH, A_MODE } },
	{ "dup", 1, R_INT, S_ALL, { A_FD } },
	{ "dup2", 2, R_INT, S_ALL, { A_FD, A_FD } },
	{ "dup3", 3, R_INT, S_ALL, { A_FD, A_FD, A_OFLBITS } },
	{ "epoll_create1", 1, R_INT, S_ALL, { A_EPOLLFL } },
	{ "epoll_ctl", 4, R_INT, S_ALL, { A_FD, A_EPOLLOP, A_FD, A_PTR } },
	{ "epoll_pwait", 6, R_INT, S_ALL, { A_FD, A_PTR, A_INT, A_INT, A_PTR, A_ULONG } },
	{ "epoll_wait", 4, R_INT, S_ALL, { A_FD, A_PTR, A_INT, A_INT } },
	{ "eventfd2", 2, R_INT, S_ALL, { A_UINT, A_EFDFL } },
	{ "execve", 3, R_INT, S_ALL, { A_PATH, A_PTR, A_PTR } },
	{ "execveat", 5, R_INT, S_ALL, { A_DIRFD, A_PATH, A_PTR, A_PTR, A_ATFL } },
	{ "exit", 1, R_NONE, S_ALL, { A_INT } },
	{ "exit_group", 1, R_NONE, S_ALL, { A_INT } },
	{ "faccessat", 3, R_INT, S_ALL, { A_DIRFD, A_PATH, A_ACCESS } },
	{ "faccessat2", 4, R_INT, S_ALL, { A_DIRFD, A_PATH, A_ACCESS, A_ACCATFL } },
	{ "fadvise64", 4, R_INT, S_ALL, { A_FD, A_LONG, A_ULONG, A_FADVICE } },
	{ "fallocate", 4, R_INT, S_ALL, { A_FD, A_FALLOCFL, A_LONG, A_LONG } },
	{ "fchdir", 1, R_INT, S_ALL, { A_FD } },
	{ "fchmod", 2, R_INT, S_ALL, { A_FD, A_MODE } },
	{ "fchmodat", 3, R_INT, S_ALL, { A_DIRFD, A_PATH, A_MODE } },
	{ "fchown", 3, R_INT, S_ALL, { A_FD, A_INT, A_INT } },
	{ "fchownat", 5, R_INT, S_ALL, { A_DIRFD, A_PATH, A_INT, A_INT, A_ATFL } },
	{ "fcntl", 3, R_FCNTL, S_FCNTL, { A_FD, A_FCNTL, A_FCNTLARG } },
	{ "fdatasync", 1, R_INT, S_ALL, { A_FD } },
	{ "fgetxattr", 4, R_INT, S_ALL, { A_FD, A_STR, A_PTR, A_ULONG } },
	{ "flistxattr", 3, R_INT, S_ALL, { A_FD, A_PTR, A_ULONG } },
	{ "flock", 2, R_INT, S_ALL, { A_FD, A_FLOCKOP } },
	{ "fork", 0, R_INT, S_ALL, { 0 } },
	{ "fremovexattr", 2, R_INT, S_ALL, { A_FD, A_STR } },
	{ "fsetxattr", 5, R_INT, S_ALL, { A_FD, A_STR, A_PTR, A_ULONG, A_XATTRFL } },
	{ "fstat", 2, R_INT, S_ALL, { A_FD, A_PTR } },
	{ "fstatfs", 2, R_INT, S_ALL, { A_FD, A_PTR } },
	{ "fsync", 1, R_INT, S_ALL, { A_FD } },
	{ "ftruncate", 2, R_INT, S_ALL, { A_FD, A_LONG } },
	{ "futex", 6, R_INT, S_FUTEX, { A_PTR, A_FUTEXOP, A_UINT, A_FUTEX3, A_PTR, A_FUTEX5 } },
	{ "getcwd", 2, R_INT, S_ALL, { A_PTR, A_ULONG } },
	{ "getdents64", 3, R_INT, S_ALL, { A_FD, A_PTR, A_ULONG } },
	{ "getegid", 0, R_INT, S_ALL, { 0 } },
	{ "geteuid", 0, R_INT, S_ALL, { 0 } },
	{ "getgid", 0, R_INT, S_ALL, { 0 } },
	{ "getgroups", 2, R_INT, S_ALL, { A_INT, A_PTR } },
	{ "getpeername", 3, R_INT, S_ALL, { A_FD, A_PTR, A_PTR } },
	{ "getpgid", 1, R_INT, S_ALL, { A_PID } },
	{ "getpgrp", 0, R_INT, S_ALL, { 0 } },
	{ "getpid", 0, R_INT, S_ALL, { 0 } },
	{ "getppid", 0, R_INT, S_ALL, { 0 } },
	{ "getrandom", 3, R_INT, S_ALL, { A_PTR, A_ULONG, A_GRNDFL } },
	{ "getresgid", 3, R_INT, S_ALL, { A_PTR, A_PTR, A_PTR } },
	{ "getresuid", 3, R_INT, S_ALL, { A_PTR, A_PTR, A_PTR } },
	{ "getrlimit", 2, R_INT, S_ALL, { A_RLIMIT, A_PTR } },
	{ "getrusage", 2, R_INT, S_ALL, { A_INT, A_PTR } },
	{ "getsid", 1, R_INT, S_ALL, { A_PID } },
	{ "getsockname", 3, R_INT, S_ALL, { A_FD, A_PTR, A_PTR } },
	{ "getsockopt", 5, R_INT, S_ALL, { A_FD, A_SOCKOPT, A_SKIP, A_OPTVAL, A_PTR } },
	{ "gettid", 0, R_INT, S_ALL, { 0 } },
	{ "getuid", 0, R_INT, S_ALL, { 0 } },
	{ "getxattr", 4, R_INT, S_ALL, { A_PATH, A_STR, A_PTR, A_ULONG } },
	{ "inotify_init1", 1, R_INT, S_ALL, { A_INFL } },
	{ "ioctl", 3, R_INT, S_ALL, { A_FD, A_IOCTL, A_IOCTLARG } },
	{ "kill", 2, R_INT, S_ALL, { A_PID, A_SIG } },
	{ "lchown", 3, R_INT, S_ALL, { A_PATH, A_INT, A_INT } },
	{ "lgetxattr", 4, R_INT, S_ALL, { A_PATH, A_STR, A_PTR, A_ULONG } },
	{ "link", 2, R_INT, S_ALL, { A_PATH, A_PATH } },
	{ "linkat", 5, R_INT, S_ALL, { A_DIRFD, A_PATH, A_DIRFD, A_PATH, A_ATFL } },
	{ "listen", 2, R_INT, S_ALL, { A_FD, A_INT } },
	{ "listxattr", 3, R_INT, S_ALL, { A_PATH, A_PTR, A_ULONG } },
	{ "llistxattr", 3, R_INT, S_ALL, { A_PATH, A_PTR, A_ULONG } },
	{ "lremovexattr", 2, R_INT, S_ALL, { A_PATH, A_STR } },
	{ "lseek", 3, R_INT, S_ALL, { A_FD, A_LONG, A_WHENCE } },
	{ "lsetxattr", 5, R_INT, S_ALL, { A_PATH, A_STR, A_PTR, A_ULONG, A_XATTRFL } },
	{ "lstat", 2, R_INT, S_ALL, { A_PATH, A_PTR } },
	{ "madvise", 3, R_INT, S_ALL, { A_PTR, A_ULONG, A_MADVICE } },
	{ "memfd_create", 2, R_INT, S_ALL, { A_STR, A_MFDFL } },
	{ "mkdir", 2, R_INT, S_ALL, { A_PATH, A_MODE } },
	{ "mkdirat", 3, R_INT, S_ALL, { A_DIRFD, A_PATH, A_MODE } },
	{ "mknod", 3, R_INT, S_ALL, { A_PATH, A_MODE, A_HEX } },
	{ "mknodat", 4, R_INT, S_ALL, { A_DIRFD, A_PATH, A_MODE, A_HEX } },
	{ "mlock", 2, R_INT, S_ALL, { A_PTR, A_ULONG } },
	{ "mlockall", 1, R_INT, S_ALL, { A_MCLFL } },
	{ "mmap", 6, R_HEX, S_ALL, { A_PTR, A_ULONG, A_PROT, A_MMAPFL, A_FD, A_HEX } },
	{ "mprotect", 3, R_INT, S_ALL, { A_PTR, A_ULONG, A_PROT } },
	{ "mremap", 5, R_HEX, S_MREMAP, { A_PTR, A_ULONG, A_ULONG, A_MREMAPFL, A_PTR } },
	{ "msync", 3, R_INT, S_ALL, { A_PTR, A_ULONG, A_MSYNCFL } },
	{ "munlock", 2, R_INT, S_ALL, { A_PTR, A_ULONG } },
	{ "munlockall", 0, R_INT, S_ALL, { 0 } },
	{ "munmap", 2, R_INT, S_ALL, { A_PTR, A_ULONG } },
	{ "nanosleep", 2, R_INT, S_ALL, { A_PTR, A_PTR } },
	{ "newfstatat", 4, R_INT, S_ALL, { A_DIRFD, A_PATH, A_PTR, A_ATFL } },
	{ "open", 3, R_INT, S_OPEN, { A_PATH, A_OFLAGS, A_MODE } },
	{ "openat", 4, R_INT, S_OPEN, { A_DIRFD, A_PATH, A_OFLAGS, A_MODE } },
	{ "openat2", 4, R_INT, S_ALL, { A_DIRFD, A_PATH, A_PTR, A_ULONG } },
	{ "pause", 0, R_INT, S_ALL, { 0 } },
	{ "pidfd_open", 2, R_INT, S_ALL, { A_PID, A_HEX } },
	{ "pipe", 1, R_INT, S_ALL, { A_PTR } },
	{ "pipe2", 2, R_INT, S_ALL, { A_PTR, A_OFLBITS } },
	{ "poll", 3, R_TIMEOUT, S_ALL, { A_PTR, A_ULONG, A_INT } },
	{ "ppoll", 5, R_TIMEOUT, S_ALL, { A_PTR, A_ULONG, A_PTR, A_PTR, A_ULONG } },
	{ "prctl", 5, R_INT, S_ALL, { A_INT, A_HEX, A_HEX, A_HEX, A_HEX } },
	{ "pread64", 4, R_INT, S_ALL, { A_FD, A_PTR, A_ULONG, A_LONG } },
	{ "prlimit64", 4, R_INT, S_ALL, { A_PID, A_RLIMIT, A_PTR, A_PTR } },
	{ "pselect6", 6, R_TIMEOUT, S_ALL, { A_INT, A_PTR, A_PTR, A_PTR, A_PTR, A_PTR } },
	{ "pwrite64", 4, R_INT, S_ALL, { A_FD, A_PTR, A_ULONG, A_LONG } },
	{ "read", 3, R_INT, S_ALL, { A_FD, A_PTR, A_ULONG } },
	{ "readlink", 3, R_INT, S_ALL, { A_PATH, A_PTR, A_ULONG } },
	{ "readlinkat", 4, R_INT, S_ALL, { A_DIRFD, A_PATH, A_PTR, A_ULONG } },
	{ "readv", 3, R_INT, S_ALL, { A_FD, A_PTR, A_INT } },
	{ "recvfrom", 6, R_INT, S_ALL, { A_FD, A_PTR, A_ULONG, A_MSGFL, A_PTR, A_PTR } },
	{ "recvmsg", 3, R_INT, S_ALL, { A_FD, A_PTR, A_MSGFL } },
	{ "removexattr", 2, R_INT, S_ALL, { A_PATH, A_STR } },
	{ "rename", 2, R_INT, S_ALL, { A_PATH, A_PATH } },
	{ "renameat", 4, R_INT, S_ALL, { A_DIRFD, A_PATH, A_DIRFD, A_PATH } },
	{ "renameat2", 5, R_INT, S_ALL, { A_DIRFD, A_PATH, A_DIRFD, A_PATH, A_HEX } },
	{ "rmdir", 1, R_INT, S_ALL, { A_PATH } },
	{ "rseq", 4, R_INT, S_ALL, { A_HEX, A_HEX, A_HEX, A_HEX } },
	{ "rt_sigaction", 4, R_INT, S_ALL, { A_SIG, A_PTR, A_PTR, A_ULONG } },
	{ "rt_sigprocmask", 4, R_INT, S_ALL, { A_SIGHOW, A_PTR, A_PTR, A_ULONG } },
	{ "rt_sigqueueinfo", 3, R_INT, S_ALL, { A_PID, A_SIG, A_PTR } },
	{ "rt_sigreturn", 0, R_INT, S_ALL, { 0 } },
	{ "rt_sigsuspend", 2, R_INT, S_ALL, { A_PTR, A_ULONG } },
	{ "rt_sigtimedwait", 4, R_INT, S_ALL, { A_PTR, A_PTR, A_PTR, A_ULONG } },
	{ "rt_tgsigqueueinfo", 4, R_INT, S_ALL, { A_PID, A_PID, A_SIG, A_PTR } },
	{ "sched_getaffinity", 3, R_INT, S_ALL, { A_PID, A_ULONG, A_PTR } },
	{ "sched_setaffinity", 3, R_INT, S_ALL, { A_PID, A_UINT, A_PTR } },
	{ "sched_yield", 0, R_INT, S_ALL, { 0 } },
	{ "select", 5, R_TIMEOUT, S_ALL, { A_INT, A_PTR, A_PTR, A_PTR, A_PTR } },
	{ "sendfile", 4, R_INT, S_ALL, { A_FD, A_FD, A_PTR, A_ULONG } },
	{ "sendmsg", 3, R_INT, S_ALL, { A_FD, A_PTR, A_MSGFL } },
	{ "sendto", 6, R_INT, S_ALL, { A_FD, A_PTR, A_ULONG, A_MSGFL, A_PTR, A_INT } },
	{ "set_robust_list", 2, R_INT, S_ALL, { A_PTR, A_ULONG } },
	{ "set_tid_address", 1, R_INT, S_ALL, { A_PTR } },
	{ "setgid", 1, R_INT, S_ALL, { A_INT } },
	{ "setgroups", 2, R_INT, S_ALL, { A_INT, A_PTR } },
	{ "setpgid", 2, R_INT, S_ALL, { A_PID, A_PID } },
	{ "setresgid", 3, R_INT, S_ALL, { A_INT, A_INT, A_INT } },
	{ "setresuid", 3, R_INT, S_ALL, { A_INT, A_INT, A_INT } },
	{ "setrlimit", 2, R_INT, S_ALL, { A_RLIMIT, A_PTR } },
	{ "setsid", 0, R_INT, S_ALL, { 0 } },
	{ "setsockopt", 5, R_INT, S_ALL, { A_FD, A_SOCKOPT, A_SKIP, A_OPTVAL, A_INT } },
	{ "setuid", 1, R_INT, S_ALL, { A_INT } },
	{ "setxattr", 5, R_INT, S_ALL, { A_PATH, A_STR, A_PTR, A_ULONG, A_XATTRFL } },
	{ "shutdown", 2, R_INT, S_ALL, { A_FD, A_SHUTHOW } },
	{ "sigaltstack", 2, R_INT, S_ALL, { A_PTR, A_PTR } },
	{ "socket", 3, R_INT, S_ALL, { A_SOCKDOM, A_SOCKTYPE, A_SOCKPROTO } },
	{ "socketpair", 4, R_INT, S_ALL, { A_SOCKDOM, A_SOCKTYPE, A_UINT, A_PTR } },
	{ "splice", 6, R_INT, S_ALL, { A_FD, A_PTR, A_FD, A_PTR, A_ULONG, A_SPLICEFL } },
	{ "stat", 2, R_INT, S_ALL, { A_PATH, A_PTR } },
	{ "statfs", 2, R_INT, S_ALL, { A_PATH, A_PTR } },
	{ "statx", 5, R_INT, S_ALL, { A_DIRFD, A_PATH, A_STATXFL, A_STATXMASK, A_PTR } },
	{ "symlink", 2, R_INT, S_ALL, { A_PATH, A_PATH } },
	{ "symlinkat", 3, R_INT, S_ALL, { A_PATH, A_DIRFD, A_PATH } },
	{ "sysinfo", 1, R_INT, S_ALL, { A_PTR } },
	{ "tgkill", 3, R_INT, S_ALL, { A_PID, A_PID, A_SIG } },
	{ "timerfd_create", 2, R_INT, S_ALL, { A_CLOCKID, A_TFDFL } },
	{ "timerfd_gettime", 2, R_INT, S_ALL, { A_FD, A_PTR } },
	{ "timerfd_settime", 4, R_INT, S_ALL, { A_FD, A_TFDFL, A_PTR, A_PTR } },
	{ "tkill", 2, R_INT, S_ALL, { A_PID, A_SIG } },
	{ "truncate", 2, R_INT, S_ALL, { A_PATH, A_LONG } },
	{ "umask", 1, R_OCT, S_ALL, { A_MODE } },
	{ "uname", 1, R_INT, S_ALL, { A_PTR } },
	{ "unlink", 1, R_INT, S_ALL, { A_PATH } },
	{ "unlinkat", 3, R_INT, S_ALL, { A_DIRFD, A_PATH, A_ATFL } },
	{ "utimensat", 4, R_INT, S_ALL, { A_DIRFD, A_PATH, A_PTR, A_ATFL } },
	{ "vfork", 0, R_INT, S_ALL, { 0 } },
	{ "wait4", 4, R_INT, S_ALL, { A_PID, A_PTR, A_WAITOPT, A_PTR } },
	{ "waitid", 5, R_INT, S_ALL, { A_INT, A_PID, A_PTR, A_WAITOPT, A_PTR } },
	{ "write", 3, R_INT, S_ALL, { A_FD, A_PTR, A_ULONG } },
	{ "writev", 3, R_INT, S_ALL, { A_FD, A_PTR, A_INT } },
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

/* args: se->args as uint64_t (the printers' type; __u64 is another) */
static void print_arg(struct sbuf *b, int type, const struct ptbpf_ev_sys_enter *se, size_t len,
		      const uint64_t *args, int argi)
{
	uint64_t v = args[argi];

	if (type == A_PATH)
		print_path(b, se, len, argi, v);
	else
		scalar_arg(b, type, args, argi);
	if (type == A_FD || type == A_DIRFD)
		fdtable_arg(b, (int)v, type == A_DIRFD); /* -y: "<path>" */
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
		int type = d ? d->a[i] : A_HEX;

		if (!(mask & (1U << i)))
			continue;
		if (!first)
			sb_puts(b, ", ");
		first = 0;
		if (type != A_PATH && caps_print_arg(b, ent, exit, i, args, type))
			continue;
		if (!d) {
			/* unknown syscall: a path if one was captured, else hex */
			int j;

			for (j = 0; j < 2; j++)
				if (se->path_len[j] && se->path_arg[j] == i)
					type = A_PATH;
		}
		print_arg(b, type, se, len, args, i);
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
