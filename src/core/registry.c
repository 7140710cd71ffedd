/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/registry.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

struct slot {
	void *obj;
	enum trace_kind kind;
	int has_log;
	unsigned gen;
	int refs;
	bool live;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reg_cond = PTHREAD_COND_INITIALIZER;
static struct slot slots[TRACE_SYS_MAX];
static unsigned salt;

#define SLOT_BITS 6
#define GEN_BITS 10
_Static_assert(TRACE_SYS_MAX <= (1 << SLOT_BITS), "slot bits");

/*
 * A forked child inherits a copy of the table that is not its own: the
 * atfork handler disowns it (no getpid() per call), the next registry__add
 * in the child makes a new, empty table with a new salt.
 */
static bool owned;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void registry__child(void)
{
	owned = false;
}

static void registry__setup(void)
{
	pthread_atfork(NULL, NULL, registry__child);
}

static void registry__own(void)
{
	pid_t me;
	struct timespec ts;
	int i;

	pthread_once(&atfork_once, registry__setup);
	if (owned)
		return;
	me = getpid();
	for (i = 0; i < TRACE_SYS_MAX; i++)
		slots[i] = (struct slot){ .gen = slots[i].gen };
	clock_gettime(CLOCK_MONOTONIC, &ts);
	salt = ((unsigned)me * 2654435761u) ^ (unsigned)ts.tv_nsec;
	salt &= (1u << (32 - SLOT_BITS - GEN_BITS)) - 1;
	salt |= 1; /* a trid is never 0 */
	owned = true;
}

static trace_id_t make_trid(int i, unsigned gen)
{
	return (trace_id_t)(((salt << GEN_BITS | (gen & ((1u << GEN_BITS) - 1))) << SLOT_BITS) | i);
}

/* The live slot of trid (reg_lock held). */
static struct slot *lookup(trace_id_t trid, int kinds)
{
	unsigned i = trid & ((1u << SLOT_BITS) - 1);
	struct slot *s;

	if (!owned || i >= TRACE_SYS_MAX)
		return NULL;
	s = &slots[i];
	if (!s->live || !(s->kind & kinds) || make_trid((int)i, s->gen) != trid)
		return NULL;
	return s;
}

int registry__add(enum trace_kind kind, void *obj, int has_log, trace_id_t *trid)
{
	int i, err = -EAGAIN;

	pthread_mutex_lock(&reg_lock);
	registry__own();
	for (i = 0; i < TRACE_SYS_MAX; i++) {
		struct slot *s = &slots[i];

		if (__atomic_load_n(&s->live, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&s->refs, __ATOMIC_ACQUIRE))
			continue;
		s->obj = obj;
		s->kind = kind;
		s->has_log = has_log;
		__atomic_store_n(&s->gen, s->gen + 1, __ATOMIC_RELAXED);
		/* published: a get that sees live sees the fields above */
		__atomic_store_n(&s->live, true, __ATOMIC_RELEASE);
		*trid = make_trid(i, s->gen);
		err = 0;
		break;
	}
	pthread_mutex_unlock(&reg_lock);
	return err;
}

/* Drop one reference; the last one wakes a registry__remove waiting. */
static void slot_put(struct slot *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_SEQ_CST) == 0 &&
	    !__atomic_load_n(&s->live, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&reg_lock);
		pthread_cond_broadcast(&reg_cond);
		pthread_mutex_unlock(&reg_lock);
	}
}

/*
 * Lock-free: take a reference first, then check the slot is live and is
 * trid's (a remove that unpublishes it waits for the reference to go).
 */
int registry__get(trace_id_t trid, int kinds, void **obj, int *kind, int *has_log)
{
	unsigned i = trid & ((1u << SLOT_BITS) - 1);
	struct slot *s;

	if (!owned || i >= TRACE_SYS_MAX)
		return -EINVAL;
	s = &slots[i];
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&s->live, __ATOMIC_SEQ_CST) || !(s->kind & kinds) ||
	    make_trid((int)i, __atomic_load_n(&s->gen, __ATOMIC_RELAXED)) != trid) {
		slot_put(s);
		return -EINVAL;
	}
	*obj = s->obj;
	*kind = s->kind;
	if (has_log)
		*has_log = s->has_log;
	return 0;
}

void registry__put(trace_id_t trid)
{
	unsigned i = trid & ((1u << SLOT_BITS) - 1);

	if (i < TRACE_SYS_MAX && __atomic_load_n(&slots[i].refs, __ATOMIC_RELAXED) > 0)
		slot_put(&slots[i]);
}

int registry__remove(trace_id_t trid, int kinds, void (*wake)(void *obj), void **obj)
{
	struct slot *s;

	pthread_mutex_lock(&reg_lock);
	s = lookup(trid, kinds);
	if (!s) {
		pthread_mutex_unlock(&reg_lock);
		return -EINVAL;
	}
	__atomic_store_n(&s->live, false, __ATOMIC_SEQ_CST);
	*obj = s->obj;
	pthread_mutex_unlock(&reg_lock);
	if (wake)
		wake(*obj);
	pthread_mutex_lock(&reg_lock);
	while (__atomic_load_n(&s->refs, __ATOMIC_SEQ_CST) > 0)
		pthread_cond_wait(&reg_cond, &reg_lock);
	s->obj = NULL;
	pthread_mutex_unlock(&reg_lock);
	return 0;
}
