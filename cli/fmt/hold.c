/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: lines held back, in order, behind one whose text is not known yet
 * (an <unfinished ...> entry whose path its exit brings; a restart error
 * that a SIGKILL makes strace's "= ?"). A held line goes out once closed,
 * or when the queue holds FMT_HOLD_MAX lines, or FMT_HOLD_NS of trace time
 * after it was held (a call that blocks): then with the text it had.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt/fmt.h"

static void line_free(struct fmt_hold_line *l)
{
	sb_free(&l->text);
	sb_free(&l->repl);
	sb_free(&l->data);
}

void fmt_hold_fini(struct fmt_hold *h)
{
	/* popped lines keep their buffers for reuse: every slot */
	for (size_t i = 0; i < h->cap; i++)
		line_free(&h->l[i]);
	free(h->l);
	memset(h, 0, sizeof(*h));
}

/* A new line at the queue's end (cleared; its buffers kept for reuse), or
 * NULL when out of memory. */
static struct fmt_hold_line *push(struct fmt_hold *h)
{
	struct fmt_hold_line *l;

	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		struct fmt_hold_line *nl = calloc(cap, sizeof(*nl));

		if (!nl)
			return NULL;
		for (size_t i = 0; i < h->n; i++)
			nl[i] = h->l[(h->head + i) % h->cap];
		free(h->l);
		h->l = nl;
		h->cap = cap;
		h->head = 0;
	}
	l = &h->l[(h->head + h->n++) % h->cap];
	sb_reset(&l->text);
	sb_truncate(&l->repl, 0);
	sb_truncate(&l->data, 0);
	l->tid = 0;
	l->kind = FMT_HOLD_CLOSED;
	l->ts = 0;
	l->cut = 0;
	l->replaced = 0;
	return l;
}

int fmt_hold_open(struct fmt_hold *h, const char *line, size_t len, size_t cut, pid_t tid, int kind,
		  int64_t ts, const void *data, size_t dlen)
{
	struct fmt_hold_line *l = push(h);

	if (!l)
		return -1;
	sb_putn(&l->text, line, len);
	if (dlen)
		sb_putn(&l->data, data, dlen);
	l->tid = tid;
	l->kind = kind;
	l->ts = ts;
	l->cut = cut < len ? cut : len;
	if (l->text.failed || l->data.failed) {
		/* kept, as it is: the lines stay in order */
		l->kind = FMT_HOLD_CLOSED;
		return -1;
	}
	return 0;
}

int fmt_hold_add(struct fmt_hold *h, const char *lines, size_t len)
{
	struct fmt_hold_line *l;

	l = push(h);
	if (!l)
		return -1;
	sb_putn(&l->text, lines, len);
	return l->text.failed ? -1 : 0;
}

struct fmt_hold_line *fmt_hold_find(struct fmt_hold *h, pid_t tid, int kind)
{
	for (size_t i = 0; i < h->n; i++) {
		struct fmt_hold_line *l = &h->l[(h->head + i) % h->cap];

		if (l->kind == kind && l->tid == tid)
			return l;
	}
	return NULL;
}

void fmt_hold_rekey(struct fmt_hold *h, pid_t from, pid_t to)
{
	for (size_t i = 0; i < h->n; i++) {
		struct fmt_hold_line *l = &h->l[(h->head + i) % h->cap];

		if (l->kind != FMT_HOLD_CLOSED && l->tid == from)
			l->tid = to;
	}
}

void fmt_hold_close(struct fmt_hold_line *l, const char *repl, size_t rlen)
{
	l->kind = FMT_HOLD_CLOSED;
	if (!repl)
		return;
	sb_reset(&l->repl);
	sb_putn(&l->repl, repl, rlen);
	l->replaced = !l->repl.failed;
}

size_t fmt_hold_drain(struct fmt_hold *h, struct sbuf *out, int64_t now, int all)
{
	size_t n = 0;

	while (h->n) {
		struct fmt_hold_line *l = &h->l[h->head];

		if (l->kind != FMT_HOLD_CLOSED && !all && h->n <= FMT_HOLD_MAX &&
		    now - l->ts <= FMT_HOLD_NS)
			break;
		if (l->replaced) {
			sb_putn(out, l->text.s, l->cut);
			sb_cat(out, &l->repl);
		} else {
			sb_cat(out, &l->text);
		}
		h->head = (h->head + 1) % h->cap;
		h->n--;
		n++;
	}
	if (!h->n)
		h->head = 0;
	return n;
}
