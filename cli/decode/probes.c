// SPDX-License-Identifier: LGPL-2.1-or-later
/* Probes of unmodified programs in the CLI (see probes.h). */
#include "decode/probes.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

static const char *const spec_words[] = { "uprobe:", "uretprobe:", "usdt:" };
static const char *const type_words[] = { "int", "uint", "hex", "str" };

bool probe_is_spec(const char *tok)
{
	for (size_t i = 0; i < sizeof(spec_words) / sizeof(spec_words[0]); i++)
		if (!strncmp(tok, spec_words[i], strlen(spec_words[i])))
			return true;
	return false;
}

bool probe_is_type(const char *tok)
{
	for (size_t i = 0; i < sizeof(type_words) / sizeof(type_words[0]); i++)
		if (!strcmp(tok, type_words[i]))
			return true;
	return false;
}

static int count_one(void *ctx, const char *name)
{
	(void)name;
	++*(size_t *)ctx;
	return 0;
}

/* What a failed look-up of spec means, said. */
static void probe_say(const char *spec, const struct ptbpf_probe_spec *p, int err, pid_t pid)
{
	char file[PATH_MAX];
	const char *what = p->kind == PTBPF_PROBE_USDT ? "USDT probe" : "function symbol";

	switch (err) {
	case ENOENT:
		cli_err("-e '%s': %s: no such file%s", spec, p->path,
			strchr(p->path, '/') ? "" : ", program or library");
		break;
	case ENOEXEC:
		cli_err("-e '%s': %s: not an ELF file", spec, p->path);
		break;
	case ESRCH:
		if (ptbpf_probe_resolve(p->path, pid, file, sizeof(file)))
			snprintf(file, sizeof(file), "%s", p->path);
		cli_err("-e '%s': no %s %s%s%s in %s", spec, what, p->provider,
			*p->provider ? ":" : "", p->name, file);
		break;
	case E2BIG:
		cli_err("-e '%s': matches more than %d %ss", spec, PTBPF_PROBE_MATCH_MAX, what);
		break;
	case EOPNOTSUPP:
		cli_err("-e '%s': probes need Linux 5.15 or later (BPF cookies)", spec);
		break;
	case ENAMETOOLONG:
		cli_err("-e '%s': an event type name would have %d characters or more", spec,
			TRACE_EVENT_NAME_MAX);
		break;
	default:
		cli_err("-e '%s': %s", spec, strerror(err));
		break;
	}
}

int probe_check(const char *spec, pid_t pid)
{
	struct ptbpf_probe_spec p;
	size_t n = 0;
	int err;

	if (ptbpf_probe_parse(spec, &p) || !p.name[0]) {
		cli_err("-e '%s': a probe is uprobe:PATH:SYMBOL[+OFFSET][:TYPES], "
			"uretprobe:PATH:SYMBOL[:TYPE] or usdt:PATH:[PROVIDER:]NAME[:TYPES] "
			"(TYPES: int, uint, hex, str, comma-separated)",
			spec);
		return -1;
	}
	err = ptbpf_probe_list(spec, pid, count_one, &n);
	if (!err && !n)
		err = ESRCH;
	if (!err && n > PTBPF_PROBE_MATCH_MAX)
		err = E2BIG;
	if (err) {
		probe_say(spec, &p, err, pid);
		return -1;
	}
	return 0;
}

int probe_add(trace_id_t trid, const char *spec, trace_event_set_t *sel, int add)
{
	trace_event_id_t ids[PTBPF_PROBE_MATCH_MAX];
	struct ptbpf_probe_spec p;
	size_t n = 0;
	int err;

	err = ptbpf_probe_parse(spec, &p);
	if (!err)
		err = ptbpf_trace_add_probe(trid, spec, ids, PTBPF_PROBE_MATCH_MAX, &n);
	if (err) {
		probe_say(spec, &p, err, 0);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (add)
			posix_trace_eventset_add(ids[i], sel);
		else
			posix_trace_eventset_del(ids[i], sel);
	}
	return 0;
}

struct list_ctx {
	const char *kind, *path;
	int json;
};

static int list_one(void *ctx, const char *name)
{
	const struct list_ctx *l = ctx;

	if (l->json)
		printf("{\"name\":\"%s:%s:%s\",\"group\":\"%s\"}\n", l->kind, l->path, name,
		       l->kind);
	else
		printf("%s:%s:%s\n", l->kind, l->path, name);
	return 0;
}

int probe_list(const char *spec, int json)
{
	struct ptbpf_probe_spec p;
	char file[PATH_MAX];
	struct list_ctx l = { .json = json };
	int err;

	l.path = file;

	if (ptbpf_probe_parse(spec, &p) || p.kind == PTBPF_PROBE_URETPROBE) {
		cli_err("list: '%s': list uprobe:PATH[:PATTERN] or usdt:PATH[:[PROVIDER:]PATTERN]",
			spec);
		return CLI_EXIT_USAGE;
	}
	err = ptbpf_probe_resolve(p.path, 0, file, sizeof(file));
	l.kind = p.kind == PTBPF_PROBE_USDT ? "usdt" : "uprobe";
	if (!err)
		err = ptbpf_probe_list(spec, 0, list_one, &l);
	if (err == ENOENT || err == ENOEXEC) {
		cli_err("list: %s: %s", p.path,
			err == ENOENT ? "no such file, program or library" : "not an ELF file");
		return CLI_EXIT_USAGE;
	}
	if (err) {
		cli_err("list: %s: %s", spec, strerror(err));
		return CLI_EXIT_FAIL;
	}
	return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* ------------------------------------------------------------------------- */
/* Events */

/* A payload, copied out of the reader's buffer and checked. */
struct probe_ev {
	size_t str_off[PTBPF_PROBE_STRS_MAX];
	/* last: e ends in a flexible array */
	union {
		struct ptbpf_ev_probe e;
		char raw[offsetof(struct ptbpf_ev_probe, strs) +
			 PTBPF_PROBE_STRS_MAX * PTBPF_PROBE_STR_MAX];
	};
};

/* false: too short, or its counts and lengths do not add up (a damaged log). */
static bool probe_ev_load(struct probe_ev *pe, const void *data, size_t len)
{
	size_t fixed = offsetof(struct ptbpf_ev_probe, strs), off = 0;

	if (len < fixed)
		return false;
	memcpy(pe->raw, data, len < sizeof(pe->raw) ? len : sizeof(pe->raw));
	if (pe->e.nargs > PTBPF_PROBE_ARGS_MAX || pe->e.nstrs > PTBPF_PROBE_STRS_MAX)
		return false;
	for (unsigned int i = 0; i < pe->e.nstrs; i++) {
		pe->str_off[i] = off;
		if (pe->e.str_len[i] > PTBPF_PROBE_STR_MAX ||
		    pe->e.str_arg[i] >= PTBPF_PROBE_ARGS_MAX)
			return false;
		off += pe->e.str_len[i];
	}
	return off <= len - fixed && off <= sizeof(pe->raw) - fixed;
}

/* The string read for argument a, or NULL: *n its bytes without the NUL. */
static const char *probe_ev_str(const struct probe_ev *pe, unsigned int a, size_t *n)
{
	for (unsigned int i = 0; i < pe->e.nstrs; i++) {
		const char *s = pe->e.strs + pe->str_off[i];

		if (pe->e.str_arg[i] != a || !pe->e.str_len[i])
			continue;
		*n = strnlen(s, pe->e.str_len[i]);
		return s;
	}
	return NULL;
}

/* Argument i as its type says (text: strace's style; JSON: a value). */
static void probe_arg(struct sbuf *b, const struct probe_ev *pe, unsigned int i, int type,
		      bool text)
{
	uint64_t v = pe->e.args[i];
	const char *s;
	size_t n;

	switch (type) {
	case PTBPF_PROBE_ARG_STR:
		s = probe_ev_str(pe, i, &n);
		if (!s)
			break;
		if (!text) {
			sb_json_str(b, s, n);
			return;
		}
		sb_quote(b, s, n);
		if (pe->e.flags & PTBPF_PROBE_STR_TRUNCATED && n == PTBPF_PROBE_STR_MAX - 1)
			sb_puts(b, "...");
		return;
	case PTBPF_PROBE_ARG_INT:
		sb_dec(b, (int64_t)v);
		return;
	case PTBPF_PROBE_ARG_UINT:
		sb_udec(b, v, 0);
		return;
	default:
		break;
	}
	if (text)
		sb_xhex(b, v);
	else
		sb_udec(b, v, 0);
}

int probe_fmt(struct sbuf *b, const char *name, const void *data, size_t len, bool text)
{
	struct ptbpf_probe_spec p;
	struct probe_ev pe;
	unsigned int n, i;
	int dflt;

	if (ptbpf_probe_parse(name, &p) || !p.name[0] || !probe_ev_load(&pe, data, len) ||
	    pe.e.kind != p.kind)
		return -1;
	/* the arguments the spec types, else all the event has */
	n = p.ntypes ? p.ntypes : pe.e.nargs;
	if (n > pe.e.nargs)
		n = pe.e.nargs;
	dflt = p.kind == PTBPF_PROBE_USDT ? PTBPF_PROBE_ARG_INT : PTBPF_PROBE_ARG_HEX;
	if (!text) {
		sb_puts(b, p.kind == PTBPF_PROBE_URETPROBE ? ",\"ret\":" : ",\"args\":[");
		for (i = 0; i < n; i++) {
			if (i && p.kind != PTBPF_PROBE_URETPROBE)
				sb_putc(b, ',');
			probe_arg(b, &pe, i, p.ntypes ? p.types[i] : dflt, false);
		}
		if (p.kind != PTBPF_PROBE_URETPROBE)
			sb_putc(b, ']');
		return 0;
	}
	if (p.kind == PTBPF_PROBE_USDT)
		sb_printf(b, "usdt %s:%s(", p.provider, p.name);
	else if (p.kind == PTBPF_PROBE_URETPROBE)
		sb_printf(b, "uretprobe %s = ", p.name);
	else if (p.offset)
		sb_printf(b, "uprobe %s+%#lx(", p.name, p.offset);
	else
		sb_printf(b, "uprobe %s(", p.name);
	for (i = 0; i < n; i++) {
		if (i)
			sb_puts(b, ", ");
		probe_arg(b, &pe, i, p.ntypes ? p.types[i] : dflt, true);
	}
	if (p.kind != PTBPF_PROBE_URETPROBE)
		sb_putc(b, ')');
	return 0;
}
