/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf record -o: the library writes the log; this waits for the end. */
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
