/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Record format of the kernel backend: what bpf/kern.bpf.c writes to its
 * BPF ring buffer and src/backend/kern.c reads. Fixed-size __u32-style
 * types only (the BPF side includes vmlinux.h, user space <linux/types.h>).
 */
#ifndef PTBPF_BPF_KERN_H
#define PTBPF_BPF_KERN_H

#include <ptbpf/events.h>

/*
 * One record: this header, then data_len bytes of the payload of event id
 * (a struct of include/ptbpf/events.h, or its compact form: below). 40
 * bytes: every byte a record takes is a store into a cache line of the
 * ring that the syscall pays for.
 */
struct kern_rec {
	__u64 ts;	 /* bpf_ktime_get_ns(): CLOCK_MONOTONIC (first: the merge's key) */
	__u64 prog_addr; /* user ip where the task entered the kernel, or 0 */
	__u64 thread;	 /* its pthread_self() (x86_64: fsbase), or 0 */
	__u32 id;	 /* event id, or KERN_ID_DROPS */
	__s32 pid;	 /* tgid of the task the event is about */
	__s32 tid;	 /* its kernel thread id */
	__u16 data_len;	 /* payload bytes after the header */
	__u16 flags;	 /* KERN_REC_* */
};

/* kern_rec.flags */
#define KERN_REC_TRUNCATED 0x1 /* a path or file name did not fit */
/*
 * The payload is the compact form of the event's struct, which user space
 * expands: sys_enter_NAME without a path argument, the arguments the
 * syscall takes (__u64 each, 0 to 6: the others are zero once expanded);
 * sys_exit_NAME, the return value (__s64). The syscall number is in the
 * id, the other fields are zero.
 */
#define KERN_REC_COMPACT 0x2

/*
 * A record of id KERN_ID_DROPS (no event) carries struct kern_drops: written
 * before the next record a CPU writes after records were dropped (a full
 * ring), so that user space reports the loss where it happened.
 */
#define KERN_ID_DROPS 0xffffffffu

struct kern_drops {
	__u64 dropped;	/* the cumulative drop counter when this was written */
	__u64 first_ts; /* time of the first drop of the episode */
};

/*
 * A record of id KERN_ID_STACK (no event) carries struct kern_stack: after
 * a syscall entry, the addresses of its stacks that the kernel walked,
 * innermost first: nuser of the user stack at ips[0] (an area of depth
 * addresses when the user stack is asked for), then nkernel of the
 * kernel stack (an area of depth + KERN_STACK_TRACER_FRAMES: it begins
 * with the BPF program and what called it). User space turns it into
 * stack_trace and stack_ref events.
 */
#define KERN_ID_STACK 0xfffffffeu

/* bpf/stack.bpf.h stack_ips: which stacks are walked */
#define KERN_STACK_USER	  0x1u
#define KERN_STACK_KERNEL 0x2u
/* kernel frames taken beyond the depth, for the tracing's own */
#define KERN_STACK_TRACER_FRAMES 8

struct kern_stack {
	__u32 event_id;
	__u16 nuser;
	__u16 nkernel;
	__u64 ips[];
};

/*
 * Path arguments of syscall nr (rodata table set before load): the low
 * nibble is 1 + the argument index of the first path (0: none), the high
 * nibble that of the second.
 */
/* syscall_status: the results of the syscalls a stream records */
#define KERN_SYS_SUCCESSFUL 0x1u
#define KERN_SYS_FAILED	    0x2u

#define KERN_PATH_ARG(a0, a1) ((__u8)(((a0) + 1) | (((a1) + 1) << 4)))
#define KERN_PATH_ARG0(v)     ((int)((v)&0xf) - 1)
#define KERN_PATH_ARG1(v)     ((int)(((v) >> 4) & 0xf) - 1)

/* Words of the event filter bitmap: one bit per event id < 2048. */
#define KERN_FILTER_IDS	  2048
#define KERN_FILTER_WORDS (KERN_FILTER_IDS / 64)

#define KERN_MAX_PIDS 16384
/* pids' values: traced; or held, written nothing while user space checks
 * that the caller may trace the process (an exec changing its credentials
 * still ends it: see kern_backend__hold_pid) */
#define KERN_PID_TRACED	  1
#define KERN_PID_HELD	  2
#define KERN_MAX_EXCLUDED 1024
/* cgroup v2 directories a stream traces the processes of (bpf/cgroup.bpf.h) */
#define KERN_MAX_CGROUPS 64
/* a process's start time there: in /proc/PID/stat's clock ticks (USER_HZ 100) */
#define KERN_CG_TICK_NS 10000000ull
/* One ring per CPU (a power of two above any possible CPU count we map). */
#define KERN_MAX_RINGS 1024

/*
 * Records written, counted per ring (per CPU), each on a cache line of its
 * own: one counter for all would bounce its line between the CPUs at every
 * record. User space adds them up.
 */
struct kern_ring_count {
	__u64 emitted;
	__u64 pad[7];
};

/* CPUs with an in-flight slot (CPU numbers at or above have none) */
#define KERN_MAX_CPUS KERN_MAX_RINGS

/*
 * One CPU's record built in a map (bpf_ringbuf_output), stamped but maybe
 * not in its ring yet, on a cache line of its own: ts is 0 (none), 1
 * (being stamped) or its time. A drain reads it for its watermark
 * (kern_backend__watermark).
 */
struct kern_in_flight {
	__u64 ts;
	__u64 pad[7];
};

/*
 * Captures (bpf/caps.bpf.h): what syscall nr's arguments point to, as up
 * to KERN_CAPS specs of a rodata table set before load from
 * src/backend/syscall_caps.c. All the captures of one event take at most
 * KERN_CAP_AREA bytes, headers included.
 */
#define KERN_CAPS     6
#define KERN_CAP_AREA PTBPF_CAP_AREA

/* kern_cap_spec.size: where the size of the memory comes from */
#define KERN_CAP_FIXED	   1  /* max bytes */
#define KERN_CAP_ARG	   2  /* args[size_arg] bytes, at most max (0: the string size) */
#define KERN_CAP_RET	   3  /* the result's bytes, at most max (0: the string size) */
#define KERN_CAP_ARG_ELEMS 4  /* args[size_arg] elements of max bytes */
#define KERN_CAP_RET_ELEMS 5  /* the result's count of elements of max bytes */
#define KERN_CAP_LENPTR	   6  /* the socklen_t args[size_arg] points to, at most max */
#define KERN_CAP_STRING	   7  /* a NUL-terminated string, at most the string size */
#define KERN_CAP_VECTOR	   8  /* a NULL-terminated array of strings (execve) */
#define KERN_CAP_COUNT	   9  /* the same, only counted */
#define KERN_CAP_DIRENTS   10 /* the linux_dirent64 records of the result's bytes, counted */
#define KERN_CAP_IOVEC	   11 /* args[size_arg] struct iovec and their buffers */
#define KERN_CAP_MSGHDR	   12 /* a struct msghdr, its name, iovecs and control (max bytes) */
#define KERN_CAP_FDSETS	   13 /* the fd_sets of the 3 args after arg, of args[arg] bits */
/* args[arg] points to a { pointer, length } pair (pselect6's sigmask): the
 * bytes that pointer points to, the length's, at most max */
#define KERN_CAP_PTRLEN 14
/* the exit of a successful exec: the new program's argument strings as the
 * kernel copied them (its mm's arg_start to arg_end), at most max bytes */
#define KERN_CAP_ARGAREA 15

/* kern_cap_spec.when; by syscall, also the first argument its exit captures */
#define KERN_CAP_ENTRY		  0x1
#define KERN_CAP_EXIT		  0x2
#define KERN_CAP_WHEN_ARG_SHIFT	  4
#define KERN_CAP_WHEN_EXIT_ARG(w) (((w) >> KERN_CAP_WHEN_ARG_SHIFT) & 0x7)

struct kern_cap_spec {
	__u8 type;     /* PTBPF_CAP_*, 0: no capture */
	__u8 arg;      /* the argument that points to the memory */
	__u8 size;     /* KERN_CAP_FIXED ... */
	__u8 size_arg; /* the argument that holds the size or count */
	__u16 max;
	__u16 when; /* KERN_CAP_ENTRY or KERN_CAP_EXIT */
};

/* Largest record: a sys_enter with two full paths and its captures. */
#define KERN_REC_MAX                                                                               \
	(sizeof(struct kern_rec) + sizeof(struct ptbpf_ev_sys_enter) + 2 * PTBPF_PATH_MAX +        \
	 KERN_CAP_AREA)

#endif
