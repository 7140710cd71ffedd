/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Trace log writer and reader (the on-disk format is docs/log-format.md).
 *
 * This layer knows nothing of <trace.h>: policies and status words are
 * opaque integers stored and returned as given, except log_full_policy,
 * which selects the layout (LOG_POLICY_* below carry the values the core
 * passes: it maps POSIX_TRACE_LOOP/UNTIL_FULL/APPEND to them).
 *
 * Errors are negative errno values: -EINVAL for a file that is not a log, an
 * unknown major version, or bad arguments; I/O errors as returned by the
 * system (-ENOSPC, -EFBIG, -EIO, ...).
 *
 * Threads: a reader, and a writer's append/flush/close, must not be used by
 * two threads at once (the caller locks). log_writer__add_type() touches only
 * the type area and may run concurrently with append/flush; the writer's
 * counter accessors may be called from any thread at any time.
 * Nothing here prints or aborts.
 */
#ifndef PTBPF_LOG_LOG_H
#define PTBPF_LOG_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "common/event.h"

/* log_meta.log_full_policy */
#define LOG_POLICY_APPEND     0 /* no limit */
#define LOG_POLICY_UNTIL_FULL 1 /* stop writing events at log_max_size bytes */
#define LOG_POLICY_LOOP	      2 /* keep the newest events within log_max_size bytes */

#define LOG_NAME_LEN 64 /* name and genversion: NUL-terminated, at most 63 bytes */

/* The stream attributes and creation info stored in the log header. */
struct log_meta {
	char name[LOG_NAME_LEN];
	char genversion[LOG_NAME_LEN];
	int64_t create_sec; /* stream creation time */
	int64_t create_nsec;
	int64_t clockres_nsec;
	uint64_t stream_min_size;
	uint64_t max_data_size;
	/*
	 * Bytes of event records the log may hold (UNTIL_FULL, LOOP): the
	 * EVENTS records that pack the events (24 + 16 bytes each, and per
	 * event 4 to about 30 bytes + its data; see docs/log-format.md).
	 * Header, type table and trailer are not counted.
	 */
	uint64_t log_max_size;
	int32_t stream_full_policy;
	int32_t log_full_policy; /* LOG_POLICY_* */
	int32_t inheritance;
	uint64_t pidns_ino; /* the pid namespace of the events' ids, 0: unknown */
	/* the ELF machine (EM_X86_64, EM_AARCH64) whose syscall numbers and
	 * user ABI the events carry; a log without one reads as EM_X86_64 */
	uint32_t arch;
	/* reader only: when the log file was created */
	int64_t file_sec;
	int64_t file_nsec;
};

/* The final status, stored in the trailer by log_writer__close(). */
struct log_status {
	int32_t v[7];		 /* opaque to this layer (the core's status words) */
	uint64_t events_written; /* opaque counters of the core */
	uint64_t events_lost;
	/* set by the writer at close (ignored on input) */
	uint64_t log_events;  /* events appended to the log (LOOP: some overwritten since) */
	uint64_t log_dropped; /* events not written: UNTIL_FULL full, or too big for LOOP */
	uint32_t log_full;    /* UNTIL_FULL: became full; LOOP: wrapped at least once */
};

/* ------------------------------------------------------------------ writer */

#define LOG_WRITER_SYNC	       0x1 /* log_writer__flush() also fdatasync()s */
#define LOG_WRITER_NO_PREALLOC 0x2 /* do not fallocate() the UNTIL_FULL / LOOP size */
/* an EVENT record per event (format 1.0) instead of packed EVENTS records */
#define LOG_WRITER_EVENT_RECORDS 0x4

struct log_writer_opts {
	uint32_t flags;	   /* LOG_WRITER_* */
	uint32_t buf_size; /* write buffer, 0 = 1 MiB; at least 128 KiB is used */
	/* for tests and tools; 0 = defaults (4096 slots; data right after them) */
	uint32_t type_slots; /* max distinct (id, name) type records, <= 4096 */
	uint64_t data_off;   /* file offset of the first event record (8-aligned) */
	/*
	 * Events of id image_id (0: none) are memory images: image_prefix
	 * bytes that hold the image's address (a little-endian u64 at
	 * image_addr_off), then the image (a thread's user stack). Each is
	 * stored as what differs from its thread's last one (format 4.0).
	 */
	uint32_t image_id;
	uint32_t image_prefix;
	uint32_t image_addr_off;
};

struct log_writer;

/*
 * Start a log on fd: a regular file open for writing, not O_APPEND (-EBADF /
 * -EINVAL otherwise). The file is truncated and written from offset 0; the
 * header is written now. UNTIL_FULL and LOOP preallocate log_max_size bytes
 * (-ENOSPC when the device cannot hold them). LOOP needs log_max_size >= 96.
 * opts may be NULL. The fd stays owned by the caller.
 */
int log_writer__open(struct log_writer **w, int fd, const struct log_meta *m,
		     const struct log_writer_opts *opts);

/*
 * Record the name of an event type id (written to the file at once; adding an
 * (id, name) pair already recorded is a no-op; a new name for an id replaces
 * the old one). -EINVAL for an empty name or one of 64 bytes or more;
 * -ENOSPC when the type area is full.
 */
int log_writer__add_type(struct log_writer *w, uint32_t id, const char *name);

struct log_type_name {
	uint32_t id;
	const char *name;
};

/* The same for n pairs, the new ones written in one write: the start of a
 * stream names hundreds. Checks every name before it records any. */
int log_writer__add_types(struct log_writer *w, const struct log_type_name *t, size_t n);

/*
 * Buffer one event (h->data_len bytes at data; more than LOG_MAX_DATA bytes
 * are cut and the event marked PT_TRUNCATED_RECORD). Writes to the file when
 * the buffer is full. Returns 0 (buffered), 1 (not written: UNTIL_FULL log
 * full, or the event is bigger than the whole LOOP log; counted as dropped),
 * or a negative errno from write(2) (the event is not recorded; what was
 * buffered before stays buffered and a later flush retries it).
 */
int log_writer__append(struct log_writer *w, const struct pt_event_hdr *h, const void *data);

/*
 * The same for the last event of an UNTIL_FULL log (the stream's final
 * STOP): it may use the last 128 bytes that log_writer__append() keeps
 * free, even once the log is full.
 */
int log_writer__append_last(struct log_writer *w, const struct pt_event_hdr *h, const void *data);

/*
 * Write everything buffered (and fdatasync with LOG_WRITER_SYNC). After 0,
 * every event appended before is in the file and survives the death of the
 * process. On an error (-ENOSPC ...) the events already in the file stay
 * readable and the unwritten part stays buffered.
 */
int log_writer__flush(struct log_writer *w);

/*
 * Flush, write the trailer (final status), truncate the file to its end and
 * free w, even on error. final may be NULL (zeros).
 */
int log_writer__close(struct log_writer *w, const struct log_status *final);

/* Free without writing anything more (what is in the file stays a valid log). */
void log_writer__free(struct log_writer *w);

uint64_t log_writer__bytes(const struct log_writer *w);	 /* event record bytes written */
uint64_t log_writer__events(const struct log_writer *w); /* events accepted */
/* events of the records written to the file (LOOP: some overwritten since) */
uint64_t log_writer__file_events(const struct log_writer *w);
uint64_t log_writer__dropped(const struct log_writer *w); /* events refused (return 1) */
int log_writer__full(const struct log_writer *w);	  /* UNTIL_FULL full / LOOP wrapped */

/* ------------------------------------------------------------------ reader */

struct log_reader;

/*
 * Open a log on fd (a regular file open for reading; read with pread from
 * offset 0, the fd offset is not used). Reads the header, the type table and
 * the trailer; a log without trailer (the writer died) is valid: a LOOP log is
 * then scanned once to find its newest record. -EINVAL: not a log, unknown
 * major version, corrupt header; -ENOMEM; I/O errors.
 */
int log_reader__open(struct log_reader **r, int fd);

const struct log_meta *log_reader__meta(const struct log_reader *r);

/*
 * The next event, oldest first: 1 with *h filled and *data pointing to
 * h->data_len bytes (valid until the next call on r), 0 at the end (also at
 * the first damaged or torn record: what follows it is not read), or a
 * negative errno for an I/O error.
 */
int log_reader__next(struct log_reader *r, struct pt_event_hdr *h, const void **data);

/* Restart from the oldest event. */
int log_reader__rewind(struct log_reader *r);

/* Name of an event type id: 0, or -ENOENT. The string lives as long as r. */
int log_reader__type_name(const struct log_reader *r, uint32_t id, const char **name);

/*
 * Iterate the type table in id order: start with *iter = 0; 1 with *id and
 * *name set, 0 at the end.
 */
int log_reader__type_next(const struct log_reader *r, size_t *iter, uint32_t *id,
			  const char **name);
size_t log_reader__type_count(const struct log_reader *r);

/* The final status from the trailer: 0, or -ENOENT for a log without one. */
int log_reader__status(const struct log_reader *r, struct log_status *st);

void log_reader__close(struct log_reader *r);

#endif
