// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/*
 * ptbpf kernel backend: syscalls, process life cycle, signals and
 * scheduling of the traced processes, written to a BPF ring buffer as
 * struct kern_rec + payload (see kern.h).
 *
 * Every program checks, cheapest first: is the task's process traced (a
 * hash lookup), is the stream enabled, is the thread excluded (only when
 * some are), does the event filter record this id. Only then is ring
 * space reserved.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "kern.h"
/* registers, compat test and syscall numbers by architecture */
#include "arch.bpf.h"
/* pidns_level, pidns_inum (set before load) and the ids of a namespace */
#include "pidns.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by user space before load. */
const volatile __u8 path_args[PTBPF_SYSCALL_NR_MAX];
/* by syscall number: 6 - its argument count (0: all six are written) */
const volatile __u8 args_unused[PTBPF_SYSCALL_NR_MAX];
const volatile __u64 wakeup_bytes = 4096;
/* 1: the tracer may ptrace any process (CAP_SYS_PTRACE): a secure exec
 * stays traced */
const volatile __u32 follow_secure_exec = 0;
/* rings[] entries: one per possible CPU, or 1 (every CPU shares ring 0) */
const volatile __u32 nr_rings = 1;
/*
 * KERN_SYS_*: only the syscalls with these results are written, each
 * entry held in `held` until its result is known; 0: every syscall, its
 * entry written when it is made.
 */
const volatile __u32 syscall_status = 0;
/* bytes of user stack copied after the entries of the syscalls set in
 * stack_nrs (by number), 0: none (see user_stack()) */
const volatile __u32 stack_bytes = 0;
const volatile __u64 stack_nrs[PTBPF_SYSCALL_NR_MAX / 64];
/* frames a DWARF unwinder goes at most, in user_stack's flags */
const volatile __u32 stack_unwind_depth = PTBPF_STACK_DEPTH_DEFAULT;

/* Written by user space through the mmap'ed .bss at any time. */
__u32 enabled;
__u32 inherit;
__u32 nr_excluded;
__u64 filter_bits[KERN_FILTER_WORDS];
__u32 wake_sent[KERN_MAX_RINGS]; /* per ring; cleared by user space when it drains */

/* Counters, read by user space. */
struct kern_ring_count ring_count[KERN_MAX_RINGS] __attribute__((aligned(64)));
/* by CPU: the time of the map-built record it is copying out (see flight_claim) */
struct kern_in_flight in_flight[KERN_MAX_CPUS] __attribute__((aligned(64)));
__u64 cnt_dropped;
__u64 cnt_filtered;
__u64 drop_first_ts; /* first drop of the current loss episode, 0: none */

/*
 * A ring buffer per CPU: the producers of two CPUs never take the same
 * ring's lock (with one shared ring, two threads looping on syscalls spend
 * much of their time waiting for it in bpf_ringbuf_reserve). User space
 * merges them by timestamp.
 */
#include "rings.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KERN_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

/*
 * The parent of each process a traced process forked: which processes may
 * write user events into a traced region (see kern_backend__parent). Least
 * recently used first out: kept past the child's exit, since its events
 * may still wait in the region then.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KERN_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u32);
} forks SEC(".maps");

/*
 * Of the processes in forks that are in a pid namespace below the tracer's:
 * their pid there, which their user events carry (see
 * kern_backend__child_by_inner). Least recently used first out, as forks.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KERN_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u32);
} inner_pids SEC(".maps");

/* Processes whose proc_exit was written (see ptbpf_exit). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KERN_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} exited SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KERN_MAX_EXCLUDED);
	__type(key, __u32);
	__type(value, __u8);
} excluded SEC(".maps");

/*
 * The fatal signal sent to a process, by process, from its signal_generate
 * to the first signal_deliver of the SIGKILL that the kernel turns it into
 * (see ptbpf_sig_deliver).
 */
struct fatal_sig {
	__s32 signo;
	__s32 code;
	__s32 sender_pid;
	__s32 sender_uid;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KERN_MAX_PIDS);
	__type(key, __u32);
	__type(value, struct fatal_sig);
} fatal SEC(".maps");

/*
 * Threads in rt_sigreturn: its exit has no syscall number (the restored
 * registers say -1), so its entry notes it here (see sigreturn_exit_nr).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KERN_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} in_sigreturn SEC(".maps");

/* struct ptbpf_ev_sys_enter ends with paths[] at offset 66 */
#define SYS_ENTER_FIXED __builtin_offsetof(struct ptbpf_ev_sys_enter, paths)
#define SYS_EXIT_FIXED	__builtin_offsetof(struct ptbpf_ev_sys_exit_ext, paths)

/*
 * A path syscall whose entry could not read a path (its page not mapped
 * yet), by thread: read again at its exit (see sys_exit_full). nr_late
 * counts them, so that an exit looks here only while there are some.
 */
struct late_path {
	__u64 ptr[2];
	__u16 flags;	/* the entry's PTBPF_SYS_PATH*_FAULT */
	__u16 name_len; /* execve: bytes of the kernel's copy of path 0 (0: none) */
	__u32 nr;
	char name[PTBPF_PATH_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct late_path);
} late_paths SEC(".maps");

__u32 nr_late;

/* where the captures of a record end at the most */
#define CAPS_END (SYS_ENTER_FIXED + 2 * PTBPF_PATH_MAX + KERN_CAP_AREA)
/* the bound the verifier knows of a capture's offset (cap_mask()) */
#define CAP_MASK (2 * KERN_CAP_AREA - 1)

struct scratch {
	struct kern_rec rec;
	union {
		struct ptbpf_ev_sys_enter ent;
		/* room past CAPS_END for the verifier, which bounds a
		 * capture's offset (CAP_MASK), header and size (below
		 * KERN_CAP_AREA) each, not their sum; and cap_widen()'s
		 * word at the end */
		char raw[CAP_MASK + 1 + 8 + KERN_CAP_AREA + 8];
	};
};

/* An entry kept until its result is known: a scratch record, its room
 * for the verifier left out. */
struct held_rec {
	struct kern_rec rec;
	char raw[(CAPS_END + 7) & ~7];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch_map SEC(".maps");

/* With syscall_status: the entry of each thread's syscall in progress. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1); /* set before load */
	__type(key, __u32);
	__type(value, struct held_rec);
} held SEC(".maps");

/* task_struct.state before 5.14 */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

static __always_inline bool pid_traced(__u32 tgid)
{
	__u8 *v = bpf_map_lookup_elem(&pids, &tgid);

	return v && *v == KERN_PID_TRACED;
}

/* Traced or held: KERN_PID_*, 0 if neither. */
static __always_inline __u8 pid_state(__u32 tgid)
{
	__u8 *v = bpf_map_lookup_elem(&pids, &tgid);

	return v ? *v : 0;
}

/*
 * After the process is known to be traced: may event id of thread tid be
 * written? Counts events dropped by the filter.
 */
static __always_inline bool want(__u32 tid, __u32 id)
{
	if (!enabled)
		return false;
	if (nr_excluded && bpf_map_lookup_elem(&excluded, &tid))
		return false;
	if (id < KERN_FILTER_IDS &&
	    !(filter_bits[(id / 64) & (KERN_FILTER_WORDS - 1)] & (1ULL << (id % 64)))) {
		__sync_fetch_and_add(&cnt_filtered, 1);
		return false;
	}
	return true;
}

/*
 * No wakeup per record: the drainer reads on a timer. Past wakeup_bytes,
 * one wakeup until the drainer clears wake_sent (a wakeup is a self-IPI,
 * about a microsecond: one per record would cost more than the record).
 * Two CPUs may both see it clear: two wakeups, harmless (no BPF_XCHG
 * before 5.12).
 */
static __always_inline __u64 ring_flags(void *ring, __u32 idx)
{
	idx &= KERN_MAX_RINGS - 1;
	if (wake_sent[idx] || bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) <= wakeup_bytes)
		return BPF_RB_NO_WAKEUP;
	wake_sent[idx] = 1;
	return BPF_RB_FORCE_WAKEUP;
}

/* This CPU's ring, and its index. */
static __always_inline void *cpu_ring(__u32 *idx)
{
	__u32 i = nr_rings > 1 ? bpf_get_smp_processor_id() : 0;

	*idx = i;
	return bpf_map_lookup_elem(&rings, &i);
}

static __always_inline void count_drop(void)
{
	__sync_fetch_and_add(&cnt_dropped, 1);
	if (!drop_first_ts)
		drop_first_ts = bpf_ktime_get_ns();
}

static __always_inline __u64 task_user_ip(struct task_struct *task)
{
	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs)) {
		struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);

		if (regs)
			return BPF_CORE_READ(regs, REG_IP);
	}
	return 0;
}

/* The same for the current task (bpf_get_current_task() is no BTF pointer). */
static __always_inline __u64 current_user_ip(void)
{
	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs)) {
		struct pt_regs *regs;

		regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
		if (regs)
			return BPF_CORE_READ(regs, REG_IP);
	}
	return 0;
}

static __always_inline __u64 task_thread(struct task_struct *task)
{
	return TASK_THREAD_READ(task);
}

/*
 * Fill the header of a record built in a map, the task's ids and thread
 * already known: rec_output() stamps it as it copies it out.
 */
static __always_inline void rec_fill_ids(struct kern_rec *r, __u32 id, __u32 len, __u32 tgid,
					 __u32 tid, __u64 thread, __u64 ip)
{
	r->ts = 0;
	r->prog_addr = ip;
	r->thread = thread;
	r->id = id;
	r->pid = tgid;
	r->tid = tid;
	r->data_len = len;
	r->flags = 0;
	/* the ids are the current task's: the tracer's namespace sees others */
	pidns_current_ids((__u32 *)&r->pid, (__u32 *)&r->tid);
}

/*
 * The same for a record reserved in the ring, stamped now: a drain that
 * read the producer position before the reservation read the clock
 * before this (see kern_backend__watermark).
 */
static __always_inline void rec_fill_now(struct kern_rec *r, __u32 id, __u32 len, __u32 tgid,
					 __u32 tid, __u64 thread, __u64 ip)
{
	rec_fill_ids(r, id, len, tgid, tid, thread, ip);
	r->ts = bpf_ktime_get_ns();
}

/* Fill the header of a reserved record for an event about task. */
static __always_inline void rec_fill(struct kern_rec *r, __u32 id, __u32 len,
				     struct task_struct *task, __u64 ip)
{
	rec_fill_now(r, id, len, BPF_CORE_READ(task, tgid), BPF_CORE_READ(task, pid),
		     task_thread(task), ip);
	pidns_task_ids(task, (__u32 *)&r->pid, (__u32 *)&r->tid);
}

/*
 * Reserve a record of a payload of len bytes in this CPU's ring, or count
 * a drop. The program runs on that CPU until it submits (migration is
 * disabled), so the ring and its index stay right.
 */
struct ring_ref {
	void *ring;
	__u32 idx;
};

/*
 * Records were dropped since this CPU's last record (or another's): a
 * KERN_ID_DROPS record first, once per episode. Rare: only after a ring
 * was full. If it does not fit either, the next record tries again.
 */
static __always_inline void emit_drops(void *ring)
{
	struct kern_rec *r;
	struct kern_drops *d;
	__u64 first = drop_first_ts;

	if (!first)
		return;
	r = bpf_ringbuf_reserve(ring, sizeof(*r) + sizeof(*d), 0);
	if (!r)
		return;
	drop_first_ts = 0;
	rec_fill_now(r, KERN_ID_DROPS, sizeof(*d), 0, 0, 0, 0);
	d = (void *)(r + 1);
	d->dropped = cnt_dropped;
	d->first_ts = first;
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
}

static __always_inline void count_emitted(__u32 idx)
{
	__sync_fetch_and_add(&ring_count[idx & (KERN_MAX_RINGS - 1)].emitted, 1);
}

/*
 * Counted as emitted at once (it is always submitted): the count's locked
 * add makes the reservation visible to a drain before the caller reads the
 * clock, else a drain could miss it yet read its clock after ours.
 */
static __always_inline void *rec_reserve(struct ring_ref *rr, __u32 len)
{
	void *r = NULL;

	rr->ring = cpu_ring(&rr->idx);
	if (rr->ring) {
		emit_drops(rr->ring);
		r = bpf_ringbuf_reserve(rr->ring, sizeof(struct kern_rec) + len, 0);
	}
	if (!r)
		count_drop();
	else
		count_emitted(rr->idx);
	return r;
}

static __always_inline void rec_submit(struct ring_ref *rr, void *r)
{
	bpf_ringbuf_submit(r, ring_flags(rr->ring, rr->idx));
}

/*
 * Copy a record built elsewhere (size bytes, its header included, in an
 * object of max bytes) into this CPU's ring, or count a drop: true if it
 * was written.
 */
static __always_inline bool rec_output_in(void *rec, __u64 size, const __u64 max)
{
	__u32 idx;
	void *ring;

	/* bounded here, in the register the call takes: a check by the
	 * caller may be on a copy the compiler spilled */
	barrier_var(size);
	if (size > max) {
		count_drop();
		return false;
	}
	ring = cpu_ring(&idx);
	if (ring)
		emit_drops(ring);
	if (!ring || bpf_ringbuf_output(ring, rec, size, ring_flags(ring, idx))) {
		count_drop();
		return false;
	}
	count_emitted(idx);
	return true;
}

/*
 * Claim this CPU's in-flight slot: its address, or NULL when a program
 * this one interrupted holds it (that one's earlier time covers ours). The
 * add is a full barrier (x86: a locked add), so a drain that reads the
 * slot as 0 reads the clock before our time; no fetch atomics (5.10).
 */
static __always_inline volatile __u64 *flight_claim(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	volatile __u64 *slot = &in_flight[cpu & (KERN_MAX_CPUS - 1)].ts;

	if (cpu >= KERN_MAX_CPUS || *slot)
		return NULL;
	__sync_fetch_and_add(slot, 1);
	return slot;
}

/*
 * Stamp a record built in a map and copy it out (rec_output_in), its time
 * in this CPU's in-flight slot meanwhile: a drain passing between the
 * clock read and the output sees it there. *dur, unless NULL: the time
 * since enter_ts (0: none).
 */
static __always_inline bool rec_output_now(void *rec, __u64 size, const __u64 max, __u64 enter_ts,
					   __u64 *dur)
{
	volatile __u64 *slot = flight_claim();
	__u64 ts = bpf_ktime_get_ns();
	bool ok;

	if (slot)
		*slot = ts;
	((struct kern_rec *)rec)->ts = ts;
	if (dur)
		*dur = enter_ts ? ts - enter_ts : 0;
	ok = rec_output_in(rec, size, max);
	if (slot)
		*slot = 0;
	return ok;
}

/* The same for a record in the object s points to (a map value). */
#define rec_output(s, size) rec_output_now(s, size, sizeof(*(s)), 0, NULL)

/*
 * Is the event id about task (traced, wanted)? task must be a BTF pointer
 * (a tp_btf argument): direct loads, cheap for the untraced majority.
 */
static __always_inline bool task_wanted(struct task_struct *task, __u32 id)
{
	__u32 tgid = task->tgid;

	if (!pid_traced(tgid))
		return false;
	return want(task->pid, id);
}

static __always_inline bool current_wanted(__u32 id, __u32 *tgid)
{
	__u64 pt = bpf_get_current_pid_tgid();

	*tgid = pt >> 32;
	if (!pid_traced(pt >> 32))
		return false;
	return want((__u32)pt, id);
}

/* The same, also returning the thread id. */
static __always_inline bool current_wanted_ids(__u32 id, __u32 *tgid, __u32 *tid)
{
	__u64 pt = bpf_get_current_pid_tgid();

	*tgid = pt >> 32;
	*tid = (__u32)pt;
	if (!pid_traced(pt >> 32))
		return false;
	return want((__u32)pt, id);
}

/* ---------------------------------------------------------------- */
/* Syscalls */

static __always_inline bool in_compat_syscall(struct task_struct *task)
{
	if (TASK_COMPAT_EXISTS(task))
		return TASK_COMPAT_READ(task);
	return false;
}

/*
 * Of the current task: is it in a compat syscall, and its thread pointer.
 * With bpf_get_current_task_btf() (5.11+) plain loads, else probe reads.
 */
static __always_inline bool current_compat_thread(__u64 *thread)
{
	struct task_struct *task;

	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_get_current_task_btf)) {
		task = bpf_get_current_task_btf();
		if (TASK_COMPAT_EXISTS(task) && TASK_COMPAT(task))
			return true;
		*thread = TASK_THREAD(task);
		return false;
	}
	task = (struct task_struct *)bpf_get_current_task();
	if (in_compat_syscall(task))
		return true;
	*thread = task_thread(task);
	return false;
}

/*
 * regs is a BTF pointer (tp_btf): direct loads, no bpf_probe_read_kernel()
 * calls. CO-RE still relocates the field offsets (preserve_access_index).
 */
static __always_inline void syscall_args(struct pt_regs *regs, __u64 *args)
{
	args[0] = SC_ARG0(regs);
	args[1] = SC_ARG1(regs);
	args[2] = SC_ARG2(regs);
	args[3] = SC_ARG3(regs);
	args[4] = SC_ARG4(regs);
	args[5] = SC_ARG5(regs);
}

#include "caps.bpf.h"

/*
 * Read the user string at uptr into dst (PTBPF_PATH_MAX bytes). Returns
 * its length with the NUL, 0 on a fault; sets the flags.
 */
static __always_inline __u32 read_path(char *dst, __u64 uptr, __u16 *flags, __u16 trunc_flag,
				       __u16 fault_flag)
{
	long n = bpf_probe_read_user_str(dst, PTBPF_PATH_MAX, (const void *)uptr);
	char c = 0;

	if (n < 0) {
		*flags |= fault_flag;
		return 0;
	}
	if (n == 0) {
		/* "": kernels whose strncpy_from_user_nofault() counts no NUL for it */
		dst[0] = 0;
		return 1;
	}
	if (n >= PTBPF_PATH_MAX) {
		/* full buffer: was the last byte really the NUL? */
		if (bpf_probe_read_user(&c, 1, (const char *)uptr + PTBPF_PATH_MAX - 1) || c != 0)
			*flags |= trunc_flag;
		return PTBPF_PATH_MAX;
	}
	return n;
}

/*
 * The entry of tid could not read a path: note its pointers for the exit.
 * The scratch record was written out already, so it holds the value.
 */
static __always_inline void late_note(struct scratch *s, __u32 tid, __u32 nr, int a0, int a1)
{
	struct late_path *l = (void *)s->raw;
	__u16 flags = s->ent.flags & (PTBPF_SYS_PATH0_FAULT | PTBPF_SYS_PATH1_FAULT);
	/* read before l, which overlays them, is written */
	__u64 p0 = a0 >= 0 ? cap_arg(s->ent.args, a0) : 0;
	__u64 p1 = a1 >= 0 ? cap_arg(s->ent.args, a1) : 0;

	if (sizeof(*l) > sizeof(s->raw))
		return;
	l->ptr[0] = p0;
	l->ptr[1] = p1;
	l->flags = flags;
	l->name_len = 0;
	l->nr = nr;
	if (!bpf_map_update_elem(&late_paths, &tid, l, BPF_NOEXIST))
		__sync_fetch_and_add(&nr_late, 1);
	else
		bpf_map_update_elem(&late_paths, &tid, l, BPF_EXIST);
}

static __always_inline void late_forget(__u32 tid)
{
	if (!bpf_map_delete_elem(&late_paths, &tid))
		__sync_fetch_and_add(&nr_late, -1);
}

/*
 * The exit of a syscall whose entry could not read a path (l) or whose
 * exit captures (p): after the return value, the paths read now (the
 * kernel faulted their pages in), or for execve the kernel's copy of the
 * name (the old memory is gone), then the captures.
 */
static __always_inline int sys_exit_full(struct late_path *l, struct pt_regs *caps, __u32 nr,
					 long ret, __u32 tgid, __u32 tid, __u64 thread, __u64 ip,
					 __u64 enter_ts, const bool loop)
{
	struct ptbpf_ev_sys_exit_ext *x;
	struct scratch *s;
	__u32 zero = 0, len0 = 0, len1 = 0, size;

	s = bpf_map_lookup_elem(&scratch_map, &zero);
	if (!s)
		goto out;
	x = (void *)s->raw;
	x->nr = nr;
	x->ret = ret;
	x->duration = 0;
	x->flags = 0;
	x->reserved = 0;
	if (!l) {
		/* no late path */
	} else if (l->name_len) {
		long n =
			bpf_probe_read_kernel_str(s->raw + SYS_EXIT_FIXED, PTBPF_PATH_MAX, l->name);

		len0 = n > 0 ? n : 0;
		if (!len0)
			x->flags |= PTBPF_SYS_PATH0_FAULT;
	} else if (l->flags & PTBPF_SYS_PATH0_FAULT) {
		len0 = read_path(s->raw + SYS_EXIT_FIXED, l->ptr[0], &x->flags,
				 PTBPF_SYS_PATH0_TRUNCATED, PTBPF_SYS_PATH0_FAULT);
	}
	if (len0 > PTBPF_PATH_MAX)
		len0 = PTBPF_PATH_MAX;
	if (l && (l->flags & PTBPF_SYS_PATH1_FAULT))
		len1 = read_path(s->raw + SYS_EXIT_FIXED + len0, l->ptr[1], &x->flags,
				 PTBPF_SYS_PATH1_TRUNCATED, PTBPF_SYS_PATH1_FAULT);
	if (len1 > PTBPF_PATH_MAX)
		len1 = PTBPF_PATH_MAX;
	x->path_len[0] = len0;
	x->path_len[1] = len1;
	size = SYS_EXIT_FIXED + len0 + len1;
	if (caps && ret >= 0) {
		__u64 *a = (void *)(s->raw + CAP_ARGS_AT);
		__u32 at;

		syscall_args(caps, a);
		at = loop ? caps_fill_exit(size, nr, ret) : caps_fill_exit_bounded(size, nr, ret);

		if (at != size && at <= CAPS_END) {
			x->flags |= PTBPF_SYS_CAPS;
			size = at;
		}
	}
	rec_fill_ids(&s->rec, PTBPF_EV_SYS_EXIT(nr), size, tgid, tid, thread, ip);
	if (x->flags & (PTBPF_SYS_PATH0_TRUNCATED | PTBPF_SYS_PATH1_TRUNCATED))
		s->rec.flags |= KERN_REC_TRUNCATED;
	/* forgotten: the paths' many sizes would each walk what follows */
	size = cap_widen(s->raw, size + sizeof(s->rec));
	if (size > sizeof(*s))
		goto out;
	/* the duration from the time the record carries */
	rec_output_now(s, size, sizeof(*s), enter_ts, &x->duration);
out:
	if (l)
		late_forget(tid);
	return 0;
}

static __always_inline int sys_enter_paths(__u32 tgid, __u32 tid, __u64 thread, __u64 ip,
					   const __u64 *args, __u32 nr, __u8 pa, bool hold,
					   const bool loop)
{
	struct scratch *s;
	__u32 zero = 0, len0 = 0, len1 = 0, size;
	int a0 = KERN_PATH_ARG0(pa), a1 = KERN_PATH_ARG1(pa);
	int n = 6 - args_unused[nr & (PTBPF_SYSCALL_NR_MAX - 1)];

	s = bpf_map_lookup_elem(&scratch_map, &zero);
	if (!s)
		return 0;
	s->ent.nr = nr;
	/* the arguments the syscall takes, as the compact form has them */
	for (int i = 0; i < 6; i++)
		s->ent.args[i] = i < n ? args[i] : 0;
	s->ent.flags = 0;
	s->ent.reserved = 0;
	s->ent.path_arg[0] = a0 >= 0 ? a0 : 0;
	s->ent.path_arg[1] = a1 >= 0 ? a1 : 0;
	if (a0 >= 0)
		len0 = read_path(s->raw + SYS_ENTER_FIXED, cap_arg(s->ent.args, a0), &s->ent.flags,
				 PTBPF_SYS_PATH0_TRUNCATED, PTBPF_SYS_PATH0_FAULT);
	if (len0 > PTBPF_PATH_MAX)
		len0 = PTBPF_PATH_MAX;
	if (a1 >= 0)
		len1 = read_path(s->raw + SYS_ENTER_FIXED + len0, cap_arg(s->ent.args, a1),
				 &s->ent.flags, PTBPF_SYS_PATH1_TRUNCATED, PTBPF_SYS_PATH1_FAULT);
	if (len1 > PTBPF_PATH_MAX)
		len1 = PTBPF_PATH_MAX;
	s->ent.path_len[0] = len0;
	s->ent.path_len[1] = len1;
	size = SYS_ENTER_FIXED + len0 + len1;
	if (caps_at(nr, KERN_CAP_ENTRY)) {
		__u32 at = loop ? caps_fill_entry(size, nr) : caps_fill_entry_bounded(size, nr);

		if (at != size && at <= CAPS_END) {
			s->ent.flags |= PTBPF_SYS_CAPS;
			size = at;
		}
	}
	if (caps_at(nr, KERN_CAP_EXIT))
		s->ent.flags |= PTBPF_SYS_CAPS_AT_EXIT |
				PTBPF_SYS_EXIT_ARG_FLAG(KERN_CAP_WHEN_EXIT_ARG(
					cap_when[nr & (PTBPF_SYSCALL_NR_MAX - 1)]));
	rec_fill_ids(&s->rec, PTBPF_EV_SYS_ENTER(nr), size, tgid, tid, thread, ip);
	if (s->ent.flags & (PTBPF_SYS_PATH0_TRUNCATED | PTBPF_SYS_PATH1_TRUNCATED))
		s->rec.flags |= KERN_REC_TRUNCATED;
	/* forgotten: the paths' many sizes would each walk what follows */
	size = cap_widen(s->raw, size + sizeof(s->rec));
	if (size > sizeof(*s))
		return 0;
	if (hold) {
		/* written at its exit with this time (the exit's duration is from it) */
		s->rec.ts = bpf_ktime_get_ns();
		/* LRU: a thread that died in a syscall leaves no entry behind for long */
		if (bpf_map_update_elem(&held, &tid, s, BPF_ANY))
			count_drop();
		else if (s->ent.flags & (PTBPF_SYS_PATH0_FAULT | PTBPF_SYS_PATH1_FAULT))
			late_note(s, tid, nr, a0, a1);
		return 0;
	}
	if (!rec_output(s, size))
		return 0;
	if (s->ent.flags & (PTBPF_SYS_PATH0_FAULT | PTBPF_SYS_PATH1_FAULT))
		late_note(s, tid, nr, a0, a1);
	return 0;
}

/*
 * The compact form of a sys_enter without a path argument, written in
 * place: the syscall's n arguments (a constant: each case of the caller's
 * switch reserves its own size), not six. A getppid writes 48 bytes less
 * into the ring, and every byte is a store the traced syscall pays for.
 */
static __always_inline int sys_enter_compact(struct pt_regs *regs, __u32 nr, __u32 tgid, __u32 tid,
					     __u64 thread, const int n)
{
	struct ring_ref rr;
	struct kern_rec *r;
	__u64 *args, a[6];

	r = rec_reserve(&rr, sizeof(__u64) * n);
	if (!r)
		return 0;
	rec_fill_now(r, PTBPF_EV_SYS_ENTER(nr), sizeof(__u64) * n, tgid, tid, thread, regs->REG_IP);
	r->flags = KERN_REC_COMPACT;
	args = (void *)(r + 1);
	syscall_args(regs, a);
	for (int i = 0; i < n; i++)
		args[i] = a[i];
	rec_submit(&rr, r);
	return 0;
}

/*
 * rt_sigreturn's entry, with the signal mask it restores (as strace shows
 * it): the frame's uc_sigmask, the frame just below the stack pointer (the
 * handler's return popped its first word). The thread is noted for the
 * exit whatever the filter, since the exit may be recorded alone.
 */
static __always_inline int sys_enter_sigreturn(struct pt_regs *regs)
{
	struct ring_ref rr;
	struct kern_rec *r;
	struct ptbpf_ev_sys_enter *e;
	__u64 thread = 0, mask = 0;
	__u32 tgid, tid;
	__u8 one = 1;
	long off = __builtin_offsetof(struct rt_sigframe, uc.uc_sigmask) + SIGFRAME_SP_OFF;

	tgid = bpf_get_current_pid_tgid() >> 32;
	tid = (__u32)bpf_get_current_pid_tgid();
	if (!pid_traced(tgid))
		return 0;
	bpf_map_update_elem(&in_sigreturn, &tid, &one, BPF_ANY);
	if (!want(tid, PTBPF_EV_SYS_ENTER(NR_rt_sigreturn)) || current_compat_thread(&thread))
		return 0;
	r = rec_reserve(&rr, SYS_ENTER_FIXED);
	if (!r)
		return 0;
	rec_fill_now(r, PTBPF_EV_SYS_ENTER(NR_rt_sigreturn), SYS_ENTER_FIXED, tgid, tid, thread,
		     regs->REG_IP);
	e = (void *)(r + 1);
	__builtin_memset(e, 0, SYS_ENTER_FIXED);
	e->nr = NR_rt_sigreturn;
	if (!bpf_probe_read_user(&mask, sizeof(mask), (void *)(regs->REG_SP + off))) {
		e->args[0] = mask;
		e->flags = PTBPF_SYS_SIGMASK;
	}
	rec_submit(&rr, r);
	return 0;
}

/*
 * The number of a syscall exit whose orig_ax was -1: rt_sigreturn's when
 * the thread was noted at its entry (else -1). Also forgets a note that
 * an rt_sigreturn left when it failed (a bad frame keeps its number).
 */
static __always_inline long sigreturn_exit_nr(long nr)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (bpf_map_delete_elem(&in_sigreturn, &tid))
		return nr;
	return NR_rt_sigreturn;
}

/*
 * The user_stack event (events.h) after the entry of syscall nr: regs is
 * the thread's user register frame at any kernel (the tp_btf argument),
 * and the stack is read from its sp, halving the length until the read
 * stays inside the stack's mapping.
 */
#define USER_STACK_FIXED __builtin_offsetof(struct ptbpf_ev_user_stack, stack)

struct stack_scratch {
	struct kern_rec rec;
	union {
		struct ptbpf_ev_user_stack st;
		struct ptbpf_ev_proc_map map;
		__u8 raw[USER_STACK_FIXED + PTBPF_USER_STACK_MAX];
	};
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stack_scratch);
} stack_map SEC(".maps");

/*
 * On the main thread's stack, no more than up to its start (argv, the
 * environment above it hold no frame): a read past the stack's mapping
 * fails only after a fault, and each halving after one costs another.
 */
static __always_inline __u32 main_stack_len(__u64 sp, __u32 len, __u16 *flags)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u64 top = BPF_CORE_READ(task, mm, start_stack);

	if (sp < top && top - sp < len) {
		*flags |= PTBPF_STACK_SHORT;
		return top - sp;
	}
	return len;
}

static __always_inline int user_stack(struct pt_regs *regs, __u32 nr, __u32 tgid, __u32 tid,
				      __u64 thread)
{
	__u32 zero = 0, len = stack_bytes, size;
	struct stack_scratch *s;
	__u64 *g;

	if (!(stack_nrs[(nr / 64) & (PTBPF_SYSCALL_NR_MAX / 64 - 1)] & (1ULL << (nr % 64))) ||
	    !(filter_bits[PTBPF_EV_USER_STACK / 64] & (1ULL << (PTBPF_EV_USER_STACK % 64))))
		return 0;
	s = bpf_map_lookup_elem(&stack_map, &zero);
	if (!s)
		return 0;
	g = s->st.regs;
	USER_REGS(g, regs);
	s->st.event_id = PTBPF_EV_SYS_ENTER(nr);
	s->st.flags = stack_unwind_depth << 8;
	len = main_stack_len(g[7], len, &s->st.flags);
	for (int i = 0; i < 8; i++) {
		if (len > PTBPF_USER_STACK_MAX)
			len = PTBPF_USER_STACK_MAX;
		if (!len ||
		    !bpf_probe_read_user(s->raw + USER_STACK_FIXED, len, (const void *)g[7]))
			break;
		s->st.flags |= PTBPF_STACK_SHORT;
		len >>= 1;
	}
	if (len > PTBPF_USER_STACK_MAX)
		return 0;
	s->st.stack_len = len;
	rec_fill_ids(&s->rec, PTBPF_EV_USER_STACK, USER_STACK_FIXED + len, tgid, tid, thread,
		     g[16]);
	size = sizeof(s->rec) + USER_STACK_FIXED + len;
	rec_output(s, size);
	return 0;
}

#include "stack.bpf.h"

/*
 * The mappings a stream with stacks needs to unwind them later: each
 * executable mmap of a file (its arguments held from entry to exit) and
 * the program and interpreter of each exec, as proc_map events.
 */
#define MAP_NAME_MAX  256
#define MAP_DEPTH     32
#define MAP_PROT_EXEC 0x4
#define MAP_ANON      0x20
#define AT_BASE_KEY   7
#define AT_ENTRY_KEY  9
#define AUXV_PAIRS    28
#define MAP_REC_MASK  1023 /* above any proc_map record's size */

struct mmap_args {
	__u64 len;
	__u64 off;
	__s64 fd;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct mmap_args);
} mmap_pending SEC(".maps");

static __always_inline struct mount *mount_of(struct vfsmount *vm)
{
	return (struct mount *)((char *)vm - bpf_core_field_offset(struct mount, mnt));
}

/*
 * The names of the path at vm, d from its own up to the root, each ended by '/',
 * into buf (PTBPF_MAP_PATH_MAX bytes): bytes written; user space puts
 * them in order. Crosses mount points; *trunc when it did not fit. Two
 * loops whose iterations end in one state (the offset and the end of the
 * walk kept in map memory, names[MAP_DEPTH] and names[MAP_DEPTH + 1], so
 * that the verifier does not track them): else it would walk every
 * combination of the iterations' branches.
 */
static __always_inline __u32 path_rev(struct task_struct *task, struct vfsmount *vm,
				      struct dentry *d, char *buf, volatile __u64 *names,
				      bool *trunc)
{
	/* the task's root, as d_path() stops there (a chroot, a container) */
	struct dentry *root_d = BPF_CORE_READ(task, fs, root.dentry);
	struct vfsmount *root_mnt = BPF_CORE_READ(task, fs, root.mnt);
	struct mount *m = mount_of(vm);
	__u32 off = 0;
	int i;

	names[MAP_DEPTH + 1] = 0; /* 1: the root was reached */
	for (i = 0; i < MAP_DEPTH; i++) {
		struct dentry *parent;
		struct mount *mp;
		bool top;

		names[i] = 0;
		if (names[MAP_DEPTH + 1])
			continue;
		parent = BPF_CORE_READ(d, d_parent);
		mp = BPF_CORE_READ(m, mnt_parent);
		top = d == BPF_CORE_READ(vm, mnt_root) || d == parent;
		if ((d == root_d && vm == root_mnt) || (top && mp == m)) {
			names[MAP_DEPTH + 1] = 1;
			continue;
		}
		if (top) {
			d = BPF_CORE_READ(m, mnt_mountpoint);
			m = mp;
			vm = (struct vfsmount *)((char *)mp +
						 bpf_core_field_offset(struct mount, mnt));
		} else {
			names[i] = (__u64)BPF_CORE_READ(d, d_name.name);
			d = parent;
		}
	}
	if (!names[MAP_DEPTH + 1])
		*trunc = true;
	names[MAP_DEPTH] = 0;
	for (i = 0; i < MAP_DEPTH; i++) {
		long n;

		off = names[MAP_DEPTH];
		if (!names[i])
			continue;
		if (off > PTBPF_MAP_PATH_MAX - MAP_NAME_MAX - 1) {
			*trunc = true;
			break;
		}
		n = bpf_probe_read_kernel_str(buf + (off & (PTBPF_MAP_PATH_MAX / 2 - 1)),
					      MAP_NAME_MAX, (const void *)names[i]);
		if (n <= 1)
			break;
		off += n;
		buf[(off - 1) & (PTBPF_MAP_PATH_MAX - 1)] = '/';
		names[MAP_DEPTH] = off;
	}
	return names[MAP_DEPTH];
}

/* The same for the path of file f. */
static __always_inline __u32 file_path_rev(struct task_struct *task, struct file *f, char *buf,
					   volatile __u64 *names, bool *trunc)
{
	return path_rev(task, BPF_CORE_READ(f, f_path.mnt), BPF_CORE_READ(f, f_path.dentry), buf,
			names, trunc);
}

static __always_inline void emit_map(struct task_struct *task, struct file *f, __u32 kind,
				     __u64 start, __u64 len, __u64 off, __u32 tgid, __u32 tid)
{
	struct stack_scratch *s;
	__u32 zero = 0, n, size;
	bool trunc = false;

	if (!f && kind != PTBPF_MAP_INTERP)
		return;
	s = bpf_map_lookup_elem(&stack_map, &zero);
	if (!s)
		return;
	s->map.start = start;
	s->map.len = len;
	s->map.offset = off;
	s->map.kind = kind;
	s->map.build_id_len = 0; /* user space reads the file's note */
	s->map.ino = f ? BPF_CORE_READ(f, f_inode, i_ino) : 0;
	s->map.size = f ? BPF_CORE_READ(f, f_inode, i_size) : 0;
	s->map.dev = f ? BPF_CORE_READ(f, f_inode, i_sb, s_dev) : 0;
	n = 1; /* the interpreter's file is closed by now: no path */
	if (f)
		n = file_path_rev(task, f, s->map.path, (volatile __u64 *)(s->raw + sizeof(s->map)),
				  &trunc);
	if (!n || n > PTBPF_MAP_PATH_MAX)
		return;
	s->map.path[(n - 1) & (PTBPF_MAP_PATH_MAX - 1)] = 0;
	s->map.path_len = n;
	size = __builtin_offsetof(struct ptbpf_ev_proc_map, path) + n;
	rec_fill_ids(&s->rec, PTBPF_EV_PROC_MAP, size, tgid, tid, 0, 0);
	if (trunc)
		s->rec.flags |= KERN_REC_TRUNCATED;
	size += sizeof(s->rec);
	/* a no-op (n was checked) that the verifier sees as a bound; the
	 * empty asm keeps the compiler from dropping it */
	asm volatile("" : "+r"(size));
	size &= MAP_REC_MASK;
	rec_output(s, size);
}

static __always_inline void mmap_enter(struct pt_regs *regs)
{
	__u64 pt = bpf_get_current_pid_tgid();
	struct mmap_args a;
	__u64 thread = 0;
	__u32 tid = pt;

	if (current_compat_thread(&thread) || !enabled || !pid_traced(pt >> 32) ||
	    !(SC_ARG2(regs) & MAP_PROT_EXEC) || (SC_ARG3(regs) & MAP_ANON) ||
	    (long)SC_ARG4(regs) < 0)
		return;
	a.len = SC_ARG1(regs);
	a.off = SC_ARG5(regs);
	a.fd = (long)SC_ARG4(regs);
	bpf_map_update_elem(&mmap_pending, &tid, &a, BPF_ANY);
}

static __always_inline void mmap_exit(long ret)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u64 pt = bpf_get_current_pid_tgid();
	struct file **fds, *f = NULL;
	struct mmap_args *a;
	__u32 tid = pt;

	a = bpf_map_lookup_elem(&mmap_pending, &tid);
	if (!a)
		return;
	if ((ret < 0 && ret >= -4095) || a->fd >= BPF_CORE_READ(task, files, fdt, max_fds)) {
		bpf_map_delete_elem(&mmap_pending, &tid);
		return;
	}
	fds = BPF_CORE_READ(task, files, fdt, fd);
	bpf_probe_read_kernel(&f, sizeof(f), &fds[a->fd]);
	emit_map(task, f, PTBPF_MAP_MMAP, ret, a->len, a->off, pt >> 32, tid);
	bpf_map_delete_elem(&mmap_pending, &tid);
}

/* After an exec: the program and its interpreter, at their auxv addresses. */
static __always_inline void exec_maps(struct task_struct *p, struct linux_binprm *bprm)
{
	struct mm_struct *mm = BPF_CORE_READ(p, mm);
	__u32 tgid = BPF_CORE_READ(p, tgid), tid = BPF_CORE_READ(p, pid);
	__u64 entry = 0, base = 0, kv[2];

	for (int i = 0; i < AUXV_PAIRS; i++) {
		if (bpf_probe_read_kernel(kv, sizeof(kv),
					  (char *)__builtin_preserve_access_index(&mm->saved_auxv) +
						  i * sizeof(kv)) ||
		    !kv[0])
			break;
		if (kv[0] == AT_ENTRY_KEY)
			entry = kv[1];
		else if (kv[0] == AT_BASE_KEY)
			base = kv[1];
	}
	emit_map(p, BPF_CORE_READ(mm, exe_file), PTBPF_MAP_EXEC, entry, 0, 0, tgid, tid);
	if (base)
		emit_map(p, NULL, PTBPF_MAP_INTERP, base, 0, 0, tgid, tid);
}

/* Loaded only for a stream with stacks (user space disables them else). */
SEC("tp_btf/sys_enter")
int BPF_PROG(ptbpf_map_enter, struct pt_regs *regs, long id)
{
	if (id == NR_mmap)
		mmap_enter(regs);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(ptbpf_map_exit, struct pt_regs *regs, long ret)
{
	if (SC_NR(regs) == NR_mmap)
		mmap_exit(ret);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(ptbpf_map_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	if (enabled && pid_traced(bpf_get_current_pid_tgid() >> 32))
		exec_maps(p, bprm);
	return 0;
}

/* fd_info events: its sys_exit program runs before ptbpf_sys_exit (defined first) */
#include "fdinfo.bpf.h"

static __always_inline int sys_enter_event(struct pt_regs *regs, __u32 nr, __u32 tgid, __u32 tid,
					   __u64 thread, const bool loop)
{
	__u8 pa;

	pa = path_args[nr & (PTBPF_SYSCALL_NR_MAX - 1)];
	/* a call that captures at exit only stays compact: user space, which
	 * has the table, flags its entry (kern_expand) */
	if (pa || syscall_status || caps_at(nr, KERN_CAP_ENTRY)) {
		__u64 a[6];

		syscall_args(regs, a);
		return sys_enter_paths(tgid, tid, thread, regs->REG_IP, a, nr, pa,
				       syscall_status != 0, loop);
	}

	/* the common case: the compact form */
	switch (args_unused[nr & (PTBPF_SYSCALL_NR_MAX - 1)]) {
	case 6:
		return sys_enter_compact(regs, nr, tgid, tid, thread, 0);
	case 5:
		return sys_enter_compact(regs, nr, tgid, tid, thread, 1);
	case 4:
		return sys_enter_compact(regs, nr, tgid, tid, thread, 2);
	case 3:
		return sys_enter_compact(regs, nr, tgid, tid, thread, 3);
	case 2:
		return sys_enter_compact(regs, nr, tgid, tid, thread, 4);
	case 1:
		return sys_enter_compact(regs, nr, tgid, tid, thread, 5);
	default:
		return sys_enter_compact(regs, nr, tgid, tid, thread, 6);
	}
}

/*
 * The syscall programs come in two builds: with loop, their captures'
 * long walks are bpf_loop()'s (5.17 on), which the verifier checks once;
 * without, bounded loops it checks at each turn (tens of milliseconds
 * more at start-up). User space loads the one the kernel can.
 */
static __always_inline int sys_enter_prog(void *ctx, struct pt_regs *regs, long id, const bool loop)
{
	__u64 thread = 0;
	__u32 tgid, tid, nr;

	if (id < 0 || id >= PTBPF_SYSCALL_NR_MAX)
		return 0;
	if (id == NR_rt_sigreturn)
		return sys_enter_sigreturn(regs);
	nr = id;
	if (!current_wanted_ids(PTBPF_EV_SYS_ENTER(nr), &tgid, &tid))
		return 0;
	if (current_compat_thread(&thread))
		return 0;
	sys_enter_event(regs, nr, tgid, tid, thread, loop);
	if (stack_bytes)
		user_stack(regs, nr, tgid, tid, thread);
	if (stack_ips)
		stack_ips_event(ctx, nr, tgid, tid, thread, regs->REG_IP);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(ptbpf_sys_enter, struct pt_regs *regs, long id)
{
	return sys_enter_prog(ctx, regs, id, true);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(ptbpf_sys_enter_bounded, struct pt_regs *regs, long id)
{
	return sys_enter_prog(ctx, regs, id, false);
}

/* With syscall_status: is a call that returned ret written? */
static __always_inline bool status_wanted(long ret)
{
	return syscall_status & (ret < 0 && ret >= -4095 ? KERN_SYS_FAILED : KERN_SYS_SUCCESSFUL);
}

/*
 * With syscall_status: tid's held entry of syscall nr, written now if
 * wanted and forgotten. Returns its timestamp, 0 if none was written.
 */
static __always_inline __u64 release_enter(__u32 tid, long nr, bool wanted)
{
	struct held_rec *s = bpf_map_lookup_elem(&held, &tid);
	__u64 ts = 0;
	__u32 size;

	if (!s)
		return 0;
	size = sizeof(s->rec) + s->rec.data_len;
	if (wanted && ((struct ptbpf_ev_sys_enter *)s->raw)->nr == nr && size <= sizeof(*s)) {
		if (rec_output_in(s, size, sizeof(*s)))
			ts = s->rec.ts;
	} else if (!wanted) {
		__sync_fetch_and_add(&cnt_filtered, 1);
	}
	bpf_map_delete_elem(&held, &tid);
	return ts;
}

/*
 * The exit of a syscall with syscall_status: its result and its duration,
 * with the paths its entry could not read (l) if any.
 */
static __always_inline int sys_exit_held(struct pt_regs *regs, long nr, long ret, __u32 tgid,
					 __u32 tid, __u64 thread, struct late_path *l,
					 struct pt_regs *caps, const bool loop)
{
	bool wanted = status_wanted(ret);
	__u64 enter_ts = release_enter(tid, nr, wanted);
	struct ring_ref rr;
	struct kern_rec *r;
	__u64 *d;

	if (!wanted) {
		if (l)
			late_forget(tid);
		__sync_fetch_and_add(&cnt_filtered, 1);
		return 0;
	}
	if (l || caps)
		return sys_exit_full(l, caps, nr, ret, tgid, tid, thread, regs->REG_IP, enter_ts,
				     loop);
	r = rec_reserve(&rr, 2 * sizeof(__u64));
	if (!r)
		return 0;
	rec_fill_now(r, PTBPF_EV_SYS_EXIT(nr), 2 * sizeof(__u64), tgid, tid, thread, regs->REG_IP);
	r->flags = KERN_REC_COMPACT;
	d = (void *)(r + 1);
	d[0] = ret;
	d[1] = enter_ts ? r->ts - enter_ts : 0;
	rec_submit(&rr, r);
	return 0;
}

static __always_inline int sys_exit_prog(struct pt_regs *regs, long ret, const bool loop)
{
	struct ring_ref rr;
	struct kern_rec *r;
	long nr = SC_NR(regs);
	__u64 thread = 0;
	__u32 tgid, tid;

	if (nr == -1 || nr == NR_rt_sigreturn)
		nr = sigreturn_exit_nr(nr);
	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return 0;
	if ((nr_late && path_args[nr & (PTBPF_SYSCALL_NR_MAX - 1)]) || caps_at(nr, KERN_CAP_EXIT)) {
		/* an entry that could not read a path (rare, and looked up
		 * only while there is one), or a capture at exit */
		struct late_path *l = NULL;
		/* the exit's captures read the arguments from the registers */
		struct pt_regs *caps = caps_at(nr, KERN_CAP_EXIT) ? regs : NULL;

		tid = (__u32)bpf_get_current_pid_tgid();
		if (nr_late && path_args[nr & (PTBPF_SYSCALL_NR_MAX - 1)])
			l = bpf_map_lookup_elem(&late_paths, &tid);
		if (l || caps) {
			if (!current_wanted_ids(PTBPF_EV_SYS_EXIT(nr), &tgid, &tid) ||
			    current_compat_thread(&thread)) {
				if (l)
					late_forget(tid);
				return 0;
			}
			if (syscall_status)
				return sys_exit_held(regs, nr, ret, tgid, tid, thread, l, caps,
						     loop);
			return sys_exit_full(l, caps, nr, ret, tgid, tid, thread, regs->REG_IP, 0,
					     loop);
		}
	}
	if (!current_wanted_ids(PTBPF_EV_SYS_EXIT(nr), &tgid, &tid))
		return 0;
	if (current_compat_thread(&thread))
		return 0;
	if (syscall_status)
		return sys_exit_held(regs, nr, ret, tgid, tid, thread, NULL, NULL, loop);
	/* the compact form: the return value */
	r = rec_reserve(&rr, sizeof(__s64));
	if (!r)
		return 0;
	rec_fill_now(r, PTBPF_EV_SYS_EXIT(nr), sizeof(__s64), tgid, tid, thread, regs->REG_IP);
	r->flags = KERN_REC_COMPACT;
	*(__s64 *)(r + 1) = ret;
	rec_submit(&rr, r);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(ptbpf_sys_exit, struct pt_regs *regs, long ret)
{
	return sys_exit_prog(regs, ret, true);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(ptbpf_sys_exit_bounded, struct pt_regs *regs, long ret)
{
	return sys_exit_prog(regs, ret, false);
}

/* ---------------------------------------------------------------- */
/* Process life cycle */

/* A child in a pid namespace below the tracer's: its pid there, by ours. */
static __always_inline void fork_inner_pid(struct task_struct *child, __u32 key)
{
	struct pid *pid = BPF_CORE_READ(child, thread_pid);
	__u32 level = BPF_CORE_READ(pid, level), inner;

	if (level <= pidns_level)
		return;
	inner = pidns_nr_own(pid, level);
	if (inner)
		bpf_map_update_elem(&inner_pids, &key, &inner, BPF_ANY);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(ptbpf_fork, struct task_struct *parent, struct task_struct *child)
{
	struct ring_ref rr;
	struct kern_rec *r;
	struct ptbpf_ev_fork *e;
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 ctgid = BPF_CORE_READ(child, tgid);
	__u32 cpid = BPF_CORE_READ(child, pid);
	/* a held process's child is held: its check was the parent's */
	__u8 st = pid_state(ptgid);

	if (!st)
		return 0;
	if (ctgid == cpid && ctgid != ptgid) {
		/* forks is read by user space: in the tracer's namespace's ids */
		__u32 fk = ctgid, fv = ptgid, t = cpid, pt = BPF_CORE_READ(parent, pid);

		if (inherit)
			bpf_map_update_elem(&pids, &ctgid, &st, BPF_ANY);
		pidns_task_ids(child, &fk, &t);
		pidns_task_ids(parent, &fv, &pt);
		bpf_map_update_elem(&forks, &fk, &fv, BPF_ANY);
		fork_inner_pid(child, fk);
	}
	if (st != KERN_PID_TRACED || !want(BPF_CORE_READ(parent, pid), PTBPF_EV_PROC_FORK))
		return 0;
	r = rec_reserve(&rr, sizeof(*e));
	if (!r)
		return 0;
	rec_fill(r, PTBPF_EV_PROC_FORK, sizeof(*e), parent, task_user_ip(parent));
	e = (void *)(r + 1);
	e->parent_pid = r->pid;
	e->parent_tid = r->tid;
	e->child_pid = ctgid;
	e->child_tid = cpid;
	pidns_task_ids(child, (__u32 *)&e->child_pid, (__u32 *)&e->child_tid);
	e->is_thread = ctgid == ptgid;
	BPF_CORE_READ_STR_INTO(&e->comm, child, comm);
	rec_submit(&rr, r);
	return 0;
}

/* mm_struct.flags before 6.18 (a word; since, a bitmap of one word): both
 * spelled out, whichever the architecture's vmlinux.h has */
struct mm_struct___word {
	unsigned long flags;
} __attribute__((preserve_access_index));

struct mm_struct___bitmap {
	struct {
		unsigned long __mm_flags[1];
	} flags;
} __attribute__((preserve_access_index));

#define MMF_DUMPABLE_MASK 3 /* get_dumpable() */
#define SUID_DUMP_USER	  1

static __always_inline unsigned long mm_flags_word(struct mm_struct *mm)
{
	struct mm_struct___bitmap *b = (void *)mm;

	if (bpf_core_field_exists(b->flags.__mm_flags))
		return BPF_CORE_READ(b, flags.__mm_flags[0]);
	return BPF_CORE_READ((struct mm_struct___word *)mm, flags);
}

/*
 * Could a tracer without CAP_SYS_PTRACE ptrace-attach the new image? Not
 * after a secure exec (credentials changed: set-user-ID, set-group-ID,
 * file capabilities, an LSM's transition), nor when the image is not
 * dumpable (a program its caller may not read): ptrace_may_access() then
 * wants that capability. 0, or the PTBPF_UNTRACED_* reason.
 */
static __always_inline __u32 exec_untraced_reason(struct task_struct *p, struct linux_binprm *bprm)
{
	struct mm_struct *mm = BPF_CORE_READ(p, mm);

	if (BPF_CORE_READ_BITFIELD_PROBED(bprm, secureexec))
		return PTBPF_UNTRACED_SECURE_EXEC;
	if (mm && (mm_flags_word(mm) & MMF_DUMPABLE_MASK) != SUID_DUMP_USER)
		return PTBPF_UNTRACED_UNREADABLE;
	return 0;
}

/*
 * The file name of an exec into dst (PTBPF_PATH_MAX bytes): its length with
 * the NUL; *truncated when it did not fit.
 */
static __always_inline __u32 exec_filename(char *dst, struct linux_binprm *bprm, __u32 *truncated)
{
	const char *fn = BPF_CORE_READ(bprm, filename);
	long n = bpf_probe_read_kernel_str(dst, PTBPF_PATH_MAX, fn);

	*truncated = 0;
	if (n < 0) {
		dst[0] = 0;
		return 1;
	}
	if (n >= PTBPF_PATH_MAX) {
		char c = 0;

		if (bpf_probe_read_kernel(&c, 1, fn + PTBPF_PATH_MAX - 1) || c)
			*truncated = 1;
		return PTBPF_PATH_MAX;
	}
	return n;
}

/*
 * The tracer may not see the new image (see exec_untraced_reason): the
 * process leaves the traced set here, before the image runs, so none of its
 * events (its execve's return included) is written; proc_untraced says why.
 */
static __always_inline void untrace_exec(struct task_struct *p, __u32 tgid,
					 struct linux_binprm *bprm, __u32 reason)
{
	struct ring_ref rr;
	struct kern_rec *r;
	struct ptbpf_ev_untraced *e;
	__u32 truncated;

	bpf_map_delete_elem(&pids, &tgid);
	if (!want(BPF_CORE_READ(p, pid), PTBPF_EV_PROC_UNTRACED))
		return;
	r = rec_reserve(&rr, sizeof(*e));
	if (!r)
		return;
	rec_fill(r, PTBPF_EV_PROC_UNTRACED, sizeof(*e), p, 0);
	e = (void *)(r + 1);
	e->pid = r->pid;
	e->tid = r->tid;
	e->reason = reason;
	e->filename_len = exec_filename(e->filename, bprm, &truncated);
	if (truncated)
		r->flags |= KERN_REC_TRUNCATED;
	rec_submit(&rr, r);
}

/*
 * An execve whose entry could not read the name: its exit comes in the new
 * image, so the kernel's copy of the name is kept for it now, under the
 * thread's new id (a thread other than the leader takes the leader's).
 */
static __always_inline void late_exec(struct linux_binprm *bprm, __u32 old_tid)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct late_path *l = bpf_map_lookup_elem(&late_paths, &old_tid);
	long n;

	/* execveat's kernel name of a path relative to a descriptor is not
	 * the one given ("/dev/fd/N/..."): read again at exit, if it can be */
	if (!l || l->nr != NR_execve)
		return;
	n = bpf_probe_read_kernel_str(l->name, sizeof(l->name), BPF_CORE_READ(bprm, filename));
	l->name_len = n > 0 ? n : 0;
	if (tid != old_tid && !bpf_map_update_elem(&late_paths, &tid, l, BPF_ANY)) {
		bpf_map_delete_elem(&late_paths, &old_tid);
	}
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(ptbpf_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct ring_ref rr;
	struct kern_rec *r;
	struct ptbpf_ev_exec *e;
	__u32 tgid = bpf_get_current_pid_tgid() >> 32, reason;
	/* a held process too: the check user space made holds for this image only */
	__u8 st = pid_state(tgid);

	if (!st)
		return 0;
	if (nr_late)
		late_exec(bprm, old_pid);
	if (!follow_secure_exec && (reason = exec_untraced_reason(p, bprm))) {
		if (st == KERN_PID_TRACED)
			untrace_exec(p, tgid, bprm, reason);
		else
			bpf_map_delete_elem(&pids, &tgid);
		return 0;
	}
	if (st != KERN_PID_TRACED || !want((__u32)bpf_get_current_pid_tgid(), PTBPF_EV_PROC_EXEC))
		return 0;
	r = rec_reserve(&rr, sizeof(*e));
	if (!r)
		return 0;
	rec_fill(r, PTBPF_EV_PROC_EXEC, sizeof(*e), p, task_user_ip(p));
	e = (void *)(r + 1);
	e->pid = r->pid;
	/* a thread's old id is gone from the namespace's view: its own then */
	e->old_tid = pidns_level ? r->tid : old_pid;
	e->filename_len = exec_filename(e->filename, bprm, &e->truncated);
	if (e->truncated)
		r->flags |= KERN_REC_TRUNCATED;
	rec_submit(&rr, r);
	return 0;
}

static __always_inline void emit_exit(struct task_struct *p, __u32 id, int code, bool dead)
{
	struct ring_ref rr;
	struct kern_rec *r;
	struct ptbpf_ev_exit *e;

	if (!want(BPF_CORE_READ(p, pid), id))
		return;
	r = rec_reserve(&rr, sizeof(*e));
	if (!r)
		return;
	rec_fill(r, id, sizeof(*e), p, task_user_ip(p));
	e = (void *)(r + 1);
	e->pid = r->pid;
	e->tid = r->tid;
	e->exit_code = code;
	e->group_dead = dead;
	rec_submit(&rr, r);
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(ptbpf_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);
	int code = BPF_CORE_READ(p, exit_code);
	bool dead;

	if (!pid_traced(tgid))
		return 0;
	if (nr_late)
		late_forget(BPF_CORE_READ(p, pid)); /* died in a path syscall */
	dead = BPF_CORE_READ(p, signal, live.counter) == 0;
	if (syscall_status) {
		/* its exit or exit_group, which never returns */
		__u32 tid = BPF_CORE_READ(p, pid);

		if (!bpf_map_delete_elem(&held, &tid))
			__sync_fetch_and_add(&cnt_filtered, 1);
	}
	emit_exit(p, PTBPF_EV_THREAD_EXIT, code, dead);
	if (!dead)
		return 0;
	/*
	 * live drops before exit_mm() wakes pthread_join, so two exiting
	 * threads may both see 0: one proc_exit per process. The process
	 * stays in pids until its leader is released (other threads may still
	 * be on their way out).
	 */
	if (bpf_map_update_elem(&exited, &tgid, &dead, BPF_NOEXIST))
		return 0;
	emit_exit(p, PTBPF_EV_PROC_EXIT, code, dead);
	return 0;
}

/* The group leader is released (reaped, all threads gone): forget the process. */
SEC("tp_btf/sched_process_free")
int BPF_PROG(ptbpf_free, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);

	if (BPF_CORE_READ(p, pid) != tgid || !pid_state(tgid))
		return 0;
	bpf_map_delete_elem(&pids, &tgid);
	bpf_map_delete_elem(&exited, &tgid);
	bpf_map_delete_elem(&fatal, &tgid);
	return 0;
}

/* ---------------------------------------------------------------- */
/* Signals */

#define SI_KERNEL_CODE	       0x80
#define SIGNAL_GROUP_EXIT_FLAG 0x04 /* signal_struct.flags: a group exit is on */
#define SIGCHLD_NR	       17
#define SIGKILL_NR	       9

/*
 * Signals whose default action ends the process without a core dump: the
 * kernel then ends every thread with a SIGKILL at once (complete_signal).
 * Not: SIGKILL itself, those ignored (CHLD, CONT, URG, WINCH), those that
 * stop (STOP, TSTP, TTIN, TTOU) or dump core (QUIT, ILL, TRAP, ABRT, BUS,
 * FPE, SEGV, XCPU, XFSZ, SYS), which are delivered as they are.
 */
#define SIG_BIT(n) (1ULL << ((n)-1))
#define SIG_FATAL_NOCORE_MASK                                                                      \
	(SIG_BIT(1) | SIG_BIT(2) | SIG_BIT(10) | SIG_BIT(12) | SIG_BIT(13) | SIG_BIT(14) |         \
	 SIG_BIT(15) | SIG_BIT(16) | SIG_BIT(26) | SIG_BIT(27) | SIG_BIT(29) | SIG_BIT(30) |       \
	 0xffffffff80000000ULL /* 32 to 64 */)

static __always_inline void sig_from_info(struct kernel_siginfo *info, struct ptbpf_ev_signal *e,
					  bool sender)
{
	if ((unsigned long)info < 4096) {
		/* SEND_SIG_NOINFO (0): from user space; SEND_SIG_PRIV (1): kernel */
		e->code = (unsigned long)info == 1 ? SI_KERNEL_CODE : 0;
		return;
	}
	e->code = BPF_CORE_READ(info, si_code);
	if (sender && e->code <= 0) {
		/* SI_USER, SI_QUEUE, SI_TKILL...: _kill/_rt carry the sender */
		e->sender_pid = BPF_CORE_READ(info, _sifields._kill._pid);
		e->sender_uid = BPF_CORE_READ(info, _sifields._kill._uid);
	}
	if (e->signo == SIGCHLD_NR && e->code > 0) {
		/* the kernel's own (do_notify_parent): the child and its state */
		e->sender_pid = BPF_CORE_READ(info, _sifields._sigchld._pid);
		e->sender_uid = BPF_CORE_READ(info, _sifields._sigchld._uid);
		e->status = BPF_CORE_READ(info, _sifields._sigchld._status);
		e->utime = BPF_CORE_READ(info, _sifields._sigchld._utime);
		e->stime = BPF_CORE_READ(info, _sifields._sigchld._stime);
		e->flags |= PTBPF_SIG_CHLD;
	}
}

/*
 * A signal sent to task that will end its process as a SIGKILL to every
 * thread (see SIG_FATAL_NOCORE_MASK): kept until its first delivery, the
 * first one sent. Only default-handled signals the kernel delivered.
 */
static __always_inline void fatal_note(struct task_struct *task, const struct ptbpf_ev_signal *e)
{
	struct fatal_sig f;
	__u32 tgid = task->tgid;
	int sig = e->signo;
	struct sighand_struct *sh;
	void *handler = NULL;

	if (e->result != 0 || sig < 1 || sig > 64 || !(SIG_FATAL_NOCORE_MASK & SIG_BIT(sig)))
		return;
	sh = task->sighand;
	if (!sh ||
	    bpf_core_read(&handler, sizeof(handler), &sh->action[(sig - 1) & 63].sa.sa_handler))
		return;
	if (handler) /* SIG_DFL is 0 */
		return;
	f.signo = sig;
	f.code = e->code;
	f.sender_pid = e->sender_pid;
	f.sender_uid = e->sender_uid;
	bpf_map_update_elem(&fatal, &tgid, &f, BPF_NOEXIST);
}

/*
 * The SIGKILL the kernel delivers to a thread of a dying process: no info
 * (SEND_SIG_NOINFO). The process's exit status says why: a fatal signal
 * noted by fatal_note becomes that signal, on the first thread only; any
 * other (exit_group, exec, the rest of the threads) is flagged.
 */
static __always_inline void group_kill(struct task_struct *cur, __u32 tgid,
				       struct ptbpf_ev_signal *e)
{
	int why = BPF_CORE_READ(cur, signal, group_exit_code) & 0x7f;
	struct fatal_sig *f = bpf_map_lookup_elem(&fatal, &tgid);

	if (f && f->signo == why) {
		e->signo = f->signo;
		e->code = f->code;
		e->sender_pid = f->sender_pid;
		e->sender_uid = f->sender_uid;
		e->flags = PTBPF_SIG_FATAL;
		bpf_map_delete_elem(&fatal, &tgid);
		return;
	}
	e->flags = PTBPF_SIG_GROUP_KILL;
}

SEC("tp_btf/signal_generate")
int BPF_PROG(ptbpf_sig_gen, int sig, struct kernel_siginfo *info, struct task_struct *task,
	     int group, int result)
{
	struct ring_ref rr;
	struct kern_rec *r;
	struct ptbpf_ev_signal *e, s = {};
	struct task_struct *cur = (struct task_struct *)bpf_get_current_task();
	__u32 tgid = task->tgid;

	/* a signal to a process on its way out (the kernel drops it) or gone
	 * (its proc_exit written): its trace ends with the exit */
	if (!pid_traced(tgid) || bpf_map_lookup_elem(&exited, &tgid))
		return 0;
	if (result == TRACE_SIGNAL_IGNORED &&
	    (BPF_CORE_READ(task, signal, flags) & SIGNAL_GROUP_EXIT_FLAG))
		return 0;
	s.signo = sig;
	s.sender_pid = bpf_get_current_pid_tgid() >> 32;
	if (pidns_level) {
		__u32 t = (__u32)bpf_get_current_pid_tgid();

		pidns_task_ids(cur, (__u32 *)&s.sender_pid, &t);
	}
	s.sender_uid = (__u32)bpf_get_current_uid_gid();
	if (BPF_CORE_READ(cur, flags) & 0x00200000 /* PF_KTHREAD */) {
		s.sender_pid = 0;
		s.sender_uid = 0;
	}
	sig_from_info(info, &s, false);
	s.result = result;
	s.group = group;
	/* whatever the filter: the SIGKILL it turns into is recorded apart */
	fatal_note(task, &s);
	if (!want(task->pid, PTBPF_EV_SIGNAL_GENERATE))
		return 0;
	r = rec_reserve(&rr, sizeof(*e));
	if (!r)
		return 0;
	rec_fill(r, PTBPF_EV_SIGNAL_GENERATE, sizeof(*e), task, task_user_ip(task));
	e = (void *)(r + 1);
	s.target_pid = r->pid;
	s.target_tid = r->tid;
	*e = s;
	rec_submit(&rr, r);
	return 0;
}

SEC("tp_btf/signal_deliver")
int BPF_PROG(ptbpf_sig_deliver, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	struct ring_ref rr;
	struct kern_rec *r;
	struct ptbpf_ev_signal *e;
	struct task_struct *cur;
	__u32 tgid;

	if (!current_wanted(PTBPF_EV_SIGNAL_DELIVER, &tgid))
		return 0;
	cur = (struct task_struct *)bpf_get_current_task();
	r = rec_reserve(&rr, sizeof(*e));
	if (!r)
		return 0;
	rec_fill(r, PTBPF_EV_SIGNAL_DELIVER, sizeof(*e), cur, current_user_ip());
	e = (void *)(r + 1);
	e->signo = sig;
	e->code = 0;
	e->sender_pid = 0;
	e->sender_uid = 0;
	e->flags = 0;
	e->status = 0;
	e->utime = 0;
	e->stime = 0;
	sig_from_info(info, e, true);
	if (sig == SIGKILL_NR && !info)
		group_kill(cur, tgid, e);
	else if (sig >= 1 && sig <= 64 && (SIG_FATAL_NOCORE_MASK & SIG_BIT(sig)))
		/* delivered as it is (it was blocked, or is handled now): no
		 * SIGKILL stands for it */
		bpf_map_delete_elem(&fatal, &tgid);
	e->target_pid = r->pid;
	e->target_tid = r->tid;
	e->result = 0;
	e->group = 0;
	rec_submit(&rr, r);
	return 0;
}

/* ---------------------------------------------------------------- */
/* Scheduling */

static __always_inline long task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((struct task_struct___old *)t, state);
}

static __always_inline void emit_switch(struct task_struct *t, __u32 id, bool preempt,
					struct task_struct *prev, struct task_struct *next)
{
	struct ring_ref rr;
	struct kern_rec *r;
	struct ptbpf_ev_sched_switch *e;

	if (!task_wanted(t, id))
		return;
	r = rec_reserve(&rr, sizeof(*e));
	if (!r)
		return;
	rec_fill(r, id, sizeof(*e), t, task_user_ip(t));
	e = (void *)(r + 1);
	e->prev_tid = pidns_task_tid(prev, BPF_CORE_READ(prev, pid));
	e->next_tid = pidns_task_tid(next, BPF_CORE_READ(next, pid));
	e->prev_state = task_state(prev);
	e->cpu = bpf_get_smp_processor_id();
	e->preempt = preempt;
	rec_submit(&rr, r);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(ptbpf_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	emit_switch(prev, PTBPF_EV_SCHED_SWITCH_OUT, preempt, prev, next);
	emit_switch(next, PTBPF_EV_SCHED_SWITCH_IN, preempt, prev, next);
	return 0;
}

static __always_inline void emit_wakeup(struct task_struct *p)
{
	struct ring_ref rr;
	struct kern_rec *r;
	struct ptbpf_ev_sched_wakeup *e;

	if (!task_wanted(p, PTBPF_EV_SCHED_WAKEUP))
		return;
	r = rec_reserve(&rr, sizeof(*e));
	if (!r)
		return;
	rec_fill(r, PTBPF_EV_SCHED_WAKEUP, sizeof(*e), p, task_user_ip(p));
	e = (void *)(r + 1);
	e->pid = r->pid;
	e->tid = r->tid;
	e->waker_tid = pidns_task_tid((struct task_struct *)bpf_get_current_task(),
				      (__u32)bpf_get_current_pid_tgid());
	e->target_cpu = BPF_CORE_READ(p, wake_cpu);
	rec_submit(&rr, r);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(ptbpf_wakeup, struct task_struct *p)
{
	emit_wakeup(p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(ptbpf_wakeup_new, struct task_struct *p)
{
	emit_wakeup(p);
	return 0;
}

/* uprobes, uretprobes, USDT probes: they share the rings and filters above */
#include "probe.bpf.h"

/* the processes of cgroups, those that join later too (a stream with cgroups) */
#include "cgroup.bpf.h"

/* syscalls counted in the kernel (ptbpf_trace_attr_setaggregate) */
#include "count.bpf.h"
