// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kept programs, the kernel backend's side: the key of a set, a set taken
 * in place of a load, and a set given to the helper at the end (see
 * common/keep.h). A set is the object's maps in libbpf's order, then its
 * loaded programs in order, then the rings; a taken set is checked against
 * what this skeleton would have made before any of it is used.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/kern_int.h"
#include "backend/kern_keep.h"
/* bpf/kern.h (a plain "kern.h" would be backend/kern.h) */
#include "../../bpf/kern.h"
#include "kern.skel.h"

/* The object's bytes: the programs and maps as built (hashed once). */
static uint64_t kern_kept__elf_hash(void)
{
	static uint64_t hash;
	uint64_t h = __atomic_load_n(&hash, __ATOMIC_RELAXED);
	const void *elf;
	size_t sz;

	if (!h) {
		elf = kern_bpf__elf_bytes(&sz);
		h = kern_keep__hash(KEEP_HASH_INIT, elf, sz) | 1;
		__atomic_store_n(&hash, h, __ATOMIC_RELAXED);
	}
	return h;
}

uint64_t kern_kept__key(struct kern_backend *kb, size_t per)
{
	struct kern_bpf *skel = kb->skel;
	uint64_t h = kern_kept__elf_hash();
	struct bpf_program *p;
	struct bpf_map *m;
	const void *ro;
	size_t sz;

	ro = bpf_map__initial_value(skel->maps.rodata, &sz);
	if (ro)
		h = kern_keep__hash(h, ro, sz);
	bpf_object__for_each_map(m, skel->obj)
	{
		__u32 def[5] = { bpf_map__type(m), bpf_map__key_size(m), bpf_map__value_size(m),
				 bpf_map__max_entries(m), bpf_map__map_flags(m) };

		h = kern_keep__hash(h, def, sizeof(def));
	}
	bpf_object__for_each_program(p, skel->obj)
	{
		__u8 on = bpf_program__autoload(p);

		h = kern_keep__hash(h, &on, sizeof(on));
	}
	h = kern_keep__hash(h, &per, sizeof(per));
	return kern_keep__hash(h, &kb->nrings, sizeof(kb->nrings));
}

__u32 kern_kept__prog_id(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

int kern_kept__prog_fds(struct kern_backend *kb, int *fds, int max)
{
	struct bpf_program *p;
	int n = 0;

	if (kb->kept_progs) {
		for (int i = 0; i < kb->nkept_progs && n < max; i++)
			fds[n++] = kb->kept_progs[i];
		return n == kb->nkept_progs ? n : -E2BIG;
	}
	bpf_object__for_each_program(p, kb->skel->obj)
	{
		if (bpf_program__fd(p) < 0)
			continue;
		if (n == max)
			return -E2BIG;
		fds[n++] = bpf_program__fd(p);
	}
	return n;
}

static bool kern_kept__map_is(int fd, enum bpf_map_type type, __u32 key, __u32 value, __u32 max)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return !bpf_obj_get_info_by_fd(fd, &info, &len) && info.type == type &&
	       info.key_size == key && info.value_size == value && info.max_entries == max;
}

static bool kern_kept__prog_is(int fd, const struct bpf_program *p)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return !bpf_obj_get_info_by_fd(fd, &info, &len) && info.type == bpf_program__type(p) &&
	       !strncmp(info.name, bpf_program__name(p), BPF_OBJ_NAME_LEN - 1);
}

/*
 * Whether a link of the system attaches one of these programs: a process
 * that forked while the last stream ran, and has not exec'd, holds its
 * links (and the programs still run for them).
 */
static bool kern_kept__attached(const int *progs, int n)
{
	__u32 ids[KEEP_MAX_FDS], id = 0;
	bool found = false;

	for (int i = 0; i < n; i++)
		if (!(ids[i] = kern_kept__prog_id(progs[i])))
			return true;
	while (!found && !bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info info;
		__u32 len = sizeof(info);
		int fd = bpf_link_get_fd_by_id(id);

		if (fd < 0)
			continue; /* gone meanwhile */
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fd, &info, &len))
			for (int i = 0; i < n && !found; i++)
				found = info.prog_id == ids[i];
		close(fd);
	}
	return found;
}

/* The set is what this skeleton makes: its maps, loaded programs, rings. */
static bool kern_kept__matches(struct kern_backend *kb, const struct keep_msg *msg, const int *fds,
			       size_t per)
{
	struct bpf_program *p;
	struct bpf_map *m;
	__u32 i = 0, np = 0;

	bpf_object__for_each_map(m, kb->skel->obj)
	{
		if (i >= msg->nmaps ||
		    !kern_kept__map_is(fds[i], bpf_map__type(m), bpf_map__key_size(m),
				       bpf_map__value_size(m), bpf_map__max_entries(m)))
			return false;
		i++;
	}
	if (i != msg->nmaps)
		return false;
	bpf_object__for_each_program(p, kb->skel->obj)
	{
		if (!bpf_program__autoload(p))
			continue;
		if (np >= msg->nprogs || !kern_kept__prog_is(fds[i + np], p))
			return false;
		np++;
	}
	if (np != msg->nprogs || msg->nrings != (__u32)kb->nrings)
		return false;
	for (__u32 r = 0; r < msg->nrings; r++)
		if (!kern_kept__map_is(fds[i + np + r], BPF_MAP_TYPE_RINGBUF, 0, 0, (__u32)per))
			return false;
	return true;
}

/* The .bss as a new load has it (the skeleton's image), shared with the
 * programs' where the skeleton had its image (what a load does). */
static int kern_kept__map_bss(struct kern_backend *kb)
{
	struct bpf_map *bss = kb->skel->maps.bss;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t sz = ((bpf_map__value_size(bss) + 7) & ~(size_t)7) * bpf_map__max_entries(bss);
	int fd = bpf_map__fd(bss);
	__u32 zero = 0;
	void *p;

	sz = (sz + page - 1) & ~(page - 1);
	if (bpf_map_update_elem(fd, &zero, kb->skel->bss, 0))
		return -errno;
	p = mmap(kb->skel->bss, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
	return p == MAP_FAILED ? -errno : 0;
}

/* Attach what a skeleton attaches: the tp_btf programs. */
static int kern_kept__attach(struct kern_backend *kb)
{
	struct bpf_program *p;
	int i = 0;

	kb->kept_links = calloc((size_t)kb->nkept_progs, sizeof(int));
	if (!kb->kept_links)
		return -ENOMEM;
	bpf_object__for_each_program(p, kb->skel->obj)
	{
		int link;

		if (!bpf_program__autoload(p))
			continue;
		if (bpf_program__type(p) == BPF_PROG_TYPE_TRACING &&
		    bpf_program__expected_attach_type(p) == BPF_TRACE_RAW_TP) {
			link = bpf_link_create(kb->kept_progs[i], 0, BPF_TRACE_RAW_TP, NULL);
			if (link < 0)
				return -errno;
			kb->kept_links[kb->nkept_links++] = link;
		}
		i++;
	}
	return 0;
}

int kern_kept__take(struct kern_backend *kb, size_t per)
{
	int fds[KEEP_MAX_FDS], n, err = 0, i = 0;
	struct keep_msg msg;
	struct bpf_map *m;

	/* a helper of another user could hand its copies to anyone of its
	 * user: root's only, whom nothing is hidden from anyway */
	if (geteuid() != 0)
		return -ENOENT;
	n = kern_keep__take(kb->keep_key, &msg, fds, KEEP_MAX_FDS);
	if (n < 0)
		return n;
	if (!kern_kept__matches(kb, &msg, fds, per))
		err = -EPROTO;
	else if (kern_kept__attached(fds + msg.nmaps, (int)msg.nprogs))
		err = -EBUSY;
	if (err) {
		for (i = 0; i < n; i++)
			close(fds[i]);
		return err;
	}
	/* from here on the skeleton is the set's: no load after a failure */
	bpf_object__for_each_map(m, kb->skel->obj)
	{
		keep__clear_map(fds[i]);
		if (!err)
			err = bpf_map__reuse_fd(m, fds[i]);
		close(fds[i++]);
	}
	kb->kept_progs = calloc(msg.nprogs ? msg.nprogs : 1, sizeof(int));
	if (kb->kept_progs) {
		memcpy(kb->kept_progs, fds + i, sizeof(int) * msg.nprogs);
		kb->nkept_progs = (int)msg.nprogs;
	} else {
		err = -ENOMEM;
		for (__u32 j = 0; j < msg.nprogs; j++)
			close(fds[i + (int)j]);
	}
	i += (int)msg.nprogs;
	if (!err)
		err = kern_backend__ring_arrays(kb);
	for (int r = 0; r < kb->nrings; r++) {
		if (kb->ring_fds)
			kb->ring_fds[r] = fds[i + r];
		else
			close(fds[i + r]);
	}
	if (!err)
		err = kern_kept__map_bss(kb);
	if (!err)
		err = kern_backend__map_rings(kb, per);
	for (int r = 0; !err && r < kb->nrings; r++)
		kring__skip(&kb->rings[r].kr);
	if (!err)
		err = kern_kept__attach(kb);
	if (err)
		return -ESTALE;
	kb->keep_ok = true;
	return 0;
}

void kern_kept__give(struct kern_backend *kb)
{
	struct keep_msg msg = { .magic = KEEP_MAGIC };
	int fds[KEEP_MAX_FDS], n = 0, np;
	struct bpf_map *m;

	if (geteuid() != 0)
		return; /* see kern_kept__take() */
	if (!kb->rings || (size_t)kb->nrings * (kb->rings[0].kr.mask + 1) > kb->keep_rings_max)
		return;
	/* first no program runs: the helper empties the maps */
	kern_bpf__detach(kb->skel);
	for (int i = 0; i < kb->nkept_links; i++)
		close(kb->kept_links[i]);
	kb->nkept_links = 0;
	bpf_object__for_each_map(m, kb->skel->obj)
	{
		if (n >= KEEP_MAX_FDS || bpf_map__fd(m) < 0)
			return;
		fds[n++] = bpf_map__fd(m);
	}
	msg.nmaps = (__u32)n;
	np = kern_kept__prog_fds(kb, fds + n, KEEP_MAX_FDS - n);
	if (np < 0)
		return;
	n += np;
	msg.nprogs = (__u32)np;
	if (n + kb->nrings > KEEP_MAX_FDS || !kb->ring_fds)
		return;
	for (int r = 0; r < kb->nrings; r++) {
		if (kb->ring_fds[r] < 0)
			return;
		fds[n++] = kb->ring_fds[r];
	}
	msg.nrings = (__u32)kb->nrings;
	/* an optimisation: without a helper, the set is freed as it would be */
	kern_keep__give(kb->keep_key, &msg, fds, kb->keep_ms);
}

struct kern_bpf *kern_kept__probe_skel(struct kern_backend *kb)
{
	struct bpf_program *p;
	struct bpf_map *m, *mine;
	struct kern_bpf *ps;
	int err = 0;

	if (!kb->kept_progs)
		return kb->skel;
	if (kb->probe_skel)
		return kb->probe_skel;
	ps = kern_bpf__open();
	if (!ps)
		return NULL;
	/* the same maps: the programs write where the set's do */
	mine = NULL;
	bpf_object__for_each_map(m, ps->obj)
	{
		mine = bpf_object__next_map(kb->skel->obj, mine);
		if (!mine) {
			err = -EPROTO;
			break;
		}
		err = bpf_map__reuse_fd(m, bpf_map__fd(mine));
		if (err)
			break;
	}
	bpf_object__for_each_program(p, ps->obj) bpf_program__set_autoload(p, false);
	probe__set_autoload(ps);
	if (!err)
		err = kern_bpf__load(ps);
	if (err) {
		kern_bpf__destroy(ps);
		errno = err < 0 ? -err : EINVAL;
		return NULL;
	}
	kb->probe_skel = ps;
	return ps;
}

void kern_kept__free(struct kern_backend *kb)
{
	for (int i = 0; i < kb->nkept_links; i++)
		close(kb->kept_links[i]);
	for (int i = 0; i < kb->nkept_progs; i++)
		close(kb->kept_progs[i]);
	free(kb->kept_links);
	free(kb->kept_progs);
	kb->kept_links = kb->kept_progs = NULL;
	kb->nkept_links = kb->nkept_progs = 0;
	kern_bpf__destroy(kb->probe_skel);
	kb->probe_skel = NULL;
}
