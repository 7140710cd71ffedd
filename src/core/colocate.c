/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/colocate.h"

#include <stdlib.h>
#include <string.h>

void colocate__init(struct colocate *c, pid_t tid)
{
	const char *env = getenv("PTBPF_COLOCATE");

	c->cpu = -1;
	c->paused = false;
	c->tid = 0;
	if (env && !strcmp(env, "0"))
		return;
	if (sched_getaffinity(0, sizeof(c->own), &c->own))
		return;
	c->tid = tid;
}

void colocate__follow(struct colocate *c)
{
	cpu_set_t one;
	int cpu;

	if (!c->tid || c->paused)
		return;
	cpu = sched_getcpu(); /* a load from the thread's rseq area */
	if (cpu == c->cpu)
		return;
	if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &c->own)) {
		colocate__release(c, false);
		return;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(c->tid, sizeof(one), &one)) {
		/* a CPU set of a cgroup, or the follower gone: let it be */
		colocate__release(c, false);
		c->tid = 0;
		return;
	}
	c->cpu = cpu;
}

void colocate__release(struct colocate *c, bool paused)
{
	if (paused)
		c->paused = true;
	if (!c->tid || c->cpu < 0)
		return;
	c->cpu = -1;
	(void)sched_setaffinity(c->tid, sizeof(c->own), &c->own);
}
