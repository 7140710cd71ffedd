/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * The benchmark's reference tracer (bench/reftracer.c): the smallest
 * record a syscall tracer can write. Not used by the library.
 */
#ifndef PTBPF_BENCH_REF_H
#define PTBPF_BENCH_REF_H

#define BENCH_REF_EXIT 0x80000000u /* bench_ref_rec.nr: a sys_exit record */
#define BENCH_REF_MAX_PIDS 64

struct bench_ref_rec {
	__u64 ts;
	__u32 tid;
	__u32 nr;  /* syscall number, | BENCH_REF_EXIT at exit */
	__s64 val; /* first argument at entry, return value at exit */
};

#endif /* PTBPF_BENCH_REF_H */
