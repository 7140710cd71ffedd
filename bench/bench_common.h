/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the benchmark programs. */
#ifndef PTBPF_BENCH_COMMON_H
#define PTBPF_BENCH_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t bench_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t bench_now_ns(void)
{
	return bench_clock_ns(CLOCK_MONOTONIC);
}

/*
 * Start handshake with bench_ctl: when the environment has
 * BENCH_READY_FD and BENCH_GO_FD, write one byte to the first once set up
 * and wait for one byte on the second (the controller attaches between).
 */
static inline void bench_sync(void)
{
	const char *r = getenv("BENCH_READY_FD"), *g = getenv("BENCH_GO_FD");
	char c = 'r';

	if (!r || !g)
		return;
	if (write(atoi(r), &c, 1) != 1 || read(atoi(g), &c, 1) != 1)
		_exit(126);
	close(atoi(r));
	close(atoi(g));
}

/*
 * The result line: appended to the file named by BENCH_RESULT when set
 * (the tracers under test may send the command's stdout elsewhere),
 * else printed on stdout.
 */
__attribute__((format(printf, 1, 2))) static inline void bench_result(const char *fmt, ...)
{
	const char *path = getenv("BENCH_RESULT");
	FILE *f = path ? fopen(path, "a") : stdout;
	va_list ap;

	if (!f)
		f = stdout;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fflush(f);
	if (f != stdout)
		fclose(f);
}

#endif /* PTBPF_BENCH_COMMON_H */
