// SPDX-License-Identifier: LGPL-2.1-or-later
/* Each distinct stack of a stream once, by id (open addressing on a hash). */
#include "backend/kern_stack.h"

#include <stdlib.h>
#include <string.h>

/* Distinct stacks kept at most (a table of twice as many slots). */
#define KERN_STACKS_MAX 16384u

struct kern_stack_ent {
	uint64_t hash;
	uint32_t id; /* 0: a free slot */
	uint16_t n;
	bool kernel;
	uint64_t *ips;
};

struct kern_stacks {
	struct kern_stack_ent *slot;
	size_t nslot, used;
	uint32_t next_id;
};

struct kern_stacks *kern_stacks__new(void)
{
	struct kern_stacks *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->nslot = 2 * KERN_STACKS_MAX;
	t->slot = calloc(t->nslot, sizeof(*t->slot));
	if (!t->slot) {
		free(t);
		return NULL;
	}
	t->next_id = 1;
	return t;
}

static void kern_stacks__clear(struct kern_stacks *t)
{
	for (size_t i = 0; i < t->nslot; i++)
		free(t->slot[i].ips);
	memset(t->slot, 0, t->nslot * sizeof(*t->slot));
	t->used = 0;
}

void kern_stacks__free(struct kern_stacks *t)
{
	if (!t)
		return;
	kern_stacks__clear(t);
	free(t->slot);
	free(t);
}

/* FNV-1a over the addresses and the kind */
static uint64_t stack_hash(bool kernel, const uint64_t *ips, size_t n)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)kernel;

	for (size_t i = 0; i < n; i++)
		h = (h ^ ips[i]) * 1099511628211ull;
	return h;
}

uint32_t kern_stacks__id(struct kern_stacks *t, bool kernel, const uint64_t *ips, size_t n,
			 bool *fresh)
{
	uint64_t h = stack_hash(kernel, ips, n);
	struct kern_stack_ent *e;
	size_t k;

	*fresh = false;
	if (n > UINT16_MAX)
		return 0;
	for (k = h & (t->nslot - 1); t->slot[k].id; k = (k + 1) & (t->nslot - 1)) {
		e = &t->slot[k];
		if (e->hash == h && e->kernel == kernel && e->n == n &&
		    !memcmp(e->ips, ips, n * sizeof(*ips)))
			return e->id;
	}
	if (t->next_id == UINT32_MAX)
		return 0;
	if (t->used >= KERN_STACKS_MAX) {
		/* bounded memory: the stacks seen so far are written again */
		kern_stacks__clear(t);
		k = h & (t->nslot - 1);
	}
	e = &t->slot[k];
	e->ips = malloc(n ? n * sizeof(*ips) : 1);
	if (!e->ips)
		return 0;
	memcpy(e->ips, ips, n * sizeof(*ips));
	e->hash = h;
	e->n = (uint16_t)n;
	e->kernel = kernel;
	e->id = t->next_id++;
	t->used++;
	*fresh = true;
	return e->id;
}
