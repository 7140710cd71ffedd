/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's own threads (stream drainers, log flushers) are never
 * traced: every stream that traces this very process excludes all of them,
 * those that exist when it is created and those started later.
 */
#ifndef PTBPF_CORE_INTERNAL_H
#define PTBPF_CORE_INTERNAL_H

#include <sys/types.h>

struct kern_backend;

/* Call from the new internal thread itself. */
void internal__thread_started(void);
void internal__thread_exiting(void);

/* A kernel backend that traces this process: exclude every internal thread
 * now and later, until internal__self_backend_del(). */
void internal__self_backend_add(struct kern_backend *kb);
void internal__self_backend_del(struct kern_backend *kb);

#endif
