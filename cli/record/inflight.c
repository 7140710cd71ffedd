/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record -p: the calls the processes are blocked in when tracing
 * begins, whose entry no event brings. As strace -p shows the call a
 * process is in when it attaches ("futex(0x..., FUTEX_WAIT_PRIVATE, 0,
 * NULL"), each thread's call is read from /proc/PID/task/TID/syscall (its
 * number and arguments: no string, no structure) and given to the view as
 * an entry made now: it shows <unfinished ...>, its exit resumes it.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "record/record.h"

/* tid's call in progress, if it is blocked in one and it is recorded. */
static void inflight_task(struct rec *r, const trace_event_set_t *filter, pid_t pid, pid_t tid,
			  int64_t now)
{
	struct ptbpf_ev_sys_enter se;
	struct ptbpf_event e;
	struct cli_ev ev;
	unsigned long long a[6];
	char path[64];
	long long nr;
	int n, out = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return;
	/* "running" when it runs, "-1 SP PC" when it waits outside a call */
	n = fscanf(f, "%lld %llx %llx %llx %llx %llx %llx", &nr, &a[0], &a[1], &a[2], &a[3], &a[4],
		   &a[5]);
	fclose(f);
	if (n != 7 || nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return;
	memset(&e, 0, sizeof(e));
	e.info.posix_event_id = PTBPF_EV_SYS_ENTER(nr);
	if (posix_trace_eventset_ismember(e.info.posix_event_id, filter, &out) || out)
		return;
	memset(&se, 0, sizeof(se));
	se.nr = nr;
	for (n = 0; n < 6; n++)
		se.args[n] = a[n];
	e.info.posix_pid = pid;
	e.info.posix_timestamp.tv_sec = now / 1000000000;
	e.info.posix_timestamp.tv_nsec = now % 1000000000;
	e.tid = tid;
	e.data = &se;
	e.data_len = offsetof(struct ptbpf_ev_sys_enter, paths);
	cli_ev_from(r->trid, &ev, &e);
	view_event(r->view, &ev);
}

void record_inflight(struct rec *r, int64_t now)
{
	trace_event_set_t filter;
	char path[64];

	if (r->have_child || posix_trace_get_filter(r->trid, &filter))
		return;
	for (int i = 0; i < r->npids; i++) {
		struct dirent *d;
		DIR *dir;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)r->pids[i]);
		dir = opendir(path);
		if (!dir)
			continue;
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.')
				inflight_task(r, &filter, r->pids[i], (pid_t)atoi(d->d_name), now);
		closedir(dir);
	}
}
