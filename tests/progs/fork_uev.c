/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For the ptbpf CLI tests: fork_uev N registers fork_hello, forks at once
 * (before any tracer can have attached to its user events), then parent
 * and child each emit fork_hello N times, with their pid and a sequence
 * number as data; the parent waits for the child. fork_uev N MS waits MS
 * milliseconds before it forks (a tracer attaches meanwhile).
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, i, st;
	trace_event_id_t id;
	int32_t data[2];
	pid_t child;

	if (posix_trace_eventid_open("fork_hello", &id))
		return 10;
	if (argc > 2)
		usleep((useconds_t)atoi(argv[2]) * 1000);
	child = fork();
	if (child < 0)
		return 11;
	data[0] = (int32_t)getpid();
	for (i = 0; i < n; i++) {
		data[1] = i;
		posix_trace_event(id, data, sizeof(data));
	}
	if (!child)
		return 0;
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		return 12;
	return 0;
}
