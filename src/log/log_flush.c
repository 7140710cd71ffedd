// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace log writer, the buffer out to the file: records sealed (the open
 * EVENTS record last), the buffer written, its writeback started and an
 * APPEND log's blocks allocated ahead. log_writer.c (open, types, close)
 * and log_append.c (events into the buffer) call it.
 */
#define _FILE_OFFSET_BITS 64
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "log/log_compact.h"
#include "log/log_format.h"
#include "log/log_writer_int.h"

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
int log_writer__pwrite_all(int fd, const void *buf, size_t len, uint64_t off, size_t *done)
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
void log_writer__rec_seal(uint32_t seed, unsigned char *rec, uint16_t type, uint32_t plen,
			  uint64_t seq)
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

/* Close the open EVENTS record: its header, count, crc; it joins the buffer. */
void log_writer__blk_seal(struct log_writer *w)
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
	log_writer__rec_seal(w->seed, rec, LOG_REC_EVENTS, w->blk_plen, w->seq);
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
	log_writer__blk_seal(w);
	if (w->buf_len) {
		prealloc_ahead(w, w->buf_off + w->buf_len);
		err = log_writer__pwrite_all(w->fd, w->buf, w->buf_len, w->buf_off, &done);
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

int log_writer__flush_nosync(struct log_writer *w)
{
	uint32_t fl = w->flags;
	int err;

	w->flags &= ~LOG_WRITER_SYNC;
	err = log_writer__flush(w);
	w->flags = fl;
	return err;
}
