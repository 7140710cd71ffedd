// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel backend, drain: the CPUs' ring records merged by time and made
 * pt_event_hdr + payload events, with the drops and stacks they report.
 */
#include "backend/kern.h"

#include <ptbpf/ptbpf.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>

#include "backend/kern_int.h"
#include "backend/kern_map.h"
#include "backend/kern_stack.h"
#include "backend/map_build_id.h"
#include "backend/kring.h"
#include "common/clock.h"
/* bpf/kern.h (a plain "kern.h" would be backend/kern.h) */
#include "../../bpf/kern.h"
#include "kern.skel.h"

/* Report the drops up to the cumulative count `dropped`, if any are new. */
static void kern_backend__report_lost(struct kern_backend *kb, uint64_t dropped,
				      uint64_t fallback_ts)
{
	uint64_t first;

	if (dropped <= kb->dropped_seen)
		return;
	first = kb->lost_ts && kb->lost_ts <= fallback_ts ? kb->lost_ts : fallback_ts;
	if (kb->cbs->lost)
		kb->cbs->lost(kb->cbs->ctx, dropped - kb->dropped_seen, first);
	kb->dropped_seen = dropped;
	kb->lost_ts = 0;
}

/* A KERN_ID_DROPS record: the drops before it are reported here. */
static void kern_backend__drops(struct kern_backend *kb, const struct kern_rec *r)
{
	const struct kern_drops *d = (const void *)(r + 1);

	if (r->data_len < sizeof(*d))
		return; /* cannot happen: the kernel side wrote it */
	if (d->first_ts && (!kb->lost_ts || d->first_ts < kb->lost_ts))
		kb->lost_ts = d->first_ts;
	kern_backend__report_lost(kb, d->dropped, r->ts);
}

/* The public payloads of the compact records (bpf/kern.h). */
union kern_full {
	struct ptbpf_ev_sys_enter ent;
	struct ptbpf_ev_sys_exit exit;
	struct ptbpf_ev_sys_exit_ext ext;
	struct ptbpf_ev_proc_map map;
	struct ptbpf_ev_fd_info fd;
};

/*
 * Expand the compact payload of r into f: its length, or 0 if r is no
 * compact record of a syscall (cannot happen: the kernel side wrote it).
 */
static uint32_t kern_expand(const struct kern_backend *kb, const struct kern_rec *r,
			    union kern_full *f)
{
	uint8_t when;

	if (!PTBPF_EV_IS_SYSCALL(r->id))
		return 0;
	if (PTBPF_EV_SYSCALL_IS_EXIT(r->id)) {
		/* the return value, and with a syscall status filter the duration */
		if (r->data_len == sizeof(f->ext.ret) + sizeof(f->ext.duration)) {
			memset(&f->ext, 0, sizeof(f->ext));
			f->ext.nr = PTBPF_EV_SYSCALL_NR(r->id);
			memcpy(&f->ext.ret, r + 1, sizeof(f->ext.ret));
			memcpy(&f->ext.duration, (const char *)(r + 1) + sizeof(f->ext.ret),
			       sizeof(f->ext.duration));
			return offsetof(struct ptbpf_ev_sys_exit_ext, paths);
		}
		if (r->data_len != sizeof(f->exit.ret))
			return 0;
		f->exit.nr = PTBPF_EV_SYSCALL_NR(r->id);
		memcpy(&f->exit.ret, r + 1, sizeof(f->exit.ret));
		return sizeof(f->exit);
	}
	/* the arguments the syscall takes; those it does not stay zero */
	if (r->data_len > sizeof(f->ent.args) || r->data_len % sizeof(f->ent.args[0]))
		return 0;
	memset(&f->ent, 0, sizeof(f->ent));
	f->ent.nr = PTBPF_EV_SYSCALL_NR(r->id);
	memcpy(f->ent.args, r + 1, r->data_len);
	/* an entry whose exit captures: BPF wrote it compact (sys_enter_event) */
	when = kb->skel->rodata->cap_when[f->ent.nr % PTBPF_SYSCALL_NR_MAX];
	if (kb->skel->rodata->cap_strsize && (when & KERN_CAP_EXIT))
		f->ent.flags = PTBPF_SYS_CAPS_AT_EXIT |
			       PTBPF_SYS_EXIT_ARG_FLAG(KERN_CAP_WHEN_EXIT_ARG(when));
	return offsetof(struct ptbpf_ev_sys_enter, paths);
}

/* One event made of r's ids and time: false when the callback asked to stop. */
static bool kern_backend__emit(struct kern_backend *kb, const struct kern_rec *r, uint32_t id,
			       const void *data, uint32_t len)
{
	struct pt_event_hdr h = {
		.id = id,
		.trunc = PT_NOT_TRUNCATED,
		.data_len = len,
		.pid = r->pid,
		.tid = r->tid,
		.ts = r->ts,
		.prog_addr = r->prog_addr,
		.thread = r->thread,
	};

	kb->count++;
	if (kb->cbs->event && kb->cbs->event(kb->cbs->ctx, &h, data))
		kb->stop = true;
	return !kb->stop;
}

/* The id of one stack of a KERN_ID_STACK record, its stack_trace written
 * first if it is new; 0: none. */
static uint32_t kern_backend__stack_id(struct kern_backend *kb, const struct kern_rec *r,
				       bool kernel, const uint64_t *ips, size_t n)
{
	/* the event: struct ptbpf_ev_stack_trace, then its addresses */
	uint64_t ev[(sizeof(struct ptbpf_ev_stack_trace) + 8 * PTBPF_STACK_TRACE_MAX) / 8];
	struct ptbpf_ev_stack_trace *t = (void *)ev;
	bool fresh;
	uint32_t id;

	if (!n || n > PTBPF_STACK_TRACE_MAX || !kb->stacks)
		return 0;
	id = kern_stacks__id(kb->stacks, kernel, ips, n, &fresh);
	if (!id || !fresh)
		return id;
	t->stack_id = id;
	t->flags = kernel ? PTBPF_STACK_TRACE_KERNEL : 0;
	t->nr = (uint16_t)n;
	memcpy(t->ips, ips, n * sizeof(*ips));
	if (!kern_backend__emit(kb, r, PTBPF_EV_STACK_TRACE, ev,
				(uint32_t)(sizeof(*t) + n * sizeof(*ips))))
		return 0;
	return id;
}

/* A KERN_ID_STACK record: its stacks by id, in a stack_ref event. */
static void kern_backend__stacks(struct kern_backend *kb, const struct kern_rec *r)
{
	uint64_t ips[PTBPF_STACK_DEPTH_MAX + PTBPF_STACK_TRACE_MAX];
	struct ptbpf_ev_stack_ref ref = { 0 };
	size_t uarea = kb->stack_user ? kb->stack_depth : 0, nips;
	struct kern_stack ks;

	if (r->data_len < sizeof(ks))
		return; /* cannot happen: the kernel side wrote it */
	memcpy(&ks, r + 1, sizeof(ks));
	nips = (r->data_len - sizeof(ks)) / sizeof(uint64_t);
	if (nips > sizeof(ips) / sizeof(ips[0]) || ks.nuser > uarea || uarea > nips ||
	    ks.nkernel > nips - uarea || ks.nkernel > PTBPF_STACK_TRACE_MAX)
		return;
	memcpy(ips, (const char *)(r + 1) + sizeof(ks), nips * sizeof(uint64_t));
	ref.event_id = ks.event_id;
	ref.depth = kb->stack_depth;
	ref.user_id = kern_backend__stack_id(kb, r, false, ips, ks.nuser);
	if (kb->stop)
		return;
	ref.kernel_id = kern_backend__stack_id(kb, r, true, ips + uarea, ks.nkernel);
	if (kb->stop || (!ref.user_id && !ref.kernel_id))
		return;
	kern_backend__emit(kb, r, PTBPF_EV_STACK_REF, &ref, sizeof(ref));
}

/* Deliver one record of ring (kb->stop: the callback asked to stop). */
static void kern_backend__sample(struct kern_ring *ring, const struct kern_rec *r, size_t size)
{
	struct kern_backend *kb = ring->kb;
	struct pt_event_hdr h;
	union kern_full full;
	const void *data = r + 1;

	if (r->data_len > size - sizeof(*r))
		return; /* cannot happen: the kernel side wrote it */
	if (r->id == KERN_ID_DROPS) {
		kern_backend__drops(kb, r);
		return;
	}
	if (r->id == KERN_ID_STACK) {
		kern_backend__stacks(kb, r);
		return;
	}
	h.data_len = r->data_len;
	if (r->id == PTBPF_EV_PROC_MAP) {
		h.data_len = kern_map__expand(r + 1, r->data_len, &full.map);
		if (!h.data_len)
			return;
		h.data_len = map__add_build_id(&full.map);
		data = &full;
	} else if (r->id == PTBPF_EV_FD_INFO) {
		h.data_len = kern_map__expand_fd(r + 1, r->data_len, &full.fd);
		if (!h.data_len)
			return;
		data = &full;
	} else if (r->flags & KERN_REC_COMPACT) {
		h.data_len = kern_expand(kb, r, &full);
		if (!h.data_len)
			return;
		data = &full;
	}
	h.id = r->id;
	h.trunc = r->flags & KERN_REC_TRUNCATED ? PT_TRUNCATED_RECORD : PT_NOT_TRUNCATED;
	h.reserved = 0;
	h.reserved2 = 0;
	h.pid = r->pid;
	h.tid = r->tid;
	h.ts = r->ts;
	h.prog_addr = r->prog_addr;
	h.thread = r->thread;
	kb->count++;
	if (kb->cbs->event && kb->cbs->event(kb->cbs->ctx, &h, data))
		kb->stop = true;
}

/* Drops after the last record: report them at the end of a drain. */
static void kern_backend__final_lost(struct kern_backend *kb)
{
	uint64_t dropped = KERN_RD(kb->skel->bss->cnt_dropped);
	uint64_t first;

	if (dropped <= kb->dropped_seen)
		return;
	first = KERN_RD(kb->skel->bss->drop_first_ts);
	if (first && (!kb->lost_ts || first < kb->lost_ts))
		kb->lost_ts = first;
	KERN_WR(kb->skel->bss->drop_first_ts, 0);
	kern_backend__report_lost(kb, dropped, clock__mono_ns());
}

/*
 * A record reserved before the drain read the producer position but not
 * committed yet is waited for (kring__wait_busy): left to the next drain,
 * it would come after newer events stored meanwhile (its timestamp raised
 * to theirs), and after a FLUSH_START stamped when this drain began.
 */
#define KERN_BUSY_WAIT_NS 1000000u

/* Look at the next record of ring before its limit: false if none. */
static bool kern_ring__peek(struct kern_ring *ring)
{
	const void *data;
	size_t size;
	uint64_t deadline = 0;

	do {
		while (kring__peek(&ring->kr, ring->limit, &data, &size)) {
			if (size >= sizeof(struct kern_rec)) {
				ring->head = data;
				ring->head_size = size;
				return true;
			}
			kring__advance(&ring->kr); /* cannot happen: the kernel side wrote it */
		}
	} while (ring->kr.cons < ring->limit &&
		 kring__wait_busy(&ring->kr, ring->limit, clock__mono_ns(), KERN_BUSY_WAIT_NS,
				  &deadline));
	ring->head = NULL;
	return false;
}

/*
 * The clock a drain reads first: the lfence keeps the CPU from loading
 * the slots and positions that follow before it read the clock.
 */
static uint64_t kern_backend__t0(void)
{
	uint64_t t0 = clock__mono_ns();

#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_lfence();
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
	return t0;
}

/* A slot's value once it is not 1 (being stamped), or 1 past *deadline. */
static uint64_t kern_slot__read(const __u64 *slot, uint64_t *deadline)
{
	uint64_t v, now;

	while ((v = __atomic_load_n(slot, __ATOMIC_ACQUIRE)) == 1) {
		now = clock__mono_ns();
		if (!*deadline)
			*deadline = now + KERN_BUSY_WAIT_NS;
		else if (now >= *deadline)
			break;
		kring__relax();
	}
	return v;
}

/*
 * The earliest time of the map-built records the CPUs are copying out
 * (bpf/kern.bpf.c rec_output_now): UINT64_MAX if none, 0 if a slot stayed
 * claimed but not stamped through the bounded wait.
 */
static uint64_t kern_backend__in_flight(const struct kern_backend *kb)
{
	uint64_t low = UINT64_MAX, deadline = 0, v;
	int i, n = libbpf_num_possible_cpus();

	if (n <= 0 || n > KERN_MAX_CPUS)
		n = KERN_MAX_CPUS;
	for (i = 0; i < n; i++) {
		v = kern_slot__read(&kb->skel->bss->in_flight[i].ts, &deadline);
		if (v == 1)
			return 0;
		if (v && v < low)
			low = v;
	}
	return low;
}

/*
 * A ring's watermark after a drain that read the clock at t0: stopped by
 * the callback, its next record's time; emptied up to its limit, t0 (a
 * record reserved later is stamped later); stopped at a record still
 * being written, unchanged (that one is stamped after the last drain).
 */
static uint64_t kern_ring__watermark(struct kern_ring *ring, uint64_t t0)
{
	if (ring->head)
		ring->watermark = ring->head->ts < t0 ? ring->head->ts : t0;
	else if (ring->kr.cons >= ring->limit)
		ring->watermark = t0;
	return ring->watermark;
}

/* The backend's watermark after a drain: the least of its parts, never lower. */
static void kern_backend__set_watermark(struct kern_backend *kb, uint64_t t0, uint64_t flight)
{
	uint64_t wm = flight, w;
	int i;

	for (i = 0; i < kb->nrings; i++) {
		w = kern_ring__watermark(&kb->rings[i], t0);
		if (w < wm)
			wm = w;
	}
	if (wm > kb->watermark)
		kb->watermark = wm;
}

uint64_t kern_backend__watermark(const struct kern_backend *kb)
{
	return kb->watermark;
}

/* Deliver the heads of the active rings in time order, until none or a stop. */
static void kern_backend__merge(struct kern_backend *kb, int nactive)
{
	int i, best;
	struct kern_ring *ring;

	while (nactive && !kb->stop) {
		best = 0;
		for (i = 1; i < nactive; i++)
			if (kb->rings[kb->active[i]].head->ts <
			    kb->rings[kb->active[best]].head->ts)
				best = i;
		ring = &kb->rings[kb->active[best]];
		kern_backend__sample(ring, ring->head, ring->head_size);
		kring__advance(&ring->kr);
		if (!kern_ring__peek(ring))
			kb->active[best] = kb->active[--nactive];
	}
}

int kern_backend__consume(struct kern_backend *kb, const struct kern_cbs *cbs)
{
	int i, nactive = 0;
	uint64_t t0, flight;

	kb->cbs = cbs;
	kb->count = 0;
	kb->stop = false;
	/* records written from now on may wake the drainer again */
	for (i = 0; i < kb->nrings; i++)
		if (KERN_RD(kb->skel->bss->wake_sent[i]))
			KERN_WR(kb->skel->bss->wake_sent[i], 0);
	/*
	 * What every ring holds now, merged by timestamp (each ring is in
	 * time order): stopping anywhere leaves only newer records in every
	 * ring, and records written meanwhile are newer too, so the stream
	 * rarely gets an event older than one it stored. Nor can fast
	 * producers keep a drain going forever. The clock first, then the
	 * records in flight, then the positions: see kern_backend__watermark.
	 */
	t0 = kern_backend__t0();
	flight = kern_backend__in_flight(kb);
	for (i = 0; i < kb->nrings; i++) {
		struct kern_ring *ring = &kb->rings[i];

		ring->limit = kring__producer_pos(&ring->kr);
		if (kern_ring__peek(ring))
			kb->active[nactive++] = i;
	}
	if (nactive && cbs->run)
		cbs->run(cbs->ctx);
	kern_backend__merge(kb, nactive);
	kern_backend__set_watermark(kb, t0, flight);
	for (i = 0; i < kb->nrings; i++)
		kring__publish(&kb->rings[i].kr);
	if (!kb->stop)
		kern_backend__final_lost(kb);
	kb->cbs = NULL;
	return kb->count;
}

bool kern_backend__pending(struct kern_backend *kb)
{
	int i;

	for (i = 0; i < kb->nrings; i++)
		if (!kring__empty(&kb->rings[i].kr))
			return true;
	return false;
}

unsigned int kern_backend__fill(struct kern_backend *kb)
{
	unsigned int most = 0, f;
	int i;

	for (i = 0; i < kb->nrings; i++) {
		f = kring__fill(&kb->rings[i].kr);
		if (f > most)
			most = f;
	}
	return most;
}

int kern_backend__poll(struct kern_backend *kb, int timeout_ms, const struct kern_cbs *cbs)
{
	struct epoll_event ev;
	int n;

	n = epoll_wait(kb->epfd, &ev, 1, timeout_ms);
	if (n < 0 && errno != EINTR)
		return -errno;
	return kern_backend__consume(kb, cbs);
}
