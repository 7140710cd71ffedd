// SPDX-License-Identifier: LGPL-2.1-or-later
/* The tracer's pid namespace: see pidns.h. */
#include "backend/pidns.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bpf/pidns.h"
#include "pidns.skel.h"

/* The initial pid namespace's inode number (the kernel's PROC_PID_INIT_INO). */
#define PIDNS_INIT_INO 0xEFFFFFFCu

struct pidns {
	struct pidns_bpf *skel;
	struct bpf_link *link;
	uint32_t inum, level;
	uint64_t dev;
	struct pidns_task *tasks; /* the last walk */
	size_t n, cap;
};

/* Walk the namespace's tasks into ns->tasks. */
static int pidns__walk(struct pidns *ns)
{
	struct pidns_task buf[64];
	ssize_t got;
	int fd, err = 0;

	fd = bpf_iter_create(bpf_link__fd(ns->link));
	if (fd < 0)
		return -errno;
	ns->n = 0;
	while ((got = read(fd, buf, sizeof(buf))) > 0) {
		size_t k = (size_t)got / sizeof(buf[0]);

		if (ns->n + k > ns->cap) {
			size_t cap = (ns->n + k) * 2;
			void *p = realloc(ns->tasks, cap * sizeof(*ns->tasks));

			if (!p) {
				err = -ENOMEM;
				break;
			}
			ns->tasks = p;
			ns->cap = cap;
		}
		memcpy(ns->tasks + ns->n, buf, k * sizeof(buf[0]));
		ns->n += k;
	}
	if (got < 0 && !err)
		err = -errno;
	close(fd);
	return err;
}

/* The namespace's level: any of its tasks (ours at least) has an id at it. */
static int pidns__find_level(struct pidns *ns)
{
	int err = pidns__walk(ns);

	for (size_t i = 0; !err && i < ns->n; i++) {
		if (ns->tasks[i].ns_tid) {
			ns->level = ns->tasks[i].level;
			return ns->level ? 0 : -EPROTO;
		}
	}
	return err ? err : -ESRCH;
}

int pidns__open(struct pidns **out)
{
	struct pidns *ns;
	struct stat st;
	int err;

	*out = NULL;
	if (stat("/proc/self/ns/pid", &st))
		return -ENOENT;
	if (st.st_ino == PIDNS_INIT_INO)
		return 0;
	ns = calloc(1, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	ns->inum = (uint32_t)st.st_ino;
	ns->dev = (uint64_t)st.st_dev;
	ns->skel = pidns_bpf__open();
	if (!ns->skel) {
		err = errno ? -errno : -ENOMEM;
		goto fail;
	}
	ns->skel->rodata->pidns_inum = ns->inum;
	err = pidns_bpf__load(ns->skel);
	if (err)
		goto fail;
	ns->link = bpf_program__attach_iter(ns->skel->progs.ptbpf_pidns_tasks, NULL);
	if (!ns->link) {
		err = -errno;
		goto fail;
	}
	err = pidns__find_level(ns);
	if (err)
		goto fail;
	*out = ns;
	return 0;
fail:
	pidns__free(ns);
	return err;
}

void pidns__free(struct pidns *ns)
{
	if (!ns)
		return;
	bpf_link__destroy(ns->link);
	pidns_bpf__destroy(ns->skel);
	free(ns->tasks);
	free(ns);
}

uint32_t pidns__level(const struct pidns *ns)
{
	return ns ? ns->level : 0;
}

uint32_t pidns__inum(const struct pidns *ns)
{
	return ns ? ns->inum : 0;
}

uint64_t pidns__dev(const struct pidns *ns)
{
	return ns ? ns->dev : 0;
}

int pidns__to_host(struct pidns *ns, pid_t id, bool thread, pid_t *host)
{
	int err;

	if (id <= 0)
		return -ESRCH;
	err = pidns__walk(ns);
	if (err)
		return err;
	for (size_t i = 0; i < ns->n; i++) {
		const struct pidns_task *t = &ns->tasks[i];

		if ((uint32_t)id == t->ns_tid && (thread || t->host_tid == t->host_tgid)) {
			*host = (pid_t)(thread ? t->host_tid : t->host_tgid);
			return 0;
		}
	}
	return -ESRCH;
}

int pidns__from_host(struct pidns *ns, pid_t host, pid_t *id)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < ns->n; i++) {
			if (ns->tasks[i].host_tid == (uint32_t)host &&
			    ns->tasks[i].host_tgid == (uint32_t)host) {
				*id = (pid_t)ns->tasks[i].ns_tgid;
				return *id ? 0 : -ESRCH;
			}
		}
		if (pass == 0 && pidns__walk(ns))
			break;
	}
	return -ESRCH;
}
