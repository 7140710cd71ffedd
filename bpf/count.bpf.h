/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * Syscalls counted in the kernel (ptbpf_trace_attr_setaggregate): per
 * syscall and errno (and process or thread, count_by), the calls, their
 * total, shortest and longest time and a log2 histogram of their times,
 * in a per-CPU hash that user space reads and adds up
 * (src/backend/kern_count.c). No record crosses the ring for it. A call is
 * counted at its exit, with the time since its entry; a thread's return
 * from the fork that made it (no entry) is not, as strace does not see
 * it; nor exit and exit_group, which do not return (strace neither).
 * Included by kern.bpf.c; user space loads
 * ptbpf_cnt_enter and ptbpf_cnt_exit only for a stream that asks.
 */
#ifndef PTBPF_BPF_COUNT_BPF_H
#define PTBPF_BPF_COUNT_BPF_H

#include "count.h"

/* KERN_COUNT_*: what the counts tell apart */
const volatile __u32 count_by = KERN_COUNT_SYSCALL;
/* by number: the syscalls counted, those whose exit the stream's filter
 * records (whether its events may be recorded or not); user space writes
 * it with the filter */
__u64 count_nrs[PTBPF_SYSCALL_NR_MAX / 64];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, KERN_COUNT_MAX);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct kern_count_key);
	__type(value, struct kern_count_val);
} cnt_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KERN_COUNT_STARTS);
	__type(key, __u32);
	__type(value, struct kern_count_start);
} cnt_start SEC(".maps");

/* Is syscall nr of the current thread counted? As want(), with count_nrs
 * for the filter, and without counting what it drops (no event was
 * filtered out). */
static __always_inline bool cnt_wanted(__u32 nr, __u32 *tgid, __u32 *tid)
{
	__u64 pt = bpf_get_current_pid_tgid();
	__u64 thread;

	*tgid = pt >> 32;
	*tid = (__u32)pt;
	if (!enabled || !pid_traced(*tgid))
		return false;
	if (nr_excluded && bpf_map_lookup_elem(&excluded, tid))
		return false;
	if (!(count_nrs[(nr / 64) & (PTBPF_SYSCALL_NR_MAX / 64 - 1)] & (1ULL << (nr % 64))))
		return false;
	return !current_compat_thread(&thread);
}

/* floor(log2(v)) of v > 0, without a loop */
static __always_inline __u32 cnt_log2(__u64 v)
{
	__u32 r, s;

	r = (v > 0xffffffffull) << 5;
	v >>= r;
	s = (v > 0xffff) << 4;
	v >>= s;
	r |= s;
	s = (v > 0xff) << 3;
	v >>= s;
	r |= s;
	s = (v > 0xf) << 2;
	v >>= s;
	r |= s;
	s = (v > 0x3) << 1;
	v >>= s;
	r |= s;
	return r | (__u32)(v >> 1);
}

static __always_inline void cnt_add(__u32 nr, long ret, __u64 ns)
{
	struct kern_count_key k = { .nr = (__u16)nr };
	struct kern_count_val *v;
	__u32 b = ns ? cnt_log2(ns) + 1 : 0;
	__u64 idx;

	if (ret < 0 && ret >= -4095)
		k.err = (__u16)-ret;
	if (count_by != KERN_COUNT_SYSCALL) {
		__u64 pt = bpf_get_current_pid_tgid();

		/* the host's ids, made the stream's namespace's */
		k.pid = (__s32)(pt >> 32);
		k.tid = (__s32)pt;
		pidns_current_ids((__u32 *)&k.pid, (__u32 *)&k.tid);
		if (count_by == KERN_COUNT_PROCESS)
			k.tid = 0;
	}
	v = bpf_map_lookup_elem(&cnt_stats, &k);
	if (!v) {
		struct kern_count_val zero = {};

		bpf_map_update_elem(&cnt_stats, &k, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&cnt_stats, &k);
		if (!v)
			return; /* full: KERN_COUNT_MAX keys */
	}
	if (!v->comm[0])
		bpf_get_current_comm(v->comm, sizeof(v->comm));
	if (!v->calls || ns < v->min_ns)
		v->min_ns = ns;
	v->calls++;
	if (ns > v->max_ns)
		v->max_ns = ns;
	v->total_ns += ns;
	if (b >= KERN_COUNT_BUCKETS)
		b = KERN_COUNT_BUCKETS - 1;
	/* a bound older verifiers (5.10) follow: a mask, then a 64-bit test */
	idx = b;
	asm volatile("%0 &= 63" : "+r"(idx));
	if (idx < KERN_COUNT_BUCKETS)
		v->hist[idx] += 1;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(ptbpf_cnt_enter, struct pt_regs *regs, long id)
{
	struct kern_count_start *st, init = {};
	__u32 tgid, tid;

	if (id < 0 || id >= PTBPF_SYSCALL_NR_MAX || !cnt_wanted((__u32)id, &tgid, &tid))
		return 0;
	/* they do not return: not counted, as strace does not */
	if (id == NR_exit || id == NR_exit_group)
		return 0;
	/* a thread's entry is written in place from its second call on: no
	 * update of the LRU map (its locks) per syscall */
	st = bpf_map_lookup_elem(&cnt_start, &tid);
	if (!st) {
		bpf_map_update_elem(&cnt_start, &tid, &init, BPF_NOEXIST);
		st = bpf_map_lookup_elem(&cnt_start, &tid);
		if (!st)
			return 0;
	}
	st->nr = (__u32)id;
	st->ts = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(ptbpf_cnt_exit, struct pt_regs *regs, long ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct kern_count_start *st = bpf_map_lookup_elem(&cnt_start, &tid);
	__u64 now, ts;
	__u32 nr;

	/* no entry: a new thread's return from its fork, or a call made
	 * before counting began */
	if (!st || !st->ts)
		return 0;
	now = bpf_ktime_get_ns();
	ts = st->ts;
	nr = st->nr;
	st->ts = 0;
	/* the entry's number: rt_sigreturn's exit has the interrupted call's */
	if (enabled)
		cnt_add(nr & (PTBPF_SYSCALL_NR_MAX - 1), ret, now > ts ? now - ts : 0);
	return 0;
}

#endif
