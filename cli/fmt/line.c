/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: the lines of the output (text and JSON Lines alike), made in
 * f->line and written out by the chunk, or behind the held ones (hold.c).
 */
#include <stdio.h>

#include "fmt/fmt.h"

/*
 * f->line holds the lines made since the last write to f->out, the
 * current one from f->line_at: they go out by the 64 KiB (a line each on
 * a terminal), where a fwrite per line cost a live line about 50
 * instructions.
 */
#define FMT_OUT_CHUNK (64u << 10)

void fmt_out(struct fmt *f)
{
	if (f->line.len)
		fwrite_unlocked(f->line.s, 1, f->line.len, f->out); /* only this thread writes it */
	f->line.len = 0;
	f->line_at = 0;
	if (f->tty)
		fflush(f->out);
}

void fmt_line_begin(struct fmt *f)
{
	sb_grow(&f->line, 0);
	f->line_at = f->line.len;
}

/* What f->line holds is whole lines: out if a chunk is full (a terminal:
 * at once). */
void fmt_lines_done(struct fmt *f)
{
	f->line_at = f->line.len;
	if (f->tty || f->line.len >= FMT_OUT_CHUNK)
		fmt_out(f);
}

/* Whole lines from offset from of f->line: behind the held ones if any. */
void fmt_lines_done_from(struct fmt *f, size_t from)
{
	if (f->hold.n && !f->line.failed && from < f->line.len) {
		if (fmt_hold_add(&f->hold, f->line.s + from, f->line.len - from))
			sb_fail(&f->line);
		sb_truncate(&f->line, from);
	}
	fmt_lines_done(f);
}

/* Ends the current line. */
void fmt_line_end(struct fmt *f)
{
	sb_putc(&f->line, '\n');
	fmt_lines_done_from(f, f->line_at);
}
