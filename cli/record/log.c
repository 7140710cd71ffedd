/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record -o: the library writes the log; this waits for the end,
 * and reads the log back for a summary (-c).
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "record/record.h"

/* How long a round waits when no target exits (ms). */
#define LOG_ROUND_MS 50

/*
 * The targets' pidfds to wait on: a traced process that exits wakes the
 * wait at once, so a short command is not kept waiting for the round's end.
 * NULL when out of memory (then each round just sleeps).
 */
static struct pollfd *target_fds(struct rec *r, int *n)
{
	struct pollfd *p;
	int i;

	*n = r->have_child ? 1 : r->npids;
	p = calloc(*n ? *n : 1, sizeof(*p));
	if (!p)
		return NULL;
	if (r->have_child)
		p[0].fd = (int)syscall(SYS_pidfd_open, r->child.pid, 0);
	for (i = 0; !r->have_child && i < r->npids; i++)
		p[i].fd = r->pidfds[i];
	for (i = 0; i < *n; i++)
		p[i].events = POLLIN;
	return p;
}

/* One round: back early when a target exits or a signal comes. */
static void wait_round(struct rec *r, struct pollfd *p, int n)
{
	int i;

	if (!p) {
		usleep(LOG_ROUND_MS * 1000);
		return;
	}
	/* a -p target seen gone was closed: poll skips negative fds */
	for (i = 0; !r->have_child && i < n; i++)
		p[i].fd = r->pidfds[i];
	(void)poll(p, (nfds_t)n, LOG_ROUND_MS);
}

void record_log(struct rec *r)
{
	struct pollfd *p;
	int n;

	p = target_fds(r, &n);
	for (;;) {
		struct ptbpf_counters c = { .sz = sizeof(c) };

		wait_round(r, p, n);
		if (record_tick(r))
			break;
		/* the log cannot be written (a full disk...): stop now, the
		 * events so far stay readable */
		if (!ptbpf_trace_get_counters(r->trid, &c) && c.log_error) {
			r->log_error = c.log_error;
			break;
		}
	}
	if (p && r->have_child && p[0].fd >= 0)
		close(p[0].fd);
	free(p);
	posix_trace_stop(r->trid);
}

/*
 * A stream with a log is read through its log only (the library's drainer
 * takes its events): the summary of -c -o comes from the log once written,
 * as 'ptbpf show -c' makes it.
 */
int record_log_view(struct rec *r)
{
	static char buf[65536];
	struct cli_ev ev;
	trace_id_t t;
	int unav = 0, err, ret;

	/* "-" is a file here (cli_open_log would read standard input) */
	ret = cli_open_log(strcmp(r->a->output, "-") ? r->a->output : "./-", &t);
	if (ret)
		return ret;
	while (!(err = cli_ev_next(t, &ev, buf, sizeof(buf), &unav)) && !unav &&
	       !view_failed(r->view))
		view_event(r->view, &ev);
	view_end(r->view, !targets_done(r));
	if (err) {
		cli_err("reading %s: %s", r->a->output, strerror(err));
		ret = CLI_EXIT_BADLOG;
	} else if (view_failed(r->view)) {
		cli_err("out of memory");
		ret = CLI_EXIT_FAIL;
	}
	r->printed = view_nevents(r->view);
	posix_trace_close(t);
	return ret;
}
