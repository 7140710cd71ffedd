// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel backend, user side: loads bpf/kern.bpf.c and its rings, and keeps
 * its pid, tid, probe and filter state; kern_consume.c drains the rings.
 */
#include "backend/kern.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ptbpf/ptbpf.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "backend/kern_int.h"
#include "backend/kern_stack.h"
#include "backend/kring.h"
#include "backend/pidns.h"
#include "backend/probe.h"
#include "common/thread.h"
/* bpf/kern.h (a plain "kern.h" would be backend/kern.h) */
#include "../../bpf/kern.h"
#include "kern.skel.h"

#define KERN_RING_DEFAULT (1u << 20)
#define KERN_RING_MAX	  ((size_t)1 << 30)
/* A CPU's ring: the asked size split between the CPUs, but not below
 * this (or the asked size if smaller): a thread may stay on one CPU. Small,
 * as the rings of all possible CPUs are allocated at once and charged to
 * the tracer's cgroup: 64 CPUs cost 16 MiB at the least. */
#define KERN_RING_CPU_FLOOR ((size_t)256 << 10)

/* Threads in a syscall at once whose entries a status filter holds */
#define KERN_HELD_MAX 4096u

/* The kernel side's syscall_status for the options' PTBPF_SYSCALL_* */
static __u32 kern_syscall_status(const struct kern_opts *o)
{
	unsigned int st = o ? o->syscall_status : 0;

	if ((st & PTBPF_SYSCALL_SUCCESSFUL) && (st & PTBPF_SYSCALL_FAILED))
		return 0;
	return (st & PTBPF_SYSCALL_SUCCESSFUL ? KERN_SYS_SUCCESSFUL : 0) |
	       (st & PTBPF_SYSCALL_FAILED ? KERN_SYS_FAILED : 0);
}

static size_t kern_backend__ring_size(size_t want)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), sz = page;

	if (!want)
		want = KERN_RING_DEFAULT;
	if (want > KERN_RING_MAX)
		want = KERN_RING_MAX;
	while (sz < want)
		sz <<= 1;
	return sz;
}

/*
 * Map load errors to the documented ones: -EPERM without privileges,
 * -EOPNOTSUPP when the kernel lacks something (ring buffer, tp_btf, BTF).
 */
static int kern_backend__load_err(int err)
{
	if (err == -EACCES || err == -EPERM)
		return -EPERM;
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) != 1)
		return -EOPNOTSUPP;
	if (err == -EINVAL || err == -ENOENT || err == -ESRCH || err == -E2BIG ||
	    err == -524 /* ENOTSUPP */)
		return -EOPNOTSUPP;
	return err < 0 ? err : -EINVAL;
}

static int kern_ring_create(size_t per)
{
	return bpf_map_create(BPF_MAP_TYPE_RINGBUF, "ptbpf_ring", 0, 0, (__u32)per, NULL);
}

/*
 * The rings into the outer map: an update of a map of maps waits for an RCU
 * grace period (the kernel makes sure no program still sees the old
 * value), so all of them in one batch update, one wait, where the kernel
 * has batch updates of arrays of maps; one update each elsewhere.
 */
static int kern_backend__put_rings(struct kern_backend *kb, int outer)
{
	__u32 *keys = kb->nrings > 0 ? calloc((size_t)kb->nrings, sizeof(*keys)) : NULL;
	__u32 count = (__u32)kb->nrings;
	int i, err = 0;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < kb->nrings; i++)
		keys[i] = (__u32)i;
	if (bpf_map_update_batch(outer, keys, kb->ring_fds, &count, NULL) ||
	    count != (__u32)kb->nrings) {
		for (i = 0; i < kb->nrings && !err; i++)
			if (bpf_map_update_elem(outer, &keys[i], &kb->ring_fds[i], BPF_ANY))
				err = kern_backend__load_err(-errno);
	}
	free(keys);
	return err;
}

/* One ring per possible CPU, put in the outer map. */
static int kern_backend__new_rings(struct kern_backend *kb, size_t per, int outer)
{
	for (int i = 0; i < kb->nrings; i++) {
		int fd = kern_ring_create(per);

		if (fd < 0)
			return kern_backend__load_err(fd);
		kb->ring_fds[i] = fd;
	}
	return kern_backend__put_rings(kb, outer);
}

/* The rings made on a thread while the verifier checks the programs: the
 * kernel allocates and clears a ring's pages at creation, and the outer
 * map's update waits for a grace period; neither needs the programs. */
struct kern_rings_job {
	struct kern_backend *kb;
	size_t per;
	int outer; /* its own fd of the outer map: a failed load closes libbpf's */
	int err;
};

static void *kern_rings_main(void *arg)
{
	struct kern_rings_job *j = arg;

	j->err = kern_backend__new_rings(j->kb, j->per, j->outer);
	return NULL;
}

int kern_backend__ring_arrays(struct kern_backend *kb)
{
	kb->ring_fds = calloc((size_t)kb->nrings, sizeof(*kb->ring_fds));
	if (!kb->ring_fds)
		return -ENOMEM;
	for (int i = 0; i < kb->nrings; i++)
		kb->ring_fds[i] = -1;
	kb->rings = calloc((size_t)kb->nrings, sizeof(*kb->rings));
	kb->active = calloc((size_t)kb->nrings, sizeof(*kb->active));
	if (!kb->rings || !kb->active)
		return -ENOMEM;
	for (int i = 0; i < kb->nrings; i++)
		kb->rings[i].kb = kb;
	return 0;
}

/* The outer map made here (*outer), before the load, so that the rings can
 * be put in it while the programs load; the rings' arrays. */
static int kern_backend__ring_maps(struct kern_backend *kb, int tmpl, int *outer)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo, .inner_map_fd = tmpl);
	int err = kern_backend__ring_arrays(kb);

	if (err)
		return err;
	*outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "rings", sizeof(__u32), sizeof(__u32),
				(__u32)kb->nrings, &mo);
	if (*outer < 0)
		return kern_backend__load_err(-errno);
	err = bpf_map__reuse_fd(kb->skel->maps.rings, *outer); /* a dup of it */
	if (err) {
		close(*outer);
		return kern_backend__load_err(err);
	}
	return 0;
}

int kern_backend__map_rings(struct kern_backend *kb, size_t per)
{
	int i, err;

	kb->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (kb->epfd < 0)
		return -errno;
	for (i = 0; i < kb->nrings; i++) {
		struct epoll_event e = { .events = EPOLLIN, .data.u32 = (__u32)i };

		err = kring__open(&kb->rings[i].kr, kb->ring_fds[i], per);
		if (err)
			return err;
		if (epoll_ctl(kb->epfd, EPOLL_CTL_ADD, kb->ring_fds[i], &e))
			return -errno;
	}
	return 0;
}

/* kern_bpf__load() beside the rings' job (here if no thread starts). */
static int kern_backend__load_with_rings(struct kern_backend *kb, size_t per, int outer)
{
	struct kern_rings_job j = { .kb = kb, .per = per, .outer = outer };
	pthread_t thr;
	int started, err;

	started = !thread__start_blocked(&thr, kern_rings_main, &j);
	if (!started)
		kern_rings_main(&j);
	err = kern_bpf__load(kb->skel);
	if (started)
		pthread_join(thr, NULL);
	close(outer);
	if (err)
		return kern_backend__load_err(err);
	return j.err;
}

static int kern_backend__load(struct kern_backend *kb, const struct kern_opts *o)
{
	size_t ring = kern_backend__ring_size(o ? o->ring_bytes : 0), per, min_per;
	struct kern_bpf *skel;
	int err, ncpu, tmpl, outer = -1;

	skel = kern_bpf__open();
	if (!skel)
		return kern_backend__load_err(errno ? -errno : -ENOMEM);
	kb->skel = skel;
	ncpu = libbpf_num_possible_cpus();
	kb->nrings = ncpu > 0 && ncpu <= KERN_MAX_RINGS ? ncpu : 1;
	/* a share of the total, but one thread alone on a CPU of a large
	 * machine still gets min(ring, KERN_RING_CPU_FLOOR) */
	min_per = ring < KERN_RING_CPU_FLOOR ? ring : KERN_RING_CPU_FLOOR;
	per = ring / (size_t)kb->nrings;
	per = kern_backend__ring_size(per < min_per ? min_per : per);
	err = bpf_map__set_max_entries(skel->maps.rings, (__u32)kb->nrings);
	if (err)
		return err;
	skel->rodata->nr_rings = (__u32)kb->nrings;
	/* a quarter: at moderate rates the 10 ms period drains first (a
	 * wakeup costs the traced CPU an IPI), and 3/4 of the ring is left
	 * while the drainer gets a CPU */
	skel->rodata->wakeup_bytes = per / 4;
	skel->bss->inherit = o && o->inherit;
	skel->rodata->follow_secure_exec = o && o->follow_secure_exec;
#if defined(__aarch64__)
	/* a thread's pthread_self() is this far from its thread pointer (arch.bpf.h) */
	skel->rodata->thread_tp_off =
		(__u64)((uintptr_t)pthread_self() - (uintptr_t)__builtin_thread_pointer());
#endif
	skel->rodata->syscall_status = kern_syscall_status(o);
	/* in a pid namespace, the programs write its ids (see pidns.h) */
	err = pidns__open(&kb->pidns);
	if (err)
		return err;
	skel->rodata->pidns_level = pidns__level(kb->pidns);
	skel->rodata->pidns_inum = pidns__inum(kb->pidns);
	skel->rodata->pidns_dev = pidns__dev(kb->pidns);
	err = kern_progs__choose(skel, o);
	if (err)
		return err;
	/* a syscall in progress per thread: room for many blocked threads */
	if (skel->rodata->syscall_status) {
		err = bpf_map__set_max_entries(skel->maps.held, KERN_HELD_MAX);
		if (err)
			return kern_backend__load_err(err);
	}
	if (o && o->stack_bytes) {
		unsigned int depth = o->stack_depth ? o->stack_depth : PTBPF_STACK_DEPTH_DEFAULT;

		/* frame pointers: the kernel walks them, nothing is copied */
		skel->rodata->stack_bytes = o->stack_fp ? 0 : o->stack_bytes;
		memcpy((void *)skel->rodata->stack_nrs, o->stack_nrs, sizeof(o->stack_nrs));
		skel->rodata->stack_unwind_depth = depth;
		skel->rodata->stack_depth = depth;
		skel->rodata->stack_ips = (o->stack_fp ? KERN_STACK_USER : 0) |
					  (o->stack_kernel ? KERN_STACK_KERNEL : 0);
	}
	memset(skel->bss->filter_bits, 0xff, sizeof(skel->bss->filter_bits));
	kb->no_probes = o && o->ev_bounded && !o->ev_probes;
	kb->counting = o && o->aggregate;
	/* The inner map template: what every ring put in rings looks like.
	 * The kernel compares a ring's type, not its size, with it: one page
	 * here, and the rings, which take long to clear, on a thread. */
	tmpl = kern_ring_create((size_t)sysconf(_SC_PAGESIZE));
	if (tmpl < 0)
		return kern_backend__load_err(tmpl);
	err = bpf_map__set_inner_map_fd(skel->maps.rings, tmpl);
	if (err) {
		close(tmpl);
		return err;
	}
	err = kern_backend__ring_maps(kb, tmpl, &outer);
	if (!err)
		err = kern_backend__load_with_rings(kb, per, outer);
	close(tmpl); /* the outer map exists: libbpf does not make it */
	if (!err)
		err = kern_backend__map_rings(kb, per);
	if (err)
		return err;
	err = kern_bpf__attach(skel);
	if (err)
		return kern_backend__load_err(err);
	return 0;
}

int kern_backend__open(struct kern_backend **out, const struct kern_opts *o)
{
	struct kern_backend *kb;
	int err;

	*out = NULL;
	kb = calloc(1, sizeof(*kb));
	if (!kb)
		return -ENOMEM;
	kb->epfd = -1;
	kb->inherit = o && o->inherit;
	if (o && o->stack_bytes && (o->stack_fp || o->stack_kernel)) {
		kb->stacks = kern_stacks__new();
		if (!kb->stacks) {
			free(kb);
			return -ENOMEM;
		}
		kb->stack_depth = o->stack_depth ? o->stack_depth : PTBPF_STACK_DEPTH_DEFAULT;
		kb->stack_user = o->stack_fp;
	}
	err = kern_backend__load(kb, o);
	if (err) {
		kern_backend__destroy(kb);
		return err;
	}
	*out = kb;
	return 0;
}

void kern_backend__destroy(struct kern_backend *kb)
{
	if (!kb)
		return;
	for (int i = 0; kb->rings && i < kb->nrings; i++)
		kring__close(&kb->rings[i].kr);
	free(kb->active);
	if (kb->epfd >= 0)
		close(kb->epfd);
	probe__detach_all(&kb->probes);
	kern_bpf__destroy(kb->skel);
	kern_stacks__free(kb->stacks);
	pidns__free(kb->pidns);
	for (int i = 0; kb->ring_fds && i < kb->nrings; i++)
		if (kb->ring_fds[i] >= 0)
			close(kb->ring_fds[i]);
	free(kb->ring_fds);
	free(kb->rings);
	free(kb);
}

/* The host's id of the caller's process (or thread) id: the maps' keys. */
static int kern_backend__host_id(struct kern_backend *kb, pid_t id, bool thread, __u32 *key)
{
	pid_t host = id;
	int err = kb->pidns ? pidns__to_host(kb->pidns, id, thread, &host) : 0;

	*key = (__u32)host;
	return err;
}

/* tgid in pids in state st (KERN_PID_*), under flags (BPF_ANY, ...). */
static int kern_backend__put_pid(struct kern_backend *kb, pid_t tgid, __u8 st, __u64 flags)
{
	__u32 key;
	int err;

	if (tgid <= 0)
		return -EINVAL;
	err = kern_backend__host_id(kb, tgid, false, &key);
	if (err)
		return err;
	return bpf_map__update_elem(kb->skel->maps.pids, &key, sizeof(key), &st, sizeof(st), flags);
}

/* Without inheritance, each traced process gets the probes. */
static int kern_backend__pid_probes(struct kern_backend *kb, pid_t tgid)
{
	if (kb->inherit || !kb->probes.nsaved)
		return 0;
	return probe__attach_pid(kb->skel, &kb->probes, tgid);
}

int kern_backend__add_pid(struct kern_backend *kb, pid_t tgid)
{
	int err = kern_backend__put_pid(kb, tgid, KERN_PID_TRACED, BPF_ANY);

	return err ? err : kern_backend__pid_probes(kb, tgid);
}

int kern_backend__hold_pid(struct kern_backend *kb, pid_t tgid)
{
	return kern_backend__put_pid(kb, tgid, KERN_PID_HELD, BPF_NOEXIST);
}

int kern_backend__release_pid(struct kern_backend *kb, pid_t tgid)
{
	int err = kern_backend__put_pid(kb, tgid, KERN_PID_TRACED, BPF_EXIST);

	/* gone from pids: an exec changed its credentials since it was held */
	if (err == -ENOENT)
		return -EPERM;
	return err ? err : kern_backend__pid_probes(kb, tgid);
}

int kern_backend__remove_pid(struct kern_backend *kb, pid_t tgid)
{
	__u32 key;
	int err = kern_backend__host_id(kb, tgid, false, &key);

	if (err)
		return err == -ESRCH ? 0 : err;
	err = bpf_map__delete_elem(kb->skel->maps.pids, &key, sizeof(key), 0);
	return err == -ENOENT ? 0 : err;
}

/*
 * Without inheritance a probe is attached in each traced process (and in
 * those added later): other processes mapping the file do not trap at its
 * hits. With it, in every process, for the children to come.
 */
int kern_backend__add_probe(struct kern_backend *kb, const struct probe_target *t)
{
	struct probe_target one = *t;
	__u32 key, next, *prev = NULL;
	struct kern_bpf *ps;
	int err, attached = 0;

	if (probe__has(&kb->probes, t->id))
		return 0;
	/* a stream whose events exclude probes has not loaded their programs */
	if (kb->no_probes)
		return -ENOTSUP;
	ps = kb->skel;
	if (kb->inherit) {
		one.pid = -1;
		return probe__attach(ps, &kb->probes, &one);
	}
	err = probe__save(&kb->probes, t);
	while (!err && !bpf_map__get_next_key(kb->skel->maps.pids, prev, &next, sizeof(next))) {
		key = next;
		prev = &key;
		one.pid = (pid_t)key;
		/* perf_event_open takes the caller's namespace's id */
		if (kb->pidns && pidns__from_host(kb->pidns, (pid_t)key, &one.pid))
			continue;
		err = probe__attach(ps, &kb->probes, &one);
		/* a traced process gone meanwhile */
		if (err == -ESRCH || err == -ENOENT)
			err = 0;
		else if (!err)
			attached++;
	}
	return err ? err : attached ? 0 : -ESRCH;
}

bool kern_backend__has_probe(struct kern_backend *kb, uint32_t id)
{
	return probe__has(&kb->probes, id);
}

int kern_backend__parent(struct kern_backend *kb, pid_t tgid, pid_t *parent)
{
	__u32 key = tgid, val;
	int err;

	if (tgid <= 0)
		return -ENOENT;
	err = bpf_map__lookup_elem(kb->skel->maps.forks, &key, sizeof(key), &val, sizeof(val), 0);
	if (err)
		return err;
	*parent = (pid_t)val;
	return 0;
}

/* Is tgid ancestor, or forked (depth generations at most) from it? */
static bool kern_backend__descends(struct kern_backend *kb, pid_t tgid, pid_t ancestor, int depth)
{
	for (; depth > 0; depth--) {
		if (tgid == ancestor)
			return true;
		if (kern_backend__parent(kb, tgid, &tgid))
			return false;
	}
	return false;
}

int kern_backend__child_by_inner(struct kern_backend *kb, pid_t ancestor, pid_t inner, pid_t *outer)
{
	__u32 key, next, *prev = NULL, val;

	while (!bpf_map__get_next_key(kb->skel->maps.inner_pids, prev, &next, sizeof(next))) {
		key = next;
		prev = &key;
		if (!bpf_map__lookup_elem(kb->skel->maps.inner_pids, &key, sizeof(key), &val,
					  sizeof(val), 0) &&
		    val == (__u32)inner && kern_backend__descends(kb, (pid_t)key, ancestor, 16)) {
			*outer = (pid_t)key;
			return 0;
		}
	}
	return -ESRCH;
}

int kern_backend__exclude_tid(struct kern_backend *kb, pid_t tid)
{
	__u32 key;
	__u8 one = 1;
	int err;

	if (tid <= 0)
		return -EINVAL;
	err = kern_backend__host_id(kb, tid, true, &key);
	if (err)
		return err;
	err = bpf_map__update_elem(kb->skel->maps.excluded, &key, sizeof(key), &one, sizeof(one),
				   BPF_NOEXIST);
	if (err == -EEXIST)
		return 0;
	if (err)
		return err;
	__atomic_add_fetch(&kb->skel->bss->nr_excluded, 1, __ATOMIC_RELAXED);
	return 0;
}

int kern_backend__include_tid(struct kern_backend *kb, pid_t tid)
{
	__u32 key;
	int err;

	if (tid <= 0)
		return -EINVAL;
	err = kern_backend__host_id(kb, tid, true, &key);
	if (err)
		return err == -ESRCH ? 0 : err;
	err = bpf_map__delete_elem(kb->skel->maps.excluded, &key, sizeof(key), 0);
	if (err)
		return err == -ENOENT ? 0 : err;
	__atomic_sub_fetch(&kb->skel->bss->nr_excluded, 1, __ATOMIC_RELAXED);
	return 0;
}

int kern_backend__set_enabled(struct kern_backend *kb, bool on)
{
	__atomic_store_n(&kb->skel->bss->enabled, on ? 1 : 0, __ATOMIC_SEQ_CST);
	return 0;
}

int kern_backend__set_filter(struct kern_backend *kb, const uint64_t *bits)
{
	for (int w = 0; w < KERN_FILTER_WORDS; w++)
		KERN_WR(kb->skel->bss->filter_bits[w], bits ? bits[w] : ~(uint64_t)0);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return 0;
}

void kern_backend__counters(struct kern_backend *kb, struct kern_counters *c)
{
	c->emitted = 0;
	for (int i = 0; i < kb->nrings; i++)
		c->emitted += KERN_RD(kb->skel->bss->ring_count[i].emitted);
	c->dropped = KERN_RD(kb->skel->bss->cnt_dropped);
	c->filtered = KERN_RD(kb->skel->bss->cnt_filtered);
}

int kern_backend__epoll_fd(struct kern_backend *kb)
{
	return kb->epfd;
}

bool kern_backend__populate(struct kern_backend *kb, size_t bytes)
{
	for (int i = 0; i < kb->nrings; i++) {
		struct kring *r = &kb->rings[i].kr;
		size_t before = r->touched;

		if (kring__populate(r, bytes))
			return false;
		bytes -= r->touched - before;
	}
	return true;
}

int kern_backend__prog_ids(struct kern_backend *kb, uint32_t *ids, int max)
{
	struct bpf_prog_info info;
	struct bpf_program *p;
	__u32 len;
	int k = 0;

	bpf_object__for_each_program(p, kb->skel->obj)
	{
		if (bpf_program__fd(p) < 0 || k == max)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
			ids[k++] = info.id;
	}
	return k;
}
