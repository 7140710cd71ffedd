/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * posix_trace_shutdown, explicit or at exit. posix_trace_create: "If the
 * process exits, invokes a member of the exec family of functions, or is
 * terminated, the trace streams that the process had created and that
 * have not yet been shut down, shall be automatically shut down as if an
 * explicit call were made to the posix_trace_shutdown() function." The
 * first stream created registers an atexit handler that does so for
 * exit() and a return from main; registered from the shared library, it
 * runs at its dlclose too, before the code the drainers run goes away.
 * _exit, exec and fatal signals run no code of the process (see the
 * README for what their logs hold).
 */
#include <pthread.h>
#include <stdlib.h>
#include <trace.h>

#include "api/api.h"
#include "core/stream.h"

static pthread_once_t watch_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t busy_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t busy_cond = PTHREAD_COND_INITIALIZER;
static int busy; /* shutdowns other threads are in the middle of */

static void api_exit__hold(void)
{
	pthread_mutex_lock(&busy_lock);
	busy++;
	pthread_mutex_unlock(&busy_lock);
}

static void api_exit__release(void)
{
	pthread_mutex_lock(&busy_lock);
	if (!--busy)
		pthread_cond_broadcast(&busy_cond);
	pthread_mutex_unlock(&busy_lock);
}

static void wake_stream(void *obj)
{
	stream__wake_all(obj);
}

int posix_trace_shutdown(trace_id_t trid)
{
	void *obj;
	int err;

	api_exit__hold();
	err = registry__remove(trid, TRACE_KIND_ACTIVE, wake_stream, &obj);
	if (!err)
		err = stream__destroy(obj);
	api_exit__release();
	return api_err(err);
}

static void shutdown_all(void)
{
	trace_id_t trids[TRACE_SYS_MAX];
	int i, n;

	/* a forked child's table is its parent's copy: nothing of its own */
	n = registry__list(TRACE_KIND_ACTIVE, trids, TRACE_SYS_MAX);
	if (n < 0)
		return;
	for (i = 0; i < n; i++)
		posix_trace_shutdown(trids[i]); /* EINVAL: another thread did */
	/* the log of a shutdown another thread began is complete too */
	pthread_mutex_lock(&busy_lock);
	while (busy)
		pthread_cond_wait(&busy_cond, &busy_lock);
	pthread_mutex_unlock(&busy_lock);
}

/* The child of a fork: the shutdowns under way are its parent's. */
static void exit_child(void)
{
	pthread_mutex_init(&busy_lock, NULL);
	pthread_cond_init(&busy_cond, NULL);
	busy = 0;
}

static void exit_setup(void)
{
	pthread_atfork(NULL, NULL, exit_child);
	atexit(shutdown_all);
}

void api_exit__watch(void)
{
	pthread_once(&watch_once, exit_setup);
}
