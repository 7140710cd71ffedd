/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscalls counted in the kernel (bpf/count.bpf.h): the key and value of
 * the per-CPU hash map cnt_stats, read by src/backend/kern_count.c.
 */
#ifndef PTBPF_BPF_COUNT_H
#define PTBPF_BPF_COUNT_H

/* log2 buckets of a call's time: [0] 0 ns, [k] 2^(k-1) to 2^k - 1 ns, the
 * last one also all longer (PTBPF_HIST_BUCKETS of <ptbpf/ptbpf.h>) */
#define KERN_COUNT_BUCKETS 40

/* count_by (rodata): what a key tells apart besides the syscall */
#define KERN_COUNT_SYSCALL 0 /* pid and tid 0 */
#define KERN_COUNT_PROCESS 1 /* tid 0 */
#define KERN_COUNT_THREAD  2

/* entries of cnt_stats (syscall x errno x process or thread) */
#define KERN_COUNT_MAX 16384
/* threads in a syscall at once whose entry is remembered */
#define KERN_COUNT_STARTS 16384

struct kern_count_key {
	__s32 pid; /* as the stream's ids: its creator's pid namespace's */
	__s32 tid;
	__u16 nr;
	__u16 err; /* the errno it failed with, 0: it did not */
};

/*
 * One CPU's counts of a key. Its calls are the sum of its buckets: a
 * reader adding up the CPUs gets a count that never goes backwards and
 * always equals the histogram's.
 */
struct kern_count_val {
	__u64 calls; /* on this CPU (for min_ns): readers add up hist */
	__u64 total_ns;
	__u64 min_ns; /* of calls on this CPU, when it has some */
	__u64 max_ns;
	char comm[16]; /* the task's name when it first counted here */
	__u64 hist[KERN_COUNT_BUCKETS];
};

/* the start of a syscall in progress, by thread (ts 0: none) */
struct kern_count_start {
	__u64 ts;
	__u32 nr;
	__u32 pad;
};

#endif
