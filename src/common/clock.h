/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's clock: CLOCK_MONOTONIC in nanoseconds, the clock of BPF's
 * bpf_ktime_get_ns() and of the user-event records, so every layer's
 * times compare. Plain C only.
 */
#ifndef PTBPF_COMMON_CLOCK_H
#define PTBPF_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000ULL

static inline uint64_t clock__mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

#endif
