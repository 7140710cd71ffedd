/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the API asks of any trace, active or pre-recorded: the two kinds of
 * trace_id_t (see core/registry.h) answer the same questions, each its own
 * way. Negative errno returns.
 */
#ifndef PTBPF_CORE_TRACE_OPS_H
#define PTBPF_CORE_TRACE_OPS_H

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "common/clock.h"
#include "common/event.h"
#include "core/attr.h"
#include "core/registry.h"
#include "core/stream.h"

/* obj: a struct pt_stream (TRACE_KIND_ACTIVE) or pt_logtrace (TRACE_KIND_LOG). */
struct pt_trace {
	enum trace_kind kind;
	void *obj;
};

void trace__get_attr(struct pt_trace t, struct pt_attr *a);
void trace__get_status(struct pt_trace t, struct posix_trace_status_info *st);
int trace__eventid_name(struct pt_trace t, trace_event_id_t id, char *name);
/* A log gets no new event types: -EINVAL for a name it does not hold. */
int trace__eventid_open(struct pt_trace t, const char *name, trace_event_id_t *id);
int trace__typelist_next(struct pt_trace t, trace_event_id_t *id, int *unavailable);
void trace__typelist_rewind(struct pt_trace t);
pid_t trace__last_tid(struct pt_trace t);
void trace__counters(struct pt_trace t, struct ptbpf_counters *c);
/* A log is read without waiting, whatever how says. */
int trace__getnext(struct pt_trace t, enum stream_wait how, const struct timespec *abstime,
		   struct posix_trace_event_info *ev, void *data, size_t num_bytes,
		   size_t *data_len, int *unavailable);

#endif
