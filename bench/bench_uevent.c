// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * User-event workload: an event carrying an int and 64 bytes, emitted in a
 * loop by 1 or more threads.
 *
 *   bench_uevent N THREADS         posix_trace_event() (traced when run
 *                                  under bench_ctl -u, untraced alone)
 *   bench_uevent_lttng N THREADS   the same payload through an LTTng-UST
 *                                  tracepoint (built with BENCH_LTTNG)
 *   bench_uevent rate EV_PER_S SECS
 *                                  one thread paced at EV_PER_S events per
 *                                  second for SECS (ns_per_op is then the
 *                                  achieved rate in events/s)
 *
 * Prints "ns_per_op X syscalls 0 total N elapsed_ns T" like bench_syscalls:
 * ns_per_op is the time of one event in its thread (mean over the
 * threads), total the number of events emitted.
 *
 * With 2 threads or more, thread i is held on the i-th CPU the process may
 * use (modulo their number): a burst of 20k events lasts 5-10 ms, too
 * short for the scheduler to move a thread started on the CPU of another,
 * and in about half the runs both threads of a burst took turns on one
 * CPU (each event then seems to cost twice what it does).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#ifdef BENCH_LTTNG
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "bench_tp.h"
#else
#include <trace.h>
static trace_event_id_t ev_id;
#endif

struct payload {
	int v;
	char buf[64];
};

#define MAX_THREADS 64

static pthread_barrier_t barrier;
static uint64_t per_thread;

/* The i-th CPU of set (modulo the CPUs in it), or -1 if none. */
static int nth_cpu(const cpu_set_t *set, int i)
{
	int n = CPU_COUNT(set), cpu;

	if (!n)
		return -1;
	i %= n;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set) && !i--)
			return cpu;
	return -1;
}

__attribute__((noinline)) static void emit(struct payload *p)
{
#ifdef BENCH_LTTNG
	lttng_ust_tracepoint(bench, ev, p->v, p->buf);
#else
	posix_trace_event(ev_id, p, sizeof(*p));
#endif
	__asm__ volatile("" ::: "memory");
}

static void *thread_main(void *arg)
{
	uint64_t *ns = arg, t0, i;
	struct payload p;

	memset(&p, 0x5a, sizeof(p));
	pthread_barrier_wait(&barrier);
	t0 = bench_now_ns();
	for (i = 0; i < per_thread; i++) {
		p.v = (int)i;
		emit(&p);
	}
	*ns = bench_now_ns() - t0;
	return NULL;
}

static int paced(double rate, double secs)
{
	uint64_t dur = (uint64_t)(secs * 1e9), done = 0, t0, t;
	struct payload p;

	memset(&p, 0x5a, sizeof(p));
	t0 = bench_now_ns();
	for (;;) {
		uint64_t now = bench_now_ns() - t0, want;

		if (now >= dur)
			break;
		want = (uint64_t)((double)now * rate / 1e9);
		while (done < want) {
			p.v = (int)done;
			emit(&p);
			done++;
		}
	}
	t = bench_now_ns() - t0;
	bench_result("ns_per_op %.2f syscalls 0 total %llu elapsed_ns %llu\n",
		     (double)done * 1e9 / (double)t, (unsigned long long)done,
		     (unsigned long long)t);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t ns[MAX_THREADS], t0, sum = 0;
	pthread_t th[MAX_THREADS];
	pthread_attr_t attr;
	cpu_set_t allowed, one;
	int threads, i, cpu;

	if (argc == 4 && !strcmp(argv[1], "rate")) {
#ifndef BENCH_LTTNG
		if (posix_trace_eventid_open("bench_ev", &ev_id))
			return 1;
#endif
		bench_sync();
		return paced(strtod(argv[2], NULL), strtod(argv[3], NULL));
	}
	if (argc < 3 || (threads = atoi(argv[2])) < 1 || threads > MAX_THREADS) {
		fprintf(stderr, "usage: %s N THREADS\n", argv[0]);
		return 2;
	}
	per_thread = strtoull(argv[1], NULL, 0) / (uint64_t)threads;
#ifndef BENCH_LTTNG
	if (posix_trace_eventid_open("bench_ev", &ev_id)) {
		fprintf(stderr, "%s: posix_trace_eventid_open failed\n", argv[0]);
		return 1;
	}
#endif
	bench_sync();
	pthread_barrier_init(&barrier, NULL, (unsigned)threads);
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	t0 = bench_now_ns();
	for (i = 0; i < threads; i++) {
		pthread_attr_init(&attr);
		cpu = threads > 1 ? nth_cpu(&allowed, i) : -1;
		if (cpu >= 0) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		}
		if (pthread_create(&th[i], &attr, thread_main, &ns[i]))
			return 1;
		pthread_attr_destroy(&attr);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(th[i], NULL);
		sum += ns[i];
	}
	bench_result("ns_per_op %.2f syscalls 0 total %llu elapsed_ns %llu\n",
		     (double)sum / (double)(per_thread * (uint64_t)threads),
		     (unsigned long long)(per_thread * (uint64_t)threads),
		     (unsigned long long)(bench_now_ns() - t0));
	return 0;
}
