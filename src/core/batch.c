/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/batch.h"

#include <errno.h>
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
	memset(b, 0, sizeof(*b));
}

void batch__reset(struct batch *b)
{
	b->len = 0;
	b->n = 0;
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

void batch__sort(struct batch *b)
{
	size_t i;

	for (i = 1; i < b->n; i++)
		if (b->ents[i].ts < b->ents[i - 1].ts)
			break;
	if (i < b->n)
		qsort(b->ents, b->n, sizeof(*b->ents), cmp_ent);
}
