/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * A tracer in a pid namespace (src/backend/pidns.c): the task iterator's
 * record, a task's ids on the host and in that namespace.
 */
#ifndef PTBPF_BPF_PIDNS_H
#define PTBPF_BPF_PIDNS_H

#define PIDNS_LEVEL_MAX 32 /* the kernel's MAX_PID_NS_LEVEL */

struct pidns_task {
	__u32 host_tgid;
	__u32 host_tid;
	__u32 ns_tgid; /* 0: the task has no id in the namespace */
	__u32 ns_tid;
	__u32 level; /* the namespace's */
	__u32 pad;
};

#endif
