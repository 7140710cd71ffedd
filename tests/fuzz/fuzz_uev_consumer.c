// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for the user-event consumer (src/uevent/uev_attach.c, uev_consumer.c).
 *
 * An input is a program run against a fresh region (one per input, so that
 * the producer's per-thread state starts afresh and a run does not depend
 * on the one before): a header, the consumer's options and maybe a
 * provisional slot to adopt, then operations: events written by the real
 * producer, drains, queries, and what a hostile traced process can do to
 * the memory it shares (slot and sub-ring fields, names, ring bytes,
 * forged records, holes), some of them from inside the event callback, as
 * a live producer would. The consumer's mappings sit between guard pages
 * (fuzz_uev_guard.c). An input without hostile operations is also checked
 * against a model of what was written: every event stored comes out once,
 * in order, with its bytes and context, and every drop is reported before
 * the event that follows it. tests/fuzz/gen-uev-seeds.py documents the
 * byte layout and writes the seed corpus.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_uev.h"
#include "fuzz_uev_guard.h"
#include "uevent/uev_producer.h"

#define QMAX	    4096 /* events an input may write: bounds a run's time */
#define NAME_BUFMAX 80

enum op {
	OP_WRITE,
	OP_BURST,
	OP_CONSUME,
	OP_QUERY,
	OP_NAME,
	OP_SUBF,
	OP_SLOTF,
	OP_SLOTB,
	OP_RINGB,
	OP_REC,
	OP_ATTACH,
	OP_COUNT
};

/* An event the producer stored (not dropped), as the consumer must give it. */
struct exp_ev {
	uint32_t seq;
	uint32_t len;	 /* asked for */
	uint32_t stored; /* kept by the producer (the slot's max_data then) */
	uint16_t idx;
	uint64_t ts, ts_max; /* the time given, or the clock's between the two */
	uint64_t prog;
	uint64_t drops_before; /* drops of the sub-ring before it was written */
	uint64_t carried;      /* the drops it carries (UEV_REC_LOST) */
	uint64_t carried_ts;
};

static struct exp_ev queue[QMAX];
/* Payloads: event seq writes the bytes from pattern + seq % PAT_SHIFTS. */
#define PAT_SHIFTS 251
static uint8_t pattern[PAYLOAD_MAX + PAT_SHIFTS];
/* Where a callback copies each payload to (every byte read, memcpy is fast). */
static uint8_t scratch[PAYLOAD_MAX];
static pid_t my_tid;

static void run_op(struct run *r);

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const uint8_t *pat(uint32_t seq)
{
	return pattern + seq % PAT_SHIFTS;
}

/* ------------------------------------------------------------------ */
/* The callbacks: what every delivered event and drop must satisfy. */

static void check_model(struct run *r, const struct pt_event_hdr *h, const uint8_t *d)
{
	struct exp_ev *e;
	uint32_t want, maxd = (uint32_t)uev_consumer__max_data(r->c);

	must(r->q_head < r->q_tail, "an event comes out that was written");
	e = &queue[r->q_head++];
	want = e->stored < maxd ? e->stored : maxd;
	must(h->id == UEV_ID_BASE + e->idx, "the id written");
	must(h->data_len == want, "the length kept");
	must(h->trunc == (e->len > want ? PT_TRUNCATED_RECORD : PT_NOT_TRUNCATED), "trunc");
	must(h->pid == getpid() && h->tid == my_tid && h->thread == (uint64_t)pthread_self(),
	     "the writer's pid, tid and thread");
	must(h->prog_addr == e->prog, "the caller address");
	must(h->ts >= e->ts && h->ts <= e->ts_max, "the timestamp written, or read by the call");
	if (!r->lost_blind) {
		must(r->lost_total == e->drops_before, "drops reported before the next event");
		must(!e->carried || (r->lost_fresh && r->last_lost == e->carried &&
				     (r->last_lost_ts == e->carried_ts || !r->last_lost_ts)),
		     "the drops an event carries, just before it");
	}
	must(!memcmp(d, pat(e->seq), want), "the payload written");
}

static int on_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct run *r = ctx;
	const uint8_t *d = data;

	must(r->in_consume && !r->stopped, "event() only within a drain, not after a stop");
	must(h->id - UEV_ID_BASE < UEV_NAMES_MAX, "a user event id");
	must(h->data_len <= uev_consumer__max_data(r->c), "data_len <= max_data");
	must(h->ts <= now_ns(), "ts not in the future");
	must(h->trunc == PT_NOT_TRUNCATED || h->trunc == PT_TRUNCATED_RECORD, "trunc value");
	must(!h->data_len || guard__payload_ok(d, h->data_len, r->sub_size),
	     "the payload lies within one sub-ring");
	/* read once: the traced process can change it meanwhile */
	memcpy(scratch, d, h->data_len);
	if (!r->dirty)
		check_model(r, h, scratch);
	r->lost_fresh = false;
	r->events++;
	if (r->nest_ops && r->events == r->nest_at && !r->depth) {
		/* the traced process writes while we read */
		r->nested = true;
		r->depth++;
		for (int i = 0; i < r->nest_ops && r->pos < r->len; i++)
			run_op(r);
		r->depth--;
	}
	if (r->stop_after && r->events >= r->stop_after) {
		r->stopped = true;
		return r->stop_ret;
	}
	return 0;
}

static void on_lost(void *ctx, uint64_t count, uint64_t first_ts)
{
	struct run *r = ctx;

	must(r->in_consume && !r->stopped, "lost() only within a drain");
	must(count > 0, "lost() counts something");
	must(first_ts <= now_ns(), "the first drop's time not in the future");
	r->lost_total += count;
	r->last_lost = count;
	r->last_lost_ts = first_ts;
	r->lost_fresh = true;
}

static void on_run(void *ctx)
{
	struct run *r = ctx;

	must(r->in_consume && !r->stopped, "run() only within a drain");
}

/* ------------------------------------------------------------------ */
/* The consumer's side. */

static int lowest_free_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

static void attach(struct run *r)
{
	uint8_t *base;
	size_t len, rs;
	off_t off;
	int err;

	if (r->attached || r->attach_failed || r->depth)
		return;
	r->free_fd = lowest_free_fd();
	err = uev_consumer__attach_fd(&r->c, r->fd, getpid(), &r->opts);
	if (err) {
		must(r->dirty || err == -ENOMEM, "a clean attach succeeds");
		must(!r->c && !guard__live() && lowest_free_fd() == r->free_fd,
		     "a failed attach leaves nothing mapped or open");
		r->attach_failed = true;
		return;
	}
	must(!guard__ring(&base, &len, &off), "the ring is mapped");
	rs = uev_consumer__ring_size(r->c);
	must(rs >= UEV_RING_MIN && rs <= UEV_SLOT_MAX && !(rs & (rs - 1)), "ring size");
	must(uev_consumer__max_data(r->c) <= UEV_CONSUMER_MAX_DATA, "max data clamped");
	must(uev_consumer__max_data(r->c) <= r->opts.max_data_size, "max data as asked or less");
	r->sub_size = UEV_SUB_SIZE(rs);
	must(len == UEV_NSUB * r->sub_size, "the ring mapping holds the sub-rings");
	must(off >= (off_t)UEV_CTL_SIZE && (off - UEV_CTL_SIZE) % UEV_SLOT_MAX == 0,
	     "the ring of a slot");
	if (r->prov && !r->dirty)
		must(r->slot == (off - UEV_CTL_SIZE) / UEV_SLOT_MAX,
		     "the provisional slot adopted");
	r->slot = (unsigned int)((off - UEV_CTL_SIZE) / UEV_SLOT_MAX);
	if (!r->prov) {
		/* a claimed slot starts empty: what was written before is gone */
		r->q_head = r->q_tail = 0;
		r->drops = r->lost_total = 0;
	}
	must(!uev_consumer__set_enabled(r->c, true), "set_enabled");
	r->attached = true;
}

/*
 * The watermark never decreases nor passes now; a clean drain that was
 * not stopped catches every sub-ring up (nothing stays reserved), so it
 * reaches the time the drain started.
 */
static void check_watermark(struct run *r, int rc)
{
	uint64_t wm = uev_consumer__watermark(r->c);

	must(wm >= r->wm && wm <= now_ns(), "the watermark never decreases nor passes now");
	if (!r->dirty && rc >= 0 && !r->stopped && !r->nested)
		must(wm >= r->t_consume, "a full clean drain brings the watermark to its start");
	r->wm = wm;
}

static void consume(struct run *r, int stop_after, int stop_ret, int nest_at, int nest_ops,
		    unsigned int variant)
{
	struct uev_cbs cbs = {
		.event = on_event,
		.lost = (variant & 1) ? NULL : on_lost,
		.run = (variant & 2) ? on_run : NULL,
		.ctx = r,
	};
	int rc;

	if (r->depth)
		return;
	attach(r);
	if (!r->attached)
		return;
	if (!cbs.lost)
		r->lost_blind = true;
	r->events = 0;
	r->stopped = false;
	r->nested = false;
	r->stop_after = stop_after;
	r->stop_ret = stop_ret;
	r->nest_at = nest_at;
	r->nest_ops = nest_ops;
	r->t_consume = now_ns();
	r->in_consume = true;
	rc = uev_consumer__consume(r->c, &cbs);
	r->in_consume = false;
	r->n_events += (unsigned int)r->events;
	r->n_consumes++;
	r->n_corrupt += rc == -EBADMSG;
	if (r->stopped && stop_ret < 0)
		must(rc == stop_ret, "consume returns the callback's error");
	else if (rc >= 0)
		must(rc == r->events, "consume returns the events delivered");
	else
		must(rc == -EBADMSG && r->dirty, "consume fails only on corrupt memory");
	check_watermark(r, rc);
}

static void check_name(struct run *r, uint32_t id, char *buf, size_t blen)
{
	uint32_t idx = id - UEV_ID_BASE;
	const char *want = NULL;
	int rc = uev_consumer__type_name(r->c, id, buf, blen);

	must(rc == 0 || rc == -ENOENT || rc == -ENAMETOOLONG || rc == -EBADMSG, "type_name errors");
	if (rc == 0)
		must(memchr(buf, 0, blen) != NULL, "a name NUL-terminated within the buffer");
	if (idx >= UEV_NAMES_MAX)
		must(rc == -ENOENT, "no name outside the user ids");
	if (r->dirty || idx >= UEV_NAMES_MAX)
		return;
	if (idx == 0)
		want = UEV_UNNAMED_NAME;
	else if (r->ctl->names[idx].state == UEV_NAME_READY)
		want = r->names[idx];
	if (!want)
		must(rc == -ENOENT, "an unregistered name");
	else if (strlen(want) >= blen)
		must(rc == -ENAMETOOLONG, "a name longer than the buffer");
	else
		must(rc == 0 && !strcmp(buf, want), "the name registered");
}

static void query(struct run *r, size_t blen, uint32_t id)
{
	char *buf;
	int n;

	attach(r);
	if (!r->attached)
		return;
	n = uev_consumer__type_count(r->c);
	must(n >= 1 && n <= (int)UEV_NAMES_MAX, "type_count range");
	if (!r->dirty)
		must(n == (int)(r->name_count > 1 ? r->name_count : 1), "type_count");
	must(uev_consumer__pending(r->c) <= UEV_NSUB * r->sub_size, "pending <= the rings");
	must(uev_consumer__fill(r->c) <= 1000, "fill <= 1000");
	must(uev_consumer__busy(r->c) <= UEV_NSUB, "busy <= the sub-rings");
	/* exactly blen bytes, so that ASan sees a write past the buffer */
	buf = malloc(blen);
	if (!buf && blen)
		return;
	for (uint32_t i = UEV_ID_BASE - 1; i <= UEV_ID_BASE + UEV_NAMES_MAX; i++)
		check_name(r, i, buf, blen);
	free(buf);
	id = UEV_ID_BASE - 8 + id % (UEV_NAMES_MAX + 16);
	n = uev_consumer__set_id_enabled(r->c, id, id & 1);
	must(n == (id - UEV_ID_BASE < UEV_NAMES_MAX ? 0 : -EINVAL), "set_id_enabled");
}

/* ------------------------------------------------------------------ */
/* The producer's side: real writes, and their expected outcome. */

/* ts TS_NOW: the producer reads the clock once it reserved the record. */
#define TS_NOW UINT64_MAX

static void write_one(struct run *r, uint16_t idx, uint32_t len, uint64_t ts, uint64_t prog)
{
	struct uev_slot *sl = slot_of(r);
	struct uev_sub *sb = &sl->sub[(uint32_t)my_tid & (UEV_NSUB - 1)];
	uint64_t h0 = sb->head, d0 = sb->dropped, dts0 = sb->drop_ts, ts_max = ts;
	uint32_t maxd = sl->max_data;
	struct exp_ev *e;

	if (r->seq >= QMAX)
		return;
	if (len > PAYLOAD_MAX)
		len = PAYLOAD_MAX;
	if (ts == TS_NOW) {
		ts = now_ns();
		uev_producer__write_slot(r->ctl, r->slot, idx, pat(r->seq), len,
					 (const void *)(uintptr_t)prog);
		ts_max = now_ns();
	} else {
		/* a lie the consumer rejects, unless read late enough */
		if (ts > now_ns())
			r->dirty = true;
		uev_producer__write_slot_at(r->ctl, r->slot, idx, pat(r->seq), len,
					    (const void *)(uintptr_t)prog, ts);
	}
	r->seq++;
	/* before attach, only a provisional slot keeps what is written */
	if (r->dirty || (!r->attached && !r->prov) || r->attach_failed)
		return;
	/* a reservation given up (a PAD) moves head even when the retry drops */
	if (sb->dropped == d0 + 1) {
		r->drops++;
		return;
	}
	must(sb->head != h0 && sb->dropped == 0, "a stored event takes the drops before it");
	e = &queue[r->q_tail++];
	*e = (struct exp_ev){ .seq = r->seq - 1,
			      .len = len,
			      .stored = len < maxd ? len : maxd,
			      .idx = idx,
			      .ts = ts,
			      .ts_max = ts_max,
			      .prog = prog,
			      .drops_before = r->drops,
			      .carried = d0,
			      .carried_ts = dts0 };
}

/*
 * Timestamps: in order (63: the clock's, read by the producer), in the
 * past with another high half, in the future, raw.
 */
static uint64_t pick_ts(struct run *r, uint8_t b)
{
	switch (b >> 6) {
	case 0:
		return b == 63 ? TS_NOW : r->t0 + (uint64_t)r->seq * 1000 + b;
	case 1:
		return r->t0 - ((uint64_t)(b & 63) << 32);
	case 2:
		return now_ns() + (uint64_t)(b & 63) * 1000000 + 1000000;
	default:
		return rd(r, 5);
	}
}

static uint32_t pick_len(struct run *r, uint16_t v)
{
	uint32_t maxd = slot_of(r)->max_data;

	if (maxd > UEV_CONSUMER_MAX_DATA)
		maxd = UEV_CONSUMER_MAX_DATA;
	switch (v >> 14) {
	case 0:
	case 1:
		return v % (maxd + 33);
	case 2:
		return v & 0x3fff;
	default:
		return maxd + (v & 0xff) >= 128 ? maxd + (v & 0xff) - 128 : 0;
	}
}

static void op_write(struct run *r)
{
	uint16_t idx = (uint16_t)rd(r, 1);
	uint32_t len = pick_len(r, (uint16_t)rd(r, 2));
	uint64_t ts = pick_ts(r, (uint8_t)rd(r, 1));
	uint8_t p = (uint8_t)rd(r, 1);

	write_one(r, idx, len, ts, p < 64 ? 0 : 0x400000u + p * 16u);
}

/* Many events at once: fills a small ring, so that drops happen. */
static void op_burst(struct run *r)
{
	unsigned int n = (unsigned int)rd(r, 1) + 1;
	uint32_t lb = (uint32_t)rd(r, 1), maxd = slot_of(r)->max_data;
	uint16_t idx = (uint16_t)rd(r, 1);

	if (maxd > UEV_CONSUMER_MAX_DATA)
		maxd = UEV_CONSUMER_MAX_DATA;
	for (unsigned int i = 0; i < n; i++)
		write_one(r, idx, (uint32_t)((uint64_t)lb * (maxd + 1) / 256),
			  r->t0 + r->seq * 997u, 0x1000);
}

static void op_consume(struct run *r)
{
	uint8_t b = (uint8_t)rd(r, 1), nest = (uint8_t)rd(r, 1);

	consume(r, b & 0x1f, (b & 0x20) ? 1 : -EINTR, nest & 0xf, nest >> 4, b >> 6);
}

static void op_query(struct run *r)
{
	uint8_t b = (uint8_t)rd(r, 1), id = (uint8_t)rd(r, 1);

	query(r, b % NAME_BUFMAX, id + ((b & 0x80) ? 256u : 0));
}

static void (*const ops[OP_COUNT])(struct run *r) = {
	[OP_WRITE] = op_write, [OP_BURST] = op_burst, [OP_CONSUME] = op_consume,
	[OP_QUERY] = op_query, [OP_NAME] = op_name,   [OP_SUBF] = op_subf,
	[OP_SLOTF] = op_slotf, [OP_SLOTB] = op_slotb, [OP_RINGB] = op_ringb,
	[OP_REC] = op_rec,     [OP_ATTACH] = attach,
};

static void run_op(struct run *r)
{
	ops[rd(r, 1) % OP_COUNT](r);
}

/* ------------------------------------------------------------------ */

/*
 * Rings of 4 KiB << shift: most inputs get a small one, since attaching
 * faults in the whole ring, 4 sub-rings of up to 4 MiB (16 MiB: several
 * ms, against 20 us for 4 KiB). RING_RAW: the size is 4 (8) bytes of the
 * input; RING_HUGE: a 4 KiB ring asked with max_data up to 2 MiB (the
 * consumer clamps it to 1 MiB and grows the ring to fit).
 */
#define RING_RAW  0xff
#define RING_HUGE 0xfe
#define RH	  RING_HUGE
#define RR	  RING_RAW
static const uint8_t ring_shift[16] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 6, RH, RR };
static const uint8_t prov_shift[16] = { 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 6, 8, 10, RR };
/* max_data: the 2 input bytes masked by the class */
static const uint32_t md_mask[4] = { 0x1ff, 0x1ff, 0xfff, 0x3fff };

/*
 * Header: b0 (bits 0-3 ring class, 4 inherit, 5 provisional slot, 6-7
 * max_data class), max_data (2 bytes), a raw ring_bytes (4) for class 15,
 * max_data * 32 for class 14;
 * with a provisional slot: pb (bits 0-3 its ring class, raw: ring_size (8)
 * and max_data (4) as they come) and its max_data (2, made to fit).
 */
static void setup(struct run *r)
{
	uint8_t b0 = (uint8_t)rd(r, 1);
	uint32_t md = (uint32_t)rd(r, 2);
	uint8_t shift = ring_shift[b0 & 15];

	if (shift == RING_RAW)
		r->opts.ring_bytes = rd(r, 4);
	else
		r->opts.ring_bytes = (size_t)4096 << (shift == RING_HUGE ? 0 : shift);
	r->opts.max_data_size = shift == RING_HUGE ? (size_t)md << 5 : md & md_mask[b0 >> 6];
	r->opts.inherit = b0 & 0x10;
	r->prov = b0 & 0x20;
	r->name_count = 1;
	if (r->prov) {
		uint8_t pb = (uint8_t)rd(r, 1);
		uint32_t rm = (uint32_t)rd(r, 2);
		int s = uev_producer__prov_init(r->ctl, getpid());
		struct uev_slot *sl;
		uint64_t rs, sub;

		must(s >= 0, "a provisional slot in a fresh region");
		r->slot = (unsigned int)s;
		sl = slot_of(r);
		shift = prov_shift[pb & 15];
		if (shift == RING_RAW) {
			r->dirty = true;
			sl->ring_size = rd(r, 8);
			sl->max_data = (uint32_t)rd(r, 4);
			return;
		}
		rs = (uint64_t)4096 << shift;
		sub = UEV_SUB_SIZE(rs);
		sl->ring_size = rs;
		sl->max_data =
			rm % (uint32_t)(sub / 4 - (sizeof(struct uev_rec) + UEV_REC_EXTRA) + 1);
	}
}

static void finish(struct run *r)
{
	if (r->attached) {
		for (int i = 0; i < 4; i++) {
			consume(r, 0, 0, 0, 0, 0);
			if (!uev_consumer__pending(r->c))
				break;
		}
		query(r, UEV_NAME_LEN, 0);
		if (!r->dirty) {
			must(!uev_consumer__pending(r->c), "drained");
			must(r->q_head == r->q_tail, "every event stored comes out");
			must(r->lost_blind || r->lost_total == r->drops, "every drop is reported");
		}
		uev_consumer__detach(r->c);
		must(!guard__live(), "detach unmaps the region");
		must(lowest_free_fd() == r->free_fd, "detach closes its descriptor");
	}
	guard__unwatch();
	if (getenv("FUZZ_UEV_VERBOSE"))
		fprintf(stderr,
			"uev: %s%s, slot %u, sub-ring %llu, written %u, dropped %llu, "
			"delivered %u, lost %llu, drains %u (%u corrupt)\n",
			r->dirty ? "hostile" : "clean", r->attached ? "" : " (not attached)",
			r->slot, (unsigned long long)r->sub_size, r->seq,
			(unsigned long long)r->drops, r->n_events,
			(unsigned long long)r->lost_total, r->n_consumes, r->n_corrupt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run r;

	if (size > 65536)
		return 0;
	if (!my_tid) {
		my_tid = gettid();
		for (size_t i = 0; i < sizeof(pattern); i++)
			pattern[i] = (uint8_t)(i * 13 + (i >> 8) + (i >> 16) * 7);
	}
	memset(&r, 0, sizeof(r));
	r.in = data;
	r.len = size;
	if (uev_producer__region_create(&r.fd, &r.ctl))
		return 0;
	guard__watch(r.fd);
	r.t0 = now_ns();
	setup(&r);
	while (r.pos < r.len)
		run_op(&r);
	finish(&r);
	munmap(r.ctl, UEV_TOTAL_SIZE);
	close(r.fd);
	return 0;
}
