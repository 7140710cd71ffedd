// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Draining our slot of a traced process's user-event region (see
 * uev_shm.h for the layout; uev_attach.c takes the slot): its records,
 * checked and delivered, the drops its producers report, and its name
 * table. The traced process can write anything into the region at any
 * time: this file copies every value it reads from it into local memory
 * before checking and using it, bounds every loop by the ring size and
 * never trusts the shared tail, sizes or slot configuration (it keeps its
 * own copies).
 */
#include "uevent/uev_consumer_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"

/* A reservation with no writer pid known is abandoned after this long. */
#define UEV_STUCK_NS 1000000000ull

/* Is thread tid of process pid gone (or a zombie)? Unknown ids: not dead. */
static bool uev_task_dead(pid_t pid, pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	if (pid <= 0)
		return false;
	if (tid <= 0)
		tid = pid;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return false;
	return p[2] == 'Z' || p[2] == 'X' || p[2] == 'x';
}

int uev_consumer__type_count(struct uev_consumer *c)
{
	uint32_t n = LOAD(&c->ctl->name_count);

	if (n < 1)
		n = 1;
	if (n > UEV_NAMES_MAX)
		n = UEV_NAMES_MAX;
	return (int)n;
}

int uev_consumer__type_name(struct uev_consumer *c, uint32_t local_id, char *buf, size_t len)
{
	uint32_t idx = local_id - UEV_ID_BASE;
	struct uev_name *e;
	char name[UEV_NAME_LEN];
	size_t n;

	if (idx >= UEV_NAMES_MAX)
		return -ENOENT;
	if (idx == 0) {
		if (len < sizeof(UEV_UNNAMED_NAME))
			return -ENAMETOOLONG;
		memcpy(buf, UEV_UNNAMED_NAME, sizeof(UEV_UNNAMED_NAME));
		return 0;
	}
	e = &c->ctl->names[idx];
	if (LOAD_ACQ(&e->state) != UEV_NAME_READY)
		return -ENOENT;
	memcpy(name, e->name, sizeof(name));
	n = strnlen(name, sizeof(name));
	if (n >= sizeof(name))
		return -EBADMSG;
	if (n + 1 > len)
		return -ENAMETOOLONG;
	memcpy(buf, name, n + 1);
	return 0;
}

/* Bytes written into sub-ring k and not consumed yet (at most its size). */
static uint64_t uev_sub_backlog(const struct uev_consumer *c, unsigned int k)
{
	uint64_t avail = LOAD_ACQ(&c->sub[k].sb->head) - c->sub[k].tail;

	return avail > c->sub_size ? c->sub_size : avail;
}

size_t uev_consumer__pending(struct uev_consumer *c)
{
	size_t total = 0;
	unsigned int k;

	if (c->broken)
		return 0;
	for (k = 0; k < UEV_NSUB; k++)
		total += (size_t)uev_sub_backlog(c, k);
	return total;
}

unsigned int uev_consumer__fill(struct uev_consumer *c)
{
	uint64_t most = 0;
	unsigned int k;

	if (c->broken || !c->sub_size)
		return 0;
	for (k = 0; k < UEV_NSUB; k++) {
		uint64_t b = uev_sub_backlog(c, k);

		if (b > most)
			most = b;
	}
	return (unsigned int)(most * 1000 / c->sub_size);
}

unsigned int uev_consumer__busy(struct uev_consumer *c)
{
	unsigned int k, n = 0;

	if (c->broken)
		return 0;
	for (k = 0; k < UEV_NSUB; k++)
		n += uev_sub_backlog(c, k) != 0;
	return n;
}

/* Zero [tail, tail + len) of sub-ring u (len <= its size), wrapping. */
static void uev_clear(struct uev_consumer *c, struct uev_csub *u, uint64_t tail, uint64_t len)
{
	uint64_t size = c->sub_size, off = tail & (size - 1), first;

	if (len > size)
		len = size;
	first = len < size - off ? len : size - off;

	memset(u->ring + off, 0, first);
	if (len > first)
		memset(u->ring, 0, len - first);
}

/* Hand [published, tail) back to the producers, zeroed. */
static void uev_publish(struct uev_consumer *c, struct uev_csub *u)
{
	if (u->published == u->tail)
		return;
	uev_clear(c, u, u->published, u->tail - u->published);
	u->published = u->tail;
	STORE_REL(&u->sb->tail, u->tail);
}

static void uev_advance(struct uev_consumer *c, struct uev_csub *u, uint64_t len)
{
	u->tail += len;
	if (u->tail - u->published >= c->sub_size / 4)
		uev_publish(c, u);
}

/*
 * Skip everything written so far into sub-ring u. The head moves 8 bytes
 * on (a hole nobody reads): no writer's last record ends there, so the
 * next record of each carries its context again (see uev_shm.h).
 */
static void uev_resync(struct uev_consumer *c, struct uev_csub *u)
{
	uint64_t head, next;
	int i;

	memset(u->ring, 0, c->sub_size);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	head = LOAD(&u->sb->head);
	for (i = 0; i < 1000; i++) {
		/* producers drop while head is misaligned: realign it too */
		next = ((head + 7) & ~7ull) + 8;
		if (__atomic_compare_exchange_n(&u->sb->head, &head, next, false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED)) {
			head = next;
			break;
		}
	}
	u->tail = head & ~7ull;
	u->published = u->tail;
	STORE_REL(&u->sb->tail, u->tail);
	STORE_REL(&u->sb->tail_cache, u->tail);
	u->stuck = false;
	u->ctx_known = false;
}

/* Corrupt sub-ring u (NULL: the whole slot): skip, count, maybe give up. */
static int uev_corrupt(struct uev_consumer *c, struct uev_csub *u)
{
	unsigned int k;

	if (u)
		uev_resync(c, u);
	else
		for (k = 0; k < UEV_NSUB; k++)
			uev_resync(c, &c->sub[k]);
	if (++c->corrupt >= UEV_CONSUMER_CORRUPT_MAX) {
		c->broken = true;
		uev_consumer__set_enabled(c, false);
	}
	return -EBADMSG;
}

/*
 * A drop count the region reports, checked: a producer drops at most one
 * event per nanosecond, and at most ncpus producers drop at once, so all
 * the drops reported since we attached (a provisional slot's records may
 * be UEV_PROV_TTL_NS older) add up to no more than that. More is a lie:
 * the region is corrupt.
 */
static bool uev_lost_plausible(struct uev_consumer *c, struct uev_csub *u, uint64_t count)
{
	uint64_t most = (clock__mono_ns() - u->lost_since + 1) * c->ncpus;

	if (count > most || u->lost_total > most - count)
		return false;
	u->lost_total += count;
	return true;
}

/*
 * Is a time the region gives in the future? A writer reads the clock
 * before it commits and we read the same CLOCK_MONOTONIC after we saw the
 * commit, so no genuine record is: no tolerance.
 */
static bool uev_future(struct uev_consumer *c, uint64_t ts)
{
	if (ts <= c->now)
		return false;
	c->now = clock__mono_ns();
	return ts > c->now;
}

/* Order the clock read before the loads that follow (rdtsc is not). */
static inline void uev_clock_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("lfence" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

static void uev_report_lost(const struct uev_cbs *cbs, uint64_t count, uint64_t ts)
{
	if (count && cbs->lost)
		cbs->lost(cbs->ctx, count, ts);
}

/*
 * The record at tail of sub-ring u is reserved but not committed. Skip it
 * if its writer is gone; returns true when it was skipped.
 */
static bool uev_skip_dead(struct uev_consumer *c, struct uev_csub *u, const struct uev_cbs *cbs,
			  uint64_t head, uint64_t off)
{
	struct uev_rec *rec = (struct uev_rec *)(u->ring + off);
	uint64_t now = clock__mono_ns(), rlen = 0, avail = head - u->tail;
	uint32_t word = 0, kind;
	pid_t pid = 0, tid = 0;
	bool dead;

	if (!u->stuck || u->stuck_tail != u->tail) {
		u->stuck = true;
		u->stuck_tail = u->tail;
		u->stuck_since = now;
	}
	if (off + sizeof(*rec) <= c->sub_size)
		word = LOAD(&rec->commit);
	/* RESV: the tid is the first word after the header (uev_thr) */
	/* (of the writer's namespace: of no use to /proc if it is not ours) */
	if (UEV_COMMIT_KIND(word) == UEV_KIND_RESV && !c->ns.nested &&
	    off + sizeof(*rec) + sizeof(tid) <= c->sub_size)
		tid = LOAD((int32_t *)(rec + 1));
	if (UEV_COMMIT_KIND(word) == UEV_KIND_RESV_OWN && u->ctx_known)
		tid = u->ctx_tid;
	if (UEV_COMMIT_RESERVED(word))
		rlen = UEV_COMMIT_LEN(word);
	/* the thread's pid if we know it; /proc/TID/task/TID works too */
	pid = u->ctx_known && u->ctx_tid == tid ? u->ctx_pid : tid;
	if (tid > 0)
		dead = uev_task_dead(pid, tid);
	else
		dead = now - u->stuck_since > UEV_STUCK_NS;
	if (!dead)
		return false;
	/* Re-check: it may have been committed meanwhile. */
	kind = UEV_COMMIT_KIND(LOAD_ACQ(&rec->commit));
	if (kind == UEV_KIND_DATA || kind == UEV_KIND_PAD)
		return true;
	if (rlen >= sizeof(*rec) && !(rlen & 7) && off + rlen <= c->sub_size && rlen <= avail)
		uev_advance(c, u, rlen);
	else
		uev_advance(c, u, avail);
	u->stuck = false;
	u->ctx_known = false; /* the next record may have counted on it */
	uev_report_lost(cbs, 1, now);
	return true;
}

/*
 * The writer's context of rec (tid, pid, pthread_t, caller, the timestamp's
 * high half): from the record's own parts, else those of the record before
 * it in the sub-ring (the same thread's). Unknown after a skip, a resync
 * or a PAD in the middle: tid 0, the traced pid, 0, 0, and the high half
 * of the last time before now with the record's low half. Reports
 * the drops the record carries. Advances *p past the parts read.
 */
static int uev_take_context(struct uev_consumer *c, struct uev_csub *u, const struct uev_rec *rec,
			    const uint8_t **p, struct pt_event_hdr *h, const struct uev_cbs *cbs)
{
	if (rec->flags & UEV_REC_THREAD) {
		struct uev_thr th;

		memcpy(&th, *p, sizeof(th));
		*p += sizeof(th);
		u->ctx_known = true;
		/* 0: a process of its namespace not found in ours (gone) */
		if (!uev_ns__outer(&c->ns, c->target, cbs->outer, cbs->ctx, th.pid, th.tid,
				   &u->ctx_pid, &u->ctx_tid))
			u->ctx_pid = u->ctx_tid = 0;
		u->ctx_thread = th.thread;
		u->ctx_verdict = UEV_UNCHECKED;
	}
	if (rec->flags & UEV_REC_LOST) {
		struct uev_lost l;

		memcpy(&l, *p, sizeof(l));
		*p += sizeof(l);
		if (uev_future(c, l.first_ts) || !uev_lost_plausible(c, u, l.count))
			return -EBADMSG;
		uev_report_lost(cbs, l.count, l.first_ts);
	}
	if (rec->flags & UEV_REC_TSHI) {
		memcpy(&u->ctx_ts_hi, *p, sizeof(u->ctx_ts_hi));
		*p += sizeof(u->ctx_ts_hi);
	} else if (!u->ctx_known) {
		uint64_t now = clock__mono_ns();

		/* the last time before now with this low half */
		u->ctx_ts_hi = (uint32_t)(now >> 32) - (rec->ts_lo > (uint32_t)now);
	}
	if (rec->flags & UEV_REC_PROG) {
		memcpy(&u->ctx_prog, *p, sizeof(u->ctx_prog));
		*p += sizeof(u->ctx_prog);
	} else if (!u->ctx_known) {
		u->ctx_prog = 0;
	}
	h->tid = u->ctx_known ? u->ctx_tid : 0;
	h->pid = u->ctx_known ? u->ctx_pid : c->target;
	h->thread = u->ctx_known ? u->ctx_thread : 0;
	h->prog_addr = u->ctx_prog;
	h->ts = (uint64_t)u->ctx_ts_hi << 32 | rec->ts_lo;
	return 0;
}

/*
 * May a record at pos say it was written by pid? The slot's process may
 * write it, and so may the processes that share its region, its children
 * (cbs->shares knows them: the kernel's word, not the region's), when the
 * stream inherits; when it does not, a child's record is not ours (a child
 * may have written it into a provisional slot before we adopted it and
 * said so): skipped. A provisional slot's records written before we
 * adopted it may also come from a child forked before anyone traced the
 * process: counted lost (ours, perhaps) or skipped. Anything else is a lie.
 */
static enum uev_verdict uev_attribute(struct uev_consumer *c, struct uev_csub *u, pid_t pid,
				      uint64_t pos, const struct uev_cbs *cbs)
{
	bool inherit = c->flags & UEV_SLOT_INHERIT;

	if (pid == c->target)
		return UEV_DELIVER;
	if (pid == 0 && c->ns.nested)
		return inherit ? UEV_SKIP_LOST : UEV_SKIP;
	if (pid > 0 && cbs->shares && cbs->shares(cbs->ctx, pid))
		return inherit ? UEV_DELIVER : UEV_SKIP;
	if (pos < u->adopted_end)
		return inherit ? UEV_SKIP_LOST : UEV_SKIP;
	return UEV_FORGED;
}

/*
 * Skip a PAD of rlen bytes at off: up to the end before a record that
 * did not fit there (the writer's context goes on after it), or anywhere,
 * a reservation given up (the record after it carries its context).
 */
static int uev_skip_pad(struct uev_consumer *c, struct uev_csub *u, uint64_t rlen, uint64_t off,
			uint64_t avail)
{
	if (rlen > avail || off + rlen > c->sub_size || (rlen & 7))
		return -EBADMSG;
	if (off + rlen != c->sub_size) {
		if (rlen < sizeof(struct uev_rec))
			return -EBADMSG;
		u->ctx_known = false;
	}
	uev_advance(c, u, rlen);
	return 0;
}

/* A DATA record: its event to the callback, or one skipped. */
enum uev_rec_step { UEV_REC_EVENT, UEV_REC_SKIP, UEV_REC_BAD };

/*
 * The DATA record at u's tail (commit: its commit word; avail: the bytes
 * up to the head), checked: its header in h, its payload at *p, its length
 * in *rlen. UEV_REC_SKIP: not the stream's (reported lost if it inherits),
 * UEV_REC_BAD: corrupt.
 */
static enum uev_rec_step uev_data_rec(struct uev_consumer *c, struct uev_csub *u,
				      const struct uev_cbs *cbs, uint32_t commit, uint64_t avail,
				      struct pt_event_hdr *h, const uint8_t **p, uint64_t *rlen)
{
	uint64_t size = c->sub_size, off = u->tail & (size - 1);
	struct uev_rec rec;
	uint32_t dlen, extra;

	if (UEV_COMMIT_KIND(commit) != UEV_KIND_DATA || off + sizeof(rec) > size)
		return UEV_REC_BAD;
	memcpy(&rec, u->ring + off, sizeof(rec));
	dlen = UEV_COMMIT_LEN(commit);
	extra = uev_rec_extra(rec.flags);
	*rlen = UEV_ALIGN8(sizeof(rec) + extra + (uint64_t)dlen);
	if (dlen > c->rec_max || off + *rlen > size || *rlen > avail || rec.idx >= UEV_NAMES_MAX ||
	    (rec.flags & ~UEV_REC_FLAGS))
		return UEV_REC_BAD;
	*p = u->ring + off + sizeof(rec);
	/* a time in the future is a lie: the core's merge must not
	 * wait for it */
	if (uev_take_context(c, u, &rec, p, h, cbs) || uev_future(c, h->ts))
		return UEV_REC_BAD;
	if (h->pid != c->target && u->ctx_verdict != UEV_DELIVER) {
		enum uev_verdict v = uev_attribute(c, u, h->pid, u->tail, cbs);

		if (v == UEV_FORGED)
			return UEV_REC_BAD;
		if (v != UEV_DELIVER) {
			if (v == UEV_SKIP_LOST)
				uev_report_lost(cbs, 1, h->ts);
			return UEV_REC_SKIP;
		}
		u->ctx_verdict = v;
	}
	h->id = UEV_ID_BASE + rec.idx;
	h->trunc = (rec.flags & UEV_REC_TRUNC) ? PT_TRUNCATED_RECORD : PT_NOT_TRUNCATED;
	h->reserved = 0;
	h->reserved2 = 0;
	if (dlen > c->max_data) {
		/* written into a provisional slot before we adopted it */
		dlen = c->max_data;
		h->trunc = PT_TRUNCATED_RECORD;
	}
	h->data_len = dlen;
	return UEV_REC_EVENT;
}

/*
 * Drain sub-ring u up to its head; returns 0, >0 (stopped) or -errno.
 * Caught up with a head loaded after reading t0: every record reserved
 * later reads the clock after its reservation, so u->wm = t0.
 */
static int uev_drain(struct uev_consumer *c, struct uev_csub *u, const struct uev_cbs *cbs, int *np)
{
	uint64_t size = c->sub_size, mask = size - 1, iter, max_iter = size / 8 + 2;
	uint64_t t0 = clock__mono_ns(), head;
	int ret;

	uev_clock_fence();
	head = LOAD_ACQ(&u->sb->head);
	for (iter = 0; iter < max_iter; iter++) {
		uint64_t avail = head - u->tail, off = u->tail & mask, rlen;
		enum uev_rec_step step;
		const uint8_t *p;
		struct pt_event_hdr h;
		uint32_t commit;

		if (avail > size || (head & 7))
			return uev_corrupt(c, u);
		if (!avail) {
			/* caught up: look again once (read head seldom: it is
			 * the producers' hot line) */
			uint64_t h2 = LOAD_ACQ(&u->sb->head);

			if (h2 == head) {
				u->wm = t0;
				break;
			}
			head = h2;
			continue;
		}
		commit = LOAD_ACQ((uint32_t *)(u->ring + off));
		if (!commit || UEV_COMMIT_RESERVED(commit)) {
			if (uev_skip_dead(c, u, cbs, head, off))
				continue;
			break;
		}
		u->stuck = false;
		if (UEV_COMMIT_TAG(commit) != UEV_POS_TAG(u->tail))
			return uev_corrupt(c, u);
		if (UEV_COMMIT_KIND(commit) == UEV_KIND_PAD) {
			if (uev_skip_pad(c, u, UEV_COMMIT_LEN(commit), off, avail))
				return uev_corrupt(c, u);
			continue;
		}
		step = uev_data_rec(c, u, cbs, commit, avail, &h, &p, &rlen);
		if (step == UEV_REC_BAD)
			return uev_corrupt(c, u);
		if (step == UEV_REC_SKIP) {
			uev_advance(c, u, rlen);
			continue;
		}
		(*np)++;
		/* the payload in place (a record never wraps): given back to
		 * the producers only after the callback copied it */
		ret = cbs->event ? cbs->event(cbs->ctx, &h, p) : 0;
		uev_advance(c, u, rlen);
		if (ret)
			return ret < 0 ? ret : 1;
	}
	return 0;
}

/* Drops with no later record to carry them: reported once drained. */
static int uev_drained_drops(struct uev_consumer *c, const struct uev_cbs *cbs)
{
	unsigned int k;

	for (k = 0; k < UEV_NSUB; k++) {
		struct uev_csub *u = &c->sub[k];

		if (LOAD_ACQ(&u->sb->head) == u->tail && LOAD(&u->sb->dropped)) {
			uint64_t cnt = __atomic_exchange_n(&u->sb->dropped, 0, __ATOMIC_ACQ_REL);
			uint64_t ts = LOAD(&u->sb->drop_ts);

			if (uev_future(c, ts) || !uev_lost_plausible(c, u, cnt))
				return uev_corrupt(c, u);
			uev_report_lost(cbs, cnt, ts);
		}
	}
	return 0;
}

static int uev_consume(struct uev_consumer *c, const struct uev_cbs *cbs)
{
	int n = 0, ret = 0, err = 0;
	unsigned int i;

	if (LOAD(&c->sl->own) != c->own || LOAD(&c->sl->gen) != c->gen)
		return uev_corrupt(c, NULL);
	/* every sub-ring, starting with a different one each time so that a
	 * callback stopping the drain early starves none */
	for (i = 0; i < UEV_NSUB && !c->broken; i++) {
		struct uev_csub *u = &c->sub[(c->first + i) & (UEV_NSUB - 1)];

		unsigned int corrupt = c->corrupt;

		if (cbs->run && LOAD_ACQ(&u->sb->head) != u->tail)
			cbs->run(cbs->ctx);
		ret = uev_drain(c, u, cbs, &n);
		uev_publish(c, u);
		if (ret == -EBADMSG && c->corrupt != corrupt) {
			/* this sub-ring was resynchronised: the others are fine */
			err = ret;
			ret = 0;
			continue;
		}
		if (ret)
			break;
	}
	c->first = (c->first + 1) & (UEV_NSUB - 1);
	if (ret < 0)
		return ret;
	if (ret > 0)
		return n;
	if (err)
		return err;
	ret = uev_drained_drops(c, cbs);
	return ret ? ret : n;
}

int uev_consumer__consume(struct uev_consumer *c, const struct uev_cbs *cbs)
{
	uint64_t low = UINT64_MAX;
	unsigned int k;
	int ret;

	if (c->broken) {
		/* nothing will come from this slot again: hold nobody back */
		low = clock__mono_ns();
		if (low > c->wm)
			c->wm = low;
		return 0;
	}
	ret = uev_consume(c, cbs);
	for (k = 0; k < UEV_NSUB; k++)
		if (c->sub[k].wm < low)
			low = c->sub[k].wm;
	if (low > c->wm)
		c->wm = low;
	return ret;
}

uint64_t uev_consumer__watermark(const struct uev_consumer *c)
{
	return c->wm;
}
