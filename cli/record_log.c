/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record -o: the library writes the log; this waits for the end,
 * and reads the log back for a summary (-c).
 */
#include <string.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "record.h"

void record_log(struct rec *r)
{
	double stable_since = 0, end_at = 0;
	uint64_t last = ~0ULL;

	for (;;) {
		struct ptbpf_counters c = { .sz = sizeof(c) };

		usleep(50000);
		if (record_tick(r, &end_at))
			break;
		/* the log cannot be written (a full disk...): stop now, the
		 * events so far stay readable */
		if (!ptbpf_trace_get_counters(r->trid, &c) && c.log_error) {
			r->log_error = c.log_error;
			break;
		}
		if (end_at) {
			/* wait until the last events came in */
			if (c.recorded != last) {
				last = c.recorded;
				stable_since = now_mono();
			} else if (now_mono() - stable_since >= 0.15) {
				break;
			}
			if (now_mono() >= end_at)
				break;
		}
	}
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
