// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A trace log analyzer: it reads a POSIX trace log (ptbpf record -o LOG, or
 * any posix_trace_create_withlog() stream's), on any machine and without
 * privilege, and prints how many events of each type it holds, the most
 * frequent first, and the time the trace spans.
 * Usage: log_analyzer LOG
 * Build: cc log_analyzer.c $(pkg-config --cflags --libs posixtrace)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace.h>
#include <unistd.h>

struct count {
	trace_event_id_t id;
	unsigned long n;
};

static int by_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

int main(int argc, char **argv)
{
	static struct count counts[4096];
	struct posix_trace_event_info ev;
	struct timespec first = { 0, 0 }, last = { 0, 0 };
	char data[1024], name[TRACE_EVENT_NAME_MAX];
	size_t len, ncounts = 0, i;
	unsigned long total = 0;
	int fd, err, unavailable;
	trace_id_t trid;

	if (argc != 2) {
		fprintf(stderr, "usage: log_analyzer LOG\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || (err = posix_trace_open(fd, &trid))) {
		fprintf(stderr, "log_analyzer: %s: not a trace log\n", argv[1]);
		return 1;
	}
	while (!posix_trace_getnext_event(trid, &ev, data, sizeof(data), &len, &unavailable) &&
	       !unavailable) {
		for (i = 0; i < ncounts && counts[i].id != ev.posix_event_id; i++)
			;
		if (i == ncounts && ncounts < sizeof(counts) / sizeof(counts[0]))
			counts[ncounts++].id = ev.posix_event_id;
		if (i < ncounts)
			counts[i].n++;
		if (!total++)
			first = ev.posix_timestamp;
		last = ev.posix_timestamp;
	}
	qsort(counts, ncounts, sizeof(counts[0]), by_count);
	for (i = 0; i < ncounts; i++) {
		if (posix_trace_eventid_get_name(trid, counts[i].id, name))
			strcpy(name, "?");
		printf("%10lu  %s\n", counts[i].n, name);
	}
	printf("%10lu  events in %.6f s\n", total,
	       (double)(last.tv_sec - first.tv_sec) + (last.tv_nsec - first.tv_nsec) / 1e9);
	posix_trace_close(trid);
	close(fd);
	return 0;
}
