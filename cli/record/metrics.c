/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --metrics-listen, --metrics-push: the record's metrics (cli/metrics),
 * from the kernel's counts of the syscalls, the events the live loop read
 * and the stream's losses. The server's thread reads the counts through
 * the library (safe from any thread while the stream exists) and the rest
 * from atomics the main thread writes; it is stopped before the stream is
 * shut down.
 */
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "metrics/metrics.h"
#include "record/record.h"

#define METRICS_INTERVAL_DEFAULT 10.0
/* the stream's losses read at most this often (s) */
#define LOST_EVERY 0.5

struct rec_metrics {
	struct metrics_desc d;
	struct metrics_server *srv;
	trace_id_t trid;
	double next_push, next_lost;
	uint64_t events[METRICS_EV_TYPES]; /* atomics */
	uint64_t lost;			   /* atomic */
	char last_err[512];		   /* the last push failure said */
};

static void snapshot(void *ctx, struct sbuf *b)
{
	struct rec_metrics *m = ctx;
	struct metrics_snap s = { 0 };

	if (record_stats(m->trid, &s.st, &s.n))
		sb_fail(b);
	for (int t = 0; t < METRICS_EV_TYPES; t++)
		s.events[t] = __atomic_load_n(&m->events[t], __ATOMIC_RELAXED);
	s.lost = __atomic_load_n(&m->lost, __ATOMIC_RELAXED);
	if (!b->failed)
		metrics_expose(b, &m->d, &s);
	free(s.st);
}

static int by_of(const struct record_args *a)
{
	if (a->view.threads == VIEW_TH_THREAD)
		return METRICS_BY_THREAD;
	return a->view.threads == VIEW_TH_PROCESS ? METRICS_BY_PROCESS : METRICS_BY_SYSCALL;
}

int record_metrics_check(const struct record_args *a)
{
	struct metrics_desc d;

	if (!a->metrics.listen && !a->metrics.push && a->metrics.nlabels) {
		cli_err("--metrics-label is for --metrics-listen or --metrics-push");
		return CLI_EXIT_USAGE;
	}
	if (metrics_desc_init(&d, a->metrics.labels, a->metrics.nlabels, by_of(a)))
		return CLI_EXIT_USAGE;
	return 0;
}

int record_metrics_start(struct rec *r)
{
	const struct record_metrics *o = &r->a->metrics;
	struct rec_metrics *m;
	char msg[512];

	if (!o->listen && !o->push)
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m) {
		cli_err("out of memory");
		return CLI_EXIT_FAIL;
	}
	if (metrics_desc_init(&m->d, o->labels, o->nlabels, by_of(r->a))) {
		free(m);
		return CLI_EXIT_USAGE;
	}
	m->trid = r->trid;
	m->next_push = now_mono() + (o->interval > 0 ? o->interval : METRICS_INTERVAL_DEFAULT);
	if (o->listen && metrics_serve(&m->srv, o->listen, snapshot, m, msg, sizeof(msg))) {
		cli_err("--metrics-listen: %s", msg);
		free(m);
		return CLI_EXIT_USAGE;
	}
	r->metrics = m;
	return 0;
}

void record_metrics_event(struct rec *r, trace_event_id_t id)
{
	if (r->metrics)
		__atomic_fetch_add(&r->metrics->events[metrics_ev_type(id)], 1, __ATOMIC_RELAXED);
}

static void update_lost(struct rec *r)
{
	struct ptbpf_counters c = { .sz = sizeof(c) };

	if (!ptbpf_trace_get_counters(r->trid, &c))
		__atomic_store_n(&r->metrics->lost, c.lost, __ATOMIC_RELAXED);
}

/* One push; a failure said on stderr (once while it stays the same), the
 * record goes on. */
static void push(struct rec *r)
{
	struct rec_metrics *m = r->metrics;
	struct sbuf b = { 0 };
	char msg[512];

	snapshot(m, &b);
	if (b.failed) {
		snprintf(msg, sizeof(msg), "out of memory");
	} else if (!metrics_push(r->a->metrics.push, &b, msg, sizeof(msg))) {
		m->last_err[0] = '\0';
		sb_free(&b);
		return;
	}
	if (strcmp(msg, m->last_err))
		cli_err("warning: --metrics-push: %s (the record goes on)", msg);
	snprintf(m->last_err, sizeof(m->last_err), "%s", msg);
	sb_free(&b);
}

void record_metrics_tick(struct rec *r)
{
	struct rec_metrics *m = r->metrics;
	double t;

	if (!m)
		return;
	t = now_mono();
	if (t >= m->next_lost) {
		update_lost(r);
		m->next_lost = t + LOST_EVERY;
	}
	if (r->a->metrics.push && t >= m->next_push) {
		push(r);
		m->next_push = t + (r->a->metrics.interval > 0 ? r->a->metrics.interval
							       : METRICS_INTERVAL_DEFAULT);
	}
}

void record_metrics_end(struct rec *r, int last_push)
{
	struct rec_metrics *m = r->metrics;

	if (!m)
		return;
	update_lost(r);
	if (r->a->metrics.push && last_push)
		push(r);
	metrics_server_stop(m->srv);
	free(m);
	r->metrics = NULL;
}
