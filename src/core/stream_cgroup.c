/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A stream's cgroups: every process of a cgroup v2 directory and of the
 * cgroups below it is traced, the ones in it now (added here) and those
 * that join it later (taken in by the kernel side, backend/kern_cgroup.h),
 * each if the caller could ptrace it; the others are left out, counted.
 */
#include <errno.h>

#include "core/cgroup.h"
#include "core/stream_int.h"
#include "core/target.h"

/*
 * Process pid of a cgroup: traced as a member, checked as stream.c's
 * stream__trace_pid checks a pid (after it entered the filter, held), or
 * left out. 0, or -errno to stop.
 */
static int stream__cgroup_pid(void *ctx, pid_t pid)
{
	struct pt_stream *s = ctx;
	uint64_t start;
	int err;

	/* tracing itself would record its own reading of the events (a
	 * process traces itself with pid 0, its threads excluded) */
	if (pid == s->controller)
		return 0;
	start = cgroup__proc_start(pid);
	if (!start)
		return 0; /* gone */
	err = kern_backend__hold_pid(s->kb, pid);
	/* traced already: a pid of the stream, or joined meanwhile */
	if (err == -EEXIST || err == -ESRCH)
		return 0;
	if (err)
		return err;
	err = kern_cgroups__member(s->cg, pid, start, false);
	if (!err)
		err = target__check(pid);
	if (!err)
		err = kern_backend__release_pid(s->kb, pid);
	if (!err) {
		stream__uev_add(s, pid, false);
		return s->attr.fdinfo ? stream__fds_add_pid(s, pid) : 0;
	}
	kern_backend__remove_pid(s->kb, pid);
	/* no member any more: it moved out, which released it */
	if (kern_cgroups__member(s->cg, pid, start, true) == -ENOENT)
		return 0;
	/* -EPERM from the release: an exec changed its credentials since */
	if (err == -EPERM)
		return kern_cgroups__left_out(s->cg, pid, start) == -ENOMEM ? -ENOMEM : 0;
	return err == -ESRCH ? 0 : err;
}

int stream__add_cgroup(struct pt_stream *s, const char *path)
{
	struct kern_tracer t;
	uint64_t id;
	int err = cgroup__id(path, &id);

	if (err)
		return err;
	pthread_mutex_lock(&s->lock);
	if (!s->cg) {
		cgroup__tracer(&t);
		err = kern_cgroups__open(&s->cg, s->kb, &t);
	}
	/* the kernel side first: a process that joins during the walk is
	 * taken in by one or the other */
	if (!err)
		err = kern_cgroups__add(s->cg, id);
	if (!err)
		err = cgroup__for_each_proc(path, stream__cgroup_pid, s);
	pthread_mutex_unlock(&s->lock);
	return err;
}
