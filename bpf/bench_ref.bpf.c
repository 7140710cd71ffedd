// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/*
 * Reference tracer of the benchmark (bench/reftracer.c), the cost floor of
 * an eBPF syscall tracer: tp_btf sys_enter and sys_exit, a hash lookup of
 * the process id, one small ring buffer record written without wakeup
 * (user space drains the rings on a timer). Not used by the library.
 * A ring and counters per CPU, as ptbpf has: with one ring and one
 * counter shared by all CPUs, threads on two CPUs contend for the ring's
 * lock and the counter's cache line, and the floor is no floor (its
 * overhead on the 2-thread loop varies by run).
 * With wakeup_bytes set it wakes its reader like ptbpf does instead, to
 * measure what the wakeups cost. With path_arg set, it also copies the
 * path argument of the syscalls that have one, as ptbpf does, in the
 * cheapest way: into a record of fixed size.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "bench_ref.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* 0: never wake the reader (it drains on a timer); else wake it when
 * more than this many bytes wait (what ptbpf's kern.bpf.c does). */
const volatile __u64 wakeup_bytes = 0;
/* by syscall number: 1 + the index of its path argument (0 or 1), or 0 */
const volatile __u8 path_arg[BENCH_REF_NR_MAX];

/* rings in use (the number of possible CPUs, at most BENCH_REF_MAX_CPUS) */
const volatile __u32 nr_rings = 1;

/* by CPU, each on its own cache line */
struct bench_ref_count counts[BENCH_REF_MAX_CPUS] __attribute__((aligned(64)));

/* a ring buffer per CPU, created by user space */
#include "rings.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BENCH_REF_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

/* This CPU's ring and counters. */
struct ring_ref {
	void *ring;
	struct bench_ref_count *cnt;
};

static __always_inline __u64 ring_flags(void *ring)
{
	if (!wakeup_bytes)
		return BPF_RB_NO_WAKEUP;
	if (bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) > wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

/* A record of size bytes for the current task if its process is traced. */
static __always_inline void *rec_reserve(struct ring_ref *rr, __u64 pid_tgid, __u64 size)
{
	__u32 tgid = pid_tgid >> 32;
	__u32 cpu;
	void *r = NULL;

	if (!bpf_map_lookup_elem(&pids, &tgid))
		return NULL;
	cpu = nr_rings > 1 ? bpf_get_smp_processor_id() : 0;
	rr->cnt = &counts[cpu & (BENCH_REF_MAX_CPUS - 1)];
	rr->ring = bpf_map_lookup_elem(&rings, &cpu);
	if (rr->ring)
		r = bpf_ringbuf_reserve(rr->ring, size, 0);
	if (!r)
		__sync_fetch_and_add(&rr->cnt->dropped, 1);
	return r;
}

static __always_inline void rec_submit(struct ring_ref *rr, void *r)
{
	bpf_ringbuf_submit(r, ring_flags(rr->ring));
	__sync_fetch_and_add(&rr->cnt->emitted, 1);
}

static __always_inline int emit(__u32 nr, __s64 val)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct ring_ref rr;
	struct bench_ref_rec *r = rec_reserve(&rr, pid_tgid, sizeof(*r));

	if (!r)
		return 0;
	r->ts = bpf_ktime_get_ns();
	r->tid = (__u32)pid_tgid;
	r->nr = nr;
	r->val = val;
	rec_submit(&rr, r);
	return 0;
}

static __always_inline int emit_path(__u32 nr, struct pt_regs *regs, __u8 pa)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct ring_ref rr;
	struct bench_ref_path_rec *r = rec_reserve(&rr, pid_tgid, sizeof(*r));
	const void *uptr;

	if (!r)
		return 0;
	r->r.ts = bpf_ktime_get_ns();
	r->r.tid = (__u32)pid_tgid;
	r->r.nr = nr | BENCH_REF_PATH;
	r->r.val = (__s64)PT_REGS_PARM1_CORE_SYSCALL(regs);
	uptr = (const void *)(pa == 1 ? r->r.val : (__s64)PT_REGS_PARM2_CORE_SYSCALL(regs));
	r->path_len = bpf_probe_read_user_str(r->path, sizeof(r->path), uptr);
	r->pad = 0;
	rec_submit(&rr, r);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(bench_ref_enter, struct pt_regs *regs, long id)
{
	__u8 pa = id >= 0 && id < BENCH_REF_NR_MAX ? path_arg[id & (BENCH_REF_NR_MAX - 1)] : 0;

	if (pa)
		return emit_path((__u32)id, regs, pa);
	return emit((__u32)id, (__s64)PT_REGS_PARM1_CORE_SYSCALL(regs));
}

SEC("tp_btf/sys_exit")
int BPF_PROG(bench_ref_exit, struct pt_regs *regs, long ret)
{
#if defined(__TARGET_ARCH_x86)
	long nr = BPF_CORE_READ(regs, orig_ax);
#elif defined(__TARGET_ARCH_arm64)
	long nr = BPF_CORE_READ(regs, syscallno);
#else
	long nr = -1;
#endif
	return emit((__u32)nr | BENCH_REF_EXIT, ret);
}
