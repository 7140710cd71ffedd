// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the traced process can write into its region without the producer
 * code, for the user-event fuzz target: names (registered as the producer
 * does, or raw bytes), the slot's and the sub-rings' control words, ring
 * bytes, holes punched in the memfd, and forged records. All but a proper
 * name registration mark the input hostile (no model checks).
 */
#include <fcntl.h>
#include <string.h>
#include <time.h>

#include "fuzz_uev.h"

/* The sub-ring size hostile writes assume: the consumer's, else the slot's. */
static uint64_t sub_size(struct run *r)
{
	uint64_t rs = slot_of(r)->ring_size;

	if (r->attached)
		return r->sub_size;
	if (rs < UEV_RING_MIN || rs > UEV_SLOT_MAX || (rs & (rs - 1)))
		return UEV_RING_MIN;
	return UEV_SUB_SIZE(rs);
}

/* Write into sub-ring k at off, clipped to the sub-ring. */
static void ring_put(struct run *r, unsigned int k, uint64_t off, const void *src, size_t n)
{
	uint64_t sub = sub_size(r);
	uint8_t *ring = (uint8_t *)r->ctl + UEV_RING_OFF(r->slot) + k * sub;

	if (off >= sub)
		return;
	if (n > sub - off)
		n = sub - off;
	memcpy(ring + off, src, n);
}

static void ring_put_input(struct run *r, unsigned int k, uint64_t off, size_t n)
{
	uint8_t b[64];

	for (size_t i = 0; i < n && i < sizeof(b); i++)
		b[i] = (uint8_t)rd(r, 1);
	ring_put(r, k, off, b, n < sizeof(b) ? n : sizeof(b));
}

/* A name entry: registered as the producer does, or raw bytes. */
void op_name(struct run *r)
{
	uint8_t mode = (uint8_t)rd(r, 1), idx = (uint8_t)rd(r, 1);
	struct uev_name *e = &r->ctl->names[idx];

	if (mode & 1) {
		size_t n = rd(r, 1) % UEV_NAME_LEN;

		for (size_t i = 0; i < n; i++)
			e->name[i] = (char)('a' + rd(r, 1) % 26);
		e->name[n] = 0;
		e->state = UEV_NAME_READY;
		if (r->name_count < idx + 1u)
			r->name_count = idx + 1u;
		r->ctl->name_count = r->name_count;
		if (idx)
			memcpy(r->names[idx], e->name, n + 1);
		return;
	}
	r->dirty = true;
	e->state = (mode & 2) ? UEV_NAME_READY : (uint32_t)rd(r, 4);
	for (size_t i = 0; i < UEV_NAME_LEN; i++)
		e->name[i] = (char)rd(r, 1);
	if (mode & 4)
		r->ctl->name_count = (uint32_t)rd(r, 4);
}

static const size_t sub_fields[] = {
	offsetof(struct uev_sub, head),	      offsetof(struct uev_sub, dropped),
	offsetof(struct uev_sub, drop_ts),    offsetof(struct uev_sub, tail),
	offsetof(struct uev_sub, tail_cache),
};

/* One word of a sub-ring's control block: raw, moved by records or laps. */
void op_subf(struct run *r)
{
	uint8_t b = (uint8_t)rd(r, 1);
	struct uev_sub *sb = &slot_of(r)->sub[b & 3];
	uint64_t *f = (uint64_t *)((uint8_t *)sb + sub_fields[(b >> 2) % 5]);
	int64_t d;

	r->dirty = true;
	switch (b >> 5) {
	case 0:
	case 1:
		*f = rd(r, 8);
		break;
	case 2:
	case 3:
		d = (int8_t)rd(r, 1);
		*f += (uint64_t)(d * 8);
		break;
	case 4:
		d = (int8_t)rd(r, 1);
		*f += (uint64_t)d;
		break;
	case 5:
		*f += sub_size(r) * (rd(r, 1) % 3);
		break;
	case 6:
		*f = sb->tail + (uint64_t)((int16_t)rd(r, 2) * 8);
		break;
	default:
		*f = UINT64_MAX - rd(r, 1);
		break;
	}
}

struct field {
	size_t off; /* in struct uev_slot, or in struct uev_ctl */
	unsigned int size;
	bool in_slot;
};

static const struct field slot_fields[] = {
	{ offsetof(struct uev_slot, own), 8, true },
	{ offsetof(struct uev_slot, gen), 4, true },
	{ offsetof(struct uev_slot, flags), 4, true },
	{ offsetof(struct uev_slot, target_pid), 4, true },
	{ offsetof(struct uev_slot, max_data), 4, true },
	{ offsetof(struct uev_slot, ring_size), 8, true },
	{ offsetof(struct uev_slot, filter), 8, true },
	{ offsetof(struct uev_slot, filter) + 24, 8, true },
	{ offsetof(struct uev_ctl, active), 8, false },
	{ offsetof(struct uev_ctl, name_count), 4, false },
	{ offsetof(struct uev_ctl, magic), 8, false },
	{ offsetof(struct uev_ctl, version), 4, false },
};

/* A field of the slot or of the control area: raw, or nudged. */
void op_slotf(struct run *r)
{
	uint8_t b = (uint8_t)rd(r, 1), mode = (uint8_t)rd(r, 1);
	const struct field *fl = &slot_fields[b % (sizeof(slot_fields) / sizeof(slot_fields[0]))];
	uint8_t *p = (fl->in_slot ? (uint8_t *)slot_of(r) : (uint8_t *)r->ctl) + fl->off;
	uint64_t v = 0;

	r->dirty = true;
	memcpy(&v, p, fl->size);
	if (mode & 1)
		v = rd(r, fl->size);
	else
		v += (uint64_t)(int64_t)((int8_t)mode >> 1);
	memcpy(p, &v, fl->size);
}

void op_slotb(struct run *r)
{
	size_t off = rd(r, 2) % sizeof(struct uev_slot), n = rd(r, 1) % 17;
	uint8_t *p = (uint8_t *)slot_of(r) + off;

	r->dirty = true;
	for (size_t i = 0; i < n && off + i < sizeof(struct uev_slot); i++)
		p[i] = (uint8_t)rd(r, 1);
}

/* Ring bytes near the tail or the head, or a hole punched in the memfd. */
void op_ringb(struct run *r)
{
	uint8_t b = (uint8_t)rd(r, 1);
	unsigned int k = b & 3;
	struct uev_sub *sb = &slot_of(r)->sub[k];
	uint64_t sub = sub_size(r), base, off;
	int16_t delta = (int16_t)rd(r, 2);
	size_t n = rd(r, 1) % 33;

	r->dirty = true;
	if (b & 0x80) {
		/* pages read back as zeros: the file keeps its size (sealed) */
		off = (((uint64_t)(uint16_t)delta * 4096) % (UEV_NSUB * sub)) & ~4095ull;
		(void)fallocate(r->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)(UEV_RING_OFF(r->slot) + off), (off_t)((n + 1) * 4096));
		return;
	}
	base = ((b >> 2) & 3) == 0 ? sb->tail : ((b >> 2) & 3) == 1 ? sb->head : 0;
	off = (base + (uint64_t)(int64_t)delta) & (sub - 1);
	ring_put_input(r, k, off, n);
}

static const uint32_t rec_kinds[8] = {
	UEV_KIND_DATA,
	UEV_KIND_DATA,
	UEV_KIND_DATA,
	UEV_KIND_PAD,
	UEV_KIND_RESV,
	UEV_KIND_RESV_OWN,
	0,
	0xf,
};

/* Times in a sane record's parts in the past (the future is a lie). */
static void past_times(uint8_t *extra, uint16_t flags)
{
	struct timespec now;
	uint64_t t, first_ts;
	uint32_t hi, off = (flags & UEV_REC_THREAD) ? sizeof(struct uev_thr) : 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	t = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	if (flags & UEV_REC_LOST) {
		memcpy(&first_ts, extra + off + 8, 8);
		first_ts %= t;
		memcpy(extra + off + 8, &first_ts, 8);
		off += sizeof(struct uev_lost);
	}
	if (flags & UEV_REC_TSHI) {
		memcpy(&hi, extra + off, 4);
		hi %= (t >> 32) ? (uint32_t)(t >> 32) : 1;
		memcpy(extra + off, &hi, 4);
	}
}

/*
 * A record forged at the head of any sub-ring: "sane" ones are well formed
 * (the consumer must deliver them), the others lie about their kind, tag,
 * flags, index or lengths.
 */
void op_rec(struct run *r)
{
	uint8_t b = (uint8_t)rd(r, 1), kb = (uint8_t)rd(r, 1);
	unsigned int k = b & 3;
	bool sane = b & 4;
	struct uev_sub *sb = &slot_of(r)->sub[k];
	uint64_t sub = sub_size(r), head = sb->head, off, rlen, adv;
	uint32_t kind = sane ? UEV_KIND_DATA : rec_kinds[kb & 7], dlen, maxd, commit;
	struct uev_rec rec;
	uint8_t extra[UEV_REC_EXTRA];
	uint32_t nextra;
	uint16_t idx;

	r->dirty = true;
	rec.flags = (uint16_t)rd(r, 1);
	idx = (uint16_t)rd(r, 2);
	rec.idx = (sane || !(idx & 0x8000)) ? idx % UEV_NAMES_MAX : idx;
	rec.ts_lo = (uint32_t)rd(r, 4);
	dlen = (uint32_t)rd(r, 2);
	maxd = r->attached ? (uint32_t)uev_consumer__max_data(r->c) : slot_of(r)->max_data;
	if (sane) {
		rec.flags &= UEV_REC_FLAGS;
		dlen %= (maxd < sub / 4 ? maxd : (uint32_t)(sub / 4)) + 1;
	} else if (dlen & 0x8000) {
		dlen = (dlen & 0x7fff) << 9;
	}
	nextra = uev_rec_extra(rec.flags & UEV_REC_FLAGS);
	for (uint32_t i = 0; i < nextra; i++)
		extra[i] = (uint8_t)rd(r, 1);
	if (sane)
		past_times(extra, rec.flags);
	rlen = UEV_ALIGN8(sizeof(rec) + nextra + (uint64_t)dlen);
	off = head & (sub - 1);
	if ((sane || (b & 0x40)) && off + rlen > sub && off) {
		/* as the producer does: a PAD up to the end first */
		commit = UEV_COMMIT(head, UEV_KIND_PAD, sub - off);
		ring_put(r, k, off, &commit, sizeof(commit));
		head += sub - off;
		off = 0;
	}
	rec.commit = 0;
	ring_put(r, k, off, &rec, sizeof(rec));
	ring_put(r, k, off + sizeof(rec), extra, nextra);
	ring_put(r, k, off + sizeof(rec) + nextra, pat(0), dlen < PAYLOAD_MAX ? dlen : PAYLOAD_MAX);
	commit = UEV_COMMIT(head, kind,
			    (kind == UEV_KIND_DATA ? dlen : (uint32_t)rlen) & UEV_LEN_MAX);
	if (!sane && (b & 8))
		commit ^= 1u << 28; /* the position tag of another place */
	if (!sane && (kb & 0x80))
		commit = (commit & ~UEV_LEN_MAX) | ((uint32_t)rd(r, 3) & UEV_LEN_MAX);
	ring_put(r, k, off, &commit, sizeof(commit));
	switch (sane ? 0 : (b >> 4) & 3) {
	case 0:
	case 1:
		adv = rlen;
		break;
	case 2:
		adv = 0;
		break;
	default:
		adv = rlen + 8 * rd(r, 1);
		break;
	}
	sb->head = head + adv;
}
