// SPDX-License-Identifier: LGPL-2.1-or-later
/* Attaching the probes of bpf/probe.bpf.h (see probe.h). */
#include "backend/probe.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/events.h>

#include "../../bpf/kern.h"
#include "../../bpf/probe.h"
#include "kern.skel.h"

bool probe__supported(void)
{
	static int ok = -1;

	if (ok < 0)
		ok = libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_get_attach_cookie,
					     NULL) == 1;
	return ok;
}

void probe__set_autoload(struct kern_bpf *skel)
{
	bool on = probe__supported();

	bpf_program__set_autoload(skel->progs.ptbpf_uprobe, on);
	bpf_program__set_autoload(skel->progs.ptbpf_uretprobe, on);
	bpf_program__set_autoload(skel->progs.ptbpf_usdt, on);
}

/* The cookie of t (bpf/probe.h): its id, and the first arguments its mask reads as strings. */
static uint64_t probe__cookie(const struct probe_target *t)
{
	uint64_t c = t->id, n = 0;

	for (unsigned int a = 0; a < PTBPF_PROBE_ARGS_MAX && n < PTBPF_PROBE_STRS_MAX; a++)
		if (t->str_mask & (1u << a))
			c |= (uint64_t)a << (36 + 4 * n++);
	return c | n << 32;
}

static struct bpf_link *probe__link(struct kern_bpf *skel, const struct probe_target *t)
{
	uint64_t cookie = probe__cookie(t);

	if (t->kind == PTBPF_PROBE_USDT) {
		LIBBPF_OPTS(bpf_usdt_opts, uo, .usdt_cookie = cookie);

		return bpf_program__attach_usdt(skel->progs.ptbpf_usdt, t->pid, t->path,
						t->provider, t->usdt_name, &uo);
	}
	LIBBPF_OPTS(bpf_uprobe_opts, o, .bpf_cookie = cookie, .func_name = t->symbol,
		    .retprobe = t->kind == PTBPF_PROBE_URETPROBE);
	return bpf_program__attach_uprobe_opts(t->kind == PTBPF_PROBE_URETPROBE
						       ? skel->progs.ptbpf_uretprobe
						       : skel->progs.ptbpf_uprobe,
					       t->pid, t->path, t->offset, &o);
}

int probe__attach(struct kern_bpf *skel, struct probe_links *pl, const struct probe_target *t)
{
	struct bpf_link *l;
	int err;

	if (!probe__supported())
		return -EOPNOTSUPP;
	if (pl->n == pl->cap) {
		size_t cap = pl->cap ? 2 * pl->cap : 16;
		struct bpf_link **links = realloc(pl->links, cap * sizeof(*links));
		uint32_t *ids;

		if (!links)
			return -ENOMEM;
		pl->links = links;
		ids = realloc(pl->ids, cap * sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		pl->ids = ids;
		pl->cap = cap;
	}
	l = probe__link(skel, t);
	if (!l) {
		err = -errno;
		return err ? err : -EINVAL;
	}
	pl->links[pl->n] = l;
	pl->ids[pl->n++] = t->id;
	return 0;
}

static void probe__target_free(struct probe_target *t)
{
	free((char *)t->path);
	free((char *)t->symbol);
	free((char *)t->provider);
	free((char *)t->usdt_name);
}

static char *probe__dup(const char *s, bool *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = true;
	return d;
}

int probe__save(struct probe_links *pl, const struct probe_target *t)
{
	struct probe_target *v = realloc(pl->saved, (pl->nsaved + 1) * sizeof(*v)), *c;
	bool fail = false;

	if (!v)
		return -ENOMEM;
	pl->saved = v;
	c = &v[pl->nsaved];
	*c = *t;
	c->path = probe__dup(t->path, &fail);
	c->symbol = probe__dup(t->symbol, &fail);
	c->provider = probe__dup(t->provider, &fail);
	c->usdt_name = probe__dup(t->usdt_name, &fail);
	if (fail) {
		probe__target_free(c);
		return -ENOMEM;
	}
	pl->nsaved++;
	return 0;
}

int probe__attach_pid(struct kern_bpf *skel, struct probe_links *pl, pid_t pid)
{
	int err = 0;

	for (size_t i = 0; !err && i < pl->nsaved; i++) {
		struct probe_target t = pl->saved[i];

		t.pid = pid;
		err = probe__attach(skel, pl, &t);
	}
	return err;
}

bool probe__has(const struct probe_links *pl, uint32_t id)
{
	for (size_t i = 0; i < pl->n; i++)
		if (pl->ids[i] == id)
			return true;
	return false;
}

void probe__detach_all(struct probe_links *pl)
{
	for (size_t i = 0; i < pl->n; i++)
		bpf_link__destroy(pl->links[i]);
	free(pl->links);
	free(pl->ids);
	for (size_t i = 0; i < pl->nsaved; i++)
		probe__target_free(&pl->saved[i]);
	free(pl->saved);
	pl->links = NULL;
	pl->ids = NULL;
	pl->saved = NULL;
	pl->n = pl->cap = pl->nsaved = 0;
}
