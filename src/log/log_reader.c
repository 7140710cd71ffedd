// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace log reader: see log.h for the interface and docs/log-format.md for
 * the format. Streams the file through one bounded buffer; every record is
 * checked (length, crc, consecutive sequence number) before it is used.
 */
#define _FILE_OFFSET_BITS 64
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log/log.h"
#include "log/log_format.h"
#include "log/log_pack.h"

_Static_assert(sizeof(off_t) == 8, "64-bit file offsets");

#define RBUF_SIZE (1u << 20)
#define FILE_MAX  (1ull << 62)
/* Timestamps from here on do not fit an int64_t of nanoseconds: damage. */
#define TS_LIMIT (1ull << 63)

struct rtype {
	uint32_t id;
	uint32_t order;
	char name[LOG_NAME_MAX];
};

struct seg {
	uint64_t start, end; /* file offsets */
	uint64_t seq0;	     /* seq of the record at start */
};

struct rec {
	uint64_t off;
	uint32_t len;
	uint32_t plen;
	uint16_t type;
	uint64_t seq;
	const unsigned char *p; /* the whole record, in the buffer */
};

struct log_reader {
	int fd;
	uint32_t seed;
	uint64_t fsize;
	struct log_meta meta;
	uint32_t layout;
	uint64_t type_off, type_size, data_off, cap;

	unsigned char *buf;
	size_t buf_size;  /* RBUF_SIZE, or the file size if smaller */
	uint64_t win_off; /* file offset of buf[0] */
	size_t win_len;

	struct rtype *types;
	size_t ntypes;

	int have_status;
	struct log_status status;

	struct seg segs[2];
	int nsegs;
	int cur;
	uint64_t pos;
	uint64_t expect;

	/* the EVENTS record being read: its undecoded part, in buf */
	const unsigned char *pk_pos, *pk_end;
	uint32_t pk_left; /* events still in it */
	struct log_pack pack;
};

static int pread_full(int fd, void *buf, size_t len, uint64_t off, size_t *got)
{
	unsigned char *p = buf;

	*got = 0;
	while (*got < len) {
		ssize_t n = pread(fd, p + *got, len - *got, (off_t)(off + *got));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

/* Make [off, off + len) available: 1 and *p, 0 if beyond the end, <0 on error. */
static int fetch(struct log_reader *r, uint64_t off, size_t len, const unsigned char **p)
{
	size_t got;
	int err;

	if (len > r->buf_size || off > r->fsize || len > r->fsize - off)
		return 0;
	if (off < r->win_off || off + len > r->win_off + r->win_len) {
		err = pread_full(r->fd, r->buf, r->buf_size, off, &got);
		if (err)
			return err;
		r->win_off = off;
		r->win_len = got;
		if (len > got)
			return 0;
	}
	*p = r->buf + (off - r->win_off);
	return 1;
}

/* Read and check the record at off, which must end by limit: 1 valid, 0 not, <0 error. */
static int read_rec(struct log_reader *r, uint64_t off, uint64_t limit, struct rec *rc)
{
	struct log_rec_hdr h;
	const unsigned char *p = NULL;
	uint32_t len, plen;
	int err;

	if (off > limit || limit - off < sizeof(h))
		return 0;
	err = fetch(r, off, sizeof(h), &p);
	if (err <= 0)
		return err;
	memcpy(&h, p, sizeof(h));
	len = le32toh(h.len);
	plen = le32toh(h.plen);
	if (len < sizeof(h) || len > LOG_MAX_REC + 8 || (len & 7) || len > limit - off)
		return 0;
	if (plen > len - sizeof(h) || 24 + log_round8(plen) != len)
		return 0;
	err = fetch(r, off, len, &p);
	if (err <= 0)
		return err;
	if (log_crc32c(r->seed, p + 4, len - 4) != le32toh(h.crc))
		return 0;
	rc->off = off;
	rc->len = len;
	rc->plen = plen;
	rc->type = le16toh(h.type);
	rc->seq = le64toh(h.seq);
	rc->p = p;
	return 1;
}

static int read_hdr(struct log_reader *r)
{
	struct log_file_hdr h;
	unsigned char raw[LOG_HDR_SIZE];
	uint32_t hsize, crc;
	size_t got;
	int err;

	err = pread_full(r->fd, raw, sizeof(raw), 0, &got);
	if (err)
		return err;
	if (got < sizeof(h))
		return -EINVAL;
	memcpy(&h, raw, sizeof(h));
	if (memcmp(h.magic, LOG_MAGIC, 8) ||
	    (le16toh(h.major) != LOG_VERSION_MAJOR_V4 && le16toh(h.major) != LOG_VERSION_MAJOR &&
	     le16toh(h.major) != LOG_VERSION_MAJOR_V2 && le16toh(h.major) != LOG_VERSION_MAJOR_V1))
		return -EINVAL;
	hsize = le32toh(h.hdr_size);
	if (hsize < sizeof(h) || hsize > got)
		return -EINVAL;
	crc = le32toh(h.hdr_crc);
	memset(raw + offsetof(struct log_file_hdr, hdr_crc), 0, 4);
	if (log_crc32c(0, raw, hsize) != crc)
		return -EINVAL;
	r->seed = le32toh(h.seed);
	r->layout = le32toh(h.layout);
	r->type_off = le64toh(h.type_off);
	r->type_size = le64toh(h.type_size);
	r->data_off = le64toh(h.data_off);
	r->cap = le64toh(h.data_cap);
	if (r->layout != LOG_LAYOUT_LINEAR && r->layout != LOG_LAYOUT_RING)
		return -EINVAL;
	if (r->type_off < hsize || r->type_off > FILE_MAX ||
	    r->type_size > (uint64_t)LOG_MAX_TYPES * LOG_TYPE_REC_MAX ||
	    r->type_size % LOG_TYPE_REC_MAX || (r->type_off & 7) || (r->data_off & 7) ||
	    r->data_off < r->type_off + r->type_size || r->data_off > FILE_MAX)
		return -EINVAL;
	if (r->layout == LOG_LAYOUT_RING && (r->cap < 24 || (r->cap & 7) || r->cap > FILE_MAX))
		return -EINVAL;
	if (r->layout == LOG_LAYOUT_LINEAR && r->cap)
		return -EINVAL;

	memcpy(r->meta.name, h.name, LOG_NAME_LEN);
	r->meta.name[LOG_NAME_LEN - 1] = 0;
	memcpy(r->meta.genversion, h.genversion, LOG_NAME_LEN);
	r->meta.genversion[LOG_NAME_LEN - 1] = 0;
	r->meta.create_sec = (int64_t)le64toh((uint64_t)h.create_sec);
	r->meta.create_nsec = (int64_t)le64toh((uint64_t)h.create_nsec);
	r->meta.clockres_nsec = (int64_t)le64toh((uint64_t)h.clockres_nsec);
	r->meta.stream_min_size = le64toh(h.stream_min_size);
	r->meta.max_data_size = le64toh(h.max_data_size);
	r->meta.log_max_size = le64toh(h.log_max_size);
	r->meta.stream_full_policy = (int32_t)le32toh((uint32_t)h.stream_full_policy);
	r->meta.log_full_policy = (int32_t)le32toh((uint32_t)h.log_full_policy);
	r->meta.inheritance = (int32_t)le32toh((uint32_t)h.inheritance);
	r->meta.pidns_ino = le64toh(h.pidns_ino);
	/* logs before 3.2 were all written on x86_64 */
	r->meta.arch = le32toh(h.arch) ? le32toh(h.arch) : EM_X86_64;
	r->meta.file_sec = (int64_t)le64toh((uint64_t)h.file_sec);
	r->meta.file_nsec = (int64_t)le64toh((uint64_t)h.file_nsec);
	return 0;
}

static int type_cmp(const void *a, const void *b)
{
	const struct rtype *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The type area: fixed 96-byte slots, consecutive seqs from 0. */
static int read_types(struct log_reader *r)
{
	uint64_t nslots = r->type_size / LOG_TYPE_REC_MAX, i;
	struct log_type_rec t;
	struct rec rc;
	size_t n = 0, j;
	int err;

	if (!nslots)
		return 0;
	r->types = calloc(nslots, sizeof(*r->types));
	if (!r->types)
		return -ENOMEM;
	for (i = 0; i < nslots; i++) {
		uint64_t off = r->type_off + i * LOG_TYPE_REC_MAX;

		err = read_rec(r, off, off + LOG_TYPE_REC_MAX, &rc);
		if (err < 0)
			return err;
		if (!err || rc.type != LOG_REC_TYPE || rc.seq != i || rc.plen < sizeof(t) + 1)
			break;
		memcpy(&t, rc.p + 24, sizeof(t));
		if (le16toh(t.name_len) != rc.plen - sizeof(t) ||
		    le16toh(t.name_len) >= LOG_NAME_MAX ||
		    memchr(rc.p + 24 + sizeof(t), 0, le16toh(t.name_len)))
			break;
		r->types[n].id = le32toh(t.id);
		r->types[n].order = (uint32_t)i;
		memcpy(r->types[n].name, rc.p + 24 + sizeof(t), le16toh(t.name_len));
		r->types[n].name[le16toh(t.name_len)] = 0;
		n++;
	}
	qsort(r->types, n, sizeof(*r->types), type_cmp);
	/* keep the last name of each id */
	for (i = 0, j = 0; i < n; i++) {
		if (i + 1 < n && r->types[i + 1].id == r->types[i].id)
			continue;
		r->types[j++] = r->types[i];
	}
	r->ntypes = j;
	return 0;
}

/* The trailer: a STATUS record ending the file. 1 found, 0 not, <0 error. */
static int read_status(struct log_reader *r, struct log_status_rec *s)
{
	struct rec rc;
	uint64_t off;
	int err, i;

	if (r->fsize < r->data_off + LOG_STATUS_REC_LEN)
		return 0;
	off = r->fsize - LOG_STATUS_REC_LEN;
	err = read_rec(r, off, r->fsize, &rc);
	if (err <= 0)
		return err;
	if (rc.type != LOG_REC_STATUS || rc.plen != sizeof(*s))
		return 0;
	memcpy(s, rc.p + 24, sizeof(*s));
	if (le64toh(s->self_off) != off)
		return 0;
	if (r->layout == LOG_LAYOUT_RING &&
	    (off != r->data_off + r->cap || le64toh(s->head_off) > r->cap ||
	     (le64toh(s->head_off) & 7)))
		return 0;
	for (i = 0; i < 7; i++)
		r->status.v[i] = (int32_t)le32toh((uint32_t)s->v[i]);
	r->status.events_written = le64toh(s->events_written);
	r->status.events_lost = le64toh(s->events_lost);
	r->status.log_events = le64toh(s->log_events);
	r->status.log_dropped = le64toh(s->log_dropped);
	r->status.log_full = le32toh(s->log_full);
	r->have_status = 1;
	return 1;
}

/*
 * A ring: the newest lap runs from the start of the ring to the head; the
 * older lap runs from the first intact record after the head to its WRAP
 * record. Find the head (from the trailer or by walking) and resynchronise
 * after it on 8-byte steps.
 */
static int setup_ring(struct log_reader *r, const struct log_status_rec *s)
{
	uint64_t base = r->data_off, end = base + r->cap, head, S = UINT64_MAX, p, lim;
	int wrapped = 1, err;
	struct rec rc;

	if (end > r->fsize)
		end = r->fsize;
	err = read_rec(r, base, end, &rc);
	if (err < 0)
		return err;
	if (err && rc.type != LOG_REC_STATUS)
		S = rc.seq;
	if (s) {
		head = base + le64toh(s->head_off);
		wrapped = le32toh(s->wrapped) != 0;
		if (head > end)
			head = end;
	} else {
		uint64_t expect = S;

		head = base;
		while (S != UINT64_MAX) {
			err = read_rec(r, head, end, &rc);
			if (err < 0)
				return err;
			if (!err || rc.seq != expect || rc.type == LOG_REC_WRAP ||
			    rc.type == LOG_REC_STATUS)
				break;
			head += rc.len;
			expect++;
		}
	}
	r->nsegs = 0;
	if (wrapped) {
		lim = head + LOG_MAX_REC + 8;
		if (lim > end || lim < head)
			lim = end;
		for (p = head; p < lim; p += 8) {
			err = read_rec(r, p, end, &rc);
			if (err < 0)
				return err;
			if (err &&
			    (rc.type == LOG_REC_EVENT || rc.type == LOG_REC_EVENTS ||
			     rc.type == LOG_REC_WRAP) &&
			    rc.seq < S) {
				r->segs[r->nsegs].start = p;
				r->segs[r->nsegs].end = end;
				r->segs[r->nsegs].seq0 = rc.seq;
				r->nsegs++;
				break;
			}
		}
	}
	if (S != UINT64_MAX) {
		r->segs[r->nsegs].start = base;
		r->segs[r->nsegs].end = head;
		r->segs[r->nsegs].seq0 = S;
		r->nsegs++;
	}
	return 0;
}

int log_reader__rewind(struct log_reader *r)
{
	if (!r)
		return -EINVAL;
	r->cur = 0;
	r->pk_left = 0;
	if (r->nsegs) {
		r->pos = r->segs[0].start;
		r->expect = r->segs[0].seq0;
	}
	return 0;
}

int log_reader__open(struct log_reader **rp, int fd)
{
	struct log_status_rec s;
	struct log_reader *r;
	struct stat st;
	int err;

	if (!rp)
		return -EINVAL;
	*rp = NULL;
	if (fstat(fd, &st) < 0)
		return errno == EBADF ? -EBADF : -EINVAL;
	if (!S_ISREG(st.st_mode) || st.st_size < 0)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->fd = fd;
	r->fsize = (uint64_t)st.st_size;
	r->buf_size = r->fsize < RBUF_SIZE ? (size_t)r->fsize + 1 : RBUF_SIZE;
	r->buf = malloc(r->buf_size);
	if (!r->buf) {
		err = -ENOMEM;
		goto fail;
	}
	err = read_hdr(r);
	if (err)
		goto fail;
	err = read_types(r);
	if (err)
		goto fail;
	err = read_status(r, &s);
	if (err < 0)
		goto fail;
	if (r->layout == LOG_LAYOUT_RING) {
		err = setup_ring(r, err ? &s : NULL);
		if (err)
			goto fail;
	} else {
		r->segs[0].start = r->data_off;
		r->segs[0].end = err ? le64toh(s.self_off) : r->fsize;
		r->segs[0].seq0 = 0;
		r->nsegs = 1;
	}
	log_reader__rewind(r);
	*rp = r;
	return 0;
fail:
	log_reader__close(r);
	return err;
}

/* An EVENT record (format 1.0): its event's header in h. Non-zero: a bad
 * record. */
static int event_rec(const struct rec *rc, struct pt_event_hdr *h)
{
	struct pt_event_hdr e;

	if (rc->plen < LOG_EVENT_HDR_SIZE)
		return -EINVAL;
	memcpy(&e, rc->p + 24, sizeof(e));
	h->id = le32toh(e.id);
	h->trunc = le16toh(e.trunc);
	h->reserved = 0;
	h->pid = (int32_t)le32toh((uint32_t)e.pid);
	h->tid = (int32_t)le32toh((uint32_t)e.tid);
	h->ts = le64toh(e.ts);
	h->prog_addr = le64toh(e.prog_addr);
	h->thread = le64toh(e.thread);
	h->data_len = le32toh(e.data_len);
	h->reserved2 = 0;
	if (h->data_len != rc->plen - LOG_EVENT_HDR_SIZE || h->data_len > LOG_MAX_DATA ||
	    h->ts >= TS_LIMIT)
		return -EINVAL;
	return 0;
}

/* An EVENTS record: its packed events are read next (r->pk_*). Non-zero:
 * a bad record. */
static int events_rec(struct log_reader *r, const struct rec *rc)
{
	struct log_events_hdr eh;

	if (rc->plen < sizeof(eh))
		return -EINVAL;
	memcpy(&eh, rc->p + 24, sizeof(eh));
	if (!eh.count || eh.reserved)
		return -EINVAL;
	log_pack__reset(&r->pack, le64toh(eh.base_ts));
	r->pk_pos = rc->p + 24 + sizeof(eh);
	r->pk_end = rc->p + 24 + rc->plen;
	r->pk_left = le32toh(eh.count);
	return 0;
}

int log_reader__next(struct log_reader *r, struct pt_event_hdr *h, const void **data)
{
	const unsigned char *d;
	struct rec rc;
	int err;

	if (!r || !h || !data)
		return -EINVAL;
	while (r->cur < r->nsegs) {
		const struct seg *sg = &r->segs[r->cur];

		if (r->pk_left) {
			/* the next event of an EVENTS record; its last must end it */
			if (log_pack__decode(&r->pack, &r->pk_pos, r->pk_end, h, &d) ||
			    (r->pk_left == 1 && r->pk_pos != r->pk_end) || h->ts >= TS_LIMIT) {
				r->pk_left = 0;
				goto next_seg;
			}
			r->pk_left--;
			*data = d;
			return 1;
		}
		err = read_rec(r, r->pos, sg->end, &rc);
		if (err < 0)
			return err;
		if (!err || rc.seq != r->expect)
			goto next_seg;
		r->pos += rc.len;
		r->expect++;
		switch (rc.type) {
		case LOG_REC_EVENT:
			if (event_rec(&rc, h))
				goto next_seg;
			*data = rc.p + 24 + LOG_EVENT_HDR_SIZE;
			return 1;
		case LOG_REC_EVENTS:
			if (events_rec(r, &rc))
				goto next_seg;
			continue;
		case LOG_REC_WRAP:
		case LOG_REC_STATUS:
			goto next_seg;
		default:
			continue; /* a record type of a newer minor version */
		}
	next_seg:
		r->cur++;
		if (r->cur < r->nsegs) {
			r->pos = r->segs[r->cur].start;
			r->expect = r->segs[r->cur].seq0;
		}
	}
	return 0;
}

const struct log_meta *log_reader__meta(const struct log_reader *r)
{
	return &r->meta;
}

int log_reader__type_name(const struct log_reader *r, uint32_t id, const char **name)
{
	size_t lo = 0, hi = r->ntypes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->types[mid].id == id) {
			*name = r->types[mid].name;
			return 0;
		}
		if (r->types[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}

int log_reader__type_next(const struct log_reader *r, size_t *iter, uint32_t *id, const char **name)
{
	if (*iter >= r->ntypes)
		return 0;
	*id = r->types[*iter].id;
	*name = r->types[*iter].name;
	(*iter)++;
	return 1;
}

size_t log_reader__type_count(const struct log_reader *r)
{
	return r->ntypes;
}

int log_reader__status(const struct log_reader *r, struct log_status *st)
{
	if (!r->have_status)
		return -ENOENT;
	*st = r->status;
	return 0;
}

void log_reader__close(struct log_reader *r)
{
	if (!r)
		return;
	free(r->types);
	free(r->buf);
	log_pack__fini(&r->pack);
	free(r);
}
