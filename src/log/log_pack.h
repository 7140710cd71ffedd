/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Packed events (log format 2.0, docs/log-format.md): how one event is
 * encoded inside an EVENTS record. The writer and the reader keep the same
 * small state per record, so an event repeats only what changed since the
 * previous ones: its thread context (pid, tid, pthread_t) is an index into
 * the last LOG_PACK_CTX contexts, its program address can be "as last time
 * for this context", its timestamp is a delta.
 *
 * One event: a tag byte, then varints (LEB128; signed ones zigzag):
 *   tag bits 0-2: context slot 0..6, or 7: a new context follows
 *   tag bit 3: truncated (PT_TRUNCATED_RECORD); bit 4: prog_addr as last time
 *   in this context; bits 5-7: zero
 *   [new context: pid (signed), tid (signed), thread]
 *   ts - previous ts (signed; the first event's previous is base_ts)
 *   id
 *   [prog_addr, unless tag bit 4]
 *   data_len, then data_len bytes of data
 * Internal to src/log.
 */
#ifndef PTBPF_LOG_PACK_H
#define PTBPF_LOG_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

#define LOG_PACK_CTX 7
#define LOG_PACK_NEW 0x100u /* slot flag of log_pack__encode(): a new context */

struct log_pack_ctx {
	int32_t pid, tid;
	uint64_t thread;
	uint64_t prog_addr;
};

/* The state of one EVENTS record, reset at its start (log_pack__reset). */
struct log_pack {
	struct log_pack_ctx ctx[LOG_PACK_CTX];
	uint32_t used; /* slots filled */
	uint32_t next; /* slot a new context takes (round robin) */
	uint64_t prev_ts;
};

void log_pack__reset(struct log_pack *p, uint64_t base_ts);

/*
 * Encode the header of event h (data_len given apart: it may be cut) into
 * out (LOG_PACK_HDR_MAX bytes) without changing p; returns its length and
 * the slot it uses. log_pack__commit(p, slot, h) then makes it part of p.
 */
size_t log_pack__encode(const struct log_pack *p, const struct pt_event_hdr *h, uint16_t trunc,
			uint32_t data_len, unsigned char *out, uint32_t *slot);
void log_pack__commit(struct log_pack *p, uint32_t slot, const struct pt_event_hdr *h);

/*
 * Decode the event at *pos (before end) into h and *data (data_len bytes
 * inside [*pos, end)), advance *pos and update p. -EINVAL on a bad encoding
 * (truncated, overlong varint, unknown slot, reserved bits, too much data).
 */
int log_pack__decode(struct log_pack *p, const unsigned char **pos, const unsigned char *end,
		     struct pt_event_hdr *h, const unsigned char **data);

#endif
