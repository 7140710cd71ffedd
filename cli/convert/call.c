/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A syscall's entry kept until its exit, for the converters' slices. */
#include <stdlib.h>
#include <string.h>

#include "convert/convert.h"

int conv_call_open(struct conv_call *c, const struct cli_ev *ev, const char *sys)
{
	c->ts = ts_ns(&ev->info.posix_timestamp);
	c->id = ev->info.posix_event_id;
	sb_reset(&c->text);
	decode_sys_args(&c->text, sys, ev->desc, ev->data, ev->len);
	c->has_args = ev->len >= offsetof(struct ptbpf_ev_sys_enter, paths);
	if (c->has_args)
		memcpy(c->args, ((const struct ptbpf_ev_sys_enter *)ev->data)->args,
		       sizeof(c->args));
	fmt_late_keep(&c->data, ev);
	sb_reset(&c->entry);
	sb_putn(&c->entry, ev->data, ev->len);
	return c->text.failed || c->entry.failed || c->data.failed ? -1 : 0;
}

void conv_call_free(struct conv_call *c)
{
	sb_free(&c->text);
	sb_free(&c->data);
	sb_free(&c->entry);
}
