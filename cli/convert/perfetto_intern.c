/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The names interned on a Perfetto packet sequence: each name is written
 * once (InternedData) and referred to by its iid. The table is capped so
 * that a log of any size converts in bounded memory.
 */
#include <stdlib.h>
#include <string.h>

#include "convert/perfetto_int.h"

struct pf_name {
	char *s; /* NULL: a free slot */
	size_t n;
	uint64_t hash, iid;
	int ns;
};

struct pf_intern {
	struct pf_name *slot;
	size_t nslots, cap, count;
	uint64_t next_iid[2];
};

static uint64_t name_hash(int ns, const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)ns; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
	return h;
}

struct pf_intern *pf_intern_new(size_t cap)
{
	struct pf_intern *t = calloc(1, sizeof(*t));
	size_t n = 16;

	if (!t)
		return NULL;
	while (n < 2 * cap)
		n *= 2;
	t->slot = calloc(n, sizeof(*t->slot));
	if (!t->slot) {
		free(t);
		return NULL;
	}
	t->nslots = n;
	t->cap = cap;
	t->next_iid[0] = t->next_iid[1] = 1;
	return t;
}

void pf_intern_reset(struct pf_intern *t)
{
	for (size_t i = 0; i < t->nslots; i++)
		free(t->slot[i].s);
	memset(t->slot, 0, t->nslots * sizeof(*t->slot));
	t->count = 0;
	t->next_iid[0] = t->next_iid[1] = 1;
}

void pf_intern_free(struct pf_intern *t)
{
	if (!t)
		return;
	pf_intern_reset(t);
	free(t->slot);
	free(t);
}

int pf_intern_full(const struct pf_intern *t)
{
	return t->count >= t->cap;
}

/* Its entry in InternedData: EventName or DebugAnnotationName, {iid, name}. */
static void intern_entry(struct sbuf *idata, int ns, uint64_t iid, const char *s, size_t n)
{
	size_t at = pb_open(idata, ns == PF_NS_EVENT ? PF_ID_EVENT_NAMES : PF_ID_ANNOTATION_NAMES);

	pb_uint(idata, ns == PF_NS_EVENT ? PF_EN_IID : PF_DAN_IID, iid);
	pb_bytes(idata, ns == PF_NS_EVENT ? PF_EN_NAME : PF_DAN_NAME, s, n);
	pb_close(idata, at);
}

uint64_t pf_intern(struct pf_intern *t, int ns, const char *name, size_t n, struct sbuf *idata)
{
	uint64_t h = name_hash(ns, name, n);
	size_t i = h & (t->nslots - 1);
	struct pf_name *e;

	for (;; i = (i + 1) & (t->nslots - 1)) {
		e = &t->slot[i];
		if (!e->s)
			break;
		if (e->hash == h && e->ns == ns && e->n == n && !memcmp(e->s, name, n))
			return e->iid;
	}
	/* the caller clears a full table between packets: a packet's own names
	 * (a few) still fit, the slots being twice the cap */
	if (t->count + 1 >= t->nslots / 2 + t->cap / 2)
		return 0;
	e->s = malloc(n + 1);
	if (!e->s)
		return 0;
	memcpy(e->s, name, n);
	e->s[n] = '\0';
	e->n = n;
	e->hash = h;
	e->ns = ns;
	e->iid = t->next_iid[ns]++;
	t->count++;
	intern_entry(idata, ns, e->iid, name, n);
	return e->iid;
}
