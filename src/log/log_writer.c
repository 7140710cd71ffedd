// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace log writer: see log.h for the interface and docs/log-format.md for
 * the format.
 */
#define _FILE_OFFSET_BITS 64
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/pages.h"
#include "log/log.h"
#include "log/log_compact.h"
#include "log/log_format.h"
#include "log/log_pack.h"

_Static_assert(sizeof(off_t) == 8, "64-bit file offsets");

#define WBUF_DEFAULT (1u << 20)
#define WBUF_MIN     (128u << 10)
/*
 * Writeback of the log is started (sync_file_range) every this many bytes
 * written: the disk works while events are recorded rather than all at the
 * end, and the log's dirty pages stay bounded.
 */
#define WRITEBACK_CHUNK (8u << 20)
/*
 * An APPEND log's blocks are allocated ahead of its writes (fallocate,
 * KEEP_SIZE), up to this much past them once less than half of it is left. A
 * write into a hole of an ext4 file takes the inode's block map lock,
 * which writeback holds while it allocates: a pwrite of the log then
 * waits long enough for the events behind it to overflow their rings (see
 * docs/benchmarks.md). Into allocated blocks, ext4 finds the mapping in
 * its extent cache. What is left past the end is freed at close (the
 * final ftruncate).
 */
#define PREALLOC_CHUNK (32u << 20)
#define RING_MAX       (1ull << 62)
/*
 * An EVENTS record is sealed once it holds this many payload bytes (a
 * LOOP log: 1/16 of its ring, since a lap overwrites whole records).
 */
#define PACK_TARGET (16u << 10)
#define PACK_MIN    128u
/* With memory images, whose first in a record is stored whole: the most a
 * reader takes (LOG_MAX_REC) */
#define PACK_TARGET_IMAGES LOG_MAX_DATA

/*
 * The counters are read by the accessors, possibly from another thread than
 * the one appending (the caller's lock may not cover both): relaxed atomics.
 */
#define CNT_SET(f, v) __atomic_store_n(&(f), (v), __ATOMIC_RELAXED)
#define CNT_GET(f)    __atomic_load_n(&(f), __ATOMIC_RELAXED)

struct wtype {
	uint32_t id;
	char name[LOG_NAME_MAX];
};

struct log_writer {
	int fd;
	uint32_t flags;
	uint32_t seed;
	uint32_t layout;
	int32_t policy;
	uint64_t max_size;
	uint64_t data_off;
	uint64_t cap; /* ring capacity */

	unsigned char *buf;
	size_t buf_size;
	size_t buf_len;
	uint64_t buf_off; /* file offset of buf[0] */
	uint64_t wpos;	  /* linear: file offset of the next record; ring: offset in the ring */

	/* the open EVENTS record, at buf + buf_len (not counted in buf_len) */
	bool packed; /* format 3.0 */
	bool blk_open;
	uint32_t blk_plen;  /* its payload bytes so far */
	uint32_t blk_count; /* its events */
	uint32_t blk_target;
	uint64_t blk_fast; /* payload bytes it may grow to without a check (0: none) */
	uint64_t blk_base_ts;
	struct log_pack pack;
	/* memory images (log_writer_opts): their encoded body */
	uint32_t image_id, image_prefix, image_addr_off;
	unsigned char *image_body;

	uint64_t unsynced;     /* bytes written since writeback was last started */
	uint64_t prealloc_end; /* APPEND: blocks allocated up to here; 0: none */
	uint64_t seq;
	uint64_t bytes;
	uint64_t events;
	uint64_t buf_events;  /* events of the sealed records in buf */
	uint64_t file_events; /* events of the records written to the file */
	uint64_t dropped;
	int full;
	int wrapped;

	uint64_t type_off;
	bool data_off_set;	  /* the caller chose where the data starts */
	struct log_compact small; /* LINEAR: a copy while the data is small */
	uint32_t type_slots;
	uint32_t type_used;
	struct wtype *types; /* distinct ids recorded, latest name */
	uint32_t ntypes;
	uint32_t types_cap;
};

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off, size_t *done)
{
	const unsigned char *p = buf;

	*done = 0;
	while (*done < len) {
		ssize_t n = pwrite(fd, p + *done, len - *done, (off_t)(off + *done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		*done += (size_t)n;
	}
	return 0;
}

/* Fill a record header in place, payload already at rec + 24, pad zeroed. */
static void rec_seal(uint32_t seed, unsigned char *rec, uint16_t type, uint32_t plen, uint64_t seq)
{
	struct log_rec_hdr rh;
	uint32_t len = (uint32_t)(24 + log_round8(plen));

	if (plen & 7)
		memset(rec + 24 + plen, 0, 8 - (plen & 7));
	rh.crc = 0;
	rh.len = htole32(len);
	rh.type = htole16(type);
	rh.flags = 0;
	rh.plen = htole32(plen);
	rh.seq = htole64(seq);
	memcpy(rec, &rh, sizeof(rh));
	rh.crc = htole32(log_crc32c(seed, rec + 4, len - 4));
	memcpy(rec, &rh.crc, 4);
}

static void put_hdr(struct log_writer *w, const struct log_meta *m, unsigned char *out)
{
	struct log_file_hdr h;
	struct timespec now;

	memset(&h, 0, sizeof(h));
	clock_gettime(CLOCK_REALTIME, &now);
	memcpy(h.magic, LOG_MAGIC, 8);
	h.major = htole16(!w->packed	? LOG_VERSION_MAJOR_V1
			  : w->image_id ? LOG_VERSION_MAJOR_V4
					: LOG_VERSION_MAJOR);
	h.minor = htole16(LOG_VERSION_MINOR);
	h.hdr_size = htole32(sizeof(h));
	h.seed = htole32(w->seed);
	h.layout = htole32(w->layout);
	h.type_slots = htole32(w->type_slots);
	h.type_off = htole64(w->type_off);
	h.type_size = htole64((uint64_t)w->type_slots * LOG_TYPE_REC_MAX);
	h.data_off = htole64(w->data_off);
	h.data_cap = htole64(w->cap);
	h.file_sec = (int64_t)htole64((uint64_t)now.tv_sec);
	h.file_nsec = (int64_t)htole64((uint64_t)now.tv_nsec);
	memcpy(h.name, m->name, sizeof(h.name));
	h.name[sizeof(h.name) - 1] = 0;
	memcpy(h.genversion, m->genversion, sizeof(h.genversion));
	h.genversion[sizeof(h.genversion) - 1] = 0;
	h.create_sec = (int64_t)htole64((uint64_t)m->create_sec);
	h.create_nsec = (int64_t)htole64((uint64_t)m->create_nsec);
	h.clockres_nsec = (int64_t)htole64((uint64_t)m->clockres_nsec);
	h.stream_min_size = htole64(m->stream_min_size);
	h.max_data_size = htole64(m->max_data_size);
	h.log_max_size = htole64(m->log_max_size);
	h.stream_full_policy = (int32_t)htole32((uint32_t)m->stream_full_policy);
	h.log_full_policy = (int32_t)htole32((uint32_t)m->log_full_policy);
	h.inheritance = (int32_t)htole32((uint32_t)m->inheritance);
	h.hdr_crc = htole32(log_crc32c(0, &h, sizeof(h)));
	memcpy(out, &h, sizeof(h));
}

/*
 * Can the device hold the log (what open allocates: its header and type
 * area, and for UNTIL_FULL and LOOP the whole log)? Asked before the file
 * is touched, so that an open that fails leaves it as it was: blocks
 * allocated past its end change nothing it holds, and are given back.
 */
static int probe_range(int fd, uint64_t size, uint64_t from, uint64_t to)
{
	int err;

	if (from < size)
		from = size;
	if (to <= from || !fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)from, (off_t)(to - from)))
		return 0;
	err = errno;
	(void)fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from,
			(off_t)(to - from));
	if (err == EOPNOTSUPP || err == ENOSYS || err == EINVAL)
		return 0; /* cannot tell: the writes will */
	return err == EFBIG ? -ENOSPC : -err;
}

static int probe_space(const struct log_writer *w, int fd, uint64_t size)
{
	int err = probe_range(fd, size, 0, LOG_HDR_SIZE);

	if (!err && w->policy != LOG_POLICY_APPEND && !(w->flags & LOG_WRITER_NO_PREALLOC) &&
	    w->max_size <= RING_MAX)
		err = probe_range(fd, size, w->data_off,
				  w->data_off + w->max_size + LOG_STATUS_REC_LEN);
	if (err)
		(void)fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)size,
				(off_t)LOG_HDR_SIZE);
	return err;
}

static uint32_t new_seed(void)
{
	uint32_t s;
	struct timespec t;

	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) == sizeof(s))
		return s;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint32_t)t.tv_nsec ^ (uint32_t)t.tv_sec ^ ((uint32_t)getpid() << 16);
}

int log_writer__open(struct log_writer **wp, int fd, const struct log_meta *m,
		     const struct log_writer_opts *o)
{
	struct log_writer *w;
	struct stat st;
	unsigned char *hdr;
	size_t done;
	int fl, err;

	if (!wp || !m)
		return -EINVAL;
	*wp = NULL;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return -EBADF;
	if ((fl & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (fl & O_APPEND)
		return -EINVAL;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (m->log_full_policy != LOG_POLICY_APPEND &&
	    m->log_full_policy != LOG_POLICY_UNTIL_FULL && m->log_full_policy != LOG_POLICY_LOOP)
		return -EINVAL;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->flags = o ? o->flags : 0;
	w->packed = !(w->flags & LOG_WRITER_EVENT_RECORDS);
	w->seed = new_seed();
	w->policy = m->log_full_policy;
	w->max_size = m->log_max_size;
	w->layout = w->policy == LOG_POLICY_LOOP ? LOG_LAYOUT_RING : LOG_LAYOUT_LINEAR;
	w->type_slots = o && o->type_slots ? o->type_slots : LOG_MAX_TYPES;
	if (w->type_slots > LOG_MAX_TYPES) {
		err = -EINVAL;
		goto fail;
	}
	w->type_off = LOG_HDR_SIZE;
	w->data_off = w->type_off + (uint64_t)w->type_slots * LOG_TYPE_REC_MAX;
	if (o && o->data_off) {
		if (o->data_off < w->data_off || (o->data_off & 7) || o->data_off > RING_MAX) {
			err = -EINVAL;
			goto fail;
		}
		w->data_off = o->data_off;
		w->data_off_set = true;
	}
	if (w->layout == LOG_LAYOUT_RING) {
		if (w->max_size < LOG_TYPE_REC_MAX || w->max_size > RING_MAX) {
			err = -EINVAL;
			goto fail;
		}
		w->cap = w->max_size & ~(uint64_t)7;
	}
	if (o && o->image_id && w->packed) {
		if (o->image_addr_off + 8 > o->image_prefix || o->image_prefix > LOG_MAX_DATA) {
			err = -EINVAL;
			goto fail;
		}
		w->image_id = o->image_id;
		w->image_prefix = o->image_prefix;
		w->image_addr_off = o->image_addr_off;
		w->image_body = malloc(LOG_IMAGE_BODY_MAX(LOG_MAX_DATA));
		if (!w->image_body) {
			err = -ENOMEM;
			goto fail;
		}
	}
	w->blk_target = w->image_id ? PACK_TARGET_IMAGES : PACK_TARGET;
	if (w->layout == LOG_LAYOUT_RING && w->cap / 16 < w->blk_target)
		w->blk_target = w->cap / 16 > PACK_MIN ? (uint32_t)(w->cap / 16) : PACK_MIN;
	w->buf_size = o && o->buf_size ? o->buf_size : WBUF_DEFAULT;
	if (w->buf_size < WBUF_MIN)
		w->buf_size = WBUF_MIN;
	w->buf_size &= ~(size_t)7;
	w->buf = malloc(w->buf_size);
	if (!w->buf) {
		err = -ENOMEM;
		goto fail;
	}
	pages__touch_write(w->buf, w->buf_size); /* see common/pages.h */
	w->buf_off = w->data_off;
	w->wpos = w->layout == LOG_LAYOUT_RING ? 0 : w->data_off;

	err = probe_space(w, fd, (uint64_t)st.st_size);
	if (err)
		goto fail;
	if (ftruncate(fd, 0) < 0) {
		err = -errno;
		goto fail;
	}
	if (w->layout == LOG_LAYOUT_RING &&
	    ftruncate(fd, (off_t)(w->data_off + w->cap + LOG_STATUS_REC_LEN)) < 0) {
		err = errno == EFBIG ? -ENOSPC : -errno;
		goto fail;
	}
	if (w->policy == LOG_POLICY_APPEND && !(w->flags & LOG_WRITER_NO_PREALLOC))
		w->prealloc_end = w->data_off; /* allocated as it grows */
	if (w->policy != LOG_POLICY_APPEND && !(w->flags & LOG_WRITER_NO_PREALLOC) &&
	    w->max_size <= RING_MAX) {
		uint64_t len = w->max_size + LOG_STATUS_REC_LEN;

		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)w->data_off, (off_t)len) < 0 &&
		    errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL) {
			err = errno == EFBIG ? -ENOSPC : -errno;
			goto fail;
		}
	}
	hdr = calloc(1, LOG_HDR_SIZE);
	if (!hdr) {
		err = -ENOMEM;
		goto fail;
	}
	put_hdr(w, m, hdr);
	err = pwrite_all(fd, hdr, LOG_HDR_SIZE, 0, &done);
	if (!err && w->layout == LOG_LAYOUT_LINEAR && !w->data_off_set)
		log_compact__init(&w->small, hdr);
	free(hdr);
	if (err)
		goto fail;
	*wp = w;
	return 0;
fail:
	free(w->buf);
	free(w->image_body);
	free(w);
	return err;
}

/* The index of id in w->types, w->ntypes if it has none. */
static uint32_t log_writer__type_index(const struct log_writer *w, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < w->ntypes; i++)
		if (w->types[i].id == id)
			break;
	return i;
}

/* Remember name for id (i: its index, or w->ntypes for a new one). */
static int log_writer__keep_type(struct log_writer *w, uint32_t i, uint32_t id, const char *name,
				 size_t nlen)
{
	if (i == w->ntypes) {
		if (w->ntypes == w->types_cap) {
			uint32_t cap = w->types_cap ? 2 * w->types_cap : 64;
			struct wtype *nt = realloc(w->types, cap * sizeof(*nt));

			if (!nt)
				return -ENOMEM;
			w->types = nt;
			w->types_cap = cap;
		}
		w->ntypes++;
		w->types[i].id = id;
	}
	memcpy(w->types[i].name, name, nlen);
	w->types[i].name[nlen] = '\0';
	return 0;
}

int log_writer__add_types(struct log_writer *w, const struct log_type_name *t, size_t n)
{
	unsigned char *slots;
	uint32_t first, ntypes, k = 0;
	size_t j, done;
	int err = 0;

	if (!w || (n && !t))
		return -EINVAL;
	for (j = 0; j < n; j++) {
		size_t nlen = t[j].name ? strnlen(t[j].name, LOG_NAME_MAX) : 0;

		if (nlen == 0 || nlen >= LOG_NAME_MAX)
			return -EINVAL;
	}
	slots = calloc(n ? n : 1, LOG_TYPE_REC_MAX);
	if (!slots)
		return -ENOMEM;
	/*
	 * Slots are fixed-size so that a torn type write never shifts the
	 * following ones; the reader walks slot by slot. The new ones go
	 * out in one write.
	 */
	first = w->type_used;
	ntypes = w->ntypes;
	for (j = 0; j < n && !err; j++) {
		size_t nlen = strnlen(t[j].name, LOG_NAME_MAX);
		uint32_t i = log_writer__type_index(w, t[j].id);
		unsigned char *rec = slots + (size_t)k * LOG_TYPE_REC_MAX;
		struct log_type_rec tr;

		if (i < w->ntypes && !strcmp(w->types[i].name, t[j].name))
			continue;
		if (w->type_used >= w->type_slots) {
			err = -ENOSPC;
			break;
		}
		tr.id = htole32(t[j].id);
		tr.name_len = htole16((uint16_t)nlen);
		tr.reserved = 0;
		memcpy(rec + 24, &tr, sizeof(tr));
		memcpy(rec + 24 + sizeof(tr), t[j].name, nlen);
		rec_seal(w->seed, rec, LOG_REC_TYPE, (uint32_t)(sizeof(tr) + nlen), w->type_used);
		err = log_writer__keep_type(w, i, t[j].id, t[j].name, nlen);
		w->type_used++;
		k++;
	}
	if (k) {
		int werr = pwrite_all(w->fd, slots, (size_t)k * LOG_TYPE_REC_MAX,
				      w->type_off + (uint64_t)first * LOG_TYPE_REC_MAX, &done);

		if (werr) {
			/* not recorded: the next add tries again */
			w->type_used = first;
			w->ntypes = ntypes;
			err = werr;
		}
	}
	free(slots);
	return err;
}

int log_writer__add_type(struct log_writer *w, uint32_t id, const char *name)
{
	struct log_type_name t = { id, name };

	return log_writer__add_types(w, &t, 1);
}

/* Close the open EVENTS record: its header, count, crc; it joins the buffer. */
static void blk_seal(struct log_writer *w)
{
	unsigned char *rec = w->buf + w->buf_len;
	struct log_events_hdr eh;
	uint32_t rlen;

	if (!w->blk_open)
		return;
	rlen = 24 + (uint32_t)log_round8(w->blk_plen);
	eh.base_ts = htole64(w->blk_base_ts);
	eh.count = htole32(w->blk_count);
	eh.reserved = 0;
	memcpy(rec + 24, &eh, sizeof(eh));
	rec_seal(w->seed, rec, LOG_REC_EVENTS, w->blk_plen, w->seq);
	w->seq++;
	w->buf_len += rlen;
	w->wpos += rlen;
	w->buf_events += w->blk_count;
	w->blk_open = false;
	w->blk_fast = 0;
}

/*
 * Start writeback of every dirty page of the log once WRITEBACK_CHUNK bytes
 * were written since the last start. It does not wait for the disk; an fd
 * that cannot do it (a pipe, some filesystems) just goes without.
 */
static void writeback_start(struct log_writer *w, size_t written)
{
	w->unsynced += written;
	if (w->unsynced < WRITEBACK_CHUNK)
		return;
	w->unsynced = 0;
	sync_file_range(w->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

/* Allocate an APPEND log's blocks ahead of a write up to end (see
 * PREALLOC_CHUNK); an fd or filesystem that cannot goes without. */
static void prealloc_ahead(struct log_writer *w, uint64_t end)
{
	uint64_t to = end + PREALLOC_CHUNK;

	if (!w->prealloc_end || end + PREALLOC_CHUNK / 2 <= w->prealloc_end)
		return;
	if (fallocate(w->fd, FALLOC_FL_KEEP_SIZE, (off_t)w->prealloc_end,
		      (off_t)(to - w->prealloc_end)) < 0) {
		/* EOPNOTSUPP, a full disk (the writes report it)...: stop */
		w->prealloc_end = 0;
		return;
	}
	w->prealloc_end = to;
}

/* Events of the whole records in the first len bytes of the buffer. */
static uint64_t buf_events_in(const struct log_writer *w, size_t len)
{
	uint64_t n = 0;
	size_t off = 0;

	while (off + sizeof(struct log_rec_hdr) <= len) {
		struct log_rec_hdr rh;
		struct log_events_hdr eh;
		uint32_t rlen;

		memcpy(&rh, w->buf + off, sizeof(rh));
		rlen = le32toh(rh.len);
		if (!rlen || rlen > len - off)
			break;
		if (le16toh(rh.type) == LOG_REC_EVENT) {
			n++;
		} else if (le16toh(rh.type) == LOG_REC_EVENTS && rlen >= sizeof(rh) + sizeof(eh)) {
			memcpy(&eh, w->buf + off + sizeof(rh), sizeof(eh));
			n += le32toh(eh.count);
		}
		off += rlen;
	}
	return n;
}

/* Write the buffer; on error keep what was not written. */
int log_writer__flush(struct log_writer *w)
{
	size_t done = 0;
	uint64_t n;
	int err;

	if (!w)
		return -EINVAL;
	blk_seal(w);
	if (w->buf_len) {
		prealloc_ahead(w, w->buf_off + w->buf_len);
		err = pwrite_all(w->fd, w->buf, w->buf_len, w->buf_off, &done);
		/* only whole pwrite chunks count; a torn record is ignored by readers */
		n = done == w->buf_len ? w->buf_events : buf_events_in(w, done);
		w->buf_events -= n;
		CNT_SET(w->file_events, w->file_events + n);
		log_compact__add(&w->small, w->buf, done);
		w->buf_off += done;
		w->buf_len -= done;
		writeback_start(w, done);
		if (err) {
			memmove(w->buf, w->buf + done, w->buf_len);
			return err;
		}
	}
	if ((w->flags & LOG_WRITER_SYNC) && fdatasync(w->fd) < 0)
		return -errno;
	return 0;
}

static int buf_flush_nosync(struct log_writer *w)
{
	uint32_t fl = w->flags;
	int err;

	w->flags &= ~LOG_WRITER_SYNC;
	err = log_writer__flush(w);
	w->flags = fl;
	return err;
}

/* Make room for len bytes in the buffer at the current position. */
static int reserve(struct log_writer *w, size_t len)
{
	int err;

	if (w->buf_len + len <= w->buf_size)
		return 0;
	err = buf_flush_nosync(w);
	if (err)
		return err;
	return 0;
}

/* UNTIL_FULL keeps this many bytes for log_writer__append_last(). */
#define LAST_RESERVE 128

/* UNTIL_FULL: would grow more bytes of records overflow the log? Counts the refusal. */
static bool until_full_refuses(struct log_writer *w, uint64_t grow, bool last)
{
	uint64_t room = w->max_size;

	if (w->policy != LOG_POLICY_UNTIL_FULL)
		return false;
	if (!last && room > 2 * LAST_RESERVE)
		room -= LAST_RESERVE;
	if (!(w->full && !last) && w->bytes + grow <= room)
		return false;
	CNT_SET(w->full, 1);
	CNT_SET(w->dropped, w->dropped + 1);
	return true;
}

/*
 * Make room for a new record of rlen bytes at the write position: 0 (the
 * buffer has rlen free bytes at buf_len), 1 (refused by the policy: counted
 * as dropped), or a negative errno. No EVENTS record may be open.
 */
static int room_for(struct log_writer *w, size_t rlen, bool last)
{
	int err;

	if (w->layout == LOG_LAYOUT_LINEAR) {
		if (until_full_refuses(w, rlen, last))
			return 1;
	} else {
		if (rlen > w->cap) {
			CNT_SET(w->dropped, w->dropped + 1);
			return 1;
		}
		if (w->wpos + rlen > w->cap) {
			if (w->cap - w->wpos >= 24) {
				/*
				 * The WRAP record ends a lap and fills the ring up
				 * to its end, so no record of an older lap survives
				 * once a lap is complete (less than LOG_MAX_REC).
				 */
				size_t wlen = (size_t)(w->cap - w->wpos);
				unsigned char *rec;

				err = reserve(w, wlen);
				if (err)
					return err;
				rec = w->buf + w->buf_len;
				memset(rec + 24, 0, wlen - 24);
				rec_seal(w->seed, rec, LOG_REC_WRAP, (uint32_t)(wlen - 24), w->seq);
				w->seq++;
				w->buf_len += wlen;
				w->wpos = w->cap;
			}
			err = buf_flush_nosync(w);
			if (err)
				return err;
			w->wpos = 0;
			w->buf_off = w->data_off;
			CNT_SET(w->wrapped, 1);
		}
	}
	return reserve(w, rlen);
}

/* Format 1.0: one EVENT record. */
static int append_event_rec(struct log_writer *w, const struct pt_event_hdr *h, const void *data,
			    uint32_t dlen, uint16_t trunc, bool last)
{
	size_t rlen = 24 + log_round8(LOG_EVENT_HDR_SIZE + dlen);
	struct pt_event_hdr e;
	unsigned char *rec;
	int err;

	err = room_for(w, rlen, last);
	if (err)
		return err;
	rec = w->buf + w->buf_len;
	e.id = htole32(h->id);
	e.trunc = htole16(trunc);
	e.reserved = 0;
	e.pid = (int32_t)htole32((uint32_t)h->pid);
	e.tid = (int32_t)htole32((uint32_t)h->tid);
	e.ts = htole64(h->ts);
	e.prog_addr = htole64(h->prog_addr);
	e.thread = htole64(h->thread);
	e.data_len = htole32(dlen);
	e.reserved2 = 0;
	memcpy(rec + 24, &e, sizeof(e));
	if (dlen)
		memcpy(rec + 24 + sizeof(e), data, dlen);
	rec_seal(w->seed, rec, LOG_REC_EVENT, (uint32_t)(sizeof(e) + dlen), w->seq);
	w->seq++;
	w->buf_len += rlen;
	w->wpos += rlen;
	w->buf_events++;
	CNT_SET(w->bytes, w->bytes + rlen);
	return 0;
}

/* May the open EVENTS record grow to plen payload bytes? */
static bool blk_fits(const struct log_writer *w, uint64_t plen)
{
	uint64_t rlen = 24 + log_round8(plen);

	if (plen > w->blk_target || w->buf_len + rlen > w->buf_size)
		return false;
	return w->layout != LOG_LAYOUT_RING || w->wpos + rlen <= w->cap;
}

/*
 * The payload size up to which the open EVENTS record may grow with no
 * check (blk_fits() holds for every size up to it): the buffer and the
 * record's place do not change while it is open. None under UNTIL_FULL,
 * which counts every byte.
 */
static void blk_set_fast(struct log_writer *w)
{
	uint64_t lim = w->blk_target, room = w->buf_size - w->buf_len;

	/* 24 + log_round8(plen) <= room, room and buf_len multiples of 8 */
	lim = room < 24 ? 0 : (room - 24 < lim ? room - 24 : lim);
	if (w->layout == LOG_LAYOUT_RING)
		lim = w->cap - w->wpos < 24
			      ? 0
			      : (w->cap - w->wpos - 24 < lim ? w->cap - w->wpos - 24 : lim);
	w->blk_fast = w->policy == LOG_POLICY_UNTIL_FULL ? 0 : lim;
}

/*
 * An event's stored data is mostly a few bytes (a getppid's entry keeps 1,
 * its exit 8): copied inline, without a call to memcpy for each.
 */
static inline void copy_data(unsigned char *to, const unsigned char *from, uint32_t n)
{
	uint64_t a, b;
	uint32_t c, d;

	if (n >= 8 && n <= 16) {
		memcpy(&a, from, 8);
		memcpy(&b, from + n - 8, 8);
		memcpy(to, &a, 8);
		memcpy(to + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(&c, from, 4);
		memcpy(&d, from + n - 4, 4);
		memcpy(to, &c, 4);
		memcpy(to + n - 4, &d, 4);
	} else if (n < 4) {
		while (n--)
			*to++ = *from++;
	} else {
		memcpy(to, from, n);
	}
}

/* An image event's body, against its context's last image in the open record. */
static uint32_t image_encode(struct log_writer *w, const struct pt_event_hdr *h,
			     const unsigned char *data, uint32_t dlen)
{
	int c = w->blk_open ? log_pack__find_ctx(&w->pack, h) : -1;

	return (uint32_t)log_image__encode(c >= 0 ? &w->pack.img[c] : NULL, data, dlen,
					   w->image_prefix, w->image_addr_off, w->image_body);
}

/* The image just committed: the base of its context's next one. */
static void image_keep(struct log_writer *w, const unsigned char *data, uint32_t dlen)
{
	struct log_image *img = log_pack__image(&w->pack, w->pack.last);

	/* without memory, the next image is stored whole */
	if (img)
		log_image__set(img, data, dlen, w->image_prefix, w->image_addr_off);
}

/* Format 3.0 and 4.0: the event joins the open EVENTS record, or starts one. */
static int append_packed(struct log_writer *w, const struct pt_event_hdr *h, const void *data,
			 uint32_t dlen, uint16_t trunc, bool last)
{
	unsigned char eh[LOG_PACK_HDR_MAX], *at;
	uint64_t grow = 0, plen = w->blk_plen;
	bool image = h->id == w->image_id && w->image_id && dlen >= w->image_prefix &&
		     dlen <= LOG_MAX_DATA - 64;
	/* an image coded against the open record's (a base that a new record drops) */
	bool based = image && w->blk_open;
	const unsigned char *src = image ? w->image_body : data;
	uint32_t slot,
		stored = image ? image_encode(w, h, data, dlen) : log_pack__stored_len(data, dlen);
	size_t n = 0;
	int err;

	/*
	 * The common case: the open record has room for the longest header
	 * and the data, and the log takes what it is given. The header is
	 * encoded where it goes, without a copy.
	 */
	if (plen + LOG_PACK_HDR_MAX + stored <= w->blk_fast) {
		at = w->buf + w->buf_len + 24 + plen;
		n = log_pack__encode(&w->pack, h, trunc, dlen, stored, image, at, &slot);
		grow = log_round8(plen + n + stored) - log_round8(plen);
		goto data;
	}
	if (w->blk_open) {
		n = log_pack__encode(&w->pack, h, trunc, dlen, stored, image, eh, &slot);
		if (blk_fits(w, plen + n + stored)) {
			grow = log_round8(plen + n + stored) - log_round8(plen);
			if (until_full_refuses(w, grow, last))
				return 1;
		} else {
			blk_seal(w);
		}
	}
	if (!w->blk_open) {
		log_pack__reset(&w->pack, h->ts);
		if (based) /* now without a base */
			stored = image_encode(w, h, data, dlen);
		n = log_pack__encode(&w->pack, h, trunc, dlen, stored, image, eh, &slot);
		grow = 24 + log_round8(sizeof(struct log_events_hdr) + n + stored);
		err = room_for(w, (size_t)grow, last);
		if (err)
			return err;
		w->blk_open = true;
		w->blk_plen = sizeof(struct log_events_hdr);
		w->blk_count = 0;
		w->blk_base_ts = h->ts;
		blk_set_fast(w);
	}
	at = w->buf + w->buf_len + 24 + w->blk_plen;
	memcpy(at, eh, n);
data:
	copy_data(at + n, src, stored);
	log_pack__commit(&w->pack, slot, h);
	if (image)
		image_keep(w, data, dlen);
	w->blk_plen += (uint32_t)(n + stored);
	w->blk_count++;
	CNT_SET(w->bytes, w->bytes + grow);
	return 0;
}

static int append_rec(struct log_writer *w, const struct pt_event_hdr *h, const void *data,
		      bool last)
{
	uint32_t dlen;
	uint16_t trunc;
	int err;

	if (!w || !h || (h->data_len && !data))
		return -EINVAL;
	dlen = h->data_len;
	trunc = h->trunc;
	if (dlen > LOG_MAX_DATA) {
		dlen = LOG_MAX_DATA;
		trunc = PT_TRUNCATED_RECORD;
	}
	if (w->packed)
		err = append_packed(w, h, data, dlen, trunc, last);
	else
		err = append_event_rec(w, h, data, dlen, trunc, last);
	if (err)
		return err;
	CNT_SET(w->events, w->events + 1);
	return 0;
}

int log_writer__append(struct log_writer *w, const struct pt_event_hdr *h, const void *data)
{
	return append_rec(w, h, data, false);
}

int log_writer__append_last(struct log_writer *w, const struct pt_event_hdr *h, const void *data)
{
	return append_rec(w, h, data, true);
}

int log_writer__close(struct log_writer *w, const struct log_status *f)
{
	unsigned char rec[LOG_STATUS_REC_LEN];
	struct log_status_rec s;
	uint64_t off;
	size_t done;
	int err, i;

	if (!w)
		return -EINVAL;
	err = buf_flush_nosync(w);
	if (err)
		goto out;
	memset(&s, 0, sizeof(s));
	for (i = 0; f && i < 7; i++)
		s.v[i] = (int32_t)htole32((uint32_t)f->v[i]);
	s.events_written = htole64(f ? f->events_written : 0);
	s.events_lost = htole64(f ? f->events_lost : 0);
	s.log_events = htole64(w->events);
	s.log_dropped = htole64(w->dropped);
	s.log_full =
		htole32(w->layout == LOG_LAYOUT_RING ? (uint32_t)w->wrapped : (uint32_t)w->full);
	off = w->layout == LOG_LAYOUT_RING ? w->data_off + w->cap : w->buf_off;
	s.self_off = htole64(off);
	s.head_off = htole64(w->wpos);
	s.head_seq = htole64(w->seq);
	s.wrapped = htole32((uint32_t)w->wrapped);
	memcpy(rec + 24, &s, sizeof(s));
	rec_seal(w->seed, rec, LOG_REC_STATUS, sizeof(s), w->seq);
	err = pwrite_all(w->fd, rec, sizeof(rec), off, &done);
	if (err)
		goto out;
	if (ftruncate(w->fd, (off_t)(off + sizeof(rec))) < 0) {
		err = -errno;
		goto out;
	}
	/* a small trace, a small file; a failure leaves the log readable */
	(void)log_compact__linear(&w->small, w->fd, rec, w->type_used);
	if ((w->flags & LOG_WRITER_SYNC) && fdatasync(w->fd) < 0)
		err = -errno;
out:
	log_writer__free(w);
	return err;
}

void log_writer__free(struct log_writer *w)
{
	if (!w)
		return;
	log_compact__fini(&w->small);
	free(w->types);
	free(w->buf);
	free(w->image_body);
	log_pack__fini(&w->pack);
	free(w);
}

uint64_t log_writer__bytes(const struct log_writer *w)
{
	return CNT_GET(w->bytes);
}

uint64_t log_writer__events(const struct log_writer *w)
{
	return CNT_GET(w->events);
}

uint64_t log_writer__file_events(const struct log_writer *w)
{
	return CNT_GET(w->file_events);
}

uint64_t log_writer__dropped(const struct log_writer *w)
{
	return CNT_GET(w->dropped);
}

int log_writer__full(const struct log_writer *w)
{
	return w->layout == LOG_LAYOUT_RING ? CNT_GET(w->wrapped) : CNT_GET(w->full);
}
