/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --histogram: per syscall, the log2 distribution of its calls' times, in
 * bpftrace's hist() look (its ranges, powers of 1024 as K, M, G..., the
 * counts, a bar of 52 '@' for the largest), from the kernel's counts
 * (record) or from the events (show). The buckets are the kernel's
 * (PTBPF_HIST_BUCKETS): [0] 0 ns, [k] 2^(k-1) to 2^k - 1 ns.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "decode/abi.h"
#include "view/view.h"

#define HIST_BAR 52

struct hist {
	uint64_t sel[PTBPF_SYSCALL_NR_MAX / 64]; /* the syscalls shown */
	uint64_t b[PTBPF_SYSCALL_NR_MAX][PTBPF_HIST_BUCKETS];
	char name[PTBPF_SYSCALL_NR_MAX][SUM_NAME_MAX];
};

int hist_bucket(int64_t ns)
{
	int b = 0;

	if (ns <= 0)
		return 0;
	while (ns && b < PTBPF_HIST_BUCKETS - 1) {
		ns >>= 1;
		b++;
	}
	return b;
}

static int sys_nr_named(const char *name, size_t len)
{
	char buf[TRACE_EVENT_NAME_MAX];

	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		const char *n;

		if (ptbpf_system_eventid_get_name(PTBPF_EV_SYS_ENTER(nr), buf))
			continue;
		n = buf + sys_name_offset(buf);
		if (strlen(n) == len && !strncmp(n, name, len))
			return nr;
	}
	return -1;
}

int hist_select(uint64_t *sel, const char *spec, char *msg, size_t msgsz)
{
	const char *p = spec;

	memset(sel, 0, PTBPF_SYSCALL_NR_MAX / 8);
	if (!spec) {
		memset(sel, 0xff, PTBPF_SYSCALL_NR_MAX / 8);
		return 0;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int nr = sys_nr_named(p, len);

		if (nr < 0) {
			snprintf(msg, msgsz, "unknown syscall '%.*s'", (int)len, p);
			return -1;
		}
		sel[nr / 64] |= 1ULL << (nr % 64);
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

struct hist *hist_new(const uint64_t *sel)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (h)
		memcpy(h->sel, sel, sizeof(h->sel));
	return h;
}

void hist_set_arch(struct hist *h, int from, int to)
{
	uint64_t sel[PTBPF_SYSCALL_NR_MAX / 64] = { 0 };
	size_t all = 0;

	for (size_t i = 0; i < PTBPF_SYSCALL_NR_MAX / 64; i++)
		all += h->sel[i] == UINT64_MAX;
	if (all == PTBPF_SYSCALL_NR_MAX / 64)
		return; /* every call, whatever its number */
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		const char *name = sysname_of(from, nr);
		int n = name ? dec_sys_nr(to, name) : nr; /* syscall_NNN: its number */

		if (n >= 0 && (h->sel[nr / 64] >> (nr % 64) & 1))
			sel[n / 64] |= 1ULL << (n % 64);
	}
	memcpy(h->sel, sel, sizeof(sel));
}

static void hist_name(struct hist *h, int nr, const char *name)
{
	if (!h->name[nr][0])
		snprintf(h->name[nr], sizeof(h->name[nr]), "%s", name);
}

void hist_add(struct hist *h, int nr, const char *name, int64_t ns)
{
	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return;
	hist_name(h, nr, name);
	h->b[nr][hist_bucket(ns)]++;
}

void hist_add_buckets(struct hist *h, int nr, const char *name, const uint64_t *b)
{
	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return;
	hist_name(h, nr, name);
	for (int i = 0; i < PTBPF_HIST_BUCKETS; i++)
		h->b[nr][i] += b[i];
}

/* bpftrace's hist_index_label(): 1024's powers as K, M, G, T, P, E */
static void hist_label(char *buf, size_t sz, uint64_t n)
{
	static const char suffix[] = "KMGTPE";
	int k = 0;

	while (n && n % 1024 == 0 && k < 6) {
		n /= 1024;
		k++;
	}
	if (k)
		snprintf(buf, sz, "%" PRIu64 "%c", n, suffix[k - 1]);
	else
		snprintf(buf, sz, "%" PRIu64, n);
}

static void hist_range(char *buf, size_t sz, int b)
{
	char lo[24], hi[24];

	if (b < 2) {
		snprintf(buf, sz, "[%d]", b);
		return;
	}
	hist_label(lo, sizeof(lo), 1ULL << (b - 1));
	if (b == PTBPF_HIST_BUCKETS - 1) {
		snprintf(buf, sz, "[%s, ...)", lo);
		return;
	}
	hist_label(hi, sizeof(hi), 1ULL << b);
	snprintf(buf, sz, "[%s, %s)", lo, hi);
}

void hist_print_one(const char *name, const uint64_t *b, FILE *out)
{
	int first = -1, last = -1;
	uint64_t max = 0;

	for (int i = 0; i < PTBPF_HIST_BUCKETS; i++) {
		if (!b[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (b[i] > max)
			max = b[i];
	}
	if (first < 0)
		return;
	fprintf(out, "@ns[%s]:\n", name);
	for (int i = first; i <= last; i++) {
		char range[64], bar[HIST_BAR + 1];
		int w = (int)((double)b[i] / (double)max * HIST_BAR);

		hist_range(range, sizeof(range), i);
		memset(bar, '@', (size_t)w);
		bar[w] = '\0';
		fprintf(out, "%-16s%8" PRIu64 " |%-*s|\n", range, b[i], HIST_BAR, bar);
	}
	fputc('\n', out);
}

void hist_print(const struct hist *h, FILE *out)
{
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++)
		if (h->sel[nr / 64] >> (nr % 64) & 1)
			hist_print_one(h->name[nr], h->b[nr], out);
}

void hist_free(struct hist *h)
{
	free(h);
}
