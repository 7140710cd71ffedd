/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A pre-recorded trace stream: a trace log opened by posix_trace_open(),
 * read with the same calls as an active stream. Negative errno returns.
 */
#ifndef PTBPF_CORE_LOGTRACE_H
#define PTBPF_CORE_LOGTRACE_H

#include <sys/types.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "core/attr.h"

struct pt_logtrace;

int logtrace__open(struct pt_logtrace **out, int fd);
void logtrace__close(struct pt_logtrace *lt);
int logtrace__rewind(struct pt_logtrace *lt);
int logtrace__getnext(struct pt_logtrace *lt, struct posix_trace_event_info *ev, void *data,
		      size_t num_bytes, size_t *data_len, int *unavailable);
void logtrace__get_attr(struct pt_logtrace *lt, struct pt_attr *a);
void logtrace__get_status(struct pt_logtrace *lt, struct posix_trace_status_info *st);
int logtrace__eventid_name(struct pt_logtrace *lt, trace_event_id_t id, char *name);
int logtrace__eventid_lookup(struct pt_logtrace *lt, const char *name, trace_event_id_t *id);
int logtrace__typelist_next(struct pt_logtrace *lt, trace_event_id_t *id, int *unavailable);
void logtrace__typelist_rewind(struct pt_logtrace *lt);
pid_t logtrace__last_tid(struct pt_logtrace *lt);
/* The counters the log's trailer recorded (zeros without a trailer). */
void logtrace__counters(struct pt_logtrace *lt, struct ptbpf_counters *c);

#endif
