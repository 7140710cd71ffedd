/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Metrics for Prometheus: the syscalls the kernel counted, the events and
 * losses of a record, in Prometheus's text exposition format 0.0.4
 * (expo.c), served at GET /metrics by libmicrohttpd (serve.c) and PUT to
 * a Pushgateway by libcurl (push.c).
 */
#ifndef PTBPF_CLI_METRICS_H
#define PTBPF_CLI_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include <ptbpf/ptbpf.h>

#include "util/util.h"

/* ptbpf_events_total's types */
enum {
	METRICS_EV_SYSCALL,
	METRICS_EV_PROCESS,
	METRICS_EV_SIGNAL,
	METRICS_EV_SCHED,
	METRICS_EV_USER,
	METRICS_EV_POSIX,
	METRICS_EV_OTHER,
	METRICS_EV_TYPES,
};
/* The METRICS_EV_* of an event id. */
int metrics_ev_type(trace_event_id_t id);

enum { METRICS_BY_SYSCALL, METRICS_BY_PROCESS, METRICS_BY_THREAD };

#define METRICS_MAX_LABELS 16
struct metrics_desc {
	char version[32], kernel[65];
	const char *labels[METRICS_MAX_LABELS]; /* the user's K=V, checked */
	int nlabels;
	int by; /* METRICS_BY_*: the comm and pid labels */
};

struct metrics_snap {
	struct ptbpf_syscall_stats *st; /* sorted by metrics_expose */
	size_t n;
	uint64_t events[METRICS_EV_TYPES];
	uint64_t lost;
};

/*
 * A --metrics-label K=V: 0, or -1 with why in msg (a name that is not
 * Prometheus's [a-zA-Z_][a-zA-Z0-9_]*, begins with __, or is one of
 * ptbpf's own labels).
 */
int metrics_label_check(const char *kv, char *msg, size_t msgsz);
/*
 * n bytes of s as a label value between its quotes: backslash, quote and
 * newline escaped as the format says; a byte that is not part of valid
 * UTF-8, or a control character, as the four characters \xHH (its
 * backslash escaped): whatever a process names itself, the line stays one
 * valid line.
 */
void metrics_label_value(struct sbuf *b, const char *s, size_t n);
/* The exposition of s (its stats sorted in place). */
void metrics_expose(struct sbuf *b, const struct metrics_desc *d, struct metrics_snap *s);
/* The version and kernel of d, and the user's labels: 0, or -1 (said). */
int metrics_desc_init(struct metrics_desc *d, const char *const *labels, int nlabels, int by);

/* serve.c: GET /metrics, on libmicrohttpd's own thread */
struct metrics_server;
/* The exposition now, into b (called on the server's thread). */
typedef void (*metrics_fn)(void *ctx, struct sbuf *b);
/*
 * Listen on ADDR:PORT (":PORT": 127.0.0.1; [ADDR]:PORT for IPv6); 0, or
 * -1 with why in msg (a bad address, a port in use).
 */
int metrics_serve(struct metrics_server **out, const char *addr, metrics_fn fn, void *ctx,
		  char *msg, size_t msgsz);
/* The server stopped, its thread gone. */
void metrics_server_stop(struct metrics_server *s);

/* push.c: a Pushgateway */
/*
 * PUT body to URL/metrics/job/ptbpf/instance/HOST (URL: the gateway's
 * base, http://HOST:PORT); 0, or -1 with why in msg (the HTTP status or
 * the transfer's error).
 */
int metrics_push(const char *url, const struct sbuf *body, char *msg, size_t msgsz);

#endif
