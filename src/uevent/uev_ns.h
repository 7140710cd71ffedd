/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ids of a traced process in a pid namespace below ours (uev_ns.c). */
#ifndef PTBPF_UEVENT_UEV_NS_H
#define PTBPF_UEVENT_UEV_NS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The traced process seen from its own pid namespace, when it is in one
 * below ours: its records, and the slot's target_pid it checks, carry that
 * namespace's ids (uev_ns.c turns them into ours).
 */
#define UEV_NS_CACHE 32
struct uev_ns {
	bool nested;	    /* the process is in a pid namespace below ours */
	pid_t inner;	    /* its pid there */
	uint64_t pidns_ino; /* that namespace's inode */
	struct {
		pid_t inner_pid, inner_tid, pid, tid; /* a thread there, and in ours */
	} cache[UEV_NS_CACHE];
	unsigned int next; /* the cache entry replaced next */
};

/* ns for the process pid (ours): not nested if /proc cannot say. */
void uev_ns__init(struct uev_ns *ns, pid_t pid);
/*
 * Our ids of thread inner_tid of process inner_pid, both of its namespace;
 * the traced process's own pid is known, others (children sharing the
 * region) are asked of outer (the consumer's callback, with ctx) if not
 * NULL, then looked for in /proc: false if not found.
 */
bool uev_ns__outer(struct uev_ns *ns, pid_t target, pid_t (*outer)(void *ctx, pid_t inner),
		   void *ctx, int32_t inner_pid, int32_t inner_tid, int32_t *pid, int32_t *tid);

#endif
