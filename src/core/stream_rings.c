// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A stream's kernel rings put in their map of maps on a thread of their
 * own: the update waits for an RCU grace period, which the rest of the
 * stream's creation (user-event regions, the log) overlaps.
 */
#include <pthread.h>
#include <signal.h>

#include "core/internal.h"
#include "core/stream_int.h"

static void *rings_main(void *arg)
{
	struct rings_job *j = arg;

	j->tid = internal__thread_started();
	pthread_setname_np(pthread_self(), "ptbpf-rings");
	j->err = kern_backend__put_rings(j->kb);
	internal__thread_exiting();
	return NULL;
}

void stream__rings_begin(struct rings_job *j, struct kern_backend *kb)
{
	sigset_t all, old;

	j->kb = kb;
	j->err = 0;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	j->started = !pthread_create(&j->thr, NULL, rings_main, j);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!j->started)
		j->err = kern_backend__put_rings(kb);
}

int stream__rings_end(struct rings_job *j)
{
	if (j->started) {
		pthread_join(j->thr, NULL);
		internal__thread_reaped(j->tid);
		j->started = false;
	}
	return j->err;
}
