// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Probes of unmodified programs: the symbols or USDT probes a spec
 * matches, and their event types in a stream, each attached in the kernel
 * backend with its id.
 */
#include "core/probes.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/probe.h"
#include "backend/probe_elf.h"
#include "backend/probe_path.h"
#include "core/probe_spec.h"
#include "core/stream_int.h"

/* The matches of a spec, as provider and name (uprobes: no provider). */
struct match {
	char provider[64];
	char name[256];
};

struct matches {
	const struct ptbpf_probe_spec *p;
	struct match m[PTBPF_PROBE_MATCH_MAX];
	size_t n, max;
	/* listing: the caller's callback instead of the array */
	ptbpf_probe_list_fn fn;
	void *ctx;
};

static bool pattern_ok(const char *pattern, const char *s)
{
	return !*pattern || !fnmatch(pattern, s, 0);
}

/* One candidate: counted, kept or handed to the lister if it matches. */
static int match_one(struct matches *ms, const char *prov, const char *name)
{
	char full[TRACE_EVENT_NAME_MAX + 256];
	struct match *m;

	if (!pattern_ok(ms->p->name, name) || (prov && !pattern_ok(ms->p->provider, prov)))
		return 0;
	if (ms->fn) {
		snprintf(full, sizeof(full), "%s%s%s", prov ? prov : "", prov ? ":" : "", name);
		return ms->fn(ms->ctx, full);
	}
	if (ms->n >= ms->max)
		return -E2BIG;
	m = &ms->m[ms->n++];
	if (strlen(name) >= sizeof(m->name) || (prov && strlen(prov) >= sizeof(m->provider)))
		return -ENAMETOOLONG;
	strcpy(m->name, name);
	strcpy(m->provider, prov ? prov : "");
	return 0;
}

static int on_symbol(void *ctx, const char *name)
{
	return match_one(ctx, NULL, name);
}

static int on_usdt(void *ctx, const char *prov, const char *name)
{
	return match_one(ctx, prov, name);
}

/* Walk the candidates of p in file. */
static int walk(struct matches *ms, const char *file)
{
	if (ms->p->kind == PTBPF_PROBE_USDT)
		return probe_elf__usdt(file, on_usdt, ms);
	return probe_elf__symbols(file, on_symbol, ms);
}

int probes__resolve(const char *path, pid_t pid, char *buf, size_t size)
{
	return probe_path__resolve(path, pid, buf, size);
}

int probes__list(const char *spec, pid_t pid, ptbpf_probe_list_fn fn, void *ctx)
{
	struct ptbpf_probe_spec *p = malloc(sizeof(*p));
	struct matches *ms = calloc(1, sizeof(*ms));
	char *file = malloc(PATH_MAX);
	int err = -ENOMEM;

	if (!p || !ms || !file)
		goto out;
	err = probe_spec__parse(spec, p);
	if (!err)
		err = probe_path__resolve(p->path, pid, file, PATH_MAX);
	if (err)
		goto out;
	ms->p = p;
	ms->fn = fn;
	ms->ctx = ctx;
	err = walk(ms, file);
out:
	free(file);
	free(ms);
	free(p);
	return err;
}

/* Attach match m of p (in file) as an event type of s, its id in *id. */
static int add_one(struct pt_stream *s, const struct ptbpf_probe_spec *p, const char *file,
		   const struct match *m, uint32_t *id)
{
	char name[TRACE_EVENT_NAME_MAX];
	struct probe_target t = { .kind = p->kind, .path = file, .offset = p->offset };
	bool known;
	int err;

	err = probe_spec__type_name(p, m->provider, m->name, name);
	if (err)
		return err;
	known = !evtypes__lookup(&s->types, name, false, id);
	if (!known) {
		err = evtypes__lookup(&s->types, name, true, id);
		if (err)
			return err;
		if (*id == POSIX_TRACE_UNNAMED_USEREVENT)
			return -EAGAIN;
	}
	t.id = *id;
	t.str_mask = probe_spec__str_mask(p);
	if (p->kind == PTBPF_PROBE_USDT) {
		t.provider = m->provider;
		t.usdt_name = m->name;
	} else {
		t.symbol = m->name;
	}
	err = kern_backend__add_probe(s->kb, &t);
	if (!err && !known && s->log)
		stream_log__type(s->log, &s->types, *id);
	return err;
}

int stream__add_probe(struct pt_stream *s, const char *spec, uint32_t *ids, size_t max,
		      size_t *count)
{
	struct ptbpf_probe_spec *p = malloc(sizeof(*p));
	struct matches *ms = calloc(1, sizeof(*ms));
	char *file = malloc(PATH_MAX);
	int err = -ENOMEM;

	*count = 0;
	if (!p || !ms || !file)
		goto out;
	err = probe_spec__parse(spec, p);
	if (!err && !p->name[0])
		err = -EINVAL;
	if (!err && !probe__supported())
		err = -EOPNOTSUPP;
	if (!err)
		err = probe_path__resolve(p->path, s->pid, file, PATH_MAX);
	if (err)
		goto out;
	ms->p = p;
	ms->max = max < PTBPF_PROBE_MATCH_MAX ? max : PTBPF_PROBE_MATCH_MAX;
	err = walk(ms, file);
	if (!err && !ms->n)
		err = -ESRCH;
	if (err)
		goto out;
	/* an error leaves the matches before it attached: they are counted */
	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; !err && i < ms->n; i++) {
		err = add_one(s, p, file, &ms->m[i], &ids[i]);
		if (!err)
			++*count;
	}
	pthread_mutex_unlock(&s->lock);
out:
	free(file);
	free(ms);
	free(p);
	return err;
}
