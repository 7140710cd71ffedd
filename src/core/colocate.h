/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A library thread kept on the CPU of the thread it exchanges events with:
 * the drainer on its reader's, the log flusher on the CPU of the thread
 * that hands it events. Each event the drainer stores is two cache lines
 * that the reader then loads; on two CPUs every line moves between their
 * caches, on one it stays. Measured on the development VM (2-thread getppid
 * loop, 2M events): the API reader and the drainer took 205-225 ms of CPU
 * held on one CPU, 296-324 ms held on two, 218-272 ms left to the
 * scheduler.
 *
 * Linux has no soft affinity: the follower is held on the leader's CPU
 * (sched_setaffinity) while the leader keeps up, and gets its own mask back
 * when the leader goes idle or falls behind (two threads that need more
 * than one CPU must not share one). Set PTBPF_COLOCATE=0 in the
 * environment to leave every thread to the scheduler.
 *
 * Not thread-safe: the caller serializes the calls on one struct colocate
 * with its own lock.
 */
#ifndef PTBPF_CORE_COLOCATE_H
#define PTBPF_CORE_COLOCATE_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

struct colocate {
	pid_t tid;     /* the follower; 0: none (not started, or switched off) */
	int cpu;       /* the one CPU it is held on; -1: its own mask */
	bool paused;   /* its leader fell behind: not followed until resumed */
	cpu_set_t own; /* the follower's own mask, when it started */
};

/* From the follower thread itself, once (its id and its own mask). */
void colocate__init(struct colocate *c, pid_t tid);
/* From the leader: hold the follower on the caller's CPU. */
void colocate__follow(struct colocate *c);
/* The follower back on its own mask; paused: until colocate__resume(). */
void colocate__release(struct colocate *c, bool paused);
static inline void colocate__resume(struct colocate *c)
{
	c->paused = false;
}

#endif
