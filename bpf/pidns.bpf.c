// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/*
 * The tasks a tracer in a pid namespace can see, with their ids there and
 * on the host (src/backend/pidns.c): a task iterator, created in the
 * tracer's namespace, walks only that namespace's tasks. pidns_inum is
 * set before load; the namespace's level is found by walking each task's
 * numbers (the kernel backend's programs then read one level).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "pidns.h"
#include "pidns.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("iter/task")
int ptbpf_pidns_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct pidns_task t = {};
	struct pid *pid;
	__u32 top;

	if (!task)
		return 0;
	pid = BPF_CORE_READ(task, thread_pid);
	top = BPF_CORE_READ(pid, level);
	for (__u32 i = 0; i < PIDNS_LEVEL_MAX && i <= top; i++) {
		t.ns_tid = pidns_nr_at(pid, i, pidns_inum);
		if (t.ns_tid) {
			t.level = i;
			t.ns_tgid = pidns_nr_at(BPF_CORE_READ(task, group_leader, thread_pid), i,
						pidns_inum);
			break;
		}
	}
	t.host_tgid = BPF_CORE_READ(task, tgid);
	t.host_tid = BPF_CORE_READ(task, pid);
	bpf_seq_write(ctx->meta->seq, &t, sizeof(t));
	return 0;
}
