/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's own threads (stream drainers, log flushers) are never
 * traced: every stream that traces this very process excludes all of them,
 * those that exist when it is created and those started later.
 */
#ifndef PTBPF_CORE_OWN_THREADS_H
#define PTBPF_CORE_OWN_THREADS_H

#include <sys/types.h>

struct kern_backend;

/* Call from the new internal thread itself; returns its thread id. */
pid_t own_threads__started(void);
void own_threads__exiting(void);
/*
 * After pthread_join() of an internal thread: its id is no longer excluded
 * anywhere. Thread ids come back (pid_max is 32768 on small machines): a
 * thread of the process given the id of a dead internal one would go
 * untraced.
 */
void own_threads__reaped(pid_t tid);

/* A kernel backend that traces this process: exclude every internal thread
 * now and later, until own_threads__backend_del(). */
void own_threads__backend_add(struct kern_backend *kb);
void own_threads__backend_del(struct kern_backend *kb);

#endif
