/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * A task's ids in the tracer's pid namespace, from its struct pid: the
 * number at the namespace's level, if the namespace there is the tracer's
 * (a task of an ancestor namespace has none: 0). Included by the programs
 * that need it, after vmlinux.h and bpf_core_read.h.
 */
#ifndef PTBPF_BPF_PIDNS_BPF_H
#define PTBPF_BPF_PIDNS_BPF_H

/* The tracer's namespace: its level (0: the initial one, ids kept as they
 * are) and its inode number (/proc/self/ns/pid). */
const volatile __u32 pidns_level = 0;
const volatile __u32 pidns_inum = 0;
const volatile __u64 pidns_dev = 0; /* of the nsfs inode, for the kernel's helper */

/* pid's number at level, if the namespace there has inode inum; else 0 */
static __always_inline __u32 pidns_nr_at(struct pid *pid, __u32 level, __u32 inum)
{
	struct upid *u;

	if (!pid || BPF_CORE_READ(pid, level) < level)
		return 0;
	u = (struct upid *)((char *)__builtin_preserve_access_index(&pid->numbers[0]) +
			    level * bpf_core_type_size(struct upid));
	if (BPF_CORE_READ(u, ns, ns.inum) != inum)
		return 0;
	return BPF_CORE_READ(u, nr);
}

/* pid's number at level, whichever namespace is there (its own: pid's level) */
static __always_inline __u32 pidns_nr_own(struct pid *pid, __u32 level)
{
	struct upid *u = (struct upid *)((char *)__builtin_preserve_access_index(&pid->numbers[0]) +
					 level * bpf_core_type_size(struct upid));

	return BPF_CORE_READ(u, nr);
}

/* Replace the host's ids of task by the tracer namespace's, if it has one. */
static __always_inline void pidns_task_ids(struct task_struct *task, __u32 *tgid, __u32 *tid)
{
	bool leader = *tgid == *tid; /* the host's: a leader's ids are one */

	if (!pidns_level)
		return;
	*tid = pidns_nr_at(BPF_CORE_READ(task, thread_pid), pidns_level, pidns_inum);
	*tgid = leader ? *tid
		       : pidns_nr_at(BPF_CORE_READ(task, group_leader, thread_pid), pidns_level,
				     pidns_inum);
}

/*
 * The same for the current task: one helper call when the task is in the
 * tracer's namespace itself (its pid there is its own), the common case of
 * a tracer in a container; else from its struct pid (a namespace below).
 */
static __always_inline void pidns_current_ids(__u32 *tgid, __u32 *tid)
{
	struct bpf_pidns_info ni;

	if (!pidns_level)
		return;
	if (!bpf_get_ns_current_pid_tgid(pidns_dev, pidns_inum, &ni, sizeof(ni))) {
		*tgid = ni.tgid;
		*tid = ni.pid;
		return;
	}
	pidns_task_ids((struct task_struct *)bpf_get_current_task(), tgid, tid);
}

/* The same for a single id of task: its thread id, or its process's. */
static __always_inline __u32 pidns_task_tid(struct task_struct *task, __u32 host)
{
	__u32 tgid = 0, tid = host;

	pidns_task_ids(task, &tgid, &tid);
	return tid;
}

#endif
