/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf system event types and their payloads.
 *
 * The payload of an event is what posix_trace_getnext_event() copies into
 * the caller's data buffer. Every struct here is written with fixed-size
 * __u32-style types only, so the BPF programs (which include vmlinux.h)
 * and user space share one definition. Fields are little-endian as
 * recorded on x86_64; logs record them unchanged.
 */
#ifndef PTBPF_EVENTS_H
#define PTBPF_EVENTS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * Event id space (trace_event_id_t values), the same for every stream:
 *
 *   1 .. 15        POSIX system events (POSIX_TRACE_START, ...)
 *   16 .. 63       ptbpf kernel events (process, signals, scheduling)
 *   1024 .. 2047   syscalls: entry of nr is 1024 + 2 * nr, exit is that + 1
 *   2048 .. 4095   user events, numbered per stream by name;
 *                  2048 is POSIX_TRACE_UNNAMED_USEREVENT
 */
/*
 * POSIX_TRACE_OVERFLOW (a gap: events were lost) carries, as its data, a
 * uint64_t: the number of events lost in that gap, whatever lost them (a
 * full kernel ring, a full user-event ring, a LOOP stream overwriting its
 * oldest events, an UNTIL_FULL stream stopped full). The gaps of a stream
 * add up to its counters' lost (struct ptbpf_counters) until it is
 * cleared. A log written by an older version may hold markers without data.
 */

#define PTBPF_EV_PROC_FORK	  16 /* struct ptbpf_ev_fork, "proc_fork" */
#define PTBPF_EV_PROC_EXEC	  17 /* struct ptbpf_ev_exec, "proc_exec" */
#define PTBPF_EV_THREAD_EXIT	  18 /* struct ptbpf_ev_exit, "thread_exit" */
#define PTBPF_EV_PROC_EXIT	  19 /* struct ptbpf_ev_exit, "proc_exit" */
#define PTBPF_EV_SIGNAL_GENERATE  20 /* struct ptbpf_ev_signal, "signal_generate" */
#define PTBPF_EV_SIGNAL_DELIVER	  21 /* struct ptbpf_ev_signal, "signal_deliver" */
#define PTBPF_EV_SCHED_SWITCH_OUT 22 /* struct ptbpf_ev_sched_switch, "sched_switch_out" */
#define PTBPF_EV_SCHED_SWITCH_IN  23 /* struct ptbpf_ev_sched_switch, "sched_switch_in" */
#define PTBPF_EV_SCHED_WAKEUP	  24 /* struct ptbpf_ev_sched_wakeup, "sched_wakeup" */
#define PTBPF_EV_PROC_UNTRACED	  25 /* struct ptbpf_ev_untraced, "proc_untraced" */
#define PTBPF_EV_USER_STACK	  26 /* struct ptbpf_ev_user_stack, "user_stack" */
#define PTBPF_EV_PROC_MAP	  27 /* struct ptbpf_ev_proc_map, "proc_map" */
#define PTBPF_EV_STACK_TRACE	  28 /* struct ptbpf_ev_stack_trace, "stack_trace" */
#define PTBPF_EV_STACK_REF	  29 /* struct ptbpf_ev_stack_ref, "stack_ref" */
#define PTBPF_EV_FD_INFO	  30 /* struct ptbpf_ev_fd_info, "fd_info" */
#define PTBPF_EV_KERNEL_FIRST	  PTBPF_EV_PROC_FORK
#define PTBPF_EV_KERNEL_LAST	  PTBPF_EV_FD_INFO

#define PTBPF_EV_SYSCALL_BASE  1024
#define PTBPF_SYSCALL_NR_MAX   512 /* syscall numbers 0 .. 511 */
#define PTBPF_EV_SYS_ENTER(nr) (PTBPF_EV_SYSCALL_BASE + 2 * (nr))
#define PTBPF_EV_SYS_EXIT(nr)  (PTBPF_EV_SYSCALL_BASE + 2 * (nr) + 1)
#define PTBPF_EV_IS_SYSCALL(id)                                                                    \
	((id) >= PTBPF_EV_SYSCALL_BASE && (id) < PTBPF_EV_SYSCALL_BASE + 2 * PTBPF_SYSCALL_NR_MAX)
#define PTBPF_EV_SYSCALL_NR(id)	     (((id)-PTBPF_EV_SYSCALL_BASE) / 2)
#define PTBPF_EV_SYSCALL_IS_EXIT(id) (((id)-PTBPF_EV_SYSCALL_BASE) & 1)

#define PTBPF_EV_USER_BASE 2048
#define PTBPF_EV_ID_LIMIT  4096

/* Path strings captured at syscall entry: at most this many bytes each. */
#define PTBPF_PATH_MAX 256
#define PTBPF_COMM_LEN 16

/* ptbpf_ev_sys_enter.flags */
#define PTBPF_SYS_PATH0_TRUNCATED 0x1
#define PTBPF_SYS_PATH1_TRUNCATED 0x2
#define PTBPF_SYS_PATH0_FAULT	  0x4 /* the pointer could not be read */
#define PTBPF_SYS_PATH1_FAULT	  0x8
/* rt_sigreturn: args[0] is the signal mask it restores (its frame's) */
#define PTBPF_SYS_SIGMASK 0x10
/* captures follow the paths (struct ptbpf_sys_cap), entry or exit */
#define PTBPF_SYS_CAPS 0x20
/* an entry whose exit brings captures of what the call wrote, the first
 * of them of argument PTBPF_SYS_EXIT_ARG(flags) */
#define PTBPF_SYS_CAPS_AT_EXIT	     0x40
#define PTBPF_SYS_EXIT_ARG(flags)    (((flags) >> 8) & 0x7)
#define PTBPF_SYS_EXIT_ARG_FLAG(arg) ((__u16)(((arg)&0x7) << 8))

/*
 * Captures, in a stream with ptbpf_trace_attr_setstrsize(): the memory
 * that a syscall's arguments point to, read by BPF from the traced
 * thread's own memory, at entry what the call reads (a write's buffer, an
 * address to connect to, execve's argv) and at a successful exit what it
 * wrote (a read's bytes, a struct stat, pipe fds). A sys_enter_NAME or
 * sys_exit_NAME payload with PTBPF_SYS_CAPS in its flags (both the full
 * forms: struct ptbpf_ev_sys_enter, struct ptbpf_ev_sys_exit_ext) holds,
 * after its paths and to the end of the payload, a run of captures: each
 * this header, then len bytes. Readers must bound every read by the
 * payload's length: the bytes are the traced process's.
 */
/* All the captures of one event take at most this many bytes, headers included. */
#define PTBPF_CAP_AREA 4096

struct ptbpf_sys_cap {
	__u8 arg;   /* the argument that points to it (0-5) */
	__u8 type;  /* PTBPF_CAP_*: what the bytes are */
	__u16 len;  /* bytes captured, which follow this header */
	__u32 full; /* bytes there were (> len: cut at the string size or the room) */
};

/* ptbpf_sys_cap.type; structures in the x86_64 user ABI's layout */
#define PTBPF_CAP_BYTES	      1	 /* a buffer; full: its size (the count, or the result) */
#define PTBPF_CAP_STR	      2	 /* a string, NUL excluded; full: its length, NUL excluded */
#define PTBPF_CAP_STAT	      3	 /* struct stat */
#define PTBPF_CAP_STATX	      4	 /* struct statx */
#define PTBPF_CAP_STATFS      5	 /* struct statfs */
#define PTBPF_CAP_SOCKADDR    6	 /* a socket address; full: the length the call gave or got */
#define PTBPF_CAP_TIMESPEC    7	 /* struct timespec, len / 16 of them */
#define PTBPF_CAP_TIMEVAL     8	 /* struct timeval */
#define PTBPF_CAP_INT	      9	 /* int, len / 4 of them (pipe fds) */
#define PTBPF_CAP_WAIT_STATUS 10 /* int: a wait status */
#define PTBPF_CAP_SIGACTION   11 /* the kernel's struct sigaction (rt_sigaction) */
#define PTBPF_CAP_SIGSET      12 /* a signal set, 8 bytes */
#define PTBPF_CAP_RLIMIT      13 /* struct rlimit */
#define PTBPF_CAP_UTSNAME     14 /* struct utsname */
#define PTBPF_CAP_SYSINFO     15 /* struct sysinfo */
#define PTBPF_CAP_POLLFD      16 /* struct pollfd, len / 8 of them */
#define PTBPF_CAP_EPOLL_EVENT 17 /* struct epoll_event (packed, 12 bytes), len / 12 of them */
/*
 * A vector of strings (execve's argv and envp): its captured entries, in
 * order, each a PTBPF_CAP_STR of the same argument, then this record:
 * len 0, full the number of entries the vector has (more than the
 * captures before it when it was cut at 32 entries or at the room).
 */
#define PTBPF_CAP_VECTOR_END 18
/* getdents64's records: len 0, full the number of records the call returned */
#define PTBPF_CAP_DIRENTS 19
/*
 * An iovec array (readv, writev...): one capture per element, in order,
 * then a PTBPF_CAP_VECTOR_END with the array's count. Each holds the
 * element's iov_base and iov_len (__u64 each), then the first bytes of its
 * buffer; full: the bytes the buffer held for the call (a read's: what its
 * result left for it), 0xffffffff when it could not be read.
 */
#define PTBPF_CAP_IOV 20
/*
 * ioctl's third argument's memory, at entry and at a successful exit: 36
 * bytes (the kernel's struct termios, the largest the reader decodes),
 * what they are depends on the command; none when they could not be read.
 */
#define PTBPF_CAP_IOCTL 21
/*
 * sendmsg's and recvmsg's struct msghdr (56 bytes: at entry for sendmsg,
 * at a successful exit for recvmsg), then of the same argument: its name
 * (a PTBPF_CAP_SOCKADDR, full: msg_namelen), its iovecs (PTBPF_CAP_IOV...
 * then PTBPF_CAP_VECTOR_END, as readv's) and its control messages (a
 * PTBPF_CAP_CMSG), those it has and that could be read.
 */
#define PTBPF_CAP_MSGHDR 22
/* recvmsg's struct msghdr at entry, alone: the name length it offered */
#define PTBPF_CAP_MSGHDR_IN 23
/* the control messages of a msghdr (struct cmsghdr...); full: msg_controllen */
#define PTBPF_CAP_CMSG 24
/* struct itimerspec: the interval, then the value (two struct timespec) */
#define PTBPF_CAP_ITIMERSPEC 25
/* an fd_set of select or pselect6: the words that hold its nfds bits */
#define PTBPF_CAP_FDSET 26
/* pselect6's last argument: its signal set's pointer and size (16 bytes);
 * the set itself follows as a PTBPF_CAP_SIGSET of the same argument */
#define PTBPF_CAP_SIGSET_ARG 27
/*
 * execve's and execveat's exit, when the call succeeded: the new program's
 * argument strings as the kernel copied them, NUL-separated (full: all
 * their bytes). The argv of the entry stops at the first string it could
 * not read (a page not yet in memory); these are the same strings, unless
 * the program was a script (its interpreter's name comes first, and the
 * count differs).
 */
#define PTBPF_CAP_ARG_STRINGS 28
/* fcntl's struct flock (32 bytes) */
#define PTBPF_CAP_FLOCK 29
/* struct rusage (144 bytes) */
#define PTBPF_CAP_RUSAGE 30
/* sigaltstack's stack_t (24 bytes) */
#define PTBPF_CAP_STACK 31
/* a CPU mask (sched_getaffinity, sched_setaffinity): its bytes */
#define PTBPF_CAP_CPUSET 32
/* a 64-bit number the call reads and may write (sendfile's offset) */
#define PTBPF_CAP_INT64 33
/* a siginfo_t (128 bytes: waitid's) */
#define PTBPF_CAP_SIGINFO 34
/* clone3's struct clone_args (its size argument's bytes, at most 88) */
#define PTBPF_CAP_CLONE_ARGS 35
/* mincore's vector, a byte a page: its first bytes (at most the string size);
 * full: the length of the range, in bytes */
#define PTBPF_CAP_MINCORE 36
/* a signal set read again at the exit, for an entry that could not read it
 * (its page was not in the process's page tables yet) */
#define PTBPF_CAP_SIGSET_LATE 37
/* struct sigevent (64 bytes: timer_create's) */
#define PTBPF_CAP_SIGEVENT 38

/*
 * "sys_enter_NAME": the raw arguments at entry, as many as the syscall
 * takes (the kernel's count for its name; all six for a number without
 * one): the others are 0, whatever their registers held. For syscalls
 * that take path names, path_len[i] bytes (NUL included) of path i follow
 * in paths[], path 0 first; path_arg[i] says which argument it was (0-5).
 */
struct ptbpf_ev_sys_enter {
	__s64 nr;
	__u64 args[6];
	__u16 path_len[2];
	__u8 path_arg[2];
	__u16 flags;
	__u16 reserved;
	char paths[];
};

/* "sys_exit_NAME": the return value (a negative errno on failure). */
struct ptbpf_ev_sys_exit {
	__s64 nr;
	__s64 ret;
};

/*
 * A sys_exit_NAME payload longer than struct ptbpf_ev_sys_exit (readers
 * take the fields past ret only from a payload this long or longer):
 * - duration: the nanoseconds from the call's entry to this exit, 0 if
 *   not known. A stream that records syscalls by their result
 *   (ptbpf_trace_attr_setsyscallstatus) has it: its entry events come
 *   when the call returns and may be stamped later than the call began
 *   (events are read in timestamp order).
 * - paths: a path the entry could not read (PTBPF_SYS_PATH*_FAULT there:
 *   its page was not mapped yet) read at exit, once the kernel has faulted
 *   it in; for execve, the kernel's copy of the name. path_len[i] bytes
 *   (NUL included) of the entry's path i follow in paths[], path 0 first;
 *   0 for a path that was not read again. flags: PTBPF_SYS_PATH*_TRUNCATED,
 *   and _FAULT for a path that could not be read at exit either.
 * - captures: with PTBPF_SYS_CAPS in flags, after the paths (struct
 *   ptbpf_sys_cap).
 */
struct ptbpf_ev_sys_exit_ext {
	__s64 nr;
	__s64 ret;
	__u64 duration;
	__u16 path_len[2];
	__u16 flags;
	__u16 reserved;
	char paths[];
};

/* "proc_fork": a new process or thread (clone, fork, vfork, clone3). */
struct ptbpf_ev_fork {
	__s32 parent_pid;
	__s32 parent_tid;
	__s32 child_pid; /* the new task's process id (tgid) */
	__s32 child_tid; /* the new task's kernel thread id */
	__u32 is_thread; /* 1: a thread of parent_pid, 0: a new process */
	char comm[PTBPF_COMM_LEN];
};

/* "proc_exec": a successful execve/execveat. */
struct ptbpf_ev_exec {
	__s32 pid;
	__s32 old_tid;	    /* the thread that called exec */
	__u32 filename_len; /* bytes of filename, NUL included */
	__u32 truncated;
	char filename[PTBPF_PATH_MAX];
};

/*
 * ptbpf_ev_untraced.reason: the process exec'ed a program that a tracer
 * without CAP_SYS_PTRACE may not ptrace-attach: one that changes its
 * credentials (set-user-ID, set-group-ID, file capabilities, a security
 * module's transition), or one that it may not read.
 */
#define PTBPF_UNTRACED_SECURE_EXEC 1
#define PTBPF_UNTRACED_UNREADABLE  2

/*
 * "proc_untraced": the process is no longer traced from this exec on, and
 * nothing more of it is recorded (see reason). filename: the program, as
 * given to exec.
 */
struct ptbpf_ev_untraced {
	__s32 pid;
	__s32 tid;
	__u32 reason;
	__u32 filename_len; /* bytes of filename, NUL included */
	char filename[PTBPF_PATH_MAX];
};

/* "thread_exit" for every thread, then "proc_exit" for the last one. */
struct ptbpf_ev_exit {
	__s32 pid;
	__s32 tid;
	__s32 exit_code;  /* as wait(2) status: (code << 8) | signal */
	__u32 group_dead; /* 1 when this was the last thread */
};

/* ptbpf_ev_signal.flags */
/*
 * signal_deliver: the SIGKILL with which the kernel ends each thread of a
 * process that is going away (exit_group, exec, a fatal signal reported
 * on another thread, a SIGKILL): no signal the thread was sent.
 */
#define PTBPF_SIG_GROUP_KILL 0x1
/*
 * signal_deliver: the fatal signal signo (sender from its signal_generate)
 * that ends the process, which the kernel delivers as a SIGKILL to every
 * thread: reported once, on the first thread that takes it.
 */
#define PTBPF_SIG_FATAL 0x2
/* status, utime and stime hold the SIGCHLD siginfo's (a child's state) */
#define PTBPF_SIG_CHLD 0x4

/*
 * "signal_generate": a signal sent to a traced process (sender_* is the
 * task that sent it, 0 when the kernel did). "signal_deliver": a signal
 * delivered to a traced thread (sender_* from siginfo where known).
 * A 32-byte payload (older logs) ends at group: readers take flags and the
 * fields after it only from a longer one.
 */
struct ptbpf_ev_signal {
	__s32 signo;
	__s32 code;
	__s32 sender_pid;
	__s32 sender_uid;
	__s32 target_pid;
	__s32 target_tid;
	__s32 result; /* signal_generate: TRACE_SIGNAL_* result of the kernel */
	__u32 group;  /* signal_generate: sent to the whole process */
	__u32 flags;  /* PTBPF_SIG_* */
	__s32 status; /* SIGCHLD: si_status (exit code, or the signal) */
	__s64 utime;  /* SIGCHLD: si_utime and si_stime (clock ticks) */
	__s64 stime;
};

/*
 * "sched_switch_out": a traced thread leaves the cpu, with its state
 * (0 = runnable, i.e. preempted; else the kernel's TASK_* bits).
 * "sched_switch_in": a traced thread gets the cpu.
 */
struct ptbpf_ev_sched_switch {
	__s32 prev_tid;
	__s32 next_tid;
	__s64 prev_state;
	__u32 cpu;
	__u32 preempt;
};

/* "sched_wakeup": a traced thread is woken up (woken by waker_tid). */
struct ptbpf_ev_sched_wakeup {
	__s32 pid;
	__s32 tid;
	__s32 waker_tid;
	__u32 target_cpu;
};

/*
 * Probes of unmodified programs (ptbpf_trace_add_probe() in
 * <ptbpf/ptbpf.h>): each probe is an event type of the user range,
 * numbered per stream and named by its spec ("uprobe:libc:malloc"), whose
 * events carry struct ptbpf_ev_probe.
 */
#define PTBPF_PROBE_UPROBE    1	  /* a function's entry: args[0..5] its integer arguments */
#define PTBPF_PROBE_URETPROBE 2	  /* a function's return: args[0] its return value */
#define PTBPF_PROBE_USDT      3	  /* a USDT probe: its note's arguments */
#define PTBPF_PROBE_ARGS_MAX  12  /* the most arguments a USDT note describes */
#define PTBPF_PROBE_STRS_MAX  4	  /* string arguments read per event */
#define PTBPF_PROBE_STR_MAX   128 /* bytes of each, NUL included */

/* ptbpf_ev_probe.flags */
#define PTBPF_PROBE_STR_TRUNCATED 0x1 /* a string did not fit */
#define PTBPF_PROBE_STR_FAULT	  0x2 /* a string's pointer could not be read */

/*
 * "uprobe:...", "uretprobe:...", "usdt:...": nargs values in args (6, 1,
 * or the USDT note's count), the others zero. The arguments the spec
 * types as str are read as strings: nstrs of them, string i of
 * str_len[i] bytes (NUL included; 0 when it could not be read) for
 * argument str_arg[i], one after the other in strs[].
 */
struct ptbpf_ev_probe {
	__u8 kind; /* PTBPF_PROBE_* */
	__u8 nargs;
	__u8 nstrs;
	__u8 flags;
	__u8 str_arg[PTBPF_PROBE_STRS_MAX];
	__u64 args[PTBPF_PROBE_ARGS_MAX];
	__u16 str_len[PTBPF_PROBE_STRS_MAX];
	char strs[];
};

/*
 * "user_stack": what a later unwinder needs to walk the user stack of the
 * event before it on the same thread (event_id; a stream records it only
 * for the syscall entries ptbpf_trace_attr_setstacks() selects): the
 * thread's user registers at the syscall (x86_64: rax rdx rcx rbx rsi rdi
 * rbp rsp r8-r15 rip, its DWARF numbering; arm64, the same slots for sp
 * and pc: x19-x25 sp x26-x28 x29 (fp) x30 (lr) x0-x2 pc), and
 * stack_len bytes of its stack from regs[PTBPF_STACK_REG_SP] up. The copy
 * is shorter than asked (PTBPF_STACK_SHORT) when the stack ends first.
 * An event whose stack could not be written has none; a user_stack whose
 * event was not recorded (a full ring, a syscall status filter) follows
 * an event of another id or thread and belongs to none.
 */
#define PTBPF_STACK_REGS	 17
#define PTBPF_STACK_REG_SP	 7
#define PTBPF_STACK_REG_IP	 16
#define PTBPF_USER_STACK_DEFAULT 8192  /* bytes of stack copied by default */
#define PTBPF_USER_STACK_MAX	 16384 /* the most a stream copies per event */

/* ptbpf_ev_user_stack.flags; its high byte: the frames to unwind at
 * most (0, a log of an older version: not said) */
#define PTBPF_STACK_SHORT	  0x1 /* the stack ended before the bytes asked for */
#define PTBPF_STACK_DEPTH(flags)  ((unsigned int)(flags) >> 8)
#define PTBPF_STACK_DEPTH_DEFAULT 32  /* frames of a stack by default */
#define PTBPF_STACK_DEPTH_MAX	  127 /* the kernel's PERF_MAX_STACK_DEPTH */

struct ptbpf_ev_user_stack {
	__u32 event_id; /* the id of the event it belongs to */
	__u16 flags;
	__u16 stack_len; /* bytes of stack[] (at most PTBPF_USER_STACK_MAX) */
	__u64 regs[PTBPF_STACK_REGS];
	__u8 stack[];
};

/*
 * "proc_map": a file mapped executable into a traced process of a stream
 * with stacks, what an unwinder needs to find the module of an address:
 * PTBPF_MAP_MMAP, an mmap(PROT_EXEC) of path's bytes from offset at start
 * (len bytes); after an exec, PTBPF_MAP_EXEC the program (start is its
 * entry point as run, AT_ENTRY: less the ELF's e_entry, its load bias)
 * and PTBPF_MAP_INTERP its ELF interpreter (start is AT_BASE, its load
 * bias; path empty: the program's PT_INTERP names it). path is absolute,
 * path_len bytes with the NUL; a path that did not fit is cut at the
 * root's side and flagged truncated. dev (major << 20 | minor), ino and
 * size identify the file that was mapped (0: not known, the interpreter):
 * a reader tells it from another file at the same path later.
 */
#define PTBPF_MAP_MMAP	   1
#define PTBPF_MAP_EXEC	   2
#define PTBPF_MAP_INTERP   3
#define PTBPF_MAP_PATH_MAX 512

#define PTBPF_BUILD_ID_MAX 64

struct ptbpf_ev_proc_map {
	__u64 start;
	__u64 len;
	__u64 offset;
	__u64 ino;
	__u64 size;
	__u32 dev;
	__u32 kind;
	__u32 path_len;
	/* the file's GNU build-id (its NT_GNU_BUILD_ID note), build_id_len
	 * bytes in path[] right after the path's NUL; 0: not known (no
	 * note, a file replaced before it was read, a log of an older
	 * version). path_len + build_id_len <= PTBPF_MAP_PATH_MAX. */
	__u32 build_id_len;
	char path[PTBPF_MAP_PATH_MAX];
};

/*
 * Stacks whose return addresses are known when they are taken (the
 * kernel stack, the user stack walked by frame pointers) are stored once
 * per stream: "stack_trace" is a stack of nr addresses (innermost first),
 * written before the first "stack_ref" to it. "stack_ref" follows an
 * event as user_stack does (event_id its id, the same thread): the ids of
 * its user and kernel stacks, 0 for none (not asked for, or not taken).
 * An id whose stack_trace is not in a log (lost, filtered) is unknown.
 * The kernel stack begins with the frames of the tracing (the BPF program
 * and its callers up to the tracepoint), which readers leave out, then at
 * most depth frames are the event's (0: not said).
 */
#define PTBPF_STACK_TRACE_KERNEL 0x1 /* ptbpf_ev_stack_trace.flags: kernel addresses */
#define PTBPF_STACK_TRACE_MAX	 (PTBPF_STACK_DEPTH_MAX + 8)

struct ptbpf_ev_stack_trace {
	__u32 stack_id; /* 1 and up, per stream */
	__u16 flags;
	__u16 nr; /* at most PTBPF_STACK_TRACE_MAX */
	__u64 ips[];
};

struct ptbpf_ev_stack_ref {
	__u32 event_id;
	__u32 user_id;
	__u32 kernel_id;
	__u32 depth; /* frames of each stack shown at most */
};

/*
 * "fd_info": what a file descriptor of a traced process refers to, for a
 * stream that asks for it (ptbpf_trace_attr_setfdinfo() in <ptbpf/ptbpf.h>):
 * written when a syscall makes the fd (open, socket, accept, dup, pipe,
 * eventfd, ...: one event per new fd, before the call's exit event), when
 * a socket's addresses become known (bind, connect, listen), when its
 * close-on-exec flag changes (fcntl F_SETFD, ioctl FIOCLEX), and for the
 * working directory (fd AT_FDCWD, a PTBPF_FD_FILE) when it changes
 * (chdir, fchdir); when tracing starts, one for each fd the process has
 * open then and its working directory, flagged PTBPF_FD_SNAPSHOT (read
 * from /proc/PID/fd). PTBPF_FD_CLOSED: fds fd to fd_last were closed
 * (close, close_range; with PTBPF_FD_CLOEXEC, close_range only set their
 * close-on-exec flag). A process's exec closes the fds flagged
 * PTBPF_FD_CLOEXEC without an event.
 *
 * kind says what path holds (path_len bytes with the NUL):
 * - PTBPF_FD_FILE: the file's absolute path (regular file, directory,
 *   device, named FIFO), cut at the root's side and the event flagged
 *   truncated if it did not fit; PTBPF_FD_DELETED: it was unlinked.
 * - PTBPF_FD_PIPE, PTBPF_FD_SOCKET: empty; /proc shows "pipe:[ino]",
 *   "socket:[ino]".
 * - PTBPF_FD_ANON: the anon inode's name ("[eventfd]": /proc shows
 *   "anon_inode:[eventfd]"); PTBPF_FD_OTHER, another pseudo file's name
 *   as /proc shows it, if known (else empty).
 * For a socket, family, type and protocol (AF_*, SOCK_*, IPPROTO_*); AF_INET
 * and AF_INET6: the local and remote addresses and ports (network byte
 * order addresses, host order ports; 0: not bound or not connected);
 * AF_UNIX: peer_ino the peer's inode (0: none) and path its bound name
 * ('@' first for an abstract one). ino, dev (major << 20 | minor) and mode
 * are the inode's; rdev the device's number for a device file.
 */
#define PTBPF_FD_FILE	1
#define PTBPF_FD_PIPE	2
#define PTBPF_FD_SOCKET 3
#define PTBPF_FD_ANON	4
#define PTBPF_FD_OTHER	5
#define PTBPF_FD_CLOSED 6

/* ptbpf_ev_fd_info.flags */
#define PTBPF_FD_CLOEXEC  0x1 /* the fd's close-on-exec flag is set */
#define PTBPF_FD_DELETED  0x2 /* the file was unlinked */
#define PTBPF_FD_SNAPSHOT 0x4 /* open when tracing started */

#define PTBPF_FD_PATH_MAX 512

struct ptbpf_ev_fd_info {
	__s32 fd;
	__s32 fd_last; /* PTBPF_FD_CLOSED: the last fd of the range; else fd */
	__u16 kind;    /* PTBPF_FD_* */
	__u16 flags;
	__u32 mode;
	__u64 ino;
	__u32 dev;
	__u32 rdev;
	__u16 family;
	__u16 type;
	__u16 protocol;
	__u16 lport;
	__u16 rport;
	__u16 reserved;
	__u32 path_len;
	__u8 laddr[16];
	__u8 raddr[16];
	__u64 peer_ino;
	char path[PTBPF_FD_PATH_MAX];
};

#endif /* PTBPF_EVENTS_H */
