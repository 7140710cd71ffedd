/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * The benchmark's reference tracer (bench/reftracer.c): the smallest
 * record a syscall tracer can write. Not used by the library.
 */
#ifndef PTBPF_BENCH_REF_H
#define PTBPF_BENCH_REF_H

#define BENCH_REF_EXIT	   0x80000000u /* bench_ref_rec.nr: a sys_exit record */
#define BENCH_REF_PATH	   0x40000000u /* bench_ref_rec.nr: a bench_ref_path_rec */
#define BENCH_REF_MAX_PIDS 64
#define BENCH_REF_NR_MAX   512
#define BENCH_REF_PATH_MAX 256 /* as PTBPF_PATH_MAX */
#define BENCH_REF_MAX_CPUS 256 /* rings and counters (a power of 2) */

/* Per CPU, on a cache line of its own. */
struct bench_ref_count {
	__u64 emitted;
	__u64 dropped;
	__u64 pad[6];
};

struct bench_ref_rec {
	__u64 ts;
	__u32 tid;
	__u32 nr;  /* syscall number, | BENCH_REF_EXIT at exit */
	__s64 val; /* first argument at entry, return value at exit */
};

/* The entry of a syscall with a path argument, with -p: the path too. */
struct bench_ref_path_rec {
	struct bench_ref_rec r;
	__s32 path_len; /* bpf_probe_read_user_str()'s result */
	__u32 pad;
	char path[BENCH_REF_PATH_MAX];
};

#endif /* PTBPF_BENCH_REF_H */
