/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The unit tests of the view: a view printing to memory. */
#ifndef PTBPF_TEST_VIEW_OUT_H
#define PTBPF_TEST_VIEW_OUT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"

struct out {
	char *s;
	size_t len;
	FILE *f;
	struct fmt fmt;
	struct view_opts o;
	struct view *v;
};

/* The formatter and default options; the test sets o->o, then out_view(). */
static void out_begin(struct out *o)
{
	struct fmt_look look;

	memset(o, 0, sizeof(*o));
	o->f = open_memstream(&o->s, &o->len);
	assert_non_null(o->f);
	/* ptbpf's look (--format=ptbpf): every event, "TS PID/TID " */
	fmt_look_init(&look);
	look.look = FMT_LOOK_PTBPF;
	fmt_init(&o->fmt, o->f, 0, &look);
	view_opts_init(&o->o);
}

static void out_view(struct out *o)
{
	assert_int_equal(view_new(&o->v, &o->o, &o->fmt, 0), 0);
}

/* The whole text: the view ended, every held line out. */
static const char *out_text(struct out *o)
{
	view_end(o->v, 0);
	fmt_flush(&o->fmt);
	fflush(o->f);
	return o->s ? o->s : "";
}

static void out_close(struct out *o)
{
	view_free(o->v);
	fmt_fini(&o->fmt);
	fclose(o->f);
	free(o->s);
}

#endif
