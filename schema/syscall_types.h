/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The vocabulary of schema/syscalls.def: how an argument and a result are
 * printed, which arguments a call prints by the values of others, and
 * strace's classes. Build-time data: the library and the ptbpf command
 * both compile the table in; neither reaches the other through it.
 */
#ifndef PTBPF_SCHEMA_SYSCALL_TYPES_H
#define PTBPF_SCHEMA_SYSCALL_TYPES_H

/*
 * The architectures of schema/syscalls.def's number columns, in column
 * order: the command decodes a log of either on any host.
 */
enum sc_arch { SC_ARCH_X86_64 = 0, SC_ARCH_ARM64, SC_ARCH_COUNT };

/* The number of a SYSCALL row on the architecture being built (-1: none). */
#if defined(__aarch64__)
#define SYSCALL_NATIVE_NR(nr, nr_arm64) (nr_arm64)
#define SC_ARCH_NATIVE			SC_ARCH_ARM64
#elif defined(__x86_64__)
#define SYSCALL_NATIVE_NR(nr, nr_arm64) (nr)
#define SC_ARCH_NATIVE			SC_ARCH_X86_64
#else
#error "ptbpf: syscall numbers of x86_64 and arm64 only (schema/syscalls.def)"
#endif

enum atype {
	A_NONE = 0, /* not printed: past what the call prints, or no description */
	A_INT,	    /* signed int */
	A_UINT,	    /* unsigned int */
	A_LONG,	    /* signed long */
	A_ULONG,    /* unsigned decimal */
	A_HEX,	    /* 0x... */
	A_PTR,	    /* NULL or 0x... */
	A_STR,	    /* a string not captured: as A_PTR */
	A_FD,	    /* int */
	A_DIRFD,    /* AT_FDCWD or int */
	A_PATH,	    /* a path: BPF reads the first two of a call at entry */
	A_SKIP,	    /* printed with the argument before it (A_SOCKOPT) */
	/* the names of the ARG's table (its printer column, an xlat/NAME.in) */
	A_XVAL,	   /* one name (strace's printxval): MADV_DONTNEED, else 0x.. and a comment */
	A_XVAL32,  /* the same of an int's 32 bits: SEEK_SET */
	A_FLAGS,   /* flags (strace's printflags): O_CLOEXEC|O_NONBLOCK, 0 or its name */
	A_FLAGS32, /* the same of an int's 32 bits: PROT_READ|PROT_WRITE */
	/* printers of their own */
	A_OFLAGS,    /* open flags: O_RDONLY|O_CLOEXEC */
	A_MODE,	     /* octal mode */
	A_MMAPFL,    /* mmap flags */
	A_SIG,	     /* signal number */
	A_CLONE,     /* clone's arguments, all of them: child_stack=NULL, flags=... */
	A_FCNTLARG,  /* fcntl's third argument, by its command */
	A_PID,	     /* pid, decimal */
	A_FUTEXOP,   /* FUTEX_WAIT_PRIVATE ... */
	A_FUTEX3,    /* futex's timeout or val2, by its op */
	A_FUTEX5,    /* futex's val3, by its op */
	A_SOCKTYPE,  /* SOCK_STREAM|SOCK_CLOEXEC ... */
	A_SOCKPROTO, /* IPPROTO_TCP, NETLINK_ROUTE ..., by the domain (argument 0) */
	A_SOCKOPT,   /* a socket option's level and name (this argument and the next) */
	A_OPTVAL,    /* a socket option's value (a pointer: its capture by the option) */
	A_IOCTL,     /* ioctl command: TCGETS */
	A_IOCTLARG,  /* ioctl's third argument: an fd for FICLONE, else hex */
	A_STATXFL,   /* AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW */
	A_CLOCKID,   /* CLOCK_MONOTONIC */
	A_HEXBUF,    /* a buffer strace prints all in hex (getrandom's): its capture */
	A_PRCTLARG,  /* prctl's arguments after the option, by the option */
	A_IOPRIO,    /* IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4) */
	A_COUNT
};

enum rtype {
	R_INT = 0, /* decimal, -1 ERRNO on failure */
	R_HEX,	   /* 0x... (addresses) */
	R_NONE,	   /* does not return (exit) */
	R_FCNTL,   /* by the command: 0x8002 (flags O_RDWR|O_LARGEFILE) */
	R_OCT,	   /* octal, 3 digits: umask's 022, 000 */
	R_TIMEOUT, /* 0 is "0 (Timeout)" (poll, select) */
	R_FD,	   /* a new fd (strace's RVAL_FD): -y prints its path */
	R_PRCTL,   /* by prctl's option: 1 (SUID_DUMP_USER) */
	R_IOPRIO,  /* 4 (IOPRIO_PRIO_VALUE(IOPRIO_CLASS_NONE, 4)) */
};

/* Arguments a call prints by the values of others (else all nargs). */
enum sform {
	S_ALL = 0,
	S_OPEN,	  /* the mode only with O_CREAT or O_TMPFILE */
	S_FCNTL,  /* no third argument for F_GETFD ... */
	S_FUTEX,  /* those its op uses */
	S_MREMAP, /* new_address only with MREMAP_MAYMOVE|MREMAP_FIXED */
	S_IOCTL,  /* no third argument for the commands of xlat/ioctl_noarg.in (FIOCLEX) */
	S_PRCTL,  /* those prctl's option uses */
};

/* What a call does to fds (FDOP): what -P needs to follow them. */
enum fdop {
	FDOP_NONE,
	FDOP_OPEN,
	FDOP_DUP,
	FDOP_DUP2,
	FDOP_DUP3,
	FDOP_FCNTL,
	FDOP_CLOSE,
	FDOP_CLOSE_RANGE
};

/* strace's classes of a syscall (-e %file ...), as strace 6.1's tables give them */
enum {
	SC_DESC = 1u << 0,
	SC_FILE = 1u << 1,
	SC_IPC = 1u << 2,
	SC_NETWORK = 1u << 3,
	SC_PROCESS = 1u << 4,
	SC_SIGNAL = 1u << 5,
	SC_MEMORY = 1u << 6,
	SC_STAT = 1u << 7,
	SC_LSTAT = 1u << 8,
	SC_FSTAT = 1u << 9,
	SC_STAT_LIKE = 1u << 10,
	SC_STATFS = 1u << 11,
	SC_FSTATFS = 1u << 12,
	SC_STATFS_LIKE = 1u << 13,
	SC_PURE = 1u << 14,
	SC_CREDS = 1u << 15,
	SC_CLOCK = 1u << 16,
	SC_NEVER_FAILS = 1u << 17, /* not a class: strace never counts it failed */
};

#endif
