/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * Cgroups (src/backend/kern_cgroup.c): the processes of the cgroup v2
 * directories in cg_wanted and of the cgroups below them are traced, those
 * that join later too: moved in (cgroup_attach_task) or created in one (a
 * fork, clone3's CLONE_INTO_CGROUP included). A process joins only if the
 * tracer could ptrace it (cg_may_ptrace); the others are left out and
 * counted, once each. A member that moves out is no longer traced, unless
 * it is traced for another reason (a pid given, a traced parent with
 * inheritance: those are not members). Included at the end of kern.bpf.c;
 * "?": its programs are not loaded with the others, but by a skeleton of
 * their own for a stream with cgroups, with the tracer in its rodata.
 */
#ifndef PTBPF_BPF_CGROUP_BPF_H
#define PTBPF_BPF_CGROUP_BPF_H

/* The tracer, for the ptrace rule (see struct kern_tracer). */
const volatile __u32 cg_ptrace_ns = 0; /* with CAP_SYS_PTRACE: its user namespace, else 0 */
const volatile __u32 cg_userns = 0;    /* its user namespace (inode number) */
const volatile __u32 cg_uid = 0;       /* its fs uid and gid, the kernel's (kuid, kgid) */
const volatile __u32 cg_gid = 0;
const volatile __u64 cg_caps = 0; /* its effective capabilities */
const volatile __u32 cg_yama = 0; /* Yama's ptrace_scope (0: none) */
/* the tracer's process: never a member (it would trace its own reading) */
const volatile __u32 cg_self = 0;

/* cg_wanted's entries: 0, the programs return at once */
__u32 nr_cgroups;
/* processes of the cgroups the tracer may not ptrace: not traced */
__u64 cnt_left_out;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KERN_MAX_CGROUPS);
	__type(key, __u64); /* the cgroup's id: its directory's inode number */
	__type(value, __u8);
} cg_wanted SEC(".maps");

/*
 * Processes traced as members of a cgroup, and processes left out: the
 * start time of each (KERN_CG_START, as user space reads it in
 * /proc/PID/stat), so that a pid used again is not taken for them.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KERN_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u64);
} cg_members SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KERN_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u64);
} cg_refused SEC(".maps");

#define CG_PF_KTHREAD	    0x00200000
#define CG_INIT_USER_NS_INO 0xeffffffdu /* PROC_USER_INIT_INO */
/* cgroup levels walked up at most, user namespace levels (the kernel's 32) */
#define CG_MAX_DEPTH  64
#define CG_USERNS_MAX 33

static __always_inline __u64 cg_start(struct task_struct *t)
{
	return BPF_CORE_READ(t, group_leader, start_boottime) / KERN_CG_TICK_NS;
}

/* The cgroup (v2) of t, or one above it, is in cg_wanted. */
static __always_inline bool cg_task_in(struct task_struct *t)
{
	struct cgroup *cg = BPF_CORE_READ(t, cgroups, dfl_cgrp);

	for (int i = 0; i < CG_MAX_DEPTH && cg; i++) {
		__u64 id = BPF_CORE_READ(cg, kn, id);
		struct cgroup_subsys_state *up;

		if (bpf_map_lookup_elem(&cg_wanted, &id))
			return true;
		/* the parent's css is its cgroup's self */
		up = BPF_CORE_READ(cg, self.parent);
		if (!up)
			break;
		cg = (struct cgroup *)((char *)up - bpf_core_field_offset(struct cgroup, self));
	}
	return false;
}

/*
 * Could the tracer ptrace-attach t (what opening /proc/PID/mem checks,
 * __ptrace_may_access and the capability LSM)? Its credentials all the
 * tracer's, in its user namespace, no capability the tracer has not
 * effective, a dumpable image (as exec_untraced_reason), or CAP_SYS_PTRACE
 * in t's user namespace. Yama's restrictions are not decided here: with
 * one, only CAP_SYS_PTRACE passes. Other security modules are not asked.
 */
static __always_inline bool cg_may_ptrace(struct task_struct *t)
{
	const struct cred *c = BPF_CORE_READ(t, real_cred);
	struct user_namespace *ns = BPF_CORE_READ(c, user_ns);
	struct mm_struct *mm;
	__u64 caps = 0;

	if (cg_yama >= 3)
		return false;
	if (cg_ptrace_ns == CG_INIT_USER_NS_INO)
		return true;
	for (int i = 0; cg_ptrace_ns && i < CG_USERNS_MAX && ns; i++) {
		if (BPF_CORE_READ(ns, ns.inum) == cg_ptrace_ns)
			return true;
		ns = BPF_CORE_READ(ns, parent);
	}
	if (cg_yama)
		return false;
	if (BPF_CORE_READ(c, uid.val) != cg_uid || BPF_CORE_READ(c, euid.val) != cg_uid ||
	    BPF_CORE_READ(c, suid.val) != cg_uid || BPF_CORE_READ(c, gid.val) != cg_gid ||
	    BPF_CORE_READ(c, egid.val) != cg_gid || BPF_CORE_READ(c, sgid.val) != cg_gid)
		return false;
	if (BPF_CORE_READ(c, user_ns, ns.inum) != cg_userns)
		return false;
	/* kernel_cap_t: a u64, or before 6.3 two u32 (the same bytes) */
	if (bpf_core_read(&caps, sizeof(caps), &c->cap_permitted) || (caps & ~cg_caps))
		return false;
	mm = BPF_CORE_READ(t, mm);
	return !mm || (mm_flags_word(mm) & MMF_DUMPABLE_MASK) == SUID_DUMP_USER;
}

/* Process tgid (of t) is in a wanted cgroup: traced, or left out and counted. */
static __always_inline void cg_join(struct task_struct *t, __u32 tgid)
{
	__u64 start = cg_start(t), *old;
	__u8 st = KERN_PID_TRACED;

	if ((BPF_CORE_READ(t, flags) & CG_PF_KTHREAD) || tgid == cg_self)
		return;
	/* a tracer in a pid namespace sees its namespace's processes only */
	if (pidns_level && !pidns_nr_at(BPF_CORE_READ(t, thread_pid), pidns_level, pidns_inum))
		return;
	if (!cg_may_ptrace(t)) {
		if (!bpf_map_update_elem(&cg_refused, &tgid, &start, BPF_NOEXIST)) {
			__sync_fetch_and_add(&cnt_left_out, 1);
			return;
		}
		/* counted already, unless that was another process of this pid */
		old = bpf_map_lookup_elem(&cg_refused, &tgid);
		if (old && *old != start) {
			*old = start;
			__sync_fetch_and_add(&cnt_left_out, 1);
		}
		return;
	}
	if (!bpf_map_update_elem(&pids, &tgid, &st, BPF_NOEXIST))
		bpf_map_update_elem(&cg_members, &tgid, &start, BPF_ANY);
}

/* Process tgid (of t) is in no wanted cgroup: a member is traced no more. */
static __always_inline void cg_leave(struct task_struct *t, __u32 tgid)
{
	__u64 *m = bpf_map_lookup_elem(&cg_members, &tgid);

	if (!m)
		return;
	if (*m == cg_start(t))
		bpf_map_delete_elem(&pids, &tgid);
	bpf_map_delete_elem(&cg_members, &tgid);
}

SEC("?tp_btf/cgroup_attach_task")
int BPF_PROG(ptbpf_cg_attach, struct cgroup *dst, const char *path, struct task_struct *task,
	     bool threadgroup)
{
	__u32 tgid;

	if (!nr_cgroups)
		return 0;
	/* task's v2 cgroup, whichever hierarchy dst is in (a v1 move leaves it) */
	tgid = BPF_CORE_READ(task, tgid);
	if (!cg_task_in(task))
		cg_leave(task, tgid);
	else if (!bpf_map_lookup_elem(&pids, &tgid))
		cg_join(task, tgid);
	return 0;
}

SEC("?tp_btf/sched_process_fork")
int BPF_PROG(ptbpf_cg_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid, ctgid;

	if (!nr_cgroups)
		return 0;
	ptgid = BPF_CORE_READ(parent, tgid);
	ctgid = BPF_CORE_READ(child, tgid);
	if (ctgid != BPF_CORE_READ(child, pid) || ctgid == ptgid)
		return 0; /* a thread */
	/* inherited from a traced parent (ptbpf_fork), whichever runs first */
	if (inherit && bpf_map_lookup_elem(&pids, &ptgid))
		return 0;
	if (cg_task_in(child))
		cg_join(child, ctgid);
	return 0;
}

#endif
