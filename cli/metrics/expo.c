/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Prometheus's text exposition format 0.0.4 of a record's metrics: each
 * family's HELP and TYPE, then its samples, families never interleaved;
 * names and units as Prometheus's naming conventions say (seconds, a
 * _total for each counter). The syscall time histogram's buckets are the
 * kernel's log2 ones from 2^10 ns (about 1 us) to 2^34 ns (about 17 s),
 * each le the bucket's upper bound (2^k ns, of calls up to 2^k - 1 ns).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "decode/decode.h"
#include "metrics/metrics.h"
#include "view/view.h"

#define LE_FIRST 10
#define LE_LAST	 34

static const char *const ev_type_names[METRICS_EV_TYPES] = {
	[METRICS_EV_SYSCALL] = "syscall", [METRICS_EV_PROCESS] = "process",
	[METRICS_EV_SIGNAL] = "signal",	  [METRICS_EV_SCHED] = "sched",
	[METRICS_EV_USER] = "user",	  [METRICS_EV_POSIX] = "posix",
	[METRICS_EV_OTHER] = "other",
};

/* ptbpf's own labels, which --metrics-label may not take */
static const char *const own_labels[] = { "syscall", "errno", "le",	 "comm",  "pid",
					  "tid",     "type",  "version", "kernel" };

int metrics_ev_type(trace_event_id_t id)
{
	if (PTBPF_EV_IS_SYSCALL(id))
		return METRICS_EV_SYSCALL;
	if (id >= PTBPF_EV_USER_BASE)
		return METRICS_EV_USER;
	if (id >= 1 && id < PTBPF_EV_KERNEL_FIRST)
		return METRICS_EV_POSIX;
	switch (id) {
	case PTBPF_EV_PROC_FORK:
	case PTBPF_EV_PROC_EXEC:
	case PTBPF_EV_THREAD_EXIT:
	case PTBPF_EV_PROC_EXIT:
	case PTBPF_EV_PROC_UNTRACED:
		return METRICS_EV_PROCESS;
	case PTBPF_EV_SIGNAL_GENERATE:
	case PTBPF_EV_SIGNAL_DELIVER:
		return METRICS_EV_SIGNAL;
	case PTBPF_EV_SCHED_SWITCH_OUT:
	case PTBPF_EV_SCHED_SWITCH_IN:
	case PTBPF_EV_SCHED_WAKEUP:
		return METRICS_EV_SCHED;
	default:
		return METRICS_EV_OTHER;
	}
}

int metrics_label_check(const char *kv, char *msg, size_t msgsz)
{
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : 0;

	if (!eq || !n) {
		snprintf(msg, msgsz, "'%s': not NAME=VALUE", kv);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char c = kv[i];
		int ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (i && c >= '0' && c <= '9');

		if (!ok) {
			snprintf(msg, msgsz, "'%.*s': not a label name ([a-zA-Z_][a-zA-Z0-9_]*)",
				 (int)n, kv);
			return -1;
		}
	}
	if (n >= 2 && kv[0] == '_' && kv[1] == '_') {
		snprintf(msg, msgsz, "'%.*s': names beginning with __ are Prometheus's", (int)n,
			 kv);
		return -1;
	}
	for (size_t i = 0; i < sizeof(own_labels) / sizeof(own_labels[0]); i++) {
		if (strlen(own_labels[i]) == n && !strncmp(own_labels[i], kv, n)) {
			snprintf(msg, msgsz, "'%.*s': a label of ptbpf's own", (int)n, kv);
			return -1;
		}
	}
	return 0;
}

/* The length of the valid UTF-8 sequence at s (n bytes left), 0: none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) || (c >= 0xd800 && c <= 0xdfff) ||
	    c > 0x10ffff)
		return 0;
	return len;
}

void metrics_label_value(struct sbuf *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(u + i, n - i);

		if (u[i] == '\\' || u[i] == '"') {
			sb_putc(b, '\\');
			sb_putc(b, (char)u[i]);
		} else if (u[i] == '\n') {
			sb_puts(b, "\\n");
		} else if (!len || u[i] < 0x20 || u[i] == 0x7f) {
			sb_printf(b, "\\\\x%02X", u[i]);
			len = 1;
		} else {
			sb_putn(b, s + i, len);
		}
		i += len ? len : 1;
	}
}

int metrics_desc_init(struct metrics_desc *d, const char *const *labels, int nlabels, int by)
{
	struct utsname u;
	char msg[160];

	memset(d, 0, sizeof(*d));
	snprintf(d->version, sizeof(d->version), "%s", ptbpf_version());
	if (!uname(&u))
		snprintf(d->kernel, sizeof(d->kernel), "%s", u.release);
	if (nlabels > METRICS_MAX_LABELS) {
		cli_err("--metrics-label: at most %d labels", METRICS_MAX_LABELS);
		return -1;
	}
	for (int i = 0; i < nlabels; i++) {
		if (metrics_label_check(labels[i], msg, sizeof(msg))) {
			cli_err("--metrics-label %s", msg);
			return -1;
		}
		d->labels[i] = labels[i];
	}
	d->nlabels = nlabels;
	d->by = by;
	return 0;
}

static void label(struct sbuf *b, int *first, const char *name, const char *v, size_t n)
{
	sb_putc(b, *first ? '{' : ',');
	*first = 0;
	sb_puts(b, name);
	sb_puts(b, "=\"");
	metrics_label_value(b, v, n);
	sb_putc(b, '"');
}

/* The labels of a sample: the user's, then comm and pid (-C), then
 * syscall; more may follow (close with labels_end). */
static void labels_of(struct sbuf *b, const struct metrics_desc *d,
		      const struct ptbpf_syscall_stats *st, int *first)
{
	char num[16], ev[TRACE_EVENT_NAME_MAX];

	*first = 1;
	for (int i = 0; i < d->nlabels; i++) {
		const char *eq = strchr(d->labels[i], '=');
		char name[128];

		snprintf(name, sizeof(name), "%.*s", (int)(eq - d->labels[i]), d->labels[i]);
		label(b, first, name, eq + 1, strlen(eq + 1));
	}
	if (!st)
		return;
	if (d->by != METRICS_BY_SYSCALL) {
		label(b, first, "comm", st->comm, strnlen(st->comm, sizeof(st->comm)));
		snprintf(num, sizeof(num), "%d", (int)st->pid);
		label(b, first, "pid", num, strlen(num));
	}
	if (d->by == METRICS_BY_THREAD) {
		snprintf(num, sizeof(num), "%d", (int)st->tid);
		label(b, first, "tid", num, strlen(num));
	}
	if (!ptbpf_system_eventid_get_name(PTBPF_EV_SYS_ENTER(st->nr), ev)) {
		const char *name = ev + sys_name_offset(ev);

		label(b, first, "syscall", name, strlen(name));
	}
}

static void labels_end(struct sbuf *b, int first)
{
	sb_puts(b, first ? " " : "} ");
}

static void family(struct sbuf *b, const char *name, const char *type, const char *help)
{
	sb_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static int cmp_stats(const void *pa, const void *pb)
{
	const struct ptbpf_syscall_stats *a = pa, *b = pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->nr != b->nr)
		return a->nr < b->nr ? -1 : 1;
	return a->err < b->err ? -1 : a->err > b->err;
}

static int same_series(const struct ptbpf_syscall_stats *a, const struct ptbpf_syscall_stats *b)
{
	return a->pid == b->pid && a->tid == b->tid && a->nr == b->nr;
}

/* Did the calls of st fail (an errno, on a syscall that may fail)? */
static int failed(const struct ptbpf_syscall_stats *st)
{
	return st->err && !(sysclass_of((int)st->nr) & SC_NEVER_FAILS);
}

/* ptbpf_syscalls_total: per series, the calls of every errno */
static void expose_calls(struct sbuf *b, const struct metrics_desc *d, const struct metrics_snap *s)
{
	family(b, "ptbpf_syscalls_total", "counter",
	       "Syscalls the traced processes made, counted in the kernel at their return.");
	for (size_t i = 0, j; i < s->n; i = j) {
		uint64_t calls = 0;
		int first;

		for (j = i; j < s->n && same_series(&s->st[i], &s->st[j]); j++)
			calls += s->st[j].calls;
		sb_puts(b, "ptbpf_syscalls_total");
		labels_of(b, d, &s->st[i], &first);
		labels_end(b, first);
		sb_printf(b, "%" PRIu64 "\n", calls);
	}
}

static void expose_errors(struct sbuf *b, const struct metrics_desc *d,
			  const struct metrics_snap *s)
{
	family(b, "ptbpf_syscall_errors_total", "counter",
	       "Syscalls that failed, by the errno they returned.");
	for (size_t i = 0; i < s->n; i++) {
		const char *e;
		char num[16];
		int first;

		if (!failed(&s->st[i]))
			continue;
		e = errno_name(s->st[i].err);
		if (!e) {
			snprintf(num, sizeof(num), "%d", s->st[i].err);
			e = num;
		}
		sb_puts(b, "ptbpf_syscall_errors_total");
		labels_of(b, d, &s->st[i], &first);
		label(b, &first, "errno", e, strlen(e));
		labels_end(b, first);
		sb_printf(b, "%" PRIu64 "\n", s->st[i].calls);
	}
}

static void expose_one_hist(struct sbuf *b, const struct metrics_desc *d,
			    const struct metrics_snap *s, size_t i, size_t j)
{
	uint64_t h[PTBPF_HIST_BUCKETS] = { 0 }, ns = 0, cum = 0, calls = 0;
	int first;

	for (size_t k = i; k < j; k++) {
		for (int x = 0; x < PTBPF_HIST_BUCKETS; x++)
			h[x] += s->st[k].hist[x];
		ns += s->st[k].total_ns;
		calls += s->st[k].calls;
	}
	for (int x = 0; x < LE_FIRST; x++)
		cum += h[x];
	for (int x = LE_FIRST; x <= LE_LAST; x++) {
		char le[32];

		cum += h[x];
		snprintf(le, sizeof(le), "%.10g", (double)(1ULL << x) / 1e9);
		sb_puts(b, "ptbpf_syscall_duration_seconds_bucket");
		labels_of(b, d, &s->st[i], &first);
		label(b, &first, "le", le, strlen(le));
		labels_end(b, first);
		sb_printf(b, "%" PRIu64 "\n", cum);
	}
	sb_puts(b, "ptbpf_syscall_duration_seconds_bucket");
	labels_of(b, d, &s->st[i], &first);
	label(b, &first, "le", "+Inf", 4);
	labels_end(b, first);
	sb_printf(b, "%" PRIu64 "\n", calls);
	sb_puts(b, "ptbpf_syscall_duration_seconds_sum");
	labels_of(b, d, &s->st[i], &first);
	labels_end(b, first);
	sb_printf(b, "%" PRIu64 ".%09" PRIu64 "\n", ns / 1000000000u, ns % 1000000000u);
	sb_puts(b, "ptbpf_syscall_duration_seconds_count");
	labels_of(b, d, &s->st[i], &first);
	labels_end(b, first);
	sb_printf(b, "%" PRIu64 "\n", calls);
}

static void expose_hists(struct sbuf *b, const struct metrics_desc *d, const struct metrics_snap *s)
{
	family(b, "ptbpf_syscall_duration_seconds", "histogram",
	       "Time from a syscall's entry to its return.");
	for (size_t i = 0, j; i < s->n; i = j) {
		for (j = i; j < s->n && same_series(&s->st[i], &s->st[j]); j++)
			;
		expose_one_hist(b, d, s, i, j);
	}
}

void metrics_expose(struct sbuf *b, const struct metrics_desc *d, struct metrics_snap *s)
{
	int first;

	if (s->n)
		qsort(s->st, s->n, sizeof(*s->st), cmp_stats);
	/* the family names of counters end in _total, the samples too */
	expose_calls(b, d, s);
	expose_errors(b, d, s);
	expose_hists(b, d, s);
	family(b, "ptbpf_events_total", "counter", "Events the record read, by type.");
	for (int t = 0; t < METRICS_EV_TYPES; t++) {
		sb_puts(b, "ptbpf_events_total");
		labels_of(b, d, NULL, &first);
		label(b, &first, "type", ev_type_names[t], strlen(ev_type_names[t]));
		labels_end(b, first);
		sb_printf(b, "%" PRIu64 "\n", s->events[t]);
	}
	family(b, "ptbpf_events_lost_total", "counter",
	       "Events lost (a ring or the stream full), as the stream counts them.");
	sb_puts(b, "ptbpf_events_lost_total");
	labels_of(b, d, NULL, &first);
	labels_end(b, first);
	sb_printf(b, "%" PRIu64 "\n", s->lost);
	family(b, "ptbpf_info", "gauge", "ptbpf's version and the kernel it runs on.");
	sb_puts(b, "ptbpf_info");
	labels_of(b, d, NULL, &first);
	label(b, &first, "version", d->version, strlen(d->version));
	label(b, &first, "kernel", d->kernel, strlen(d->kernel));
	labels_end(b, first);
	sb_puts(b, "1\n");
}
