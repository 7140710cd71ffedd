/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record -e: the event selection language. Comma-separated names
 * (openat, sys_enter_openat, proc_fork, user:NAME), groups, strace's
 * syscall classes (%file...) and regular expressions on syscall names
 * (/REGEX), each with a leading ! to exclude, applied in order; a leading
 * ? makes one that matches nothing no error, as in strace; a selection
 * that starts with an exclusion starts from the default one (EVSEL_DEFAULT:
 * all but sched). Parsed before any stream exists (the system event ids are
 * the same in every stream), so a bad -e stops ptbpf before it touches
 * anything; user event names get their ids from the stream afterwards.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>
#include <ptbpf/evfields.h>

#include "view/view.h"
#include "decode/decode.h"

struct evsel_group {
	const char *name;
	trace_event_id_t lo[2], hi[2]; /* up to two ranges; hi 0: none */
	const char *cls; /* or: the kernel events of this group (<ptbpf/evfields.h>) */
};

static const struct evsel_group groups[] = {
	{ "all", { 1 }, { PTBPF_EV_ID_LIMIT - 1 } },
	{ "syscalls",
	  { PTBPF_EV_SYSCALL_BASE },
	  { PTBPF_EV_SYSCALL_BASE + 2 * PTBPF_SYSCALL_NR_MAX - 1 } },
	{ "syscall",
	  { PTBPF_EV_SYSCALL_BASE },
	  { PTBPF_EV_SYSCALL_BASE + 2 * PTBPF_SYSCALL_NR_MAX - 1 } },
	{ "proc", { 0 }, { 0 }, "proc" },
	{ "process", { 0 }, { 0 }, "proc" },
	{ "signals", { 0 }, { 0 }, "signal" },
	{ "signal", { 0 }, { 0 }, "signal" },
	{ "sched", { 0 }, { 0 }, "sched" },
	{ "user", { PTBPF_EV_USER_BASE }, { PTBPF_EV_ID_LIMIT - 1 } },
	{ "posix", { 1 }, { PTBPF_EV_KERNEL_FIRST - 1 } },
};

/*
 * What ptbpf record leaves out unless asked (-e all, -e sched): strace
 * shows no scheduler events, and on a busy or threaded program they
 * outnumber the lines a user reads.
 */
static const char *const default_off[] = { "sched" };

/* The events every selection keeps: losses, errors, why a process is gone. */
static const trace_event_id_t always[] = {
	POSIX_TRACE_ERROR,
	POSIX_TRACE_OVERFLOW,
	POSIX_TRACE_RESUME,
	PTBPF_EV_PROC_UNTRACED,
};

static int evsel_push(struct evsel *s, const struct evsel_op *op)
{
	struct evsel_op *n;

	if (s->n == s->cap) {
		n = realloc(s->ops, (s->cap ? 2 * s->cap : 16) * sizeof(*n));
		if (!n) {
			cli_err("out of memory");
			return -1;
		}
		s->ops = n;
		s->cap = s->cap ? 2 * s->cap : 16;
	}
	s->ops[s->n++] = *op;
	return 0;
}

static int evsel_range(struct evsel *s, trace_event_id_t lo, trace_event_id_t hi, int add)
{
	struct evsel_op op = { .kind = EVSEL_RANGE, .add = add, .lo = lo, .hi = hi };

	return evsel_push(s, &op);
}

/* The syscalls of the running kernel whose name (class) matches: entry
 * and exit each; the number of syscalls, or -1 when out of memory. */
static int evsel_syscalls(struct evsel *s, int add, uint32_t cls, const regex_t *re)
{
	char name[TRACE_EVENT_NAME_MAX];
	int n = 0;

	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		if (ptbpf_system_eventid_get_name(PTBPF_EV_SYS_ENTER(nr), name))
			continue;
		if (cls ? !(sysclass_of(nr) & cls)
			: regexec(re, name + sys_name_offset(name), 0, NULL, 0))
			continue;
		if (evsel_range(s, PTBPF_EV_SYS_ENTER(nr), PTBPF_EV_SYS_EXIT(nr), add))
			return -1;
		n++;
	}
	return n;
}

/* %CLASS or /REGEX; -1: an error (said), else the syscalls matched (an
 * unknown class matches none when optional) */
static int evsel_pattern(struct evsel *s, const char *tok, int add, int optional)
{
	uint32_t cls = 0;
	regex_t re;
	int n, rc;

	if (tok[0] == '%') {
		if (sysclass_lookup(tok, &cls)) {
			if (optional)
				return 0;
			cli_err("-e: unknown syscall class '%s' (%%file, %%desc, %%network, "
				"%%process, "
				"%%signal, %%ipc, %%memory, %%creds, %%clock, %%stat, %%lstat, "
				"%%fstat, %%%%stat, %%statfs, %%fstatfs, %%%%statfs, %%pure)",
				tok);
			return -1;
		}
		return evsel_syscalls(s, add, cls, NULL);
	}
	rc = regcomp(&re, tok + 1, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char msg[128];

		regerror(rc, &re, msg, sizeof(msg));
		cli_err("-e: '%s': %s", tok, msg);
		return -1;
	}
	n = evsel_syscalls(s, add, 0, &re);
	regfree(&re);
	return n;
}

/* The kernel events of class cls, as ranges of consecutive ids. */
static int evsel_class(struct evsel *s, const char *cls, int add)
{
	trace_event_id_t id, lo = 0;

	for (id = PTBPF_EV_KERNEL_FIRST; id <= PTBPF_EV_KERNEL_LAST + 1; id++) {
		const struct ptbpf_event_desc *d = ptbpf_event_desc(id);
		int in = id <= PTBPF_EV_KERNEL_LAST && d && !strcmp(d->group, cls);

		if (in && !lo)
			lo = id;
		if (!in && lo) {
			if (evsel_range(s, lo, id - 1, add))
				return -1;
			lo = 0;
		}
	}
	return 0;
}

static const struct evsel_group *group_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (!strcmp(name, groups[i].name))
			return &groups[i];
	return NULL;
}

/* One name or group of the selection. */
static int evsel_token(struct evsel *s, const char *tok, int add)
{
	const struct evsel_group *g;
	char name[TRACE_EVENT_NAME_MAX + 16];
	trace_event_id_t id, id2;
	int optional = 0, n;

	while (*tok == '?') {
		optional = 1;
		tok++;
	}
	if (tok[0] == '%' || tok[0] == '/') {
		s->syscalls |= add;
		n = evsel_pattern(s, tok, add, optional);
		if (n || optional)
			return n < 0 ? -1 : 0;
		cli_err("-e: '%s' matches no syscall of this kernel", tok);
		return -1;
	}
	g = group_of(tok);
	if (g && !g->cls && g->lo[0] == PTBPF_EV_SYSCALL_BASE && !g->hi[1])
		s->syscalls |= add;
	else if (g)
		s->other |= add;
	if (g && g->cls)
		return evsel_class(s, g->cls, add);
	if (g) {
		if (evsel_range(s, g->lo[0], g->hi[0], add) ||
		    (g->hi[1] && evsel_range(s, g->lo[1], g->hi[1], add)))
			return -1;
		return 0;
	}
	if (probe_is_spec(tok) || !strncmp(tok, "user:", 5))
		s->other |= add;
	if (probe_is_spec(tok)) {
		struct evsel_op op = { .kind = EVSEL_PROBE, .add = add, .probe = strdup(tok) };

		if (!op.probe) {
			cli_err("out of memory");
			return -1;
		}
		if (evsel_push(s, &op)) {
			free(op.probe);
			return -1;
		}
		return 0;
	}
	if (!strncmp(tok, "user:", 5)) {
		struct evsel_op op = { .kind = EVSEL_USER, .add = add };

		if (!tok[5] || strlen(tok + 5) >= sizeof(op.user)) {
			cli_err("-e: '%s': a user event name has 1 to %d characters", tok,
				TRACE_EVENT_NAME_MAX - 1);
			return -1;
		}
		strcpy(op.user, tok + 5);
		return evsel_push(s, &op);
	}
	if (!ptbpf_system_eventid(tok, &id)) {
		s->other |= add;
		return evsel_range(s, id, id, add);
	}
	s->syscalls |= add; /* a syscall's name */
	snprintf(name, sizeof(name), "sys_enter_%s", tok);
	if (ptbpf_system_eventid(name, &id)) {
		if (optional)
			return 0;
		cli_err("-e: unknown event or group '%s' ('ptbpf list' shows the events; user "
			"events are written user:NAME)",
			tok);
		return -1;
	}
	snprintf(name, sizeof(name), "sys_exit_%s", tok);
	if (!ptbpf_system_eventid(name, &id2) && evsel_range(s, id2, id2, add))
		return -1;
	return evsel_range(s, id, id, add);
}

/* One more TYPE of the probe of op, its spec's last comma-separated word. */
static int evsel_probe_type(struct evsel_op *op, const char *tok)
{
	size_t n = strlen(op->probe);
	char *p = realloc(op->probe, n + strlen(tok) + 2);

	if (!p) {
		cli_err("out of memory");
		return -1;
	}
	op->probe = p;
	p[n] = ',';
	strcpy(p + n + 1, tok);
	return 0;
}

int evsel_check_probes(const struct evsel *s, pid_t pid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ops[i].kind == EVSEL_PROBE && probe_check(s->ops[i].probe, pid))
			return -1;
	return 0;
}

int evsel_parse(struct evsel *s, const char *spec)
{
	char *copy = strdup(spec), *tok, *save = NULL;
	int first = 1, ret = 0;

	memset(s, 0, sizeof(*s));
	if (!copy) {
		cli_err("out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		int add = 1;

		while (*tok == ' ')
			tok++;
		if (*tok == '!') {
			add = 0;
			tok++;
		}
		if (!*tok)
			continue;
		/* a probe's TYPES go on past the commas */
		if (add && s->n && s->ops[s->n - 1].kind == EVSEL_PROBE && probe_is_type(tok)) {
			ret = evsel_probe_type(&s->ops[s->n - 1], tok);
			continue;
		}
		if (first && !add)
			s->from_all = 1;
		first = 0;
		ret = evsel_token(s, tok, add);
	}
	free(copy);
	if (ret)
		evsel_free(s);
	return ret;
}

static void set_range(trace_event_set_t *set, trace_event_id_t lo, trace_event_id_t hi, int add)
{
	for (trace_event_id_t id = lo; id <= hi; id++) {
		if (add)
			posix_trace_eventset_add(id, set);
		else
			posix_trace_eventset_del(id, set);
	}
}

/* kernel: without a stream (trid, evsel_kernel), user events left out, all
 * their ids in if a probe is selected (its programs are then loaded). */
static int evsel_build(const struct evsel *s, trace_id_t trid, trace_event_set_t *sel, int kernel)
{
	trace_event_id_t id;
	size_t i;
	int err, probes = 0;

	posix_trace_eventset_empty(sel);
	if (s->from_all) {
		posix_trace_eventset_fill(sel, POSIX_TRACE_ALL_EVENTS);
		for (i = 0; i < sizeof(default_off) / sizeof(default_off[0]); i++) {
			const struct evsel_group *g = group_of(default_off[i]);
			const struct ptbpf_event_desc *d;

			for (id = PTBPF_EV_KERNEL_FIRST; g->cls && id <= PTBPF_EV_KERNEL_LAST; id++)
				if ((d = ptbpf_event_desc(id)) && !strcmp(d->group, g->cls))
					posix_trace_eventset_del(id, sel);
			if (!g->cls)
				set_range(sel, g->lo[0], g->hi[0], 0);
			if (!g->cls && g->hi[1])
				set_range(sel, g->lo[1], g->hi[1], 0);
		}
	}
	if (s->strace_lines && s->syscalls && !s->other && !s->from_all) {
		/* strace's -e trace= selects syscalls; it prints the signals
		 * and how each process ended all the same */
		struct evsel extra = { 0 };

		if (!evsel_class(&extra, "signal", 1) && !ptbpf_system_eventid("proc_exit", &id))
			evsel_range(&extra, id, id, 1);
		for (i = 0; i < extra.n; i++)
			set_range(sel, extra.ops[i].lo, extra.ops[i].hi, 1);
		evsel_free(&extra);
	}
	for (i = 0; i < s->n; i++) {
		const struct evsel_op *op = &s->ops[i];

		if (op->kind == EVSEL_RANGE) {
			set_range(sel, op->lo, op->hi, op->add);
			continue;
		}
		if (kernel) {
			probes |= op->kind == EVSEL_PROBE && op->add;
			continue;
		}
		if (op->kind == EVSEL_PROBE) {
			if (probe_add(trid, op->probe, sel, op->add))
				return -1;
			continue;
		}
		err = posix_trace_trid_eventid_open(trid, op->user, &id);
		if (err) {
			cli_err("-e: cannot register user event '%s': %s", op->user, strerror(err));
			return -1;
		}
		set_range(sel, id, id, op->add);
	}
	for (i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		posix_trace_eventset_add(always[i], sel);
	if (kernel)
		set_range(sel, PTBPF_EV_USER_BASE, PTBPF_EV_ID_LIMIT - 1, probes);
	return 0;
}

int evsel_select(const struct evsel *s, trace_id_t trid, trace_event_set_t *sel)
{
	return evsel_build(s, trid, sel, 0);
}

void evsel_kernel(const struct evsel *s, trace_event_set_t *sel)
{
	(void)evsel_build(s, 0, sel, 1);
}

void evsel_complement(const trace_event_set_t *sel, trace_event_set_t *filter)
{
	posix_trace_eventset_fill(filter, POSIX_TRACE_ALL_EVENTS);
	for (trace_event_id_t id = 1; id < PTBPF_EV_ID_LIMIT; id++) {
		int m = 0;

		posix_trace_eventset_ismember(id, sel, &m);
		if (m)
			posix_trace_eventset_del(id, filter);
	}
}

int evsel_filter(const struct evsel *s, trace_id_t trid, trace_event_set_t *filter)
{
	trace_event_set_t sel;

	if (evsel_select(s, trid, &sel))
		return -1;
	/* the filter is what is not selected */
	evsel_complement(&sel, filter);
	return 0;
}

void evsel_free(struct evsel *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ops[i].kind == EVSEL_PROBE)
			free(s->ops[i].probe);
	free(s->ops);
	memset(s, 0, sizeof(*s));
}
