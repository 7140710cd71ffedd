// SPDX-License-Identifier: LGPL-2.1-or-later
/* The kernel side of the rings faulted in at creation: see ring_prefault.h. */
#include "backend/ring_prefault.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../bpf/ring_prefault.h"
#include "ring_prefault.skel.h"

/* A ring's consumer page (read-write) and producer page, and its progress. */
struct ring_pos {
	unsigned long *cons;
	const unsigned long *prod;
	size_t done; /* bytes written through, a record a page */
};

struct ring_prefault {
	struct ring_prefault_bpf *skel;
	struct ring_pos *pos;
	int n;
	size_t size; /* of each ring */
	int next;    /* the ring the next step does */
	bool failed;
};

static int ring_pos__map(struct ring_pos *r, int ring_fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *c, *q;

	c = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, ring_fd, 0);
	if (c == MAP_FAILED)
		return -errno;
	q = mmap(NULL, page, PROT_READ, MAP_SHARED, ring_fd, (off_t)page);
	if (q == MAP_FAILED) {
		int err = -errno;

		munmap(c, page);
		return err;
	}
	r->cons = c;
	r->prod = q;
	return 0;
}

/*
 * The consumer position moved to the producer's: what was written is
 * passed over, and a ring never fills (a lap ends with a record only if
 * the consumer is past its start).
 */
static void ring_pos__catch_up(struct ring_pos *r)
{
	__atomic_store_n(r->cons, __atomic_load_n(r->prod, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
}

static void ring_prefault__free(struct ring_prefault *p)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (int i = 0; p->pos && i < p->n; i++) {
		if (p->pos[i].cons)
			munmap(p->pos[i].cons, page);
		if (p->pos[i].prod)
			munmap((void *)p->pos[i].prod, page);
	}
	free(p->pos);
	ring_prefault_bpf__destroy(p->skel);
	free(p);
}

int ring_prefault__open(struct ring_prefault **out, int outer, const int *ring_fds, int n,
			size_t size)
{
	struct ring_prefault *p;
	int err;

	if (n < 1)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->n = n;
	p->size = size;
	p->pos = calloc((size_t)n, sizeof(*p->pos));
	p->skel = ring_prefault_bpf__open();
	if (!p->pos || !p->skel) {
		err = p->skel ? -ENOMEM : errno ? -errno : -ENOMEM;
		goto fail;
	}
	err = bpf_map__reuse_fd(p->skel->maps.rings, outer);
	if (!err)
		err = ring_prefault_bpf__load(p->skel);
	for (int i = 0; i < n && !err; i++)
		err = ring_pos__map(&p->pos[i], ring_fds[i]);
	if (err)
		goto fail;
	*out = p;
	return 0;
fail:
	ring_prefault__free(p);
	return err;
}

/*
 * count records of rec bytes (prog's) into ring idx: false if fewer fit.
 * A run writes at most half the ring, the consumer caught up before it.
 */
static bool ring_prefault__records(struct ring_prefault *p, struct bpf_program *prog, size_t rec,
				   int idx, size_t count)
{
	size_t most = p->size / rec / 2;

	if (most > RING_PREFAULT_BATCH)
		most = RING_PREFAULT_BATCH;
	if (!most)
		most = 1;
	while (count) {
		__u64 args[2] = { (__u64)idx, count < most ? count : most };
		LIBBPF_OPTS(bpf_test_run_opts, t, .ctx_in = args, .ctx_size_in = sizeof(args));

		ring_pos__catch_up(&p->pos[idx]);
		if (bpf_prog_test_run_opts(bpf_program__fd(prog), &t) || t.retval != args[1])
			return false;
		count -= args[1];
	}
	return true;
}

bool ring_prefault__step(struct ring_prefault *p)
{
	struct ring_pos *r = &p->pos[p->next];
	size_t chunk = p->size - r->done;

	if (p->failed || !chunk)
		return false;
	if (chunk > RING_PREFAULT_SKIP)
		chunk = RING_PREFAULT_SKIP;
	p->failed =
		!ring_prefault__records(p, p->skel->progs.ptbpf_ring_prefault, RING_PREFAULT_PAGE,
					p->next, chunk / RING_PREFAULT_PAGE);
	r->done += chunk;
	/* the rings in turn: each has as much done when the caller stops */
	p->next = (p->next + 1) % p->n;
	return !p->failed && p->pos[p->next].done < p->size;
}

void ring_prefault__finish(struct ring_prefault *p)
{
	if (!p)
		return;
	/* done is whole MiBs here (or the whole ring): the lap's rest in MiBs */
	for (int i = 0; i < p->n; i++) {
		size_t left = p->size - p->pos[i].done;

		if (!p->failed && left)
			p->failed = !ring_prefault__records(p, p->skel->progs.ptbpf_ring_skip,
							    RING_PREFAULT_SKIP, i,
							    left / RING_PREFAULT_SKIP);
		/* whatever was written, none of it is a record */
		ring_pos__catch_up(&p->pos[i]);
	}
	ring_prefault__free(p);
}
