/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The in-memory and on-disk header of one trace event, shared by the stream
 * core, the backends that produce events and the log writer and reader.
 * Plain fixed-size types only: nothing here depends on <trace.h>.
 */
#ifndef PTBPF_COMMON_EVENT_H
#define PTBPF_COMMON_EVENT_H

#include <stdint.h>

/* pt_event_hdr.trunc: the same values as POSIX_TRACE_*TRUNCATED* */
#define PT_NOT_TRUNCATED    0
#define PT_TRUNCATED_RECORD 1

struct pt_event_hdr {
	uint32_t id;	/* event type id (see include/ptbpf/events.h) */
	uint16_t trunc; /* PT_NOT_TRUNCATED or PT_TRUNCATED_RECORD */
	uint16_t reserved;
	int32_t pid;	    /* process id, 0 if none */
	int32_t tid;	    /* kernel thread id, 0 if none */
	uint64_t ts;	    /* nanoseconds; see the producer for the clock */
	uint64_t prog_addr; /* user-space address, 0 if none */
	uint64_t thread;    /* pthread_t of the thread, 0 if none */
	uint32_t data_len;  /* bytes of payload that follow */
	uint32_t reserved2;
};

_Static_assert(sizeof(struct pt_event_hdr) == 48, "pt_event_hdr layout");

#endif
