// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Probe workloads of the benchmark: a function called in a tight loop
 * (for a uprobe on it), or a USDT probe guarded by its semaphore in one.
 *
 *   bench_probes uprobe N     N calls of bench_probe_target(i)
 *   bench_probes usdt N       N hits of ptbpf_bench:hit(i) (when enabled)
 *
 * Prints one line (see bench_result()):
 *   ns_per_op X hits N total M elapsed_ns T
 * ns_per_op: the time of one loop turn; total: the hits after the start
 * (warm-up included), one event each when probed.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>

#include "bench_common.h"

#define WARMUP 1000

unsigned short ptbpf_bench_hit_semaphore __attribute__((unused, section(".probes")));

/* Not inlined: the uprobe's target, one call per turn. */
__attribute__((noinline)) void bench_probe_target(uint64_t i)
{
	__asm__ volatile("" : : "r"(i) : "memory");
}

static void loop(int usdt, uint64_t from, uint64_t n)
{
	for (uint64_t i = from; i < from + n; i++) {
		if (!usdt)
			bench_probe_target(i);
		else if (ptbpf_bench_hit_semaphore)
			DTRACE_PROBE1(ptbpf_bench, hit, i);
		else
			__asm__ volatile("" : : : "memory");
	}
}

int main(int argc, char **argv)
{
	uint64_t n, t0, t1;
	int usdt;

	if (argc != 3 || (strcmp(argv[1], "uprobe") && strcmp(argv[1], "usdt"))) {
		fprintf(stderr, "usage: bench_probes uprobe|usdt N\n");
		return 2;
	}
	usdt = !strcmp(argv[1], "usdt");
	n = strtoull(argv[2], NULL, 10);
	bench_sync();
	loop(usdt, 0, WARMUP);
	t0 = bench_now_ns();
	loop(usdt, WARMUP, n);
	t1 = bench_now_ns();
	bench_result("ns_per_op %.2f hits %llu total %llu elapsed_ns %llu\n",
		     n ? (double)(t1 - t0) / (double)n : 0.0, (unsigned long long)n,
		     (unsigned long long)(n + WARMUP), (unsigned long long)(t1 - t0));
	return 0;
}
