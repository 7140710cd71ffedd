/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef PTBPF_CORE_TARGET_H
#define PTBPF_CORE_TARGET_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * May the caller trace process pid? The rule is ptrace's access check in
 * attach mode (what opening /proc/PID/mem checks): -ESRCH if there is no
 * such process, -EPERM if the caller may not ptrace-attach it.
 */
int target__check(pid_t pid);

/*
 * May the caller ptrace any process, whatever its credentials (an effective
 * CAP_SYS_PTRACE)? Otherwise a traced process that execs a program which
 * changes its credentials is no longer traced from that exec on.
 */
bool target__may_trace_secure_exec(void);

/* The parent of living process pid (from /proc): 0, or -ESRCH. */
int target__parent(pid_t pid, pid_t *parent);

#endif
