/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An active trace stream: the POSIX stream semantics (status, full
 * policies, overrun, system events, filter) over the event sources (the
 * kernel backend and the user-event transport), merged by timestamp.
 * All functions return 0 or a negative errno.
 */
#ifndef PTBPF_CORE_STREAM_H
#define PTBPF_CORE_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "core/attr.h"

struct pt_stream;

enum stream_wait {
	STREAM_TRY,   /* never block */
	STREAM_BLOCK, /* block until an event arrives */
	STREAM_TIMED, /* block until an absolute CLOCK_REALTIME deadline */
};

/* pid 0: the caller. log_fd -1: no log. */
int stream__create(struct pt_stream **out, pid_t pid, const struct pt_attr *a, int log_fd);
/*
 * The same for the processes of the cgroup v2 directory cgroup (see
 * stream__add_cgroup) with pid -1: no process of its own.
 */
int stream__create_cgroup(struct pt_stream **out, pid_t pid, const char *cgroup,
			  const struct pt_attr *a, int log_fd);
/*
 * Stop tracing, wake readers, flush the log, free everything. Returns the
 * first error writing the log (-ENOSPC...), if any: freed all the same.
 */
int stream__destroy(struct pt_stream *s);

int stream__start(struct pt_stream *s);
int stream__stop(struct pt_stream *s);
int stream__clear(struct pt_stream *s);
int stream__flush(struct pt_stream *s);
int stream__add_pid(struct pt_stream *s, pid_t pid);
/*
 * Trace the processes of the cgroup v2 directory path and of the cgroups
 * below it, those that join later too, each if the caller could ptrace it
 * (the others are counted: ptbpf_counters.left_out); the caller itself is
 * none of them. A process that moves out is traced no more (unless it is
 * traced for another reason). -ENOENT, -EINVAL: see cgroup__id; -E2BIG:
 * too many cgroups.
 */
int stream__add_cgroup(struct pt_stream *s, const char *path);

void stream__get_attr(struct pt_stream *s, struct pt_attr *a);
void stream__get_status(struct pt_stream *s, struct posix_trace_status_info *st);
void stream__get_filter(struct pt_stream *s, trace_event_set_t *set);
int stream__set_filter(struct pt_stream *s, const trace_event_set_t *set, int how);
void stream__counters(struct pt_stream *s, struct ptbpf_counters *c);
/* The syscalls counted in the kernel (ptbpf_trace_get_syscall_stats). */
int stream__syscall_stats(struct pt_stream *s, struct ptbpf_syscall_stats *st, size_t max,
			  size_t *count);

int stream__eventid_name(struct pt_stream *s, trace_event_id_t id, char *name);
int stream__eventid_open(struct pt_stream *s, const char *name, trace_event_id_t *id);
int stream__typelist_next(struct pt_stream *s, trace_event_id_t *id, int *unavailable);
void stream__typelist_rewind(struct pt_stream *s);

/* Read the next event; *unavailable = 1 when none (STREAM_TRY), or
 * -ETIMEDOUT (STREAM_TIMED), or -EINVAL once the stream is shut down. */
int stream__getnext(struct pt_stream *s, enum stream_wait how, const struct timespec *abstime,
		    struct posix_trace_event_info *ev, void *data, size_t num_bytes,
		    size_t *data_len, int *unavailable);
pid_t stream__last_tid(struct pt_stream *s);
/* Up to max events, data packed into buf (see
 * ptbpf_trace_timedgetnext_events()): waiting for one as how says;
 * -ETIMEDOUT (STREAM_TIMED), -EINVAL once shut down. */
int stream__getnext_batch(struct pt_stream *s, enum stream_wait how, const struct timespec *abstime,
			  struct ptbpf_event *evs, size_t max, void *buf, size_t bufsz,
			  size_t *count);

/* Wake every reader blocked in stream__getnext (they return -EINVAL). */
void stream__wake_all(struct pt_stream *s);

#endif
