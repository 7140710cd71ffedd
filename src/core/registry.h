/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace_id_t handles: a process-local table of active streams and opened
 * logs. A trid carries a slot, a generation and a per-process salt, so a
 * stale trid, one from another process (a forked child's copy of the
 * table is disowned) or a made-up number is rejected.
 */
#ifndef PTBPF_CORE_REGISTRY_H
#define PTBPF_CORE_REGISTRY_H

#include <trace.h>

enum trace_kind {
	TRACE_KIND_ACTIVE = 1, /* posix_trace_create / _withlog */
	TRACE_KIND_LOG = 2,    /* posix_trace_open */
};

/* -EAGAIN when TRACE_SYS_MAX handles exist. */
int registry__add(enum trace_kind kind, void *obj, int has_log, trace_id_t *trid);
/*
 * The same in two steps, so that a create that cannot get a handle fails
 * before it has done anything: reserve a handle (-EAGAIN), then publish
 * the object under it, or give it back.
 */
int registry__reserve(enum trace_kind kind, int has_log, trace_id_t *trid);
void registry__publish(trace_id_t trid, void *obj);
void registry__unreserve(trace_id_t trid);
/* Take a reference on the object of trid if its kind is in kinds
 * (a mask); -EINVAL otherwise. Every successful get needs a put. */
int registry__get(trace_id_t trid, int kinds, void **obj, int *kind, int *has_log);
void registry__put(trace_id_t trid);
/*
 * Unpublish trid (further gets fail), call wake(obj) so blocked users
 * return, wait until every reference is put, and hand the object back.
 */
int registry__remove(trace_id_t trid, int kinds, void (*wake)(void *obj), void **obj);

/*
 * The trids of the live slots of these kinds, at most max: their number,
 * or -ESRCH when the table is not this process's (a forked child's copy,
 * or a vfork child's view of its parent's).
 */
int registry__list(int kinds, trace_id_t *trids, int max);

/* Tests: count references atomically in the slots, as without membarrier
 * (only while no slot is live). */
void registry__force_atomic(void);

#endif
