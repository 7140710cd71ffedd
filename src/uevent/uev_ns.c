// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A traced process in a pid namespace below the consumer's (a container
 * traced from the host): it knows itself, and writes, by the ids of its
 * namespace. /proc/PID/status's NSpid gives a task's ids from ours down
 * to its own namespace's: the last is what it writes.
 */
#include "uevent/uev_ns.h"
#include "common/procfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first and last ids of an NSpid line of path: how many there are. */
static int uev_ns__nspid(const char *path, pid_t *first, pid_t *last)
{
	char buf[4096], *p, *end;
	int count = 0;

	if (procfs__read(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, "\nNSpid:");
	if (!p)
		return 0;
	p += 7;
	for (;;) {
		long v = strtol(p, &end, 10);

		if (end == p || v <= 0)
			break;
		if (!count++)
			*first = (pid_t)v;
		*last = (pid_t)v;
		p = end;
	}
	return count;
}

static uint64_t uev_ns__ino(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	return stat(path, &st) ? 0 : (uint64_t)st.st_ino;
}

void uev_ns__init(struct uev_ns *ns, pid_t pid)
{
	char path[64];
	pid_t first = 0, last = 0;

	memset(ns, 0, sizeof(*ns));
	ns->inner = pid;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (uev_ns__nspid(path, &first, &last) < 2 || first != pid)
		return;
	ns->pidns_ino = uev_ns__ino(pid);
	ns->nested = ns->pidns_ino != 0;
	if (ns->nested)
		ns->inner = last;
}

/* Thread inner_tid among the tasks of process pid (ours): its id in ours. */
static pid_t uev_ns__find_task(pid_t pid, pid_t inner_tid)
{
	char path[64];
	struct dirent *de;
	pid_t found = 0, first, last;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/status", (int)pid, de->d_name);
		if (uev_ns__nspid(path, &first, &last) >= 2 && last == inner_tid)
			found = first;
	}
	closedir(d);
	return found;
}

/* The process of the namespace whose id there is inner_pid: ours, or 0. */
static pid_t uev_ns__find_process(const struct uev_ns *ns, pid_t inner_pid)
{
	char path[64];
	struct dirent *de;
	pid_t found = 0, first, last;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s/status", de->d_name);
		if (uev_ns__nspid(path, &first, &last) >= 2 && last == inner_pid &&
		    uev_ns__ino(first) == ns->pidns_ino)
			found = first;
	}
	closedir(d);
	return found;
}

bool uev_ns__outer(struct uev_ns *ns, pid_t target, pid_t (*outer)(void *ctx, pid_t inner),
		   void *ctx, int32_t inner_pid, int32_t inner_tid, int32_t *pid, int32_t *tid)
{
	pid_t p, t;

	if (!ns->nested) {
		*pid = inner_pid;
		*tid = inner_tid;
		return true;
	}
	for (unsigned int i = 0; i < UEV_NS_CACHE; i++) {
		if (ns->cache[i].inner_tid == inner_tid && ns->cache[i].inner_pid == inner_pid &&
		    inner_tid) {
			*pid = ns->cache[i].pid;
			*tid = ns->cache[i].tid;
			return true;
		}
	}
	/* a child: the kernel side noted it at its fork (it may be gone) */
	p = inner_pid == ns->inner ? target : 0;
	if (!p && outer)
		p = outer(ctx, inner_pid);
	if (!p)
		p = uev_ns__find_process(ns, inner_pid);
	if (p <= 0)
		return false;
	/* a thread already gone keeps its namespace's id out: 0 */
	t = inner_tid == inner_pid ? p : uev_ns__find_task(p, inner_tid);
	ns->cache[ns->next].inner_pid = inner_pid;
	ns->cache[ns->next].inner_tid = inner_tid;
	ns->cache[ns->next].tid = t;
	ns->cache[ns->next].pid = p;
	ns->next = (ns->next + 1) % UEV_NS_CACHE;
	*pid = p;
	*tid = t;
	return true;
}
