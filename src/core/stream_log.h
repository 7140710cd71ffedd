/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The trace log of an active stream (posix_trace_create_withlog): the
 * stream hands its events over under its own lock; a flusher thread writes
 * them with the log writer, so a flush is asynchronous and its status can
 * be watched, as the standard describes. A handover is usually a swap of the
 * stream's queue with an empty one of the log's (no copy); while the flusher
 * still writes the previous queue, the events are copied.
 */
#ifndef PTBPF_CORE_STREAM_LOG_H
#define PTBPF_CORE_STREAM_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "core/attr.h"
#include "core/evtypes.h"
#include "core/queue.h"

struct stream_log;

/* q: the stream's queue (the log keeps one like it to swap with, faulted in
 * through later). */
int stream_log__open(struct stream_log **out, int fd, const struct pt_attr *a, int stream_policy,
		     struct evtypes *types, const struct pt_queue *q, struct populate *later);
/* Record the name of event type id in the log. */
void stream_log__type(struct stream_log *l, struct evtypes *t, uint32_t id);
/* Hand one more event over to the flusher (after those handed over). */
void stream_log__add(struct stream_log *l, const struct pt_event_hdr *h, const void *data);
/*
 * Hand the events of q up to the first one newer than limit over to the
 * flusher (limit UINT64_MAX: all of them, q may be swapped with an empty
 * queue of the same size); *floor (if given) becomes the newest timestamp
 * handed over one by one.
 * -ENOSPC when the flusher is too far behind to take them (the stream is
 * then full).
 */
int stream_log__flush_queue(struct stream_log *l, struct pt_queue *q, uint64_t limit,
			    uint64_t *floor);
/* Is a flush under way? Has one ended since the last call (then the stream
 * records POSIX_TRACE_FLUSH_STOP)? */
bool stream_log__flushing(struct stream_log *l);
/*
 * Bytes of events a stream with queue q can take beyond q's own room
 * without a copy: a whole queue while a flush would swap q with the spare,
 * 0 while the flusher still writes the previous one, SIZE_MAX (take
 * everything: copies, as the disk allows) when what was handed over has
 * waited to be written for longer than a stall's threshold.
 */
size_t stream_log__room(struct stream_log *l, const struct pt_queue *q);
bool stream_log__take_done(struct stream_log *l);
/* Wait until every event handed over is written. */
void stream_log__wait_idle(struct stream_log *l);
/* Should the stream (policy POSIX_TRACE_FLUSH) flush now? */
bool stream_log__due(struct stream_log *l, const struct pt_queue *q);
/* Has the log become full (UNTIL_FULL log policy)? */
bool stream_log__full(struct stream_log *l);
/* Fill the log members of st; reading resets the flush error and log overrun. */
void stream_log__status(struct stream_log *l, struct posix_trace_status_info *st);
/* posix_trace_clear(): start the log again, empty. */
int stream_log__clear(struct stream_log *l);
/* The log's members of c: bytes, events written, dropped, first error. */
void stream_log__counters(struct stream_log *l, struct ptbpf_counters *c);

struct stream_log_final {
	struct pt_queue *q;
	struct evtypes *types;
	const struct posix_trace_status_info *status;
	const struct ptbpf_counters *cnt;
};
/* Flush what q holds, write the type table and the final status, free l. */
int stream_log__close(struct stream_log *l, const struct stream_log_final *f);

#endif
