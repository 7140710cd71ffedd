// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The processes of cgroups (see kern_cgroup.h): the programs of
 * bpf/cgroup.bpf.h in a skeleton of their own that shares the backend's
 * maps, loaded for a stream with cgroups only.
 */
#include "backend/kern_cgroup.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "backend/kern_int.h"
#include "backend/pidns.h"
/* bpf/kern.h (a plain "kern.h" would be backend/kern.h) */
#include "../../bpf/kern.h"
#include "kern.skel.h"

struct kern_cgroups {
	struct kern_backend *kb;
	struct kern_bpf *skel; /* its programs, the backend's maps */
	struct bpf_link *attach, *fork;
};

static int kern_cgroups__err(int err)
{
	if (err == -EACCES || err == -EPERM)
		return -EPERM;
	return err < 0 ? err : -EINVAL;
}

/* The host's id of the caller's process id tgid: the maps' key. */
static int kern_cgroups__key(struct kern_cgroups *cg, pid_t tgid, __u32 *key)
{
	pid_t host = tgid;
	int err = cg->kb->pidns ? pidns__to_host(cg->kb->pidns, tgid, false, &host) : 0;

	*key = (__u32)host;
	return err;
}

/*
 * The skeleton of the cgroup programs: every map the backend's but
 * .rodata, which holds the tracer for them (the backend's is frozen).
 */
static int kern_cgroups__load(struct kern_cgroups *cg, const struct kern_tracer *t)
{
	struct kern_bpf *skel = kern_bpf__open();
	struct bpf_map *m, *theirs = NULL;
	struct bpf_program *p;
	__u32 self = 0;
	int err = 0;

	if (!skel)
		return kern_cgroups__err(-errno);
	cg->skel = skel;
	bpf_object__for_each_map(m, skel->obj)
	{
		theirs = bpf_object__next_map(cg->kb->skel->obj, theirs);
		if (!theirs)
			return -EPROTO;
		if (m == skel->maps.rodata || bpf_map__fd(theirs) < 0)
			continue;
		err = bpf_map__reuse_fd(m, bpf_map__fd(theirs));
		if (err)
			return kern_cgroups__err(err);
	}
	bpf_object__for_each_program(p, skel->obj) bpf_program__set_autoload(p, false);
	bpf_program__set_autoload(skel->progs.ptbpf_cg_attach, true);
	bpf_program__set_autoload(skel->progs.ptbpf_cg_fork, true);
	skel->rodata->cg_ptrace_ns = t->ptrace_cap ? t->userns : 0;
	skel->rodata->cg_userns = t->userns;
	skel->rodata->cg_uid = t->uid;
	skel->rodata->cg_gid = t->gid;
	skel->rodata->cg_caps = t->caps;
	skel->rodata->cg_yama = t->yama > 0 ? (__u32)t->yama : 0;
	err = kern_cgroups__key(cg, getpid(), &self);
	if (err)
		return err;
	skel->rodata->cg_self = self;
	/* the tracer's pid namespace, as the backend's programs have it */
	skel->rodata->pidns_level = cg->kb->skel->rodata->pidns_level;
	skel->rodata->pidns_inum = cg->kb->skel->rodata->pidns_inum;
	skel->rodata->pidns_dev = cg->kb->skel->rodata->pidns_dev;
	err = kern_bpf__load(skel);
	if (err)
		return kern_cgroups__err(err);
	cg->attach = bpf_program__attach(skel->progs.ptbpf_cg_attach);
	if (!cg->attach)
		return kern_cgroups__err(-errno);
	cg->fork = bpf_program__attach(skel->progs.ptbpf_cg_fork);
	if (!cg->fork)
		return kern_cgroups__err(-errno);
	return 0;
}

int kern_cgroups__open(struct kern_cgroups **out, struct kern_backend *kb,
		       const struct kern_tracer *t)
{
	struct kern_cgroups *cg = calloc(1, sizeof(*cg));
	int err;

	*out = NULL;
	if (!cg)
		return -ENOMEM;
	cg->kb = kb;
	err = kern_cgroups__load(cg, t);
	if (err) {
		kern_cgroups__free(cg);
		return err;
	}
	/* members come and go: a probe cannot wait for each to attach in it */
	kb->inherit = true;
	*out = cg;
	return 0;
}

void kern_cgroups__free(struct kern_cgroups *cg)
{
	if (!cg)
		return;
	bpf_link__destroy(cg->attach);
	bpf_link__destroy(cg->fork);
	/* the maps are the backend's: ours are duplicates of their fds */
	kern_bpf__destroy(cg->skel);
	free(cg);
}

int kern_cgroups__add(struct kern_cgroups *cg, uint64_t id)
{
	struct kern_bpf *skel = cg->kb->skel;
	__u8 one = 1;
	int err;

	err = bpf_map__update_elem(skel->maps.cg_wanted, &id, sizeof(id), &one, sizeof(one),
				   BPF_NOEXIST);
	if (err == -EEXIST)
		return 0;
	if (err == -E2BIG || err == -ENOSPC)
		return -E2BIG;
	if (err)
		return err;
	__atomic_add_fetch(&skel->bss->nr_cgroups, 1, __ATOMIC_SEQ_CST);
	return 0;
}

int kern_cgroups__member(struct kern_cgroups *cg, pid_t tgid, uint64_t start, bool unmark)
{
	struct bpf_map *m = cg->kb->skel->maps.cg_members;
	__u64 v = start;
	__u32 key;
	int err = kern_cgroups__key(cg, tgid, &key);

	if (err)
		return err;
	if (unmark)
		return bpf_map__delete_elem(m, &key, sizeof(key), 0);
	return bpf_map__update_elem(m, &key, sizeof(key), &v, sizeof(v), BPF_ANY);
}

int kern_cgroups__left_out(struct kern_cgroups *cg, pid_t tgid, uint64_t start)
{
	struct bpf_map *m = cg->kb->skel->maps.cg_refused;
	__u64 v = start, old = 0;
	__u32 key;
	int err = kern_cgroups__key(cg, tgid, &key);

	if (err)
		return err;
	/* the kernel side may have counted it (it joined meanwhile) */
	if (!bpf_map__lookup_elem(m, &key, sizeof(key), &old, sizeof(old), 0) && old == start)
		return 0;
	err = bpf_map__update_elem(m, &key, sizeof(key), &v, sizeof(v), BPF_ANY);
	if (!err)
		__atomic_add_fetch(&cg->kb->skel->bss->cnt_left_out, 1, __ATOMIC_RELAXED);
	return err;
}

uint64_t kern_cgroups__left_out_count(struct kern_cgroups *cg)
{
	return cg ? KERN_RD(cg->kb->skel->bss->cnt_left_out) : 0;
}
