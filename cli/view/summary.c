/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The strace -c table: per-syscall counts fed one call at a time (constant
 * memory: one accumulator per syscall number), printed at the end in
 * strace's layout (src/count.c of strace 6.1: its columns, their widths,
 * formats and sort orders), so that the two tools' tables diff cleanly.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"

#define NS_PER_S UINT64_C(1000000000)

/* strace's names of the columns, for -S and -U */
static const struct {
	const char *name;
	uint8_t col;
} col_aliases[] = {
	{ "time", SUM_COL_TIME_100S },
	{ "time_percent", SUM_COL_TIME_100S },
	{ "time-percent", SUM_COL_TIME_100S },
	{ "time_total", SUM_COL_TIME_TOTAL },
	{ "time-total", SUM_COL_TIME_TOTAL },
	{ "total_time", SUM_COL_TIME_TOTAL },
	{ "total-time", SUM_COL_TIME_TOTAL },
	{ "min_time", SUM_COL_TIME_MIN },
	{ "min-time", SUM_COL_TIME_MIN },
	{ "shortest", SUM_COL_TIME_MIN },
	{ "time_min", SUM_COL_TIME_MIN },
	{ "time-min", SUM_COL_TIME_MIN },
	{ "longest", SUM_COL_TIME_MAX },
	{ "max_time", SUM_COL_TIME_MAX },
	{ "max-time", SUM_COL_TIME_MAX },
	{ "time_max", SUM_COL_TIME_MAX },
	{ "time-max", SUM_COL_TIME_MAX },
	{ "avg_time", SUM_COL_TIME_AVG },
	{ "avg-time", SUM_COL_TIME_AVG },
	{ "time_avg", SUM_COL_TIME_AVG },
	{ "time-avg", SUM_COL_TIME_AVG },
	{ "calls", SUM_COL_CALLS },
	{ "count", SUM_COL_CALLS },
	{ "error", SUM_COL_ERRORS },
	{ "errors", SUM_COL_ERRORS },
	{ "name", SUM_COL_NAME },
	{ "syscall", SUM_COL_NAME },
	{ "syscall_name", SUM_COL_NAME },
	{ "syscall-name", SUM_COL_NAME },
	{ "none", SUM_COL_NONE },
	{ "nothing", SUM_COL_NONE },
};

/* Each column: its title, least width, printf format (the value then the
 * width), left-aligned or not. */
static const struct {
	const char *title;
	unsigned int width;
	int left;
} cdesc[SUM_COL_MAX] = {
	[SUM_COL_TIME_100S] = { "% time", 6, 0 },     [SUM_COL_TIME_TOTAL] = { "seconds", 11, 0 },
	[SUM_COL_TIME_MIN] = { "shortest", 8, 0 },    [SUM_COL_TIME_MAX] = { "longest", 7, 0 },
	[SUM_COL_TIME_AVG] = { "usecs/call", 11, 0 }, [SUM_COL_CALLS] = { "calls", 9, 0 },
	[SUM_COL_ERRORS] = { "errors", 9, 0 },	      [SUM_COL_NAME] = { "syscall", 16, 1 },
};

const uint8_t summary_default_columns[SUM_COL_MAX] = {
	SUM_COL_TIME_100S, SUM_COL_TIME_TOTAL, SUM_COL_TIME_AVG,
	SUM_COL_CALLS,	   SUM_COL_ERRORS,     SUM_COL_NAME,
};

static int col_alias(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(col_aliases) / sizeof(col_aliases[0]); i++)
		if (strlen(col_aliases[i].name) == len && !strncmp(col_aliases[i].name, s, len))
			return col_aliases[i].col;
	return -1;
}

int summary_sortby(const char *name)
{
	return col_alias(name, strlen(name));
}

int summary_columns(uint8_t *cols, const char *spec, char *msg, size_t msgsz)
{
	uint8_t seen[SUM_COL_MAX] = { 0 };
	size_t n = 0;
	const char *p = spec;

	memset(cols, 0, SUM_COL_MAX);
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int c = col_alias(p, len);

		if (c <= SUM_COL_NONE) {
			snprintf(msg, msgsz, "unknown column name: '%.*s'", (int)len, p);
			return -1;
		}
		if (seen[c]) {
			snprintf(msg, msgsz, "column '%.*s' given more than once", (int)len, p);
			return -1;
		}
		seen[c] = 1;
		cols[n++] = (uint8_t)c;
		if (!comma)
			break;
		p = comma + 1;
	}
	/* as strace: the name column always, the table means nothing without */
	if (!seen[SUM_COL_NAME])
		cols[n] = SUM_COL_NAME;
	return 0;
}

void summary_init(struct summary *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < PTBPF_SYSCALL_NR_MAX; i++)
		s->c[i].min_ns = UINT64_MAX;
}

void summary_add(struct summary *s, int nr, const char *name, int64_t ns, int error)
{
	struct sum_count *c;

	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return;
	c = &s->c[nr];
	if (!c->calls) {
		size_t n = strnlen(name, SUM_NAME_MAX - 1);

		memcpy(s->name[nr], name, n);
		s->name[nr][n] = '\0';
	}
	if (ns < 0)
		ns = 0; /* its entry was not seen: a call, but no time */
	c->calls++;
	c->errors += !!error;
	c->time_ns += (uint64_t)ns;
	if ((uint64_t)ns < c->min_ns)
		c->min_ns = (uint64_t)ns;
	if ((uint64_t)ns > c->max_ns)
		c->max_ns = (uint64_t)ns;
}

void summary_add_counts(struct summary *s, int nr, const char *name, uint64_t calls,
			uint64_t errors, uint64_t total_ns, uint64_t min_ns, uint64_t max_ns)
{
	struct sum_count *c;

	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX || !calls)
		return;
	c = &s->c[nr];
	if (!c->calls)
		snprintf(s->name[nr], SUM_NAME_MAX, "%s", name);
	c->calls += calls;
	c->errors += errors;
	c->time_ns += total_ns;
	if (min_ns < c->min_ns)
		c->min_ns = min_ns;
	if (max_ns > c->max_ns)
		c->max_ns = max_ns;
}

/* strace keeps times as struct timespec: the same conversions, the same
 * digits */
static double ns_float(uint64_t ns)
{
	return (double)(ns / NS_PER_S) + (double)(ns % NS_PER_S) / 1000000000.0;
}

/* strace's ts_div(): the quotient rounded to the nearest nanosecond */
static uint64_t ns_div(uint64_t ns, uint64_t n)
{
	uint64_t sec = ns / NS_PER_S, nsec = ns % NS_PER_S;
	uint64_t q = (sec % n * NS_PER_S + nsec + n / 2) / n;

	return (sec / n + q / NS_PER_S) * NS_PER_S + q % NS_PER_S;
}

static unsigned int num_chars(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static unsigned int num_chars(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	return n > 0 ? (unsigned int)n : 0;
}

/* A column is as wide as its widest value, its title at least. */
static void at_least(unsigned int *w, unsigned int v)
{
	if (v > *w)
		*w = v;
}

struct sort_ctx {
	const struct summary *s;
	const uint64_t *avg;
	int by;
};

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

/* strace's orders: times, calls and errors largest first, names A to Z;
 * ties stay in syscall number order (strace's qsort is glibc's merge sort) */
static int sum_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *x = arg;
	unsigned int a = *(const unsigned int *)pa, b = *(const unsigned int *)pb;
	const struct sum_count *ca = &x->s->c[a], *cb = &x->s->c[b];
	int r = 0;

	switch (x->by) {
	case SUM_COL_TIME_100S:
	case SUM_COL_TIME_TOTAL:
		r = cmp_u64_desc(ca->time_ns, cb->time_ns);
		break;
	case SUM_COL_TIME_MIN:
		r = cmp_u64_desc(ca->min_ns, cb->min_ns);
		break;
	case SUM_COL_TIME_MAX:
		r = cmp_u64_desc(ca->max_ns, cb->max_ns);
		break;
	case SUM_COL_TIME_AVG:
		r = cmp_u64_desc(x->avg[a], x->avg[b]);
		break;
	case SUM_COL_CALLS:
		r = cmp_u64_desc(ca->calls, cb->calls);
		break;
	case SUM_COL_ERRORS:
		r = cmp_u64_desc(ca->errors, cb->errors);
		break;
	case SUM_COL_NAME:
		r = strcmp(x->s->name[a], x->s->name[b]);
		break;
	}
	return r ? r : (a > b) - (a < b);
}

/* One cell: the column's value in its format and width. */
static void cell(FILE *out, int col, unsigned int w, int last, double f, uint64_t u,
		 const char *name)
{
	switch (col) {
	case SUM_COL_TIME_100S:
		fprintf(out, "%*.2f", (int)w, f);
		break;
	case SUM_COL_TIME_TOTAL:
	case SUM_COL_TIME_MIN:
	case SUM_COL_TIME_MAX:
		fprintf(out, "%*.6f", (int)w, f);
		break;
	case SUM_COL_TIME_AVG:
	case SUM_COL_CALLS:
		fprintf(out, "%*" PRIu64, (int)w, u);
		break;
	case SUM_COL_ERRORS:
		/* precision 0: no errors is an empty cell */
		fprintf(out, "%*.0" PRIu64, (int)w, u);
		break;
	case SUM_COL_NAME:
		if (last)
			fputs(name, out);
		else
			fprintf(out, "%-*s", (int)w, name);
		break;
	}
}

static void rule(FILE *out, const uint8_t *cols, size_t ncols, const unsigned int *w)
{
	for (size_t i = 0; i < ncols; i++) {
		if (i)
			fputc(' ', out);
		for (unsigned int j = 0; j < w[cols[i]]; j++)
			fputc('-', out);
	}
	fputc('\n', out);
}

int summary_empty(const struct summary *s)
{
	for (int i = 0; i < PTBPF_SYSCALL_NR_MAX; i++)
		if (s->c[i].calls)
			return 0;
	return 1;
}

/* What the table's total line and its column widths need. */
struct sum_totals {
	uint64_t cum, tmin, tmin_max, tmax, avg_max, calls, errors;
	size_t name_max;
};

/* The totals of s, each call's average in avg. */
static void sum_totals(const struct summary *s, uint64_t *avg, struct sum_totals *t)
{
	memset(t, 0, sizeof(*t));
	t->tmin = UINT64_MAX;
	for (unsigned int i = 0; i < PTBPF_SYSCALL_NR_MAX; i++) {
		const struct sum_count *c = &s->c[i];

		if (!c->calls)
			continue;
		t->cum += c->time_ns;
		t->tmin = c->min_ns < t->tmin ? c->min_ns : t->tmin;
		t->tmin_max = c->min_ns > t->tmin_max ? c->min_ns : t->tmin_max;
		t->tmax = c->max_ns > t->tmax ? c->max_ns : t->tmax;
		t->calls += c->calls;
		t->errors += c->errors;
		avg[i] = ns_div(c->time_ns, c->calls);
		t->avg_max = avg[i] > t->avg_max ? avg[i] : t->avg_max;
		t->name_max = strlen(s->name[i]) > t->name_max ? strlen(s->name[i]) : t->name_max;
	}
}

/* Each column as wide as its widest number, as strace sizes them. */
static void sum_widths(unsigned int *w, const struct sum_totals *t)
{
	for (int c = 0; c < SUM_COL_MAX; c++)
		w[c] = cdesc[c].width;
	at_least(&w[SUM_COL_TIME_TOTAL], num_chars("%.6f", ns_float(t->cum)));
	at_least(&w[SUM_COL_TIME_MIN], num_chars("%" PRIu64 ".000000", t->tmin_max / NS_PER_S));
	at_least(&w[SUM_COL_TIME_MAX], num_chars("%" PRIu64 ".000000", t->tmax / NS_PER_S));
	at_least(&w[SUM_COL_TIME_AVG],
		 num_chars("%" PRIu64, (uint64_t)(ns_float(t->avg_max) * 1e6)));
	at_least(&w[SUM_COL_CALLS], num_chars("%" PRIu64, t->calls));
	at_least(&w[SUM_COL_ERRORS], num_chars("%" PRIu64, t->errors));
	at_least(&w[SUM_COL_NAME], (unsigned int)t->name_max + 1);
}

static void sum_header(FILE *out, const uint8_t *cols, size_t ncols, const unsigned int *w)
{
	for (size_t i = 0; i < ncols; i++) {
		int c = cols[i];

		if (i)
			fputc(' ', out);
		if (cdesc[c].left && i == ncols - 1)
			fputs(cdesc[c].title, out);
		else
			fprintf(out, cdesc[c].left ? "%-*s" : "%*s", (int)w[c], cdesc[c].title);
	}
	fputc('\n', out);
}

/* The line of syscall k (fcum: the total time in seconds). */
static void sum_row(FILE *out, const struct summary *s, unsigned int k, uint64_t avg, double fcum,
		    const uint8_t *cols, size_t ncols, const unsigned int *w)
{
	const struct sum_count *c = &s->c[k];
	double t = ns_float(c->time_ns), pct = 100.0 * t;

	/* as strace: 0 stays 0 (cum may be 0 too: no 0/0) */
	if (pct != 0.0)
		pct /= fcum;
	for (size_t i = 0; i < ncols; i++) {
		int col = cols[i];
		double f = col == SUM_COL_TIME_100S  ? pct
			   : col == SUM_COL_TIME_MIN ? ns_float(c->min_ns)
			   : col == SUM_COL_TIME_MAX ? ns_float(c->max_ns)
						     : t;
		uint64_t u = col == SUM_COL_TIME_AVG ? (uint64_t)(ns_float(avg) * 1e6)
			     : col == SUM_COL_CALLS  ? c->calls
						     : c->errors;

		if (i)
			fputc(' ', out);
		cell(out, col, w[col], i == ncols - 1, f, u, s->name[k]);
	}
	fputc('\n', out);
}

static void sum_total(FILE *out, const struct sum_totals *t, const uint8_t *cols, size_t ncols,
		      const unsigned int *w)
{
	double fcum = ns_float(t->cum);

	for (size_t i = 0; i < ncols; i++) {
		int col = cols[i];
		double f = col == SUM_COL_TIME_100S  ? 100.0
			   : col == SUM_COL_TIME_MIN ? ns_float(t->tmin)
			   : col == SUM_COL_TIME_MAX ? ns_float(t->tmax)
						     : fcum;
		uint64_t u = col == SUM_COL_TIME_AVG ? (uint64_t)(fcum / (double)t->calls * 1e6)
			     : col == SUM_COL_CALLS  ? t->calls
						     : t->errors;

		if (i)
			fputc(' ', out);
		cell(out, col, w[col], i == ncols - 1, f, u, "total");
	}
	fputc('\n', out);
}

void summary_print(const struct summary *s, const uint8_t *cols, int sortby, FILE *out)
{
	static unsigned int idx[PTBPF_SYSCALL_NR_MAX];
	static uint64_t avg[PTBPF_SYSCALL_NR_MAX];
	struct sort_ctx ctx = { s, avg, sortby };
	struct sum_totals t;
	unsigned int w[SUM_COL_MAX];
	size_t ncols = 0;

	/* strace prints no table when no call was counted */
	if (summary_empty(s))
		return;
	while (ncols < SUM_COL_MAX && cols[ncols])
		ncols++;
	for (unsigned int i = 0; i < PTBPF_SYSCALL_NR_MAX; i++)
		idx[i] = i;
	sum_totals(s, avg, &t);
	if (sortby != SUM_COL_NONE)
		qsort_r(idx, PTBPF_SYSCALL_NR_MAX, sizeof(idx[0]), sum_cmp, &ctx);
	sum_widths(w, &t);
	sum_header(out, cols, ncols, w);
	rule(out, cols, ncols, w);
	for (unsigned int j = 0; j < PTBPF_SYSCALL_NR_MAX; j++)
		if (s->c[idx[j]].calls)
			sum_row(out, s, idx[j], avg[idx[j]], ns_float(t.cum), cols, ncols, w);
	rule(out, cols, ncols, w);
	sum_total(out, &t, cols, ncols, w);
}
