// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The syscalls counted in the kernel (bpf/count.bpf.h): cnt_stats read
 * key by key, each key's per-CPU values added up. Each CPU's counts only
 * grow, so a reading's sums never go backwards; a call's count is the sum
 * of its buckets, so it always equals the histogram's.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <ptbpf/ptbpf.h>
#include <stdlib.h>
#include <string.h>

#include "backend/kern_int.h"
/* bpf/kern.h (a plain "kern.h" would be backend/kern.h) */
#include "../../bpf/kern.h"
#include "../../bpf/count.h"
#include "kern.skel.h"

_Static_assert(KERN_COUNT_BUCKETS == PTBPF_HIST_BUCKETS, "histogram buckets differ");

void kern_backend__set_counted(struct kern_backend *kb, const uint64_t *nrs)
{
	for (int w = 0; w < PTBPF_SYSCALL_NR_MAX / 64; w++)
		KERN_WR(kb->skel->bss->count_nrs[w], nrs[w]);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void kern_count__add(struct ptbpf_syscall_stats *o, const struct kern_count_val *v)
{
	uint64_t calls = 0;

	for (int b = 0; b < KERN_COUNT_BUCKETS; b++) {
		o->hist[b] += v->hist[b];
		calls += v->hist[b];
	}
	if (!calls)
		return;
	if (!o->comm[0])
		memcpy(o->comm, v->comm, sizeof(o->comm) - 1);
	if (!o->calls || v->min_ns < o->min_ns)
		o->min_ns = v->min_ns;
	if (v->max_ns > o->max_ns)
		o->max_ns = v->max_ns;
	o->total_ns += v->total_ns;
	o->calls += calls;
}

static void kern_count__fill(struct ptbpf_syscall_stats *o, const struct kern_count_key *k,
			     const struct kern_count_val *vals, int ncpus)
{
	memset(o, 0, sizeof(*o));
	o->pid = k->pid;
	o->tid = k->tid;
	o->nr = k->nr;
	o->err = k->err;
	for (int c = 0; c < ncpus; c++)
		kern_count__add(o, &vals[c]);
}

int kern_backend__syscall_stats(struct kern_backend *kb, struct ptbpf_syscall_stats *st, size_t max,
				size_t *count)
{
	struct kern_count_key key, next, *prev = NULL;
	struct kern_count_val *vals;
	int ncpus = libbpf_num_possible_cpus(), fd, err = 0;
	size_t n = 0;

	if (!kb->counting)
		return -EINVAL;
	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	vals = calloc((size_t)ncpus, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	fd = bpf_map__fd(kb->skel->maps.cnt_stats);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, vals))
			continue; /* gone meanwhile: never, the BPF side only adds */
		if (n < max)
			kern_count__fill(&st[n], &key, vals, ncpus);
		n++;
	}
	if (errno != ENOENT)
		err = -errno;
	free(vals);
	*count = n;
	return err;
}
