// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for what ptbpf export parses of a ClickHouse server's
 * HTTP answers (cli/export/resp.c, and the table check of sql.c): the
 * stream's count and max(seq), DESCRIBE TABLE's columns, an error's
 * message and code. The input is the answer's body, given to each.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of its exact size: a read past the end is found */
	char *s = malloc(size ? size : 1), msg[256], type[64];
	uint64_t count, max;

	if (!s)
		return 0;
	memcpy(s, data, size);
	if (!ch_parse_state(s, size, &count, &max))
		sink += count + max;
	if (!ch_describe_type(s, size, "host_name", type, sizeof(type)))
		sink += strlen(type);
	ch_describe_type(s, size, "seq", type, 1);
	sink += (size_t)ch_error_text(s, size, msg, sizeof(msg)) + strlen(msg);
	ch_error_text(s, size, msg, 1);
	sink += strlen(msg);
	sink += (size_t)ch_schema_check(s, size, "t", msg, sizeof(msg));
	sink += (size_t)ch_code_transient((int)size);
	free(s);
	return 0;
}
