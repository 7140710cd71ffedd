// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for the -k reader (cli/stack*.c): the proc_map,
 * user_stack, stack_trace and stack_ref payloads of a log, untrusted. The
 * input is a sequence of events, each a byte (its low two bits: 0 a
 * proc_map, 1 a user_stack, 2 a stack_trace, 3 a stack_ref), a 16-bit
 * length and that many bytes, all given to one process, as show -k does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stack/stack.h"

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stack_view *s = stack_view_new();
	size_t at = 0;

	if (!s)
		return 0;
	while (size - at >= 3) {
		size_t len = data[at + 1] | (size_t)data[at + 2] << 8;
		int kind = data[at] & 3;
		uint8_t *ev;

		at += 3;
		if (len > size - at)
			len = size - at;
		/* its own buffer, of its own size: reads past it are caught */
		ev = malloc(len ? len : 1);
		if (!ev)
			break;
		memcpy(ev, data + at, len);
		at += len;
		if (kind == 1 || kind == 3) {
			struct stack_frames *fr = NULL;

			if (kind == 1)
				fr = stack_view_frames(s, 1, ev, len);
			else
				stack_view_ref(s, 1, ev, len, &fr);
			for (size_t i = 0; fr && i < fr->n; i++)
				sink += fr->f[i].symbol ? strlen(fr->f[i].symbol) : fr->f[i].pc;
			stack_frames_free(fr);
		} else if (kind == 2) {
			stack_view_table(s, ev, len);
		} else {
			stack_view_map(s, 1, ev, len);
		}
		free(ev);
	}
	stack_view_free(s);
	return 0;
}
