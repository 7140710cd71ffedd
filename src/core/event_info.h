/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An event out to a reader, of an active stream or of a log: what a getnext
 * call returns of its header, and its data cut to the reader's buffer.
 */
#ifndef PTBPF_CORE_EVENT_INFO_H
#define PTBPF_CORE_EVENT_INFO_H

#include <stdint.h>
#include <string.h>
#include <trace.h>

#include "common/clock.h"
#include "common/event.h"

/* What a getnext call returns of an event's header, for either kind. */
static inline void event_info__set(struct posix_trace_event_info *ev, const struct pt_event_hdr *h)
{
	memset(ev, 0, sizeof(*ev));
	ev->posix_event_id = h->id;
	ev->posix_pid = h->pid;
	ev->posix_prog_address = (void *)(uintptr_t)h->prog_addr;
	ev->posix_truncation_status =
		h->trunc ? POSIX_TRACE_TRUNCATED_RECORD : POSIX_TRACE_NOT_TRUNCATED;
	ev->posix_timestamp.tv_sec = (time_t)(h->ts / NSEC_PER_SEC);
	ev->posix_timestamp.tv_nsec = (long)(h->ts % NSEC_PER_SEC);
	ev->posix_thread_id = (pthread_t)h->thread;
}

/* An event out to a reader: its info, data cut to num_bytes. */
static inline void event_info__copy_out(struct posix_trace_event_info *ev,
					const struct pt_event_hdr *h, const void *src, void *data,
					size_t num_bytes, size_t *data_len)
{
	size_t n = h->data_len;

	event_info__set(ev, h);
	if (n > num_bytes) {
		n = num_bytes;
		ev->posix_truncation_status = POSIX_TRACE_TRUNCATED_READ;
	}
	if (n && data && src)
		memcpy(data, src, n);
	if (data_len)
		*data_len = n;
}

#endif
