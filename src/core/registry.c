/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/registry.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct slot {
	void *obj;
	enum trace_kind kind;
	int has_log;
	unsigned gen;
	int refs; /* references of the atomic mode */
	bool live;
	bool reserved; /* taken, not published yet */
};

/*
 * Every API call takes a reference on its trid and puts it back: two
 * locked read-modify-writes on a shared counter would be a large share of
 * what `ptbpf show` spends per event. So each
 * thread counts its references in its own record, with plain stores; a
 * remove, which is rare, unpublishes the slot, makes every thread of the
 * process pass a memory barrier (membarrier(2), private expedited), then
 * waits until no thread's record counts the slot. Why that is enough: a
 * get stores its count, then loads "live". If the load came before the
 * barrier it forced, the store did too and the remove sees it; if after,
 * the load sees the slot unpublished. Without membarrier (Linux < 4.14 or
 * a seccomp filter) the counts are atomic, in the slot.
 */
struct reader {
	uint16_t refs[TRACE_SYS_MAX]; /* this thread's references per slot */
	struct reader *next, **pprev;
	bool listed;
};

static __thread struct reader me __attribute__((tls_model("initial-exec")));
/* every listed thread's record (reg_lock) */
static struct reader *readers;
/* per-thread counts (set while no slot is live) */
static bool fast;
static pthread_key_t reader_key;
static bool reader_key_ok;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reg_cond = PTHREAD_COND_INITIALIZER;
static struct slot slots[TRACE_SYS_MAX];
static unsigned salt;

#define SLOT_BITS 6
#define GEN_BITS  10
_Static_assert(TRACE_SYS_MAX <= (1 << SLOT_BITS), "slot bits");

/*
 * A forked child inherits a copy of the table that is not its own: the
 * atfork handler disowns it (no getpid() per call), the next registry__add
 * in the child makes a new, empty table with a new salt.
 */
static bool owned;
static pid_t owner; /* the process whose table it is */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void registry__child(void)
{
	owned = false;
	/* the other threads are gone: only this one may list itself again */
	readers = NULL;
	me = (struct reader){ 0 };
}

/* At a thread's exit: its record leaves the list. */
static void reader_exit(void *arg)
{
	struct reader *r = arg;

	pthread_mutex_lock(&reg_lock);
	if (r->listed) {
		*r->pprev = r->next;
		if (r->next)
			r->next->pprev = r->pprev;
		r->listed = false;
	}
	pthread_mutex_unlock(&reg_lock);
}

static void registry__setup(void)
{
	pthread_atfork(NULL, NULL, registry__child);
	reader_key_ok = !pthread_key_create(&reader_key, reader_exit);
}

/* Unloaded (dlclose): no destructor of ours may run at a thread's exit. */
__attribute__((destructor)) static void registry__unload(void)
{
	if (reader_key_ok)
		pthread_key_delete(reader_key);
}

/* The calling thread's record, listed (once per thread: reg_lock). */
static void reader_list(void)
{
	pthread_mutex_lock(&reg_lock);
	if (!me.listed) {
		me.next = readers;
		if (readers)
			readers->pprev = &me.next;
		me.pprev = &readers;
		readers = &me;
		me.listed = true;
		pthread_setspecific(reader_key, &me);
	}
	pthread_mutex_unlock(&reg_lock);
}

/* References held on slot i by any thread (reg_lock held). */
static bool slot_held(int i)
{
	const struct reader *r;

	if (__atomic_load_n(&slots[i].refs, __ATOMIC_SEQ_CST))
		return true;
	for (r = readers; r; r = r->next)
		if (__atomic_load_n(&r->refs[i], __ATOMIC_RELAXED))
			return true;
	return false;
}

static long membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
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
	/* no slot is live here; registered per process (a child's is new) */
	fast = reader_key_ok && membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
	owner = me;
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

int registry__reserve(enum trace_kind kind, int has_log, trace_id_t *trid)
{
	int i, err = -EAGAIN;

	pthread_mutex_lock(&reg_lock);
	registry__own();
	for (i = 0; i < TRACE_SYS_MAX; i++) {
		struct slot *s = &slots[i];

		if (s->reserved || __atomic_load_n(&s->live, __ATOMIC_ACQUIRE) || slot_held(i))
			continue;
		s->reserved = true;
		s->obj = NULL;
		s->kind = kind;
		s->has_log = has_log;
		__atomic_store_n(&s->gen, s->gen + 1, __ATOMIC_RELAXED);
		*trid = make_trid(i, s->gen);
		err = 0;
		break;
	}
	pthread_mutex_unlock(&reg_lock);
	return err;
}

/* The reserved slot of trid (reg_lock held). */
static struct slot *reserved_slot(trace_id_t trid)
{
	unsigned i = trid & ((1u << SLOT_BITS) - 1);

	if (!owned || i >= TRACE_SYS_MAX || !slots[i].reserved ||
	    make_trid((int)i, slots[i].gen) != trid)
		return NULL;
	return &slots[i];
}

void registry__publish(trace_id_t trid, void *obj)
{
	struct slot *s;

	pthread_mutex_lock(&reg_lock);
	s = reserved_slot(trid);
	if (s) {
		s->obj = obj;
		s->reserved = false;
		/* published: a get that sees live sees the fields above */
		__atomic_store_n(&s->live, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&reg_lock);
}

void registry__unreserve(trace_id_t trid)
{
	struct slot *s;

	pthread_mutex_lock(&reg_lock);
	s = reserved_slot(trid);
	if (s)
		s->reserved = false;
	pthread_mutex_unlock(&reg_lock);
}

int registry__add(enum trace_kind kind, void *obj, int has_log, trace_id_t *trid)
{
	int err = registry__reserve(kind, has_log, trid);

	if (!err)
		registry__publish(*trid, obj);
	return err;
}

/* Drop one reference of the atomic mode; the last one wakes a remove. */
static void slot_put(struct slot *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_SEQ_CST) == 0 &&
	    !__atomic_load_n(&s->live, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&reg_lock);
		pthread_cond_broadcast(&reg_cond);
		pthread_mutex_unlock(&reg_lock);
	}
}

static void ref_take(unsigned i)
{
	if (fast) {
		if (!me.listed)
			reader_list();
		/* a plain store; ordered before the loads below by the
		 * barrier a remove forces on this thread (see above) */
		__atomic_store_n(&me.refs[i], me.refs[i] + 1, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} else {
		__atomic_add_fetch(&slots[i].refs, 1, __ATOMIC_SEQ_CST);
	}
}

static void ref_drop(unsigned i)
{
	if (fast && me.refs[i])
		/* release: this thread's use of the object comes first */
		__atomic_store_n(&me.refs[i], me.refs[i] - 1, __ATOMIC_RELEASE);
	else if (__atomic_load_n(&slots[i].refs, __ATOMIC_RELAXED) > 0)
		slot_put(&slots[i]);
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
	ref_take(i);
	if (!__atomic_load_n(&s->live, __ATOMIC_SEQ_CST) || !(s->kind & kinds) ||
	    make_trid((int)i, __atomic_load_n(&s->gen, __ATOMIC_RELAXED)) != trid) {
		ref_drop(i);
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

	if (i < TRACE_SYS_MAX)
		ref_drop(i);
}

int registry__list(int kinds, trace_id_t *trids, int max)
{
	int i, n = 0;

	/* a forked child may have inherited reg_lock held: not taken there */
	if (!__atomic_load_n(&owned, __ATOMIC_ACQUIRE))
		return -ESRCH;
	pthread_mutex_lock(&reg_lock);
	if (owner != getpid()) {
		pthread_mutex_unlock(&reg_lock);
		return -ESRCH;
	}
	for (i = 0; i < TRACE_SYS_MAX && n < max; i++)
		if (slots[i].live && (slots[i].kind & kinds))
			trids[n++] = make_trid(i, slots[i].gen);
	pthread_mutex_unlock(&reg_lock);
	return n;
}

void registry__force_atomic(void)
{
	pthread_mutex_lock(&reg_lock);
	registry__own();
	fast = false;
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
	__atomic_store_n(&s->live, false, __ATOMIC_SEQ_CST);
	*obj = s->obj;
	pthread_mutex_unlock(&reg_lock);
	if (wake)
		wake(*obj);
	if (fast)
		membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED); /* cannot fail once registered */
	pthread_mutex_lock(&reg_lock);
	while (slot_held((int)(s - slots))) {
		struct timespec ts;

		if (!fast) {
			/* the last put wakes us */
			pthread_cond_wait(&reg_cond, &reg_lock);
			continue;
		}
		/* per-thread counts are plain stores: look again soon (a
		 * call in progress is short; a blocked read was woken) */
		pthread_mutex_unlock(&reg_lock);
		ts = (struct timespec){ .tv_nsec = 100000 };
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&reg_lock);
	}
	s->obj = NULL;
	pthread_mutex_unlock(&reg_lock);
	return 0;
}
