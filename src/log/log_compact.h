/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Compaction of a small linear log at close (see docs/log-format.md). */
#ifndef PTBPF_LOG_COMPACT_H
#define PTBPF_LOG_COMPACT_H

#include <stddef.h>
#include <stdint.h>

#include "log/log_format.h"

/*
 * A copy of what a LINEAR log's writer wrote, while it is small: the
 * header, and the data from data_off on (the fd may be write-only, so it
 * is not read back).
 */
struct log_compact {
	unsigned char hdr[sizeof(struct log_file_hdr)];
	unsigned char *data; /* NULL: too big, or no memory (no compaction) */
	size_t len;
};

/* Start the copy with the header just written (buf: its first bytes). */
void log_compact__init(struct log_compact *c, const void *hdr);
/* The next bytes written after the data so far. */
void log_compact__add(struct log_compact *c, const void *p, size_t n);
void log_compact__fini(struct log_compact *c);

/*
 * fd: the LINEAR log whose copy c is, just closed with the trailer rec
 * (LOG_STATUS_REC_LEN bytes, written after the data), whose first
 * used_slots type slots are in use. When its data is small, writes the
 * data and the trailer again right after those slots, then the header that
 * says so, and cuts the file there. 0 (done, or nothing to gain) or a
 * negative errno (the log is then as it was, or the new one whole).
 */
int log_compact__linear(struct log_compact *c, int fd, const unsigned char *rec,
			uint32_t used_slots);

#endif
