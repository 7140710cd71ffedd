// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An instrumented program: it names two event types and writes an event of
 * each per request it serves. Untraced, posix_trace_event() costs a load and
 * a branch; traced (ptbpf record -- ./user_events), each event prints beside
 * the program's syscalls:
 *   --- user:app.request "..." ---
 * Build: cc user_events.c $(pkg-config --cflags --libs posixtrace)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, i;
	trace_event_id_t request, done;
	char msg[64];

	if (posix_trace_eventid_open("app.request", &request) ||
	    posix_trace_eventid_open("app.done", &done)) {
		fprintf(stderr, "user_events: cannot name the event types\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		snprintf(msg, sizeof(msg), "request %d", i);
		posix_trace_event(request, msg, strlen(msg));
		/* the work: a syscall the trace shows between the two events */
		if (access("/", R_OK))
			return 1;
		posix_trace_event(done, &i, sizeof(i));
	}
	printf("user_events: %d requests served\n", n);
	return 0;
}
