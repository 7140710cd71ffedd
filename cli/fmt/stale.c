/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record's live text: a call that blocks shows at once, as strace
 * prints an entry the moment it is made. Its entry, held to be merged with
 * its exit, goes out <unfinished ...> once it is older than a delay with
 * nothing else read, and its exit prints "<... NAME resumed>" as when
 * another thread's line comes between; so do the lines held behind one
 * whose text its exit completes (hold.c).
 */
#include "fmt/fmt.h"

int fmt_stale(struct fmt *f, int64_t now, int64_t delay)
{
	int added = 0;

	if (f->json)
		return 0;
	if (f->have_held && now - f->held_ts >= delay) {
		fmt_held_unfinished(f);
		added = 1;
	}
	/* fmt_hold_drain lets go of those older than FMT_HOLD_NS at its now */
	if (f->hold.n && fmt_hold_drain(&f->hold, &f->line, now - delay + FMT_HOLD_NS, 0)) {
		fmt_lines_done(f);
		added = 1;
	}
	return added;
}
