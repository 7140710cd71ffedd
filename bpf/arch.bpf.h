/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * What differs between the architectures in the BPF programs: the syscall
 * registers of a tp_btf pt_regs (a BTF pointer: plain loads, CO-RE
 * relocated), the user register frame the user_stack event copies, the
 * compat (32-bit) task test and the few syscall numbers the programs test
 * (the others come from user space, by number, from schema/syscalls.def).
 * arm64's numbers are <asm-generic/unistd.h>'s; a call arm64 lacks gets a
 * negative number no syscall has, so that its case labels stay distinct.
 */
#ifndef PTBPF_BPF_ARCH_H
#define PTBPF_BPF_ARCH_H

#if defined(__TARGET_ARCH_x86)

#define SC_NR(r)   ((r)->orig_ax)
#define SC_ARG0(r) ((r)->di)
#define SC_ARG1(r) ((r)->si)
#define SC_ARG2(r) ((r)->dx)
#define SC_ARG3(r) ((r)->r10)
#define SC_ARG4(r) ((r)->r8)
#define SC_ARG5(r) ((r)->r9)
#define REG_IP	   ip /* pt_regs' field names, for BPF_CORE_READ */
#define REG_SP	   sp
/* rt_sigreturn's entry: the handler's return popped the frame's first word */
#define SIGFRAME_SP_OFF (-(long)sizeof(long))

/* the user registers in DWARF order (events.h's PTBPF_STACK_REGS) */
#define USER_REGS(g, r)                                                                            \
	do {                                                                                       \
		(g)[0] = (r)->ax;                                                                  \
		(g)[1] = (r)->dx;                                                                  \
		(g)[2] = (r)->cx;                                                                  \
		(g)[3] = (r)->bx;                                                                  \
		(g)[4] = (r)->si;                                                                  \
		(g)[5] = (r)->di;                                                                  \
		(g)[6] = (r)->bp;                                                                  \
		(g)[7] = (r)->sp;                                                                  \
		(g)[8] = (r)->r8;                                                                  \
		(g)[9] = (r)->r9;                                                                  \
		(g)[10] = (r)->r10;                                                                \
		(g)[11] = (r)->r11;                                                                \
		(g)[12] = (r)->r12;                                                                \
		(g)[13] = (r)->r13;                                                                \
		(g)[14] = (r)->r14;                                                                \
		(g)[15] = (r)->r15;                                                                \
		(g)[16] = (r)->ip;                                                                 \
	} while (0)

/* the thread's pthread_self(): glibc's (and musl's) thread pointer */
#define TASK_THREAD(t)	    ((t)->thread.fsbase)
#define TASK_THREAD_READ(t) BPF_CORE_READ(t, thread.fsbase)

#define TS_COMPAT_FLAG	      0x0002 /* thread_info.status: in a 32-bit syscall (other numbers) */
#define TASK_COMPAT_EXISTS(t) bpf_core_field_exists((t)->thread_info.status)
#define TASK_COMPAT(t)	      ((t)->thread_info.status & TS_COMPAT_FLAG)
#define TASK_COMPAT_READ(t)   (BPF_CORE_READ(t, thread_info.status) & TS_COMPAT_FLAG)

enum {
	NR_mmap = 9,
	NR_rt_sigreturn = 15,
	NR_execve = 59,
	NR_exit = 60,
	NR_exit_group = 231,
	/* the syscalls that make, change or drop fds (fdinfo.bpf.h) */
	NR_pipe = 22,
	NR_dup = 32,
	NR_dup2 = 33,
	NR_socket = 41,
	NR_connect = 42,
	NR_accept = 43,
	NR_bind = 49,
	NR_listen = 50,
	NR_socketpair = 53,
	NR_open = 2,
	NR_close = 3,
	NR_ioctl = 16,
	NR_fcntl = 72,
	NR_chdir = 80,
	NR_fchdir = 81,
	NR_creat = 85,
	NR_epoll_create = 213,
	NR_mq_open = 240,
	NR_inotify_init = 253,
	NR_openat = 257,
	NR_signalfd = 282,
	NR_timerfd_create = 283,
	NR_eventfd = 284,
	NR_accept4 = 288,
	NR_signalfd4 = 289,
	NR_eventfd2 = 290,
	NR_epoll_create1 = 291,
	NR_dup3 = 292,
	NR_pipe2 = 293,
	NR_inotify_init1 = 294,
	NR_perf_event_open = 298,
	NR_fanotify_init = 300,
	NR_open_by_handle_at = 304,
	NR_memfd_create = 319,
	NR_userfaultfd = 323,
};

#elif defined(__TARGET_ARCH_arm64)

/* x0 is the return value at the exit: the first argument stays in orig_x0 */
#define SC_NR(r)	((r)->syscallno)
#define SC_ARG0(r)	((r)->orig_x0)
#define SC_ARG1(r)	((r)->regs[1])
#define SC_ARG2(r)	((r)->regs[2])
#define SC_ARG3(r)	((r)->regs[3])
#define SC_ARG4(r)	((r)->regs[4])
#define SC_ARG5(r)	((r)->regs[5])
#define REG_IP		pc
#define REG_SP		sp
/* rt_sigreturn's entry: sp is still the frame the kernel built */
#define SIGFRAME_SP_OFF 0

/*
 * The user registers in events.h's arm64 order: the callee-saved x19-x28,
 * the frame pointer x29 and the link register x30 that unwinding needs,
 * sp and pc at the same slots as x86_64's, x0-x2 in the rest.
 */
#define USER_REGS(g, r)                                                                            \
	do {                                                                                       \
		for (int i_ = 0; i_ < 7; i_++)                                                     \
			(g)[i_] = (r)->regs[19 + i_];                                              \
		(g)[7] = (r)->sp;                                                                  \
		for (int i_ = 0; i_ < 5; i_++)                                                     \
			(g)[8 + i_] = (r)->regs[26 + i_];                                          \
		(g)[13] = (r)->regs[0];                                                            \
		(g)[14] = (r)->regs[1];                                                            \
		(g)[15] = (r)->regs[2];                                                            \
		(g)[16] = (r)->pc;                                                                 \
	} while (0)

/*
 * The thread's pthread_self(): its thread pointer (TPIDR_EL0) plus
 * thread_tp_off, which user space measures in its own thread before load
 * (glibc's struct pthread lies below the pointer); 0 without one.
 */
const volatile __u64 thread_tp_off = 0;
#define TP_THREAD(tp)	      ((tp) ? (tp) + thread_tp_off : 0)
#define TASK_THREAD(t)	      TP_THREAD((t)->thread.uw.tp_value)
#define TASK_THREAD_READ(t)   TP_THREAD(BPF_CORE_READ(t, thread.uw.tp_value))

/* thread_info.flags: a 32-bit (AArch32) task, TIF_32BIT of
 * arch/arm64/include/asm/thread_info.h (a #define: not in BTF) */
#define TIF_32BIT_MASK	      (1UL << 22)
#define TASK_COMPAT_EXISTS(t) bpf_core_field_exists((t)->thread_info.flags)
#define TASK_COMPAT(t)	      ((t)->thread_info.flags & TIF_32BIT_MASK)
#define TASK_COMPAT_READ(t)   (BPF_CORE_READ(t, thread_info.flags) & TIF_32BIT_MASK)

enum {
	NR_mmap = 222,
	NR_rt_sigreturn = 139,
	NR_execve = 221,
	NR_exit = 93,
	NR_exit_group = 94,
	NR_pipe = -2,
	NR_dup = 23,
	NR_dup2 = -3,
	NR_socket = 198,
	NR_connect = 203,
	NR_accept = 202,
	NR_bind = 200,
	NR_listen = 201,
	NR_socketpair = 199,
	NR_open = -4,
	NR_close = 57,
	NR_ioctl = 29,
	NR_fcntl = 25,
	NR_chdir = 49,
	NR_fchdir = 50,
	NR_creat = -5,
	NR_epoll_create = -6,
	NR_mq_open = 180,
	NR_inotify_init = -7,
	NR_openat = 56,
	NR_signalfd = -8,
	NR_timerfd_create = 85,
	NR_eventfd = -9,
	NR_accept4 = 242,
	NR_signalfd4 = 74,
	NR_eventfd2 = 19,
	NR_epoll_create1 = 20,
	NR_dup3 = 24,
	NR_pipe2 = 59,
	NR_inotify_init1 = 26,
	NR_perf_event_open = 241,
	NR_fanotify_init = 262,
	NR_open_by_handle_at = 265,
	NR_memfd_create = 279,
	NR_userfaultfd = 282,
};

#else
#error "bpf/arch.bpf.h: no registers and numbers for this __TARGET_ARCH"

#endif

/* the same on both: the numbers every architecture shares from 403 on */
enum {
	NR_io_uring_setup = 425,
	NR_open_tree = 428,
	NR_fsopen = 430,
	NR_fsmount = 432,
	NR_fspick = 433,
	NR_pidfd_open = 434,
	NR_close_range = 436,
	NR_openat2 = 437,
	NR_pidfd_getfd = 438,
	NR_landlock_create_ruleset = 444,
	NR_memfd_secret = 447,
};

/*
 * Every number checked against the target's <asm/unistd.h> (cmake/bpf.cmake's
 * -idirafter: the build host's, a cross build's sysroot's); the calls arm64
 * lacks must be absent there.
 */
#include <asm/unistd.h>
/* clang-format off */
#define NR_CHECK(n) _Static_assert(NR_##n == __NR_##n, "arch.bpf.h: NR_" #n " is not __NR_" #n)
NR_CHECK(mmap); NR_CHECK(rt_sigreturn); NR_CHECK(execve); NR_CHECK(exit); NR_CHECK(exit_group);
NR_CHECK(dup); NR_CHECK(socket); NR_CHECK(connect); NR_CHECK(accept); NR_CHECK(bind);
NR_CHECK(listen); NR_CHECK(socketpair); NR_CHECK(close); NR_CHECK(ioctl); NR_CHECK(fcntl);
NR_CHECK(chdir); NR_CHECK(fchdir); NR_CHECK(mq_open); NR_CHECK(openat);
NR_CHECK(timerfd_create); NR_CHECK(accept4); NR_CHECK(signalfd4); NR_CHECK(eventfd2);
NR_CHECK(epoll_create1); NR_CHECK(dup3); NR_CHECK(pipe2); NR_CHECK(inotify_init1);
NR_CHECK(perf_event_open); NR_CHECK(fanotify_init); NR_CHECK(open_by_handle_at);
NR_CHECK(memfd_create); NR_CHECK(userfaultfd); NR_CHECK(io_uring_setup); NR_CHECK(open_tree);
NR_CHECK(fsopen); NR_CHECK(fsmount); NR_CHECK(fspick); NR_CHECK(pidfd_open);
NR_CHECK(close_range); NR_CHECK(openat2); NR_CHECK(pidfd_getfd);
NR_CHECK(landlock_create_ruleset); NR_CHECK(memfd_secret);
#if defined(__TARGET_ARCH_x86)
NR_CHECK(pipe); NR_CHECK(dup2); NR_CHECK(open); NR_CHECK(creat); NR_CHECK(epoll_create);
NR_CHECK(inotify_init); NR_CHECK(signalfd); NR_CHECK(eventfd);
#elif defined(__NR_pipe) || defined(__NR_dup2) || defined(__NR_open) || defined(__NR_creat) || \
	defined(__NR_epoll_create) || defined(__NR_inotify_init) || defined(__NR_signalfd) || \
	defined(__NR_eventfd)
#error "arch.bpf.h: a call this architecture lacks has a number"
#endif
/* clang-format on */

#endif
