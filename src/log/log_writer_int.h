/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The log writer's object, shared by its files: log_writer.c (open, types,
 * close), log_append.c (the appending of events) and log_flush.c (the
 * buffer out to the file).
 */
#ifndef PTBPF_LOG_WRITER_INT_H
#define PTBPF_LOG_WRITER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log/log.h"
#include "log/log_compact.h"
#include "log/log_pack.h"

/*
 * The counters are read by the accessors, possibly from another thread than
 * the one appending (the caller's lock may not cover both): relaxed atomics.
 */
#define CNT_SET(f, v) __atomic_store_n(&(f), (v), __ATOMIC_RELAXED)
#define CNT_GET(f)    __atomic_load_n(&(f), __ATOMIC_RELAXED)

struct wtype;

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

/* log_flush.c */
/* pwrite() all of buf at off: 0 or a negative errno; *done: bytes written. */
int log_writer__pwrite_all(int fd, const void *buf, size_t len, uint64_t off, size_t *done);
/* Fill a record header in place, payload already at rec + 24, pad zeroed. */
void log_writer__rec_seal(uint32_t seed, unsigned char *rec, uint16_t type, uint32_t plen,
			  uint64_t seq);
/* log_writer__flush() without its fdatasync (LOG_WRITER_SYNC): 0 or a negative errno. */
int log_writer__flush_nosync(struct log_writer *w);
/* Close the open EVENTS record: its header, count, crc; it joins the buffer. */
void log_writer__blk_seal(struct log_writer *w);

#endif
