// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace log writer: opens the log (its header and the space it needs), keeps
 * its type area, and closes it; the events are appended to the buffer by
 * log_append.c, which log_flush.c writes out. See log.h for the interface
 * and docs/log-format.md for the format.
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
#include "log/log_writer_int.h"

_Static_assert(sizeof(off_t) == 8, "64-bit file offsets");

#define WBUF_DEFAULT (1u << 20)
#define WBUF_MIN     (128u << 10)
#define RING_MAX     (1ull << 62)
/*
 * An EVENTS record is sealed once it holds this many payload bytes (a
 * LOOP log: 1/16 of its ring, since a lap overwrites whole records).
 */
#define PACK_TARGET (16u << 10)
#define PACK_MIN    128u
/* With memory images, whose first in a record is stored whole: the most a
 * reader takes (LOG_MAX_REC) */
#define PACK_TARGET_IMAGES LOG_MAX_DATA

struct wtype {
	uint32_t id;
	char name[LOG_NAME_MAX];
};

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
	h.pidns_ino = htole64(m->pidns_ino);
	h.arch = htole32(m->arch);
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

/* Can the log be written to fd (st: its status)? */
static int check_fd(int fd, struct stat *st)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -EBADF;
	if ((fl & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (fl & O_APPEND)
		return -EINVAL;
	if (fstat(fd, st) < 0)
		return -errno;
	if (!S_ISREG(st->st_mode))
		return -EINVAL;
	return 0;
}

/* Where everything goes in the file: the type area, the data, a ring's
 * capacity, as m and o ask (checked). */
static int set_layout(struct log_writer *w, const struct log_meta *m,
		      const struct log_writer_opts *o)
{
	w->flags = o ? o->flags : 0;
	w->packed = !(w->flags & LOG_WRITER_EVENT_RECORDS);
	w->seed = new_seed();
	w->policy = m->log_full_policy;
	w->max_size = m->log_max_size;
	w->layout = w->policy == LOG_POLICY_LOOP ? LOG_LAYOUT_RING : LOG_LAYOUT_LINEAR;
	w->type_slots = o && o->type_slots ? o->type_slots : LOG_MAX_TYPES;
	if (w->type_slots > LOG_MAX_TYPES)
		return -EINVAL;
	w->type_off = LOG_HDR_SIZE;
	w->data_off = w->type_off + (uint64_t)w->type_slots * LOG_TYPE_REC_MAX;
	if (o && o->data_off) {
		if (o->data_off < w->data_off || (o->data_off & 7) || o->data_off > RING_MAX)
			return -EINVAL;
		w->data_off = o->data_off;
		w->data_off_set = true;
	}
	if (w->layout == LOG_LAYOUT_RING) {
		if (w->max_size < LOG_TYPE_REC_MAX || w->max_size > RING_MAX)
			return -EINVAL;
		w->cap = w->max_size & ~(uint64_t)7;
	}
	return 0;
}

/* Memory images (log_writer_opts), with the buffer their bodies are
 * encoded into, and the buffer of records. */
static int set_buffers(struct log_writer *w, const struct log_writer_opts *o)
{
	if (o && o->image_id && w->packed) {
		if (o->image_addr_off + 8 > o->image_prefix || o->image_prefix > LOG_MAX_DATA)
			return -EINVAL;
		w->image_id = o->image_id;
		w->image_prefix = o->image_prefix;
		w->image_addr_off = o->image_addr_off;
		w->image_body = malloc(LOG_IMAGE_BODY_MAX(LOG_MAX_DATA));
		if (!w->image_body)
			return -ENOMEM;
	}
	w->blk_target = w->image_id ? PACK_TARGET_IMAGES : PACK_TARGET;
	if (w->layout == LOG_LAYOUT_RING && w->cap / 16 < w->blk_target)
		w->blk_target = w->cap / 16 > PACK_MIN ? (uint32_t)(w->cap / 16) : PACK_MIN;
	w->buf_size = o && o->buf_size ? o->buf_size : WBUF_DEFAULT;
	if (w->buf_size < WBUF_MIN)
		w->buf_size = WBUF_MIN;
	w->buf_size &= ~(size_t)7;
	w->buf = malloc(w->buf_size);
	if (!w->buf)
		return -ENOMEM;
	pages__touch_write(w->buf, w->buf_size); /* see common/pages.h */
	w->buf_off = w->data_off;
	w->wpos = w->layout == LOG_LAYOUT_RING ? 0 : w->data_off;
	return 0;
}

/* The file emptied, sized (a ring) and its blocks allocated up front (a
 * log of bounded size) or as it grows (APPEND); size: its size before. */
static int set_space(struct log_writer *w, int fd, uint64_t size)
{
	int err = probe_space(w, fd, size);

	if (err)
		return err;
	if (ftruncate(fd, 0) < 0)
		return -errno;
	if (w->layout == LOG_LAYOUT_RING &&
	    ftruncate(fd, (off_t)(w->data_off + w->cap + LOG_STATUS_REC_LEN)) < 0)
		return errno == EFBIG ? -ENOSPC : -errno;
	if (w->policy == LOG_POLICY_APPEND && !(w->flags & LOG_WRITER_NO_PREALLOC))
		w->prealloc_end = w->data_off; /* allocated as it grows */
	if (w->policy != LOG_POLICY_APPEND && !(w->flags & LOG_WRITER_NO_PREALLOC) &&
	    w->max_size <= RING_MAX) {
		uint64_t len = w->max_size + LOG_STATUS_REC_LEN;

		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)w->data_off, (off_t)len) < 0 &&
		    errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL)
			return errno == EFBIG ? -ENOSPC : -errno;
	}
	return 0;
}

/* The file's header, written. */
static int write_hdr(struct log_writer *w, const struct log_meta *m)
{
	unsigned char *hdr = calloc(1, LOG_HDR_SIZE);
	size_t done;
	int err;

	if (!hdr)
		return -ENOMEM;
	put_hdr(w, m, hdr);
	err = log_writer__pwrite_all(w->fd, hdr, LOG_HDR_SIZE, 0, &done);
	if (!err && w->layout == LOG_LAYOUT_LINEAR && !w->data_off_set)
		log_compact__init(&w->small, hdr);
	free(hdr);
	return err;
}

int log_writer__open(struct log_writer **wp, int fd, const struct log_meta *m,
		     const struct log_writer_opts *o)
{
	struct log_writer *w;
	struct stat st;
	int err;

	if (!wp || !m)
		return -EINVAL;
	*wp = NULL;
	err = check_fd(fd, &st);
	if (err)
		return err;
	if (m->log_full_policy != LOG_POLICY_APPEND &&
	    m->log_full_policy != LOG_POLICY_UNTIL_FULL && m->log_full_policy != LOG_POLICY_LOOP)
		return -EINVAL;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	err = set_layout(w, m, o);
	if (!err)
		err = set_buffers(w, o);
	if (!err)
		err = set_space(w, fd, (uint64_t)st.st_size);
	if (!err)
		err = write_hdr(w, m);
	if (err) {
		free(w->buf);
		free(w->image_body);
		free(w);
		return err;
	}
	*wp = w;
	return 0;
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
		log_writer__rec_seal(w->seed, rec, LOG_REC_TYPE, (uint32_t)(sizeof(tr) + nlen),
				     w->type_used);
		err = log_writer__keep_type(w, i, t[j].id, t[j].name, nlen);
		w->type_used++;
		k++;
	}
	if (k) {
		int werr = log_writer__pwrite_all(w->fd, slots, (size_t)k * LOG_TYPE_REC_MAX,
						  w->type_off + (uint64_t)first * LOG_TYPE_REC_MAX,
						  &done);

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

int log_writer__close(struct log_writer *w, const struct log_status *f)
{
	unsigned char rec[LOG_STATUS_REC_LEN];
	struct log_status_rec s;
	uint64_t off;
	size_t done;
	int err, i;

	if (!w)
		return -EINVAL;
	err = log_writer__flush_nosync(w);
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
	log_writer__rec_seal(w->seed, rec, LOG_REC_STATUS, sizeof(s), w->seq);
	err = log_writer__pwrite_all(w->fd, rec, sizeof(rec), off, &done);
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
