/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/batch.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Batch memory is mapped, not malloc'ed, and each array sits at the start
 * of a range of address space reserved for it (PROT_NONE: no memory, no
 * commit charge). Growing makes more of the range usable where it is and
 * maps those pages at once. On a virtual machine both matter when a flood
 * outruns a stalled disk and the log's handover buffers grow by megabytes
 * (stream_log.c): a page moved by mremap costs a fault again at its next
 * access, and a page met for the first time one at a time costs about
 * twice what it does when mapped with the others.
 * Trimming gives the pages above the kept size back and keeps the range.
 */
#define BATCH_RESERVE (64u << 20)

static size_t page_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (n + pg - 1) & ~(pg - 1);
}

static void *reserve(size_t len)
{
	return mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}

/*
 * (*p, *cap elements, *res bytes reserved) becomes want elements; want 0
 * unmaps the range. fault: the pages added are faulted in now.
 */
static int remap_pages(void **p, size_t *cap, size_t *res, size_t want, size_t elem, bool fault)
{
	size_t old = page_round(*cap * elem), sz = page_round(want * elem);
	uint8_t *base = *p, *nb;
	size_t r;

	if (sz == old) {
		*cap = old / elem;
		return 0;
	}
	if (!sz) {
		munmap(base, *res);
		*p = NULL;
		*cap = *res = 0;
		return 0;
	}
	if (sz < old) {
		/* a fresh reservation over the pages above: they go back */
		if (mmap(base + sz, old - sz, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
			 0) != MAP_FAILED)
			*cap = sz / elem;
		return 0;
	}
	if (sz > *res) {
		/* past the range (or none yet): a larger one, what is in use
		 * moved into it */
		r = sz > BATCH_RESERVE / 2 ? 2 * sz : BATCH_RESERVE;
		nb = reserve(r);
		if (nb == MAP_FAILED)
			return -ENOMEM;
		if (old &&
		    mremap(base, old, old, MREMAP_MAYMOVE | MREMAP_FIXED, nb) == MAP_FAILED) {
			munmap(nb, r);
			return -ENOMEM;
		}
		if (base && *res > old)
			munmap(base + old, *res - old);
		base = nb;
		*p = nb;
		*res = r;
	}
	if (mprotect(base + old, sz - old, PROT_READ | PROT_WRITE))
		return -ENOMEM;
#ifdef MADV_POPULATE_WRITE
	if (fault)
		(void)madvise(base + old, sz - old, MADV_POPULATE_WRITE); /* Linux 5.14 */
#endif
	*cap = sz / elem;
	return 0;
}

static int remap(void **p, size_t *cap, size_t *res, size_t want, size_t elem)
{
	return remap_pages(p, cap, res, want, elem, true);
}

int batch__init(struct batch *b)
{
	memset(b, 0, sizeof(*b));
	return 0;
}

void batch__fini(struct batch *b)
{
	remap((void **)&b->buf, &b->cap, &b->res, 0, 1);
	remap((void **)&b->ents, &b->ncap, &b->nres, 0, sizeof(*b->ents));
	remap((void **)&b->tmp, &b->tcap, &b->tres, 0, sizeof(*b->tmp));
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

static int grow(void **p, size_t *cap, size_t *res, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 64;

	while (ncap < need)
		ncap *= 2;
	return remap(p, cap, res, ncap, elem);
}

int batch__add(struct batch *b, const struct pt_event_hdr *h, const void *data)
{
	size_t sz = (sizeof(*h) + h->data_len + 7) & ~(size_t)7;

	if (b->len + sz > b->cap && grow((void **)&b->buf, &b->cap, &b->res, b->len + sz, 1))
		return -ENOMEM;
	if (b->n + 1 > b->ncap &&
	    grow((void **)&b->ents, &b->ncap, &b->nres, b->n + 1, sizeof(*b->ents)))
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

int batch__prealloc(struct batch *b, size_t bytes, size_t n, bool merge)
{
	if ((bytes > b->cap && remap((void **)&b->buf, &b->cap, &b->res, bytes, 1)) ||
	    (n > b->ncap && remap((void **)&b->ents, &b->ncap, &b->nres, n, sizeof(*b->ents))) ||
	    (merge && n > b->tcap &&
	     remap((void **)&b->tmp, &b->tcap, &b->tres, n, sizeof(*b->tmp))))
		return -ENOMEM;
	memset(b->buf, 0, b->cap);
	memset(b->ents, 0, b->ncap * sizeof(*b->ents));
	if (b->tmp)
		memset(b->tmp, 0, b->tcap * sizeof(*b->tmp));
	b->keep_bytes = b->cap;
	b->keep_n = b->ncap;
	b->keep_tmp = b->tcap;
	return 0;
}

int batch__prealloc_deferred(struct batch *b, size_t bytes, size_t n, struct populate *later)
{
	if ((bytes > b->cap && remap_pages((void **)&b->buf, &b->cap, &b->res, bytes, 1, false)) ||
	    (n > b->ncap &&
	     remap_pages((void **)&b->ents, &b->ncap, &b->nres, n, sizeof(*b->ents), false)))
		return -ENOMEM;
	populate__add(later, b->buf, b->cap, POPULATE_EAGER);
	populate__add(later, b->ents, b->ncap * sizeof(*b->ents), POPULATE_EAGER);
	b->keep_bytes = b->cap;
	b->keep_n = b->ncap;
	b->keep_tmp = b->tcap;
	return 0;
}

void batch__trim(struct batch *b)
{
	if (b->len <= b->keep_bytes && b->cap > b->keep_bytes)
		remap((void **)&b->buf, &b->cap, &b->res, b->keep_bytes, 1);
	if (b->n <= b->keep_n && b->ncap > b->keep_n)
		remap((void **)&b->ents, &b->ncap, &b->nres, b->keep_n, sizeof(*b->ents));
	if (b->tcap > b->keep_tmp)
		remap((void **)&b->tmp, &b->tcap, &b->tres, b->keep_tmp, sizeof(*b->tmp));
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

/* How far back insertion sort moves one entry at most (then the merge
 * passes of batch__sort put it in place). */
#define INSERT_MAX_SHIFT 64

/* Insertion sort of e[0..n) for entries at most INSERT_MAX_SHIFT out of
 * place; an entry further out stops there (still a permutation). */
static void sort_segment(struct batch_ent *e, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct batch_ent x = e[i];

		if (!ent_before(&x, &e[i - 1]))
			continue;
		for (j = i; j > 0 && i - j < INSERT_MAX_SHIFT && ent_before(&x, &e[j - 1]); j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

/* End of the run in order that starts at i. */
static size_t run_end(const struct batch_ent *e, size_t i, size_t n)
{
	while (i + 1 < n && !ent_before(&e[i + 1], &e[i]))
		i++;
	return i + 1;
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
	size_t bound[BATCH_MAX_SEGS + 2], i, n = b->n; /* 0, the sources, n */
	unsigned int ns = 0, k;

	if (run_end(b->ents, 0, n) >= n)
		return; /* already in order: the common case */
	/* each source's segment: 0, each source's start, n */
	bound[ns++] = 0;
	for (k = 0; k < b->nseg; k++)
		if (b->seg[k] > bound[ns - 1] && b->seg[k] < n)
			bound[ns++] = b->seg[k];
	bound[ns] = n;
	for (k = 0; k < ns; k++)
		sort_segment(b->ents + bound[k], bound[k + 1] - bound[k]);
	if (b->tcap < n && remap((void **)&b->tmp, &b->tcap, &b->tres, n, sizeof(*b->tmp))) {
		qsort(b->ents, n, sizeof(*b->ents), cmp_ent);
		return;
	}
	/* natural merge sort: merge neighbouring runs until one is left */
	while (run_end(b->ents, 0, n) < n) {
		struct batch_ent *t;
		size_t c;

		for (i = 0; i < n;) {
			size_t m = run_end(b->ents, i, n), e;

			if (m == n) {
				memcpy(b->tmp + i, b->ents + i, (n - i) * sizeof(*b->ents));
				break;
			}
			e = run_end(b->ents, m, n);
			merge2(b->ents + i, m - i, b->ents + m, e - m, b->tmp + i);
			i = e;
		}
		t = b->ents;
		b->ents = b->tmp;
		b->tmp = t;
		c = b->ncap;
		b->ncap = b->tcap;
		b->tcap = c;
		c = b->nres;
		b->nres = b->tres;
		b->tres = c;
	}
}
