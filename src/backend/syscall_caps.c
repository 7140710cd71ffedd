// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What BPF captures of each syscall's arguments (bpf/caps.bpf.h walks it):
 * one row per pointer argument, by syscall name, resolved to numbers when
 * a stream loads. Sizes are the x86_64 user ABI's.
 */
#include "backend/syscall_caps.h"

#include <errno.h>
#include <string.h>

#include "backend/syscalls.h"

struct cap_row {
	const char *name;
	struct kern_cap_spec spec;
};

#define E KERN_CAP_ENTRY
#define X KERN_CAP_EXIT

/* { type, arg, size, size_arg, max, when } */
#define BUF_ARG(a, n)                                                                              \
	{                                                                                          \
		PTBPF_CAP_BYTES, a, KERN_CAP_ARG, n, 0, E                                          \
	}
#define BUF_RET(a)                                                                                 \
	{                                                                                          \
		PTBPF_CAP_BYTES, a, KERN_CAP_RET, 0, 0, X                                          \
	}
#define FIXED(t, a, n, w)                                                                          \
	{                                                                                          \
		t, a, KERN_CAP_FIXED, 0, n, w                                                      \
	}
#define SA_ARG(a, n)                                                                               \
	{                                                                                          \
		PTBPF_CAP_SOCKADDR, a, KERN_CAP_ARG, n, 128, E                                     \
	}
#define SA_LENPTR(a, n)                                                                            \
	{                                                                                          \
		PTBPF_CAP_SOCKADDR, a, KERN_CAP_LENPTR, n, 128, X                                  \
	}

#define STRING(a)                                                                                  \
	{                                                                                          \
		PTBPF_CAP_STR, a, KERN_CAP_STRING, 0, 0, E                                         \
	}

/* a socklen_t the call reads and writes */
#define LEN_IN(a)  FIXED(PTBPF_CAP_INT, a, 4, E)
#define LEN_OUT(a) FIXED(PTBPF_CAP_INT, a, 4, X)

static const struct cap_row cap_rows[] = {
	/* what the call reads */
	{ "write", BUF_ARG(1, 2) },
	{ "pwrite64", BUF_ARG(1, 2) },
	{ "sendto", BUF_ARG(1, 2) },
	{ "sendto", SA_ARG(4, 5) },
	{ "connect", SA_ARG(1, 2) },
	{ "bind", SA_ARG(1, 2) },
	{ "execve", { PTBPF_CAP_STR, 1, KERN_CAP_VECTOR, 0, 0, E } },
	{ "execve", { PTBPF_CAP_VECTOR_END, 2, KERN_CAP_COUNT, 0, 0, E } },
	{ "execveat", { PTBPF_CAP_STR, 2, KERN_CAP_VECTOR, 0, 0, E } },
	{ "execveat", { PTBPF_CAP_VECTOR_END, 3, KERN_CAP_COUNT, 0, 0, E } },
	{ "nanosleep", FIXED(PTBPF_CAP_TIMESPEC, 0, 16, E) },
	{ "clock_nanosleep", FIXED(PTBPF_CAP_TIMESPEC, 2, 16, E) },
	{ "rt_sigaction", FIXED(PTBPF_CAP_SIGACTION, 1, 32, E) },
	{ "rt_sigprocmask", FIXED(PTBPF_CAP_SIGSET, 1, 8, E) },
	{ "rt_sigsuspend", FIXED(PTBPF_CAP_SIGSET, 0, 8, E) },
	{ "setrlimit", FIXED(PTBPF_CAP_RLIMIT, 1, 16, E) },
	{ "setgroups", { PTBPF_CAP_INT, 1, KERN_CAP_ARG_ELEMS, 0, 4, E } },
	{ "prlimit64", FIXED(PTBPF_CAP_RLIMIT, 2, 16, E) },
	{ "poll", { PTBPF_CAP_POLLFD, 0, KERN_CAP_ARG_ELEMS, 1, 8, E } },
	{ "ppoll", { PTBPF_CAP_POLLFD, 0, KERN_CAP_ARG_ELEMS, 1, 8, E } },
	{ "ppoll", FIXED(PTBPF_CAP_TIMESPEC, 2, 16, E) },
	{ "ppoll", FIXED(PTBPF_CAP_SIGSET, 3, 8, E) },
	{ "epoll_ctl", FIXED(PTBPF_CAP_EPOLL_EVENT, 3, 12, E) },
	{ "utimensat", FIXED(PTBPF_CAP_TIMESPEC, 2, 32, E) },
	{ "setsockopt", { PTBPF_CAP_INT, 3, KERN_CAP_ARG, 4, 16, E } },
	/* what it is, and whether the call reads or writes it, depends on the
	 * command: both ends, the reader picks */
	{ "sendmsg", { PTBPF_CAP_MSGHDR, 1, KERN_CAP_MSGHDR, 0, 128, E } },
	/* the fd sets at both ends: what was asked, what is ready */
	{ "select", { PTBPF_CAP_FDSET, 0, KERN_CAP_FDSETS, 0, 128, E } },
	{ "select", FIXED(PTBPF_CAP_TIMEVAL, 4, 16, E) },
	{ "select", { PTBPF_CAP_FDSET, 0, KERN_CAP_FDSETS, 0, 128, X } },
	{ "select", FIXED(PTBPF_CAP_TIMEVAL, 4, 16, X) },
	{ "pselect6", { PTBPF_CAP_FDSET, 0, KERN_CAP_FDSETS, 0, 128, E } },
	{ "pselect6", FIXED(PTBPF_CAP_TIMESPEC, 4, 16, E) },
	{ "pselect6", FIXED(PTBPF_CAP_SIGSET_ARG, 5, 16, E) },
	{ "pselect6", { PTBPF_CAP_SIGSET, 5, KERN_CAP_PTRLEN, 0, 8, E } },
	{ "pselect6", { PTBPF_CAP_FDSET, 0, KERN_CAP_FDSETS, 0, 128, X } },
	{ "pselect6", FIXED(PTBPF_CAP_TIMESPEC, 4, 16, X) },
	{ "timerfd_settime", FIXED(PTBPF_CAP_ITIMERSPEC, 2, 32, E) },
	{ "timerfd_settime", FIXED(PTBPF_CAP_ITIMERSPEC, 3, 32, X) },
	{ "timerfd_gettime", FIXED(PTBPF_CAP_ITIMERSPEC, 1, 32, X) },
	{ "ioctl", FIXED(PTBPF_CAP_IOCTL, 2, 36, E) },
	{ "ioctl", FIXED(PTBPF_CAP_IOCTL, 2, 36, X) },
	/* what the call writes, at a successful exit */
	{ "read", BUF_RET(1) },
	{ "pread64", BUF_RET(1) },
	{ "recvfrom", BUF_RET(1) },
	{ "recvfrom", SA_LENPTR(4, 5) },
	{ "recvfrom", LEN_IN(5) },
	{ "recvfrom", LEN_OUT(5) },
	/* the name length it offers, then what the call filled in */
	{ "recvmsg", FIXED(PTBPF_CAP_MSGHDR_IN, 1, 56, E) },
	{ "recvmsg", { PTBPF_CAP_MSGHDR, 1, KERN_CAP_MSGHDR, 0, 128, X } },
	{ "readlink", BUF_RET(1) },
	{ "readlinkat", BUF_RET(2) },
	{ "getrandom", BUF_RET(0) },
	{ "getcwd", { PTBPF_CAP_STR, 0, KERN_CAP_STRING, 0, 0, X } },
	{ "stat", FIXED(PTBPF_CAP_STAT, 1, 144, X) },
	{ "lstat", FIXED(PTBPF_CAP_STAT, 1, 144, X) },
	{ "fstat", FIXED(PTBPF_CAP_STAT, 1, 144, X) },
	{ "newfstatat", FIXED(PTBPF_CAP_STAT, 2, 144, X) },
	{ "statx", FIXED(PTBPF_CAP_STATX, 4, 256, X) },
	{ "statfs", FIXED(PTBPF_CAP_STATFS, 1, 120, X) },
	{ "fstatfs", FIXED(PTBPF_CAP_STATFS, 1, 120, X) },
	{ "pipe", FIXED(PTBPF_CAP_INT, 0, 8, X) },
	{ "pipe2", FIXED(PTBPF_CAP_INT, 0, 8, X) },
	{ "execve", { PTBPF_CAP_ARG_STRINGS, 1, KERN_CAP_ARGAREA, 0, 1024, X } },
	{ "execveat", { PTBPF_CAP_ARG_STRINGS, 2, KERN_CAP_ARGAREA, 0, 1024, X } },
	/* the gids the call wrote: as many as it returns */
	{ "getgroups", { PTBPF_CAP_INT, 1, KERN_CAP_RET_ELEMS, 0, 4, X } },
	{ "socketpair", FIXED(PTBPF_CAP_INT, 3, 8, X) },
	{ "accept", SA_LENPTR(1, 2) },
	{ "accept4", SA_LENPTR(1, 2) },
	{ "getsockname", SA_LENPTR(1, 2) },
	{ "getpeername", SA_LENPTR(1, 2) },
	/* the value-result lengths: "[16]", or "[128 => 16]" when they differ */
	{ "accept", LEN_IN(2) },
	{ "accept", LEN_OUT(2) },
	{ "accept4", LEN_IN(2) },
	{ "accept4", LEN_OUT(2) },
	{ "getsockname", LEN_IN(2) },
	{ "getsockname", LEN_OUT(2) },
	{ "getpeername", LEN_IN(2) },
	{ "getpeername", LEN_OUT(2) },
	{ "getsockopt", { PTBPF_CAP_INT, 3, KERN_CAP_LENPTR, 4, 16, X } },
	{ "getsockopt", LEN_IN(4) },
	{ "getsockopt", LEN_OUT(4) },
	{ "wait4", FIXED(PTBPF_CAP_WAIT_STATUS, 1, 4, X) },
	{ "rt_sigaction", FIXED(PTBPF_CAP_SIGACTION, 2, 32, X) },
	{ "rt_sigprocmask", FIXED(PTBPF_CAP_SIGSET, 2, 8, X) },
	{ "getrlimit", FIXED(PTBPF_CAP_RLIMIT, 1, 16, X) },
	{ "prlimit64", FIXED(PTBPF_CAP_RLIMIT, 3, 16, X) },
	{ "uname", FIXED(PTBPF_CAP_UTSNAME, 0, 390, X) },
	{ "sysinfo", FIXED(PTBPF_CAP_SYSINFO, 0, 112, X) },
	{ "clock_gettime", FIXED(PTBPF_CAP_TIMESPEC, 1, 16, X) },
	{ "gettimeofday", FIXED(PTBPF_CAP_TIMEVAL, 0, 16, X) },
	{ "poll", { PTBPF_CAP_POLLFD, 0, KERN_CAP_ARG_ELEMS, 1, 8, X } },
	{ "ppoll", { PTBPF_CAP_POLLFD, 0, KERN_CAP_ARG_ELEMS, 1, 8, X } },
	{ "ppoll", FIXED(PTBPF_CAP_TIMESPEC, 2, 16, X) }, /* the time left */
	{ "epoll_wait", { PTBPF_CAP_EPOLL_EVENT, 1, KERN_CAP_RET_ELEMS, 0, 12, X } },
	{ "epoll_pwait", { PTBPF_CAP_EPOLL_EVENT, 1, KERN_CAP_RET_ELEMS, 0, 12, X } },
	{ "getdents64", { PTBPF_CAP_DIRENTS, 1, KERN_CAP_DIRENTS, 0, 0, X } },
	/* iovecs: what a write wrote, what a read read */
	{ "writev", { PTBPF_CAP_IOV, 1, KERN_CAP_IOVEC, 2, 0, E } },
	{ "pwritev", { PTBPF_CAP_IOV, 1, KERN_CAP_IOVEC, 2, 0, E } },
	{ "pwritev2", { PTBPF_CAP_IOV, 1, KERN_CAP_IOVEC, 2, 0, E } },
	{ "readv", { PTBPF_CAP_IOV, 1, KERN_CAP_IOVEC, 2, 0, X } },
	{ "preadv", { PTBPF_CAP_IOV, 1, KERN_CAP_IOVEC, 2, 0, X } },
	{ "preadv2", { PTBPF_CAP_IOV, 1, KERN_CAP_IOVEC, 2, 0, X } },
	/* extended attributes: the name read, the value read or written */
	{ "getxattr", STRING(1) },
	{ "lgetxattr", STRING(1) },
	{ "fgetxattr", STRING(1) },
	{ "getxattr", BUF_RET(2) },
	{ "lgetxattr", BUF_RET(2) },
	{ "fgetxattr", BUF_RET(2) },
	{ "setxattr", STRING(1) },
	{ "lsetxattr", STRING(1) },
	{ "fsetxattr", STRING(1) },
	{ "setxattr", BUF_ARG(2, 3) },
	{ "lsetxattr", BUF_ARG(2, 3) },
	{ "fsetxattr", BUF_ARG(2, 3) },
	{ "removexattr", STRING(1) },
	{ "lremovexattr", STRING(1) },
	{ "fremovexattr", STRING(1) },
};

int syscall_caps__table(struct kern_cap_spec specs[PTBPF_SYSCALL_NR_MAX][KERN_CAPS],
			uint8_t when[PTBPF_SYSCALL_NR_MAX])
{
	int rows = 0;

	memset(specs, 0, sizeof(struct kern_cap_spec) * PTBPF_SYSCALL_NR_MAX * KERN_CAPS);
	memset(when, 0, PTBPF_SYSCALL_NR_MAX);
	for (size_t i = 0; i < sizeof(cap_rows) / sizeof(cap_rows[0]); i++) {
		int nr = syscalls__lookup(cap_rows[i].name);
		int k;

		if (nr < 0 || !syscalls__known(nr))
			continue; /* not a syscall of this architecture */
		for (k = 0; k < KERN_CAPS && specs[nr][k].type; k++)
			;
		if (k == KERN_CAPS)
			return -E2BIG;
		specs[nr][k] = cap_rows[i].spec;
		if (cap_rows[i].spec.when == KERN_CAP_EXIT &&
		    (!(when[nr] & KERN_CAP_EXIT) ||
		     cap_rows[i].spec.arg < KERN_CAP_WHEN_EXIT_ARG(when[nr])))
			when[nr] = (uint8_t)((when[nr] & 0xf) |
					     (cap_rows[i].spec.arg << KERN_CAP_WHEN_ARG_SHIFT));
		when[nr] |= (uint8_t)cap_rows[i].spec.when;
		rows++;
	}
	return rows;
}
