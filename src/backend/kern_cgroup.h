/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The processes of cgroup v2 directories, traced by a kernel backend
 * (bpf/cgroup.bpf.h): those that join a cgroup later (moved in, or created
 * in it) are taken in by the kernel side, when the tracer could ptrace
 * them (the rule of struct kern_tracer); those in it already are the
 * caller's to add (kern_cgroups__member), after its own check. A member
 * that moves out is no longer traced.
 */
#ifndef PTBPF_BACKEND_KERN_CGROUP_H
#define PTBPF_BACKEND_KERN_CGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct kern_backend;
struct kern_cgroups;

/*
 * The tracer, as ptrace's access check sees it (attach mode, fs
 * credentials): ids as the kernel has them (kuid, kgid), its user
 * namespace's inode number, its effective capabilities, and Yama's
 * ptrace_scope (0 without Yama).
 */
struct kern_tracer {
	uint32_t uid, gid;
	uint32_t userns;
	uint64_t caps;
	bool ptrace_cap; /* CAP_SYS_PTRACE in userns */
	int yama;
};

/*
 * Load and attach the kernel side for kb, whose maps it shares (its
 * probes are then attached in every process: members come and go).
 * -errno as kern_backend__open.
 */
int kern_cgroups__open(struct kern_cgroups **out, struct kern_backend *kb,
		       const struct kern_tracer *t);
/* Detach and free it (before kb's kern_backend__destroy). */
void kern_cgroups__free(struct kern_cgroups *cg);

/* Trace the processes of cgroup id (its directory's inode number) and of
 * those below it. -E2BIG: KERN_MAX_CGROUPS of them already. */
int kern_cgroups__add(struct kern_cgroups *cg, uint64_t id);
/*
 * Process tgid (the caller's namespace's id), started at start (clock
 * ticks since boot, /proc/PID/stat's), is traced as a member: untraced if
 * it moves out. unmark: no longer a member (its tracing failed); -ENOENT
 * if it was none (the kernel side saw it move out meanwhile).
 */
int kern_cgroups__member(struct kern_cgroups *cg, pid_t tgid, uint64_t start, bool unmark);
/* Process tgid, started at start, is left out: counted, once. */
int kern_cgroups__left_out(struct kern_cgroups *cg, pid_t tgid, uint64_t start);
/* Processes left out until now. */
uint64_t kern_cgroups__left_out_count(struct kern_cgroups *cg);

#endif
