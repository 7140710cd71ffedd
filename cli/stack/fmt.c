// SPDX-License-Identifier: LGPL-2.1-or-later
/* -k: the frames of a stack as strace -k's lines, or as JSON; kernel
 * frames in the same form, named as perf does ([kernel.kallsyms]). */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "stack/stack.h"

static char *sb_take(struct sbuf *b)
{
	if (b->failed || !b->s) {
		free(b->s);
		return NULL;
	}
	return b->s;
}

char *stack_frames_text(const struct stack_frames *fr)
{
	struct sbuf b = { 0 };

	for (size_t i = 0; i < fr->n; i++) {
		const struct stack_frame *f = &fr->f[i];

		if (!f->module)
			/* strace's words for a frame it cannot place */
			sb_printf(&b, " > unexpected_backtracing_error [%#lx]\n",
				  (unsigned long)f->pc);
		else if (f->symbol)
			sb_printf(&b, " > %s(%s+%#lx) [%#lx]\n", f->module, f->symbol,
				  (unsigned long)f->symoff, (unsigned long)f->modoff);
		else
			sb_printf(&b, " > %s() [%#lx]\n", f->module, (unsigned long)f->modoff);
	}
	return sb_take(&b);
}

char *stack_frames_json(const struct stack_frames *fr, pid_t pid, pid_t tid)
{
	struct sbuf b = { 0 };

	sb_printf(&b, "{\"type\":\"stack\",\"pid\":%d,\"tid\":%d,\"frames\":[", (int)pid, (int)tid);
	for (size_t i = 0; i < fr->n; i++) {
		const struct stack_frame *f = &fr->f[i];

		sb_printf(&b, "%s{\"address\":\"%#lx\"", i ? "," : "", (unsigned long)f->pc);
		if (f->module) {
			sb_puts(&b, ",\"module\":");
			sb_json_str(&b, f->module, strlen(f->module));
			sb_printf(&b, ",\"module_offset\":\"%#lx\"", (unsigned long)f->modoff);
		}
		if (f->symbol) {
			sb_puts(&b, ",\"symbol\":");
			sb_json_str(&b, f->symbol, strlen(f->symbol));
			sb_printf(&b, ",\"symbol_offset\":\"%#lx\"", (unsigned long)f->symoff);
		}
		if (f->file) {
			sb_puts(&b, ",\"file\":");
			sb_json_str(&b, f->file, strlen(f->file));
			sb_printf(&b, ",\"line\":%d", f->line);
		}
		if (f->kernel)
			sb_puts(&b, ",\"kernel\":true");
		sb_putc(&b, '}');
	}
	sb_puts(&b, "]}\n");
	return sb_take(&b);
}
