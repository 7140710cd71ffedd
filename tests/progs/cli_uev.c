/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For the ptbpf CLI tests: cli_uev [N [DELAY_MS]] registers cli_hello, waits
 * DELAY_MS, emits cli_hello ("hello\x01" + digit) N times and one unnamed event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <trace.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, i;
	long delay = argc > 2 ? atol(argv[2]) : 0;
	struct timespec ts = { delay / 1000, delay % 1000 * 1000000L };
	trace_event_id_t id;
	char data[8];

	if (posix_trace_eventid_open("cli_hello", &id))
		return 10;
	if (delay)
		nanosleep(&ts, NULL);
	for (i = 0; i < n; i++) {
		memcpy(data, "hello\x01", 6);
		data[6] = '0' + i % 10;
		posix_trace_event(id, data, 7);
	}
	posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, "", 0);
	return 0;
}
