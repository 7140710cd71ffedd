/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Cgroup v2 directories: their ids, the processes of a subtree, and the
 * tracer as ptrace's access check sees it (for the kernel side, which
 * applies that check to the processes that join one later).
 */
#ifndef PTBPF_CORE_CGROUP_H
#define PTBPF_CORE_CGROUP_H

#include <stdint.h>
#include <sys/types.h>

#include "backend/kern_cgroup.h"

/*
 * The id of the cgroup v2 directory path: what bpf_get_current_cgroup_id()
 * gives for its processes, its inode number. -ENOENT (no such path, or
 * -errno of stat), -EINVAL: not a directory of a cgroup2 file system (a
 * plain directory, a cgroup v1 hierarchy's).
 */
int cgroup__id(const char *path, uint64_t *id);

/*
 * fn for each process of the cgroup at path and of every cgroup below it
 * (their cgroup.procs), until fn returns non-zero (returned). A cgroup
 * removed meanwhile is passed over. -errno when path's own cannot be read.
 */
int cgroup__for_each_proc(const char *path, int (*fn)(void *ctx, pid_t pid), void *ctx);

/* The start of process pid, in clock ticks since boot (/proc/PID/stat):
 * 0 if it is gone. */
uint64_t cgroup__proc_start(pid_t pid);

/* The caller, as the tracer of the kernel side's check. */
void cgroup__tracer(struct kern_tracer *t);

#endif
