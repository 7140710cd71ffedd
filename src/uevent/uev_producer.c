// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Traced-process side of the user-event transport: the region, the name
 * table and the lock-free multi-producer ring writer. See uev_producer.h
 * for the fork semantics and uev_shm.h for the layout.
 */
#include "uevent/uev_producer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define LOAD(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define LOAD_ACQ(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define STORE_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

static const uint64_t uev_zero_word;
struct uev_hot uev_producer__hot = { .active_word = &uev_zero_word, .fd = -1 };
_Static_assert(sizeof(struct uev_hot) == 64, "uev_hot is one cache line");

#define uev_fd		 (uev_producer__hot.fd)
#define uev_pid		 (uev_producer__hot.pid)
#define uev_inherit_mask (uev_producer__hot.inherit_mask)
#define uev_inherit_gen	 (uev_producer__hot.inherit_gen)
static pthread_mutex_t uev_name_lock = PTHREAD_MUTEX_INITIALIZER;
/* This process's provisional slot expires at this CLOCK_MONOTONIC time. */
static uint64_t uev_prov_deadline = UINT64_MAX;
/* A tracer asked for a provisional slot (uev_producer__want_provisional) */
static bool uev_prov_wanted;
/*
 * The provisional slot this process writes into (its own, or its parent's,
 * inherited at fork before a controller adopted it), and the pid that owns
 * it: only the owner releases it when it expires.
 */
static int uev_prov_slot = -1;
static pid_t uev_prov_owner;
static __thread pid_t uev_tid __attribute__((tls_model("initial-exec")));

/*
 * First lap of a sub-ring: its first pages are allocated (the controller
 * fallocates UEV_EAGER bytes; the rest is allocated here, by the same
 * madvise) but not mapped here, and a page fault per 4 KiB of
 * events doubled the cost of a burst. The writer maps them UEV_POP_CHUNK
 * at a time ahead of itself with MADV_POPULATE_READ (Linux 5.14; before,
 * the pages fault in one by one as they did). A read fault maps up to 16
 * pages that are in the page cache at once (fault-around), writable since
 * the shared mapping of a memfd needs no write notification; the
 * controller made them uptodate when it attached. A write fault maps one,
 * so MADV_POPULATE_WRITE is slower, and the writes after either take no
 * fault. Per (slot, sub-ring): slot gen << 32 | number of chunks mapped.
 */
#define UEV_POP_CHUNK (128u * 1024)
static uint64_t uev_pop[UEV_NSLOTS][UEV_NSUB];

/*
 * Per thread and slot: where this thread's last record ended in its
 * sub-ring, and the context it carried (see "writer's context" in
 * uev_shm.h), valid for one slot generation (gen 0: none). A forked child
 * and a new region (tests make several, from one thread) start afresh.
 * Static TLS, as uev_tid: 192 bytes.
 */
struct uev_last {
	uint32_t gen;
	uint32_t ts_hi;
	uint64_t end;
	uint64_t prog;
};
_Static_assert(sizeof(struct uev_last) == 24, "uev_last size");
static __thread struct uev_last uev_last[UEV_NSLOTS] __attribute__((tls_model("initial-exec")));

struct uev_evt {
	const void *data;
	size_t len;
	uint64_t ts; /* with fixed: the timestamp (tests), else read after reserving */
	uint64_t prog;
	uint64_t thread;
	int32_t pid;
	int32_t tid;
	uint16_t idx;
	bool fixed;
};

static void uev_region_init(struct uev_ctl *ctl, pid_t creator)
{
	ctl->version = UEV_VERSION;
	ctl->nslots = UEV_NSLOTS;
	ctl->names_max = UEV_NAMES_MAX;
	ctl->name_len = UEV_NAME_LEN;
	ctl->ctl_size = UEV_CTL_SIZE;
	ctl->slot_max = UEV_SLOT_MAX;
	ctl->total_size = UEV_TOTAL_SIZE;
	ctl->creator_pid = creator;
	memcpy(ctl->names[0].name, UEV_UNNAMED_NAME, sizeof(UEV_UNNAMED_NAME));
	STORE(&ctl->names[0].state, UEV_NAME_READY);
	STORE(&ctl->name_count, 1);
}

/* Published: a consumer that finds the magic finds everything before it. */
static void uev_region_publish(struct uev_ctl *ctl)
{
	STORE_REL(&ctl->magic, UEV_MAGIC);
}

/*
 * With prov, the provisional slot exists before the region is published,
 * so the first consumer to attach always finds it (and adopts it).
 */
static int uev_region_create(int *fdp, struct uev_ctl **out, bool prov)
{
	struct uev_ctl *ctl;
	int fd, err;

	fd = memfd_create(UEV_MEMFD_NAME, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)UEV_TOTAL_SIZE) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
		err = -errno;
		close(fd);
		return err;
	}
	ctl = mmap(NULL, UEV_TOTAL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ctl == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	uev_region_init(ctl, getpid());
	memset(uev_pop, 0, sizeof(uev_pop)); /* a new region (tests make several) */
	memset(uev_last, 0, sizeof(uev_last));
	if (prov) {
		int slot = uev_producer__prov_init(ctl, getpid());

		if (slot >= 0) {
			uev_prov_slot = slot;
			uev_prov_owner = getpid();
		}
	}
	uev_region_publish(ctl);
	*fdp = fd;
	*out = ctl;
	return 0;
}

int uev_producer__region_create(int *fdp, struct uev_ctl **out)
{
	return uev_region_create(fdp, out, false);
}

/*
 * Fork: the child writes only into slots it inherits (see uev_producer.h),
 * and into its parent's provisional slot: whoever adopts it decides, with
 * its inheritance, whether the child's events are its own.
 */
static void uev_atfork_child(void)
{
	struct uev_ctl *ctl = uev_producer__hot.ctl;
	pid_t parent = uev_pid;
	uint32_t mask = 0;
	unsigned int s;

	pthread_mutex_init(&uev_name_lock, NULL);
	uev_pid = getpid();
	uev_tid = 0;
	/* our records carry our pid: send it again */
	memset(uev_last, 0, sizeof(uev_last));
	memset(uev_pop, 0, sizeof(uev_pop)); /* fork does not copy shared mappings' PTEs */
	if (!ctl)
		return;
	for (s = 0; s < UEV_NSLOTS; s++) {
		struct uev_slot *sl = &ctl->slots[s];
		uint64_t own = LOAD_ACQ(&sl->own);
		uint32_t gen = LOAD(&sl->gen);

		if ((UEV_OWN_STATE(own) != UEV_SLOT_READY && UEV_OWN_STATE(own) != UEV_SLOT_PROV) ||
		    !(LOAD(&sl->flags) & (UEV_SLOT_INHERIT | UEV_SLOT_PROVISIONAL)))
			continue;
		if (LOAD(&sl->target_pid) == parent ||
		    ((uev_inherit_mask & (1u << s)) && uev_inherit_gen[s] == gen)) {
			mask |= 1u << s;
			uev_inherit_gen[s] = gen;
		}
	}
	uev_inherit_mask = mask;
	if (uev_prov_slot >= 0 && !(mask & (1u << uev_prov_slot)))
		uev_prov_slot = -1; /* adopted or released already */
}

static pthread_once_t uev_once = PTHREAD_ONCE_INIT;

static void uev_producer_init_once(void)
{
	struct uev_ctl *ctl = NULL;
	const char *pending;
	bool prov;
	int fd = -1;

	uev_pid = getpid();
	/* not for a set-user-ID program: its caller may not trace it */
	pending = secure_getenv(UEV_PENDING_ENV);
	prov = uev_prov_wanted || (pending && pending[0] && strcmp(pending, "0"));
	/* before the slot is enabled: a writer must not see it expired */
	if (prov)
		uev_prov_deadline = clock__mono_ns() + UEV_PROV_TTL_NS;
	if (uev_region_create(&fd, &ctl, prov)) {
		/* No memfd: a private table so eventid_open still works. */
		ctl = mmap(NULL, UEV_CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			   -1, 0);
		if (ctl == MAP_FAILED)
			return;
		uev_region_init(ctl, uev_pid);
		uev_region_publish(ctl);
		uev_prov_deadline = UINT64_MAX;
		fd = -1;
	}
	uev_fd = fd;
	uev_producer__hot.ctl = ctl;
	__atomic_store_n(&uev_producer__hot.active_word, &ctl->active, __ATOMIC_RELEASE);
	pthread_atfork(NULL, NULL, uev_atfork_child);
}

void uev_producer__want_provisional(void)
{
	uev_prov_wanted = true;
}

const uint64_t *uev_producer__init(void)
{
	pthread_once(&uev_once, uev_producer_init_once);
	return __atomic_load_n(&uev_producer__hot.active_word, __ATOMIC_ACQUIRE);
}

int uev_producer__prov_init(struct uev_ctl *ctl, pid_t pid)
{
	uint64_t mine = UEV_OWN(pid, UEV_SLOT_CLAIMING);
	unsigned int s;

	for (s = 0; s < UEV_NSLOTS; s++) {
		struct uev_slot *sl = &ctl->slots[s];
		uint64_t own = UEV_SLOT_FREE;

		if (!__atomic_compare_exchange_n(&sl->own, &own, mine, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_RELAXED))
			continue;
		/* A fresh region: the ring is still zero (never written). */
		STORE(&sl->gen, LOAD(&sl->gen) + 1);
		STORE(&sl->flags, UEV_SLOT_ENABLED | UEV_SLOT_PROVISIONAL);
		STORE(&sl->target_pid, (int32_t)pid);
		STORE(&sl->max_data, UEV_PROV_MAX_DATA);
		STORE(&sl->ring_size, (uint64_t)UEV_PROV_RING);
		memset(sl->filter, 0, sizeof(sl->filter));
		uev_slot_reset_subs(sl);
		STORE_REL(&sl->own, UEV_OWN(pid, UEV_SLOT_PROV));
		__atomic_fetch_or(&ctl->active, 1ull << s, __ATOMIC_SEQ_CST);
		return (int)s;
	}
	return -EBUSY;
}

int uev_producer__prov_start(uint64_t ttl_ns)
{
	struct uev_ctl *ctl = uev_producer__hot.ctl;
	uint64_t now = clock__mono_ns();
	int s;

	if (!ctl || uev_fd < 0)
		return -ENOENT;
	/* before the slot is enabled: a writer must not see it expired */
	uev_prov_deadline = ttl_ns > UINT64_MAX - now ? UINT64_MAX : now + ttl_ns;
	s = uev_producer__prov_init(ctl, uev_pid);
	if (s >= 0) {
		uev_prov_slot = s;
		uev_prov_owner = uev_pid;
	}
	return s;
}

/*
 * Nobody adopted the provisional slot s in time: release it (unless a
 * controller adopts it right now: then it is an ordinary slot). Returns
 * true when the slot is a controller's now and the event goes into it.
 */
static bool uev_prov_expire(struct uev_ctl *ctl, unsigned int s)
{
	struct uev_slot *sl = &ctl->slots[s];
	uint64_t own = UEV_OWN(uev_pid, UEV_SLOT_PROV);

	if (!__atomic_compare_exchange_n(&sl->own, &own, UEV_OWN(uev_pid, UEV_SLOT_CLAIMING), false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return UEV_OWN_STATE(own) == UEV_SLOT_READY;
	__atomic_fetch_and(&ctl->active, ~(1ull << s), __ATOMIC_SEQ_CST);
	STORE(&sl->flags, 0);
	/* give the pages back; the next owner zeroes the ring again anyway */
	if (uev_fd >= 0)
		(void)fallocate(uev_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)UEV_RING_OFF(s), (off_t)UEV_SLOT_MAX);
	STORE_REL(&sl->own, (uint64_t)UEV_SLOT_FREE);
	return false;
}

/*
 * At exit, the events of a provisional slot nobody adopted yet would be
 * lost with the memfd: a program that emits and exits within the few ms
 * its tracer needs to notice the exec (or a child that shares its parent's
 * slot and outlives it). Wait (bounded) for the adoption; once adopted,
 * the controller's mapping keeps the region alive.
 */
static bool uev_slot_written(struct uev_slot *sl)
{
	unsigned int k;

	for (k = 0; k < UEV_NSUB; k++)
		if (LOAD(&sl->sub[k].head) || LOAD(&sl->sub[k].dropped))
			return true;
	return false;
}

__attribute__((destructor)) static void uev_producer_fini(void)
{
	struct uev_ctl *ctl = uev_producer__hot.ctl;
	int s = uev_prov_slot;
	struct uev_slot *sl;
	uint64_t now, end, nap = 1000000;

	if (!ctl || s < 0 || s >= (int)UEV_NSLOTS || uev_fd < 0)
		return;
	sl = &ctl->slots[s];
	/* adopted, or empty: nothing to wait for, and no syscall a tracer
	 * would see in the exit of a program it asked the slot of */
	if (LOAD_ACQ(&sl->own) != UEV_OWN(uev_prov_owner, UEV_SLOT_PROV) || !uev_slot_written(sl) ||
	    uev_pid != getpid())
		return;
	now = clock__mono_ns();
	end = now + UEV_PROV_EXIT_WAIT_NS;
	if (end > uev_prov_deadline)
		end = uev_prov_deadline;
	while (now < end && LOAD_ACQ(&sl->own) == UEV_OWN(uev_prov_owner, UEV_SLOT_PROV) &&
	       uev_slot_written(sl)) {
		struct timespec ts = { 0, (long)nap };

		nanosleep(&ts, NULL);
		if (nap < 16000000)
			nap *= 2;
		now = clock__mono_ns();
	}
}

int uev_producer__self(int *fd, struct uev_ctl **ctl)
{
	if (!uev_producer__hot.ctl || uev_fd < 0)
		return -ENOENT;
	*fd = uev_fd;
	*ctl = uev_producer__hot.ctl;
	return 0;
}

static inline pid_t uev_gettid(void)
{
	pid_t t = uev_tid;

	if (unlikely(!t))
		uev_tid = t = gettid();
	return t;
}

static void uev_drop(struct uev_sub *sl, uint64_t ts)
{
	if (__atomic_fetch_add(&sl->dropped, 1, __ATOMIC_RELAXED) == 0)
		STORE(&sl->drop_ts, ts);
}

/* The event's time: the given one (tests), else now. */
static inline uint64_t uev_evt_ts(const struct uev_evt *e)
{
	return e->fixed ? e->ts : clock__mono_ns();
}

/* Map the pages of the sub-ring up to a chunk past end (first lap only). */
static void uev_populate(uint64_t *pop, uint32_t gen, uint8_t *sub, uint64_t size, uint64_t end)
{
	uint64_t chunk = size < UEV_POP_CHUNK ? size : UEV_POP_CHUNK;
	uint64_t w = LOAD(pop), done, want;

	done = (uint32_t)(w >> 32) == gen ? (uint32_t)w : 0;
	if (likely(done * chunk >= size || done * chunk >= end + chunk / 2))
		return;
	want = (end + chunk / 2) / chunk + 1;
	if (want > size / chunk)
		want = size / chunk;
	if (want <= done || !__atomic_compare_exchange_n(pop, &w, (uint64_t)gen << 32 | want, false,
							 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return; /* another writer of this sub-ring maps them */
	(void)madvise(sub + done * chunk, (want - done) * chunk, MADV_POPULATE_READ);
}

/* One record being written into one sub-ring. */
struct uev_resv {
	struct uev_sub *sl; /* its control block */
	uint8_t *ring;	    /* the sub-ring's bytes */
	uint64_t size;	    /* and its size */
	uint64_t h;	    /* where the reservation starts */
	uint64_t need;	    /* its bytes: the record, after a PAD to the end if it wraps */
	uint64_t rlen;	    /* the record's */
	uint32_t ts_hi;	    /* the timestamp's high half it was sized for */
	uint32_t gen;
	uint16_t flags;
	bool own; /* our context is the consumer's: our last record ends at h */
};

/*
 * Reserve room for the record of e: payload dlen bytes, flags base, and
 * the parts of the writer's context that changed since our last record
 * (the timestamp's high half taken as r->ts_hi) when it ends where this
 * one starts and may_own, else the whole context. False: the sub-ring is
 * full (or contended beyond reason), the caller drops.
 */
static bool uev_reserve(struct uev_resv *r, const struct uev_last *me, const struct uev_evt *e,
			size_t dlen, uint16_t base, bool may_own)
{
	struct uev_sub *sl = r->sl;
	uint64_t size = r->size, h = LOAD(&sl->head), t = LOAD_ACQ(&sl->tail_cache), off, used;
	unsigned int tries = 0;
	bool reloaded = false;

	for (;;) {
		/* our context is the consumer's if our last record ends here */
		r->own = may_own && me->gen == r->gen && r->gen && me->end == h;
		r->flags = base;
		if (!r->own) {
			r->flags |= UEV_REC_THREAD | UEV_REC_TSHI | UEV_REC_PROG;
		} else {
			if (me->ts_hi != r->ts_hi)
				r->flags |= UEV_REC_TSHI;
			if (me->prog != e->prog)
				r->flags |= UEV_REC_PROG;
		}
		r->rlen = UEV_ALIGN8(sizeof(struct uev_rec) + uev_rec_extra(r->flags) + dlen);
		off = h & (size - 1);
		r->need = r->rlen;
		if (off + r->rlen > size)
			r->need += size - off;
		used = h - t;
		if (unlikely(used > size || r->need > size - used || (h & 7))) {
			/* looks full: ask the consumer's own word once */
			if (!reloaded && !(h & 7)) {
				reloaded = true;
				t = LOAD_ACQ(&sl->tail);
				STORE_REL(&sl->tail_cache, t);
				continue;
			}
			return false;
		}
		if (likely(__atomic_compare_exchange_n(&sl->head, &h, h + r->need, true,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED)))
			break;
		if (unlikely(++tries > 10000))
			return false;
	}
	r->h = h;
	return true;
}

/*
 * Where the record of r goes (*pos: its position ever): at r->h, or at 0
 * after a PAD up to the end when it does not fit before (never wrapping).
 */
static uint64_t uev_rec_off(const struct uev_resv *r, uint64_t *pos)
{
	uint64_t off = r->h & (r->size - 1);

	*pos = r->h;
	if (likely(off + r->rlen <= r->size))
		return off;
	STORE_REL((uint32_t *)(r->ring + off), UEV_COMMIT(r->h, UEV_KIND_PAD, r->size - off));
	*pos += r->size - off;
	return 0;
}

/* Give reservation r up: a PAD the consumer skips where the record was to go. */
static void uev_pad(const struct uev_resv *r)
{
	uint64_t pos, off = uev_rec_off(r, &pos);

	STORE_REL((uint32_t *)(r->ring + off), UEV_COMMIT(pos, UEV_KIND_PAD, r->rlen));
}

/* Write the record of e, timestamp ts, into reservation r, and commit it. */
static void uev_fill(const struct uev_resv *r, const struct uev_evt *e, size_t dlen, uint64_t ts)
{
	uint64_t pos, off = uev_rec_off(r, &pos);
	uint32_t ts_hi = (uint32_t)(ts >> 32);
	struct uev_rec *rec;
	uint8_t *p;

	rec = (struct uev_rec *)(r->ring + off);
	p = (uint8_t *)(rec + 1);
	STORE(&rec->commit, UEV_COMMIT(pos, r->own ? UEV_KIND_RESV_OWN : UEV_KIND_RESV, r->rlen));
	if (r->flags & UEV_REC_THREAD) {
		struct uev_thr th = { .tid = e->tid, .pid = e->pid, .thread = e->thread };

		memcpy(p, &th, sizeof(th));
		p += sizeof(th);
	}
	rec->ts_lo = (uint32_t)ts;
	rec->idx = e->idx;
	rec->flags = r->flags;
	if (unlikely(r->flags & UEV_REC_LOST)) {
		struct uev_lost l;

		l.count = __atomic_exchange_n(&r->sl->dropped, 0, __ATOMIC_RELAXED);
		l.first_ts = LOAD(&r->sl->drop_ts);
		memcpy(p, &l, sizeof(l));
		p += sizeof(l);
	}
	if (r->flags & UEV_REC_TSHI) {
		memcpy(p, &ts_hi, sizeof(ts_hi));
		p += sizeof(ts_hi);
	}
	if (r->flags & UEV_REC_PROG) {
		memcpy(p, &e->prog, sizeof(e->prog));
		p += sizeof(e->prog);
	}
	if (dlen)
		memcpy(p, e->data, dlen);
	STORE_REL(&rec->commit, UEV_COMMIT(pos, UEV_KIND_DATA, dlen));
}

/*
 * Reserve, then read the clock into *ts: a record reserved after a
 * consumer loaded head is later than the clock the consumer read before
 * (its watermark). The high half was guessed from our last record; when
 * the clock says otherwise and the record has no room for it (rare: once
 * per 2^32 ns), the reservation becomes a PAD and we reserve again, with
 * our whole context. False: nothing reserved (the sub-ring is full).
 */
static bool uev_reserve_ts(struct uev_resv *r, const struct uev_last *me, const struct uev_evt *e,
			   size_t dlen, uint16_t base, uint64_t *ts)
{
	r->ts_hi = e->fixed ? (uint32_t)(e->ts >> 32) : me->ts_hi;
	if (unlikely(!uev_reserve(r, me, e, dlen, base, true)))
		return false;
	*ts = uev_evt_ts(e);
	if (likely((uint32_t)(*ts >> 32) == r->ts_hi || (r->flags & UEV_REC_TSHI)))
		return true;
	uev_pad(r);
	if (!uev_reserve(r, me, e, dlen, base, false))
		return false;
	*ts = clock__mono_ns();
	return true;
}

/* Write e into the sub-ring of its thread (tid % UEV_NSUB) of slot s. */
static void uev_write(struct uev_slot *slot, unsigned int s, uint8_t *ring, const struct uev_evt *e)
{
	uint64_t size = LOAD(&slot->ring_size), ts;
	uint32_t maxd = LOAD(&slot->max_data);
	unsigned int k = (uint32_t)e->tid & (UEV_NSUB - 1);
	struct uev_last *me = &uev_last[s];
	struct uev_resv r;
	uint16_t base = 0;
	size_t dlen = e->len;

	/* The configuration is written by the controller: still, never
	 * write outside the slot whatever it says. */
	if (unlikely(size < UEV_RING_MIN || size > UEV_SLOT_MAX || (size & (size - 1))))
		return;
	r.size = UEV_SUB_SIZE(size);
	r.ring = ring + (uint64_t)k * r.size;
	r.sl = &slot->sub[k];
	r.gen = LOAD(&slot->gen);
	if (dlen > maxd) {
		dlen = maxd;
		base |= UEV_REC_TRUNC;
	}
	if (unlikely(UEV_REC_MAX(dlen) > r.size / 2))
		return;
	if (unlikely(LOAD(&r.sl->dropped)))
		base |= UEV_REC_LOST;
	if (unlikely(!uev_reserve_ts(&r, me, e, dlen, base, &ts))) {
		uev_drop(r.sl, uev_evt_ts(e));
		return;
	}
	uev_populate(&uev_pop[s][k], r.gen, r.ring, r.size, r.h + r.need);
	/* end last: a signal handler's event in between sends it all */
	me->gen = r.gen;
	me->prog = e->prog;
	me->ts_hi = (uint32_t)(ts >> 32);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	me->end = r.h + r.need;
	uev_fill(&r, e, dlen, ts);
}

static inline uint8_t *uev_ring(struct uev_ctl *ctl, unsigned int s)
{
	return (uint8_t *)ctl + UEV_RING_OFF(s);
}

static void uev_write_slot(struct uev_ctl *ctl, unsigned int s, uint32_t idx, const void *data,
			   size_t len, const void *prog, uint64_t ts, bool fixed)
{
	struct uev_evt e = {
		.data = data,
		.len = len,
		.ts = ts,
		.prog = (uint64_t)(uintptr_t)prog,
		.thread = (uint64_t)pthread_self(),
		.pid = uev_pid ? uev_pid : getpid(),
		.tid = uev_gettid(),
		.idx = (uint16_t)idx,
		.fixed = fixed,
	};

	if (s < UEV_NSLOTS && idx < UEV_NAMES_MAX)
		uev_write(&ctl->slots[s], s, uev_ring(ctl, s), &e);
}

void uev_producer__write_slot_at(struct uev_ctl *ctl, unsigned int s, uint32_t idx,
				 const void *data, size_t len, const void *prog, uint64_t ts)
{
	uev_write_slot(ctl, s, idx, data, len, prog, ts, true);
}

void uev_producer__write_slot(struct uev_ctl *ctl, unsigned int s, uint32_t idx, const void *data,
			      size_t len, const void *prog)
{
	uev_write_slot(ctl, s, idx, data, len, prog, 0, false);
}

void uev_producer__emit(uint32_t id, const void *data, size_t len, const void *prog)
{
	struct uev_ctl *ctl = uev_producer__hot.ctl;
	uint32_t idx = id - UEV_ID_BASE;
	uint64_t mask;
	struct uev_evt e;
	int have_evt = 0;

	if (unlikely(!ctl || idx >= UEV_NAMES_MAX || uev_fd < 0))
		return;
	mask = LOAD(&ctl->active) & ((1u << UEV_NSLOTS) - 1);
	while (mask) {
		unsigned int s = (unsigned int)__builtin_ctzll(mask);
		struct uev_slot *sl = &ctl->slots[s];
		uint32_t flags, st;

		mask &= mask - 1;
		st = UEV_OWN_STATE(LOAD_ACQ(&sl->own));
		if (st != UEV_SLOT_READY && st != UEV_SLOT_PROV)
			continue;
		flags = LOAD(&sl->flags);
		if (!(flags & UEV_SLOT_ENABLED))
			continue;
		/* another process's slot: inherited at fork, of a stream
		 * that inherits or a provisional slot not configured yet */
		if (LOAD(&sl->target_pid) != uev_pid &&
		    (!(uev_inherit_mask & (1u << s)) || LOAD(&sl->gen) != uev_inherit_gen[s] ||
		     !(flags & (UEV_SLOT_INHERIT | UEV_SLOT_PROVISIONAL))))
			continue;
		if (LOAD(&sl->filter[idx / 64]) & (1ull << (idx % 64)))
			continue;
		if (!have_evt) {
			e.data = data;
			e.len = len;
			e.ts = 0;
			e.fixed = false;
			e.prog = (uint64_t)(uintptr_t)prog;
			e.thread = (uint64_t)pthread_self();
			e.pid = uev_pid;
			e.tid = uev_gettid();
			e.idx = (uint16_t)idx;
			have_evt = 1;
		}
		/* provisional slot (of this process: target_pid checked) */
		if (unlikely(st == UEV_SLOT_PROV) && clock__mono_ns() >= uev_prov_deadline &&
		    !uev_prov_expire(ctl, s))
			continue;
		uev_write(sl, s, uev_ring(ctl, s), &e);
	}
}

/* Wait (bounded) for an entry another thread or process is writing. */
static uint32_t uev_name_wait(struct uev_name *n)
{
	uint32_t st = LOAD_ACQ(&n->state);
	unsigned int i;

	for (i = 0; st == UEV_NAME_WRITING && i < 100000; i++) {
		if (i % 64 == 63)
			sched_yield();
		st = LOAD_ACQ(&n->state);
	}
	return st;
}

int uev_producer__eventid_open(const char *name, uint32_t *id)
{
	struct uev_ctl *ctl = uev_producer__hot.ctl;
	size_t n = strnlen(name, UEV_NAME_LEN);
	unsigned int i;

	if (n >= UEV_NAME_LEN)
		return -ENAMETOOLONG;
	*id = UEV_ID_BASE;
	if (!ctl) {
		/* called from another constructor that ran before ours */
		uev_producer__init();
		ctl = uev_producer__hot.ctl;
		if (!ctl)
			return 0;
	}
	pthread_mutex_lock(&uev_name_lock);
	for (i = 0; i < UEV_NAMES_MAX; i++) {
		struct uev_name *e = &ctl->names[i];
		uint32_t st = UEV_NAME_EMPTY;

		if (__atomic_compare_exchange_n(&e->state, &st, UEV_NAME_WRITING, false,
						__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
			uint32_t cnt = LOAD(&ctl->name_count);

			memcpy(e->name, name, n + 1);
			STORE_REL(&e->state, UEV_NAME_READY);
			while (cnt < i + 1 &&
			       !__atomic_compare_exchange_n(&ctl->name_count, &cnt, i + 1, true,
							    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
				;
			*id = UEV_ID_BASE + i;
			break;
		}
		if (st == UEV_NAME_WRITING)
			st = uev_name_wait(e);
		if (st == UEV_NAME_READY && !strncmp(e->name, name, UEV_NAME_LEN)) {
			*id = UEV_ID_BASE + i;
			break;
		}
	}
	pthread_mutex_unlock(&uev_name_lock);
	return 0;
}
