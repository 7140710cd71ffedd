/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reading events in the integration tests: any error fails the test. */
#ifndef PTBPF_ITEST_READ_H
#define PTBPF_ITEST_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <trace.h>

/* Where one event read goes (each test has its own event struct). */
struct itest_ev_ref {
	struct posix_trace_event_info *info;
	char *name; /* TRACE_EVENT_NAME_MAX bytes */
	void *data;
	size_t datasz;
	size_t *len;
};

/* Fills the fields of an event struct e (info, name, data, len). */
#define ITEST_EV_REF(e)                                                                            \
	((struct itest_ev_ref){ &(e)->info, (e)->name, (e)->data, sizeof((e)->data), &(e)->len })

/*
 * The next event of t, with its type's name: true, or false when there is
 * none (now, for an active stream; any more, for a log: log true).
 */
bool itest_next_event(trace_id_t t, bool log, struct itest_ev_ref r);

/* An event read, for tests that keep many. */
struct itest_ev {
	struct posix_trace_event_info info;
	char name[TRACE_EVENT_NAME_MAX];
	size_t len;
	unsigned char data[1100];
};

/* Reads what stream t holds now into evs (max at most): how many. */
int itest_read_stream(trace_id_t t, struct itest_ev *evs, int max);
/* Reads a whole log; its trid stays open in *lt when lt is given. */
int itest_read_log(const char *path, trace_id_t *lt, struct itest_ev *evs, int max);
/* How many of the n events are of the type named name. */
int itest_count(const struct itest_ev *evs, int n, const char *name);
/* A new empty log file at path, open for reading and writing. */
int itest_newlog(const char *path);

/* A log opened for reading (its fd in *fd), and closed again. */
trace_id_t itest_open_log(const char *path, int *fd);
void itest_close_log(trace_id_t t, int fd);

/*
 * A stream of attributes a on this process (with a log at logpath unless
 * NULL) runs work() between start and stop; then check(t, log, ctx) reads
 * the stream itself, or the log read back (log true), which is removed.
 */
void itest_trace_run(const trace_attr_t *a, const char *logpath, void (*work)(void),
		     void (*check)(trace_id_t t, bool log, void *ctx), void *ctx);

#endif
