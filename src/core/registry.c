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

		if (s->live || s->refs)
			continue;
		s->gen++;
		s->obj = obj;
		s->kind = kind;
		s->has_log = has_log;
		s->live = true;
		*trid = make_trid(i, s->gen);
		err = 0;
		break;
	}
	pthread_mutex_unlock(&reg_lock);
	return err;
}

int registry__get(trace_id_t trid, int kinds, void **obj, int *kind, int *has_log)
{
	struct slot *s;
	int err = -EINVAL;

	pthread_mutex_lock(&reg_lock);
	s = lookup(trid, kinds);
	if (s) {
		s->refs++;
		*obj = s->obj;
		*kind = s->kind;
		if (has_log)
			*has_log = s->has_log;
		err = 0;
	}
	pthread_mutex_unlock(&reg_lock);
	return err;
}

void registry__put(trace_id_t trid)
{
	unsigned i = trid & ((1u << SLOT_BITS) - 1);

	pthread_mutex_lock(&reg_lock);
	/* only a registry__remove (the slot is no longer live) waits */
	if (i < TRACE_SYS_MAX && slots[i].refs > 0 && --slots[i].refs == 0 && !slots[i].live)
		pthread_cond_broadcast(&reg_cond);
	pthread_mutex_unlock(&reg_lock);
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
	s->live = false;
	*obj = s->obj;
	pthread_mutex_unlock(&reg_lock);
	if (wake)
		wake(*obj);
	pthread_mutex_lock(&reg_lock);
	while (s->refs > 0)
		pthread_cond_wait(&reg_cond, &reg_lock);
	s->obj = NULL;
	pthread_mutex_unlock(&reg_lock);
	return 0;
}
