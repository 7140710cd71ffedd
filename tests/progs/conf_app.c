// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A traced process for itest_conformance: links the shared libposixtrace
 * only, maps the names given as arguments, says "ready", then obeys
 * commands on stdin, one per line, each answered on stdout:
 *
 *   open NAME        posix_trace_eventid_open(NAME): "id N"
 *   post NAME COUNT  COUNT events of NAME (mapped first if need be), each
 *                    an int, 0 .. COUNT-1: "posted"
 *   exit             returns 0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace.h>

/* One line of stdin, without its newline; false at the end of input. */
static int read_line(char *line, size_t max)
{
	size_t n = 0;
	char ch;

	for (;;) {
		if (read(0, &ch, 1) != 1)
			return 0;
		if (ch == '\n')
			break;
		if (n < max - 1)
			line[n++] = ch;
	}
	line[n] = 0;
	return 1;
}

int main(int argc, char **argv)
{
	char line[256], name[TRACE_EVENT_NAME_MAX + 64];
	trace_event_id_t id;
	int i, count;

	for (i = 1; i < argc; i++)
		if (posix_trace_eventid_open(argv[i], &id))
			return 2;
	dprintf(1, "ready\n");
	while (read_line(line, sizeof(line))) {
		if (sscanf(line, "open %127s", name) == 1) {
			if (posix_trace_eventid_open(name, &id))
				return 3;
			dprintf(1, "id %u\n", id);
		} else if (sscanf(line, "post %127s %d", name, &count) == 2) {
			if (posix_trace_eventid_open(name, &id))
				return 3;
			for (i = 0; i < count; i++)
				posix_trace_event(id, &i, sizeof(i));
			dprintf(1, "posted\n");
		} else if (!strcmp(line, "exit")) {
			return 0;
		} else {
			return 4;
		}
	}
	return 5;
}
