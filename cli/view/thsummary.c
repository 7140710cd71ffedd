/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --summary=thread and --summary=process: perf trace --summary's tables
 * (tools/perf/builtin-trace.c of perf 6.1, its layout and orders), per
 * thread or per process: the events, the time on CPU (from the sched
 * events, as perf trace --sched gives it) and off it, and each syscall's
 * calls, errors and times (mean and deviation kept as perf does, in
 * constant memory per syscall).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"

#define NS_PER_MS 1000000.0
/* perf's threads table: its buckets set the order threads are printed in */
#define PERF_THREADS_TABLE_SIZE 256

/* perf's struct stats: Welford's running mean and squared deviations */
struct th_stats {
	uint64_t n, failures, min, max;
	double mean, m2;
};

struct th {
	pid_t pid, tid;
	char comm[PTBPF_COMM_LEN];
	uint64_t nevents, cpu_ns, wait_ns;
	int64_t on_since, off_since;	    /* 0: not known */
	uint16_t idx[PTBPF_SYSCALL_NR_MAX]; /* 1 + the index in sys[], 0: none */
	struct th_stats *sys;
	int *sys_nr;
	size_t nsys;
};

struct thsum {
	int by_process;
	int live; /* the threads still run: their names can be read */
	int sched;
	int failed;
	uint64_t nevents;
	struct pidmap threads; /* tid -> struct th */
	char name[PTBPF_SYSCALL_NR_MAX][SUM_NAME_MAX];
};

struct thsum *thsum_new(int by_process, int live)
{
	struct thsum *t = calloc(1, sizeof(*t));

	if (t) {
		t->by_process = by_process;
		t->live = live;
	}
	return t;
}

static void comm_set(char *comm, const char *s, size_t n)
{
	if (n > PTBPF_COMM_LEN - 1)
		n = PTBPF_COMM_LEN - 1;
	memcpy(comm, s, n);
	comm[n] = '\0';
}

/* A running thread's name, as perf has it from the kernel. */
static void comm_read(struct th *h)
{
	char path[64], buf[PTBPF_COMM_LEN + 2];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)h->pid, (int)h->tid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f))
		comm_set(h->comm, buf, strcspn(buf, "\n"));
	fclose(f);
}

static struct th *th_get(struct thsum *t, pid_t pid, pid_t tid)
{
	struct th *h = pidmap_get(&t->threads, tid);

	/* no thread (pid 0: an event of the stream's own, or a damaged log) */
	if (h || tid <= 0 || pid <= 0)
		return h;
	h = calloc(1, sizeof(*h));
	if (!h || pidmap_put(&t->threads, tid, h)) {
		free(h);
		t->failed = 1;
		return NULL;
	}
	h->pid = pid;
	h->tid = tid;
	if (t->live)
		comm_read(h);
	return h;
}

static const char *base_name(const char *s, size_t n, size_t *len)
{
	const char *b = s;

	for (size_t i = 0; i < n && s[i]; i++)
		if (s[i] == '/')
			b = s + i + 1;
	*len = strnlen(b, n - (size_t)(b - s));
	return b;
}

void thsum_event(struct thsum *t, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	int64_t ts = ts_ns(&ev->info.posix_timestamp);
	struct th *h;

	t->nevents++;
	h = th_get(t, ev->info.posix_pid, ev->tid);
	if (!h)
		return;
	h->nevents++;
	switch (id) {
	case PTBPF_EV_SCHED_SWITCH_IN:
		t->sched = 1;
		if (h->off_since && ts > h->off_since)
			h->wait_ns += (uint64_t)(ts - h->off_since);
		h->on_since = ts;
		h->off_since = 0;
		break;
	case PTBPF_EV_SCHED_SWITCH_OUT:
		t->sched = 1;
		if (h->on_since && ts > h->on_since)
			h->cpu_ns += (uint64_t)(ts - h->on_since);
		h->on_since = 0;
		h->off_since = ts;
		break;
	case PTBPF_EV_PROC_FORK:
		if (ev->len >= sizeof(struct ptbpf_ev_fork)) {
			const struct ptbpf_ev_fork *e = ev->data;
			struct th *c = th_get(t, e->child_pid, e->child_tid);

			if (c)
				comm_set(c->comm, e->comm, strnlen(e->comm, sizeof(e->comm)));
		}
		break;
	case PTBPF_EV_PROC_EXEC:
		/* the kernel names a thread after the program it execs */
		if (ev->len >= offsetof(struct ptbpf_ev_exec, filename)) {
			const struct ptbpf_ev_exec *e = ev->data;
			size_t fl = ev->len - offsetof(struct ptbpf_ev_exec, filename), n;
			const char *b;

			if (fl > e->filename_len)
				fl = e->filename_len;
			b = base_name(e->filename, fl, &n);
			comm_set(h->comm, b, n);
		}
		break;
	}
}

void thsum_syscall(struct thsum *t, pid_t pid, pid_t tid, int nr, const char *name, int64_t ns,
		   int error)
{
	struct th *h = th_get(t, pid, tid);
	struct th_stats *s;
	double delta, v;

	if (!h || nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return;
	if (!t->name[nr][0])
		snprintf(t->name[nr], sizeof(t->name[nr]), "%s", name);
	if (!h->idx[nr]) {
		struct th_stats *n = realloc(h->sys, (h->nsys + 1) * sizeof(*n));
		int *nn;

		if (!n) {
			t->failed = 1;
			return;
		}
		h->sys = n;
		nn = realloc(h->sys_nr, (h->nsys + 1) * sizeof(*nn));
		if (!nn) {
			t->failed = 1;
			return;
		}
		h->sys_nr = nn;
		memset(&h->sys[h->nsys], 0, sizeof(h->sys[0]));
		h->sys[h->nsys].min = UINT64_MAX;
		h->sys_nr[h->nsys] = nr;
		h->idx[nr] = (uint16_t)++h->nsys;
	}
	s = &h->sys[h->idx[nr] - 1];
	/* as perf: a call whose entry was not seen lasted 0 */
	v = ns > 0 ? (double)ns : 0.0;
	s->n++;
	delta = v - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (v - s->mean);
	if ((uint64_t)v > s->max)
		s->max = (uint64_t)v;
	if ((uint64_t)v < s->min)
		s->min = (uint64_t)v;
	if (error)
		s->failures++;
}

/* Two running statistics as one (Chan et al.'s pairwise update). */
static void stats_merge(struct th_stats *a, const struct th_stats *b)
{
	double n = (double)(a->n + b->n), delta = b->mean - a->mean;

	if (!b->n)
		return;
	if (!a->n) {
		*a = *b;
		return;
	}
	a->m2 += b->m2 + delta * delta * (double)a->n * (double)b->n / n;
	a->mean += delta * (double)b->n / n;
	a->n += b->n;
	a->failures += b->failures;
	a->min = b->min < a->min ? b->min : a->min;
	a->max = b->max > a->max ? b->max : a->max;
}

/* One row of the view: a thread, or every thread of a process. */
struct th_row {
	pid_t id;
	const char *comm;
	uint64_t nevents, cpu_ns, wait_ns;
	struct th_stats sys[PTBPF_SYSCALL_NR_MAX];
};

static int row_cmp(const void *pa, const void *pb)
{
	const struct th_row *a = *(const struct th_row *const *)pa;
	const struct th_row *b = *(const struct th_row *const *)pb;
	unsigned int ba = (unsigned int)a->id % PERF_THREADS_TABLE_SIZE;
	unsigned int bb = (unsigned int)b->id % PERF_THREADS_TABLE_SIZE;

	/* perf: bucket by bucket of its table, fewest events first, then
	 * by id (its insertion order) */
	if (ba != bb)
		return ba < bb ? -1 : 1;
	if (a->nevents != b->nevents)
		return a->nevents < b->nevents ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

struct sys_order {
	int nr;
	double msecs;
};

static int sys_cmp(const void *pa, const void *pb)
{
	const struct sys_order *a = pa, *b = pb;

	/* the most time first; ties in syscall number order, as perf's */
	if (a->msecs != b->msecs)
		return a->msecs > b->msecs ? -1 : 1;
	return (a->nr > b->nr) - (a->nr < b->nr);
}

static void row_print(const struct thsum *t, const struct th_row *r, FILE *out)
{
	static struct sys_order ord[PTBPF_SYSCALL_NR_MAX];
	size_t n = 0;

	fprintf(out, " %s (%d), %" PRIu64 " events, %.1f%%", r->comm, (int)r->id, r->nevents,
		t->nevents ? (double)r->nevents / (double)t->nevents * 100.0 : 0.0);
	if (t->sched)
		fprintf(out, ", %.3f msec, %.3f msec wait", (double)r->cpu_ns / NS_PER_MS,
			(double)r->wait_ns / NS_PER_MS);
	fputc('\n', out);
	fputs("\n"
	      "   syscall            calls  errors  total       min       avg       max       "
	      "stddev\n"
	      "                                     (msec)    (msec)    (msec)    (msec)        "
	      "(%)\n"
	      "   --------------- --------  ------ -------- --------- --------- ---------     "
	      "------\n",
	      out);
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		if (!r->sys[nr].n)
			continue;
		ord[n].nr = nr;
		ord[n].msecs = (double)(uint64_t)r->sys[nr].n * (r->sys[nr].mean / NS_PER_MS);
		n++;
	}
	qsort(ord, n, sizeof(ord[0]), sys_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct th_stats *s = &r->sys[ord[i].nr];
		double avg = s->mean, pct = 0.0;

		/* perf's "stddev": the standard error of the mean, in % of it */
		if (avg && s->n > 1)
			pct = 100.0 * sqrt(s->m2 / (double)(s->n - 1) / (double)s->n) / avg;
		fprintf(out, "   %-15s", t->name[ord[i].nr]);
		fprintf(out, " %8" PRIu64 " %6" PRIu64 " %9.3f %9.3f %9.3f", s->n, s->failures,
			ord[i].msecs, (double)s->min / NS_PER_MS, avg / NS_PER_MS);
		fprintf(out, " %9.3f %9.2f%%\n", (double)s->max / NS_PER_MS, pct);
	}
	fputs("\n\n", out);
}

int thsum_print(struct thsum *t, FILE *out)
{
	struct th_row **rows = NULL, *r;
	size_t nrows = 0, cap = 0, i, k;
	struct pidmap by_id = { 0 };
	int ret = 0;

	for (i = 0; i < t->threads.cap; i++) {
		const struct th *h = t->threads.e[i].val;
		pid_t id;

		if (!t->threads.e[i].key)
			continue;
		id = t->by_process ? h->pid : h->tid;
		r = pidmap_get(&by_id, id);
		if (!r) {
			r = calloc(1, sizeof(*r));
			if (!r || pidmap_put(&by_id, id, r)) {
				free(r);
				ret = -1;
				break;
			}
			if (nrows == cap) {
				struct th_row **n =
					realloc(rows, (cap ? 2 * cap : 16) * sizeof(*n));

				if (!n) {
					ret = -1;
					break;
				}
				rows = n;
				cap = cap ? 2 * cap : 16;
			}
			rows[nrows++] = r;
			r->id = id;
		}
		/* a process is named as its main thread */
		if (!r->comm || (h->tid == h->pid && h->comm[0]))
			r->comm = h->comm;
		r->nevents += h->nevents;
		r->cpu_ns += h->cpu_ns;
		r->wait_ns += h->wait_ns;
		for (k = 0; k < h->nsys; k++)
			stats_merge(&r->sys[h->sys_nr[k]], &h->sys[k]);
	}
	if (!ret) {
		char unnamed[24];

		if (nrows)
			qsort(rows, nrows, sizeof(rows[0]), row_cmp);
		fputs("\n Summary of events:\n\n", out);
		for (i = 0; i < nrows; i++) {
			/* perf's name of a thread whose name it never saw */
			if (!rows[i]->comm || !rows[i]->comm[0]) {
				snprintf(unnamed, sizeof(unnamed), ":%d", (int)rows[i]->id);
				rows[i]->comm = unnamed;
			}
			row_print(t, rows[i], out);
		}
	}
	for (i = 0; i < nrows; i++)
		free(rows[i]);
	free(rows);
	pidmap_free(&by_id, NULL);
	return ret || t->failed ? -1 : 0;
}

static void th_free(void *v)
{
	struct th *h = v;

	if (h) {
		free(h->sys);
		free(h->sys_nr);
	}
	free(h);
}

void thsum_free(struct thsum *t)
{
	if (!t)
		return;
	pidmap_free(&t->threads, th_free);
	free(t);
}
