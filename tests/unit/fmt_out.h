/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The unit tests of the text printer: a formatter writing to memory. */
#ifndef PTBPF_TEST_FMT_OUT_H
#define PTBPF_TEST_FMT_OUT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"

struct out {
	char *s;
	size_t len;
	FILE *f;
	struct fmt fmt;
};

/* A formatter of look (NULL: the default, strace's) writing to memory. */
static inline void out_open_look(struct out *o, const struct fmt_look *look)
{
	memset(o, 0, sizeof(*o));
	o->f = open_memstream(&o->s, &o->len);
	assert_non_null(o->f);
	fmt_init(&o->fmt, o->f, 0, look);
}

/* ptbpf's own look, "TS PID/TID " before each line: the tests read each
 * line's thread (strace's look: test_cli_leader.c) */
static inline void out_open(struct out *o)
{
	struct fmt_look look;

	fmt_look_init(&look);
	look.look = FMT_LOOK_PTBPF;
	out_open_look(o, &look);
}

/* What is written so far: the finished lines (flush: the held ones too). */
static inline const char *out_written(struct out *o, int flush)
{
	if (flush)
		fmt_flush(&o->fmt);
	else
		fmt_out(&o->fmt);
	fflush(o->f);
	return o->s ? o->s : "";
}

static inline void out_close(struct out *o)
{
	fmt_fini(&o->fmt);
	fclose(o->f);
	free(o->s);
}

#endif
