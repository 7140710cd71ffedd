/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's threads run with every signal blocked: a signal sent to
 * the process belongs to the application's threads, and its handlers must
 * never run on ours. Plain C only.
 */
#ifndef PTBPF_COMMON_THREAD_H
#define PTBPF_COMMON_THREAD_H

#include <pthread.h>
#include <signal.h>

/* pthread_create() with every signal blocked in the new thread; -errno. */
static inline int thread__start_blocked(pthread_t *thr, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(thr, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -err;
}

#endif
