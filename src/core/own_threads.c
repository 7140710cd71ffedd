/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/own_threads.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend/kern.h"

/* Two threads per stream and log at most. */
#define MAX_INTERNAL	       (4 * TRACE_SYS_MAX_INTERNAL)
#define TRACE_SYS_MAX_INTERNAL 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t tids[MAX_INTERNAL];
static int ntids;
static struct kern_backend *selfs[TRACE_SYS_MAX_INTERNAL];
static int nselfs;
static pid_t owner;

/* After fork, the parent's threads are not ours. */
static void own_threads__after_fork(void)
{
	if (owner != getpid()) {
		ntids = 0;
		nselfs = 0;
		owner = getpid();
	}
}

pid_t own_threads__started(void)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int i;

	pthread_mutex_lock(&lock);
	own_threads__after_fork();
	if (ntids < MAX_INTERNAL)
		tids[ntids++] = tid;
	for (i = 0; i < nselfs; i++)
		kern_backend__exclude_tid(selfs[i], tid);
	pthread_mutex_unlock(&lock);
	return tid;
}

void own_threads__reaped(pid_t tid)
{
	int i;

	pthread_mutex_lock(&lock);
	own_threads__after_fork();
	for (i = 0; i < nselfs; i++)
		kern_backend__include_tid(selfs[i], tid);
	pthread_mutex_unlock(&lock);
}

void own_threads__exiting(void)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int i;

	pthread_mutex_lock(&lock);
	own_threads__after_fork();
	for (i = 0; i < ntids; i++) {
		if (tids[i] == tid) {
			tids[i] = tids[--ntids];
			break;
		}
	}
	pthread_mutex_unlock(&lock);
}

void own_threads__backend_add(struct kern_backend *kb)
{
	int i;

	pthread_mutex_lock(&lock);
	own_threads__after_fork();
	if (nselfs < TRACE_SYS_MAX_INTERNAL)
		selfs[nselfs++] = kb;
	for (i = 0; i < ntids; i++)
		kern_backend__exclude_tid(kb, tids[i]);
	pthread_mutex_unlock(&lock);
}

void own_threads__backend_del(struct kern_backend *kb)
{
	int i;

	pthread_mutex_lock(&lock);
	own_threads__after_fork();
	for (i = 0; i < nselfs; i++) {
		if (selfs[i] == kb) {
			selfs[i] = selfs[--nselfs];
			break;
		}
	}
	pthread_mutex_unlock(&lock);
}
