/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/batch.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int batch__init(struct batch *b)
{
	memset(b, 0, sizeof(*b));
	return 0;
}

void batch__fini(struct batch *b)
{
	free(b->buf);
	free(b->ents);
	free(b->tmp);
	memset(b, 0, sizeof(*b));
}

void batch__reset(struct batch *b)
{
	b->len = 0;
	b->n = 0;
	b->nseg = 0;
}

void batch__new_source(struct batch *b)
{
	if (b->nseg && b->seg[b->nseg - 1] == b->n)
		return; /* the previous source added nothing */
	if (b->nseg < BATCH_MAX_SEGS)
		b->seg[b->nseg++] = b->n;
	/* beyond: the rest is one segment, sorted all the same */
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 64;
	void *np;

	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

int batch__add(struct batch *b, const struct pt_event_hdr *h, const void *data)
{
	size_t sz = (sizeof(*h) + h->data_len + 7) & ~(size_t)7;

	if (b->len + sz > b->cap && grow((void **)&b->buf, &b->cap, b->len + sz, 1))
		return -ENOMEM;
	if (b->n + 1 > b->ncap && grow((void **)&b->ents, &b->ncap, b->n + 1, sizeof(*b->ents)))
		return -ENOMEM;
	memcpy(b->buf + b->len, h, sizeof(*h));
	if (h->data_len)
		memcpy(b->buf + b->len + sizeof(*h), data, h->data_len);
	b->ents[b->n].ts = h->ts;
	b->ents[b->n].seq = b->n;
	b->ents[b->n].off = b->len;
	b->n++;
	b->len += sz;
	return 0;
}

static int cmp_ent(const void *a, const void *b)
{
	const struct batch_ent *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static inline bool ent_before(const struct batch_ent *x, const struct batch_ent *y)
{
	return x->ts < y->ts || (x->ts == y->ts && x->seq < y->seq);
}

/* How far back insertion sort may move one entry before qsort is cheaper. */
#define INSERT_MAX_SHIFT 64

/* Sort e[0..n): insertion sort, or qsort once an entry moves too far. */
static void sort_segment(struct batch_ent *e, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct batch_ent x = e[i];

		if (!ent_before(&x, &e[i - 1]))
			continue;
		for (j = i; j > 0 && ent_before(&x, &e[j - 1]); j--) {
			if (i - j == INSERT_MAX_SHIFT) {
				/* e[j + 1..i] holds the shifted entries: x in
				 * the gap at j keeps e a permutation */
				e[j] = x;
				qsort(e, n, sizeof(*e), cmp_ent);
				return;
			}
			e[j] = e[j - 1];
		}
		e[j] = x;
	}
}

/* Merge the sorted a[0..na) and b[0..nb) into out. */
static void merge2(const struct batch_ent *a, size_t na, const struct batch_ent *b, size_t nb,
		   struct batch_ent *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb)
		out[k++] = ent_before(&b[j], &a[i]) ? b[j++] : a[i++];
	memcpy(&out[k], &a[i], (na - i) * sizeof(*a));
	k += na - i;
	memcpy(&out[k], &b[j], (nb - j) * sizeof(*b));
}

void batch__sort(struct batch *b)
{
	size_t bound[BATCH_MAX_SEGS + 1];
	unsigned int ns = 0, k;
	size_t i;

	for (i = 1; i < b->n; i++)
		if (ent_before(&b->ents[i], &b->ents[i - 1]))
			break;
	if (i >= b->n)
		return; /* already in order: the common case */
	/* segment bounds: 0, each source's start, n */
	bound[ns++] = 0;
	for (k = 0; k < b->nseg; k++)
		if (b->seg[k] > bound[ns - 1] && b->seg[k] < b->n)
			bound[ns++] = b->seg[k];
	bound[ns] = b->n;
	for (k = 0; k < ns; k++)
		sort_segment(b->ents + bound[k], bound[k + 1] - bound[k]);
	if (ns > 1 && b->tcap < b->ncap) {
		struct batch_ent *t = realloc(b->tmp, b->ncap * sizeof(*t));

		if (!t) {
			qsort(b->ents, b->n, sizeof(*b->ents), cmp_ent);
			return;
		}
		b->tmp = t;
		b->tcap = b->ncap;
	}
	/* merge neighbouring segments pairwise until one is left */
	while (ns > 1) {
		unsigned int out = 0;
		struct batch_ent *t;

		for (k = 0; k + 1 < ns; k += 2) {
			merge2(b->ents + bound[k], bound[k + 1] - bound[k], b->ents + bound[k + 1],
			       bound[k + 2] - bound[k + 1], b->tmp + bound[k]);
			bound[out++] = bound[k];
		}
		if (k < ns) {
			memcpy(b->tmp + bound[k], b->ents + bound[k],
			       (bound[k + 1] - bound[k]) * sizeof(*b->ents));
			bound[out++] = bound[k];
		}
		bound[out] = b->n;
		ns = out;
		t = b->ents;
		b->ents = b->tmp;
		b->tmp = t;
		i = b->ncap;
		b->ncap = b->tcap;
		b->tcap = i;
	}
}
