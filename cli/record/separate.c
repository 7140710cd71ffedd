/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record -ff --output-text FILE (--output-separately): the lines of
 * each traced thread in FILE.TID, as strace -ff -o FILE writes them (its
 * tracee's id: a thread's). Each file has a formatter of its own, which
 * the view picks by the event's thread (view_route): one thread's lines,
 * so none is left <unfinished ...> by another's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"

struct sep_file {
	struct live_out out;
	struct fmt f;
	char path[];
};

static struct fmt *sep_route(void *ctx, pid_t tid)
{
	struct separate *s = ctx;
	struct sep_file *sf = pidmap_get(&s->files, tid);
	size_t n;

	if (sf)
		return &sf->f;
	if (s->failed)
		return NULL;
	n = strlen(s->prefix) + 16;
	sf = calloc(1, sizeof(*sf) + n);
	if (!sf)
		goto fail;
	snprintf(sf->path, n, "%s.%d", s->prefix, (int)tid);
	if (live_out_open(&sf->out, sf->path, s->append))
		goto fail;
	fmt_init(&sf->f, sf->out.f, 0, &s->look);
	if (!pidmap_put(&s->files, tid, sf))
		return &sf->f;
	fmt_fini(&sf->f);
	live_out_close(&sf->out);
fail:
	/* said (live_out_open) or out of memory: the record ends as failed */
	if (sf && !sf->out.f)
		s->open_failed = 1;
	free(sf);
	s->failed = 1;
	return NULL;
}

int separate_init(struct separate *s, struct view *v, const char *prefix, int append,
		  const struct fmt_look *look, pid_t first)
{
	memset(s, 0, sizeof(*s));
	s->prefix = prefix;
	s->append = append;
	s->look = *look;
	s->look.pids = FMT_PID_NONE; /* a file is one thread's */
	/* the first process's file made now, as strace does: a file that
	 * cannot be made is said before anything is traced */
	if (first > 0 && !sep_route(s, first)) {
		if (!s->open_failed)
			cli_err("out of memory");
		return -1;
	}
	view_route(v, sep_route, s);
	return 0;
}

/* One file's end: its lines out, closed; 0, or -1 if it failed (said). */
static int sep_close(struct sep_file *sf)
{
	int failed;

	fmt_flush(&sf->f);
	failed = fmt_failed(&sf->f);
	fmt_fini(&sf->f);
	if (live_out_close(&sf->out)) {
		cli_err("writing %s: %s: the lines before the error are in it", sf->path,
			strerror(sf->out.err));
		failed = 1;
	}
	return failed ? -1 : 0;
}

int separate_close(struct separate *s, uint64_t *nevents)
{
	int ret = s->failed ? -1 : 0;

	for (size_t i = 0; i < s->files.cap; i++) {
		struct sep_file *sf = s->files.e[i].val;

		if (!s->files.e[i].key || !sf)
			continue;
		*nevents += sf->f.nevents;
		if (sep_close(sf))
			ret = -1;
		free(sf);
		s->files.e[i].val = NULL;
	}
	if (s->failed && !s->open_failed)
		cli_err("out of memory");
	pidmap_free(&s->files, NULL);
	return ret;
}
