// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * late_log FILE TS...: writes a log of one user event per TS (nanoseconds),
 * in the order given, with the library's own log writer (src/log): a log
 * whose events go back in time, as a starved source's late event does, for
 * cli_log_ts.test.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <trace.h>

#include "log/log.h"

#define LATE_EV_ID 2049 /* the stream's first named user event */

int main(int argc, char **argv)
{
	struct log_meta m = { .create_sec = 5,
			      .clockres_nsec = 1,
			      .max_data_size = 64,
			      .stream_min_size = 1 << 20,
			      .stream_full_policy = POSIX_TRACE_FLUSH,
			      .log_full_policy = LOG_POLICY_APPEND };
	/* the core's status words (struct posix_trace_status_info's order): nothing lost */
	struct log_status st = { .v = { POSIX_TRACE_SUSPENDED, POSIX_TRACE_NOT_FULL,
					POSIX_TRACE_NO_OVERRUN, POSIX_TRACE_NOT_FLUSHING, 0,
					POSIX_TRACE_NO_OVERRUN, POSIX_TRACE_NOT_FULL } };
	struct log_writer *w = NULL;
	int fd, err, i;

	if (argc < 3) {
		fprintf(stderr, "usage: late_log FILE TS...\n");
		return 2;
	}
	strcpy(m.name, "late_log");
	strcpy(m.genversion, "ptbpf late_log test");
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	err = log_writer__open(&w, fd, &m, NULL);
	if (!err)
		err = log_writer__add_type(w, LATE_EV_ID, "late");
	for (i = 2; !err && i < argc; i++) {
		char data[32];
		struct pt_event_hdr h = { .id = LATE_EV_ID, .pid = 100, .tid = 100 };

		/* the event's data names it by its place in the log */
		h.data_len = (uint32_t)snprintf(data, sizeof(data), "event %d", i - 1);
		h.ts = strtoull(argv[i], NULL, 10);
		err = log_writer__append(w, &h, data);
		if (err > 0)
			err = -ENOSPC; /* not written: cannot be with no size limit */
	}
	if (err && w)
		log_writer__free(w);
	else if (!err)
		err = log_writer__close(w, &st);
	if (err || close(fd)) {
		fprintf(stderr, "late_log: %s: %s\n", argv[1], strerror(err ? -err : errno));
		return 1;
	}
	return 0;
}
