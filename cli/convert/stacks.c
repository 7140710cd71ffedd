// SPDX-License-Identifier: LGPL-2.1-or-later
/* Chrome/Perfetto stack frames: each (caller, name) once, by id. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/events.h>

#include "convert/convert.h"
#include "stack/stack.h"

struct frame_node {
	unsigned int parent; /* 0: the root */
	char *name;
};

struct frame_tree {
	struct stack_view *sv;
	struct frame_node *n; /* n[0] unused: ids start at 1 */
	size_t len, cap;
	unsigned int *slot; /* open addressing over node ids, 0: free */
	size_t nslot;
};

static uint64_t node_hash(unsigned int parent, const char *name)
{
	uint64_t h = 1469598103934665603ull ^ parent;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ull;
	return h;
}

struct frame_tree *frame_tree_new(void)
{
	struct frame_tree *t = calloc(1, sizeof(*t));

	if (t && !(t->sv = stack_view_new())) {
		free(t);
		t = NULL;
	}
	return t;
}

void frame_tree_free(struct frame_tree *t)
{
	if (!t)
		return;
	for (size_t i = 1; i < t->len; i++)
		free(t->n[i].name);
	free(t->n);
	free(t->slot);
	stack_view_free(t->sv);
	free(t);
}

static int grow_slots(struct frame_tree *t)
{
	size_t ns = t->nslot ? 2 * t->nslot : 1024;
	unsigned int *s = calloc(ns, sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 1; i < t->len; i++) {
		size_t k = node_hash(t->n[i].parent, t->n[i].name) & (ns - 1);

		while (s[k])
			k = (k + 1) & (ns - 1);
		s[k] = (unsigned int)i;
	}
	free(t->slot);
	t->slot = s;
	t->nslot = ns;
	return 0;
}

/* The id of (parent, name), added if new; 0 when out of memory. */
static unsigned int node_id(struct frame_tree *t, unsigned int parent, const char *name)
{
	size_t k;

	if ((t->len + 1) * 2 > t->nslot && grow_slots(t))
		return 0;
	for (k = node_hash(parent, name) & (t->nslot - 1); t->slot[k]; k = (k + 1) & (t->nslot - 1))
		if (t->n[t->slot[k]].parent == parent && !strcmp(t->n[t->slot[k]].name, name))
			return t->slot[k];
	if (!t->len)
		t->len = 1;
	if (t->len >= t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct frame_node *n = realloc(t->n, cap * sizeof(*n));

		if (!n)
			return 0;
		t->n = n;
		t->cap = cap;
	}
	t->n[t->len].parent = parent;
	t->n[t->len].name = strdup(name);
	if (!t->n[t->len].name)
		return 0;
	t->slot[k] = (unsigned int)t->len;
	return (unsigned int)t->len++;
}

/* The frames fr[from, to) chained on parent, outermost first: the
 * innermost's id, 0 when out of memory. */
static unsigned int chain(struct frame_tree *t, unsigned int id, const struct stack_frames *fr,
			  size_t from, size_t to)
{
	char name[1024];

	/* from the outermost caller in: each frame's parent is its caller */
	for (size_t i = to; i-- > from;) {
		const struct stack_frame *f = &fr->f[i];

		if (f->symbol)
			snprintf(name, sizeof(name), "%s (%s)", f->symbol, f->module);
		else if (f->module)
			snprintf(name, sizeof(name), "%s+%#lx", f->module,
				 (unsigned long)f->modoff);
		else
			snprintf(name, sizeof(name), "%#lx", (unsigned long)f->pc);
		id = node_id(t, id, name);
		if (!id)
			break;
	}
	return id;
}

unsigned int frame_tree_event(struct frame_tree *t, const struct cli_ev *ev, unsigned int parent)
{
	struct stack_frames *fr = NULL;
	unsigned int id = 0;
	size_t nuser = 0;

	switch (ev->info.posix_event_id) {
	case PTBPF_EV_PROC_MAP:
		stack_view_map(t->sv, ev->info.posix_pid, ev->data, ev->len);
		return 0;
	case PTBPF_EV_PROC_EXIT:
		stack_view_gone(t->sv, ev->info.posix_pid);
		return 0;
	case PTBPF_EV_STACK_TRACE:
		stack_view_table(t->sv, ev->data, ev->len);
		return 0;
	case PTBPF_EV_USER_STACK:
		fr = stack_view_frames(t->sv, ev->info.posix_pid, ev->data, ev->len);
		break;
	case PTBPF_EV_STACK_REF:
		if (stack_view_ref(t->sv, ev->info.posix_pid, ev->data, ev->len, &fr) <= 0)
			break;
		/* kernel frames alone go on the user stack copied before */
		if (fr->n && !fr->f[0].kernel)
			parent = 0;
		id = parent;
		break;
	default:
		return 0;
	}
	while (fr && nuser < fr->n && !fr->f[nuser].kernel)
		nuser++;
	if (fr) {
		id = chain(t, id, fr, 0, nuser);
		if (id || !nuser)
			id = chain(t, id, fr, nuser, fr->n);
	}
	stack_frames_free(fr);
	return id;
}

void frame_tree_json(const struct frame_tree *t, struct sbuf *b)
{
	if (t->len < 2)
		return;
	sb_puts(b, ",\"stackFrames\":{");
	for (size_t i = 1; i < t->len; i++) {
		sb_printf(b, "%s\"%zu\":{\"name\":", i > 1 ? "," : "", i);
		sb_json_str(b, t->n[i].name, strlen(t->n[i].name));
		if (t->n[i].parent)
			sb_printf(b, ",\"parent\":\"%u\"", t->n[i].parent);
		sb_putc(b, '}');
	}
	sb_putc(b, '}');
}
