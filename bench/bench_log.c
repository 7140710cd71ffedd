// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace log speed.
 *
 *   bench_log read LOG
 *       Opens LOG with posix_trace_open() and reads every event with
 *       posix_trace_getnext_event(), payload included.
 *   bench_log write LOG N
 *       The log writer alone (the library's internal src/log writer, as
 *       the stream's flusher thread uses it): N events of an int + 64
 *       bytes appended to LOG, closed, fdatasync()ed.
 *
 * Prints (see bench_result())
 *   ns_per_op X syscalls 0 total N elapsed_ns T bytes B
 * with ns_per_op the time per event (events/s = 1e9 / X) and B the
 * payload bytes read, or the file size written. End-to-end log writing
 * (events captured and written) is measured with bench_ctl -o.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <trace.h>

#include "bench_common.h"
#include "log/log.h"

static int do_write(const char *path, unsigned long long n)
{
	struct log_writer *w;
	struct log_meta m;
	struct pt_event_hdr h;
	unsigned char data[68];
	unsigned long long i;
	struct stat sb;
	uint64_t t0, t;
	int fd, err;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "bench_log: %s: %s\n", path, strerror(errno));
		return 1;
	}
	memset(&m, 0, sizeof(m));
	strcpy(m.name, "bench");
	m.log_full_policy = LOG_POLICY_APPEND;
	m.max_data_size = 1024;
	memset(&h, 0, sizeof(h));
	memset(data, 0x5a, sizeof(data));
	h.id = 2049;
	h.pid = getpid();
	h.tid = h.pid;
	h.data_len = sizeof(data);
	t0 = bench_now_ns();
	err = log_writer__open(&w, fd, &m, NULL);
	if (!err)
		err = log_writer__add_type(w, h.id, "bench_ev");
	for (i = 0; !err && i < n; i++) {
		h.ts = t0 + i;
		memcpy(data, &i, sizeof(i));
		err = log_writer__append(w, &h, data);
	}
	if (!err)
		err = log_writer__close(w, NULL);
	if (!err && fdatasync(fd))
		err = -errno;
	t = bench_now_ns() - t0;
	if (err) {
		fprintf(stderr, "bench_log: write: %s\n", strerror(-err));
		return 1;
	}
	fstat(fd, &sb);
	close(fd);
	bench_result("ns_per_op %.2f syscalls 0 total %llu elapsed_ns %llu bytes %llu\n",
		     (double)t / (double)n, n, (unsigned long long)t,
		     (unsigned long long)sb.st_size);
	return 0;
}

int main(int argc, char **argv)
{
	struct posix_trace_event_info ev;
	unsigned long long n = 0, bytes = 0;
	uint64_t t0, t;
	char data[8192];
	trace_id_t tr;
	int fd, err;

	if (argc == 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], strtoull(argv[3], NULL, 0));
	if (argc != 3 || strcmp(argv[1], "read")) {
		fprintf(stderr, "usage: bench_log read LOG | write LOG N\n");
		return 2;
	}
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "bench_log: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	t0 = bench_now_ns();
	err = posix_trace_open(fd, &tr);
	if (err) {
		fprintf(stderr, "bench_log: posix_trace_open: %s\n", strerror(err));
		return 1;
	}
	for (;;) {
		size_t len = 0;
		int unav = 0;

		err = posix_trace_getnext_event(tr, &ev, data, sizeof(data), &len, &unav);
		if (err || unav)
			break;
		n++;
		bytes += len;
	}
	t = bench_now_ns() - t0;
	if (err)
		fprintf(stderr, "bench_log: getnext: %s\n", strerror(err));
	posix_trace_close(tr);
	if (!n) {
		fprintf(stderr, "bench_log: no events\n");
		return 1;
	}
	bench_result("ns_per_op %.2f syscalls 0 total %llu elapsed_ns %llu bytes %llu\n",
		     (double)t / (double)n, n, (unsigned long long)t, bytes);
	return 0;
}
