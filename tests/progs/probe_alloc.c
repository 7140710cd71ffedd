/*
 * A program of known calls for the probe tests (itest_probes.c,
 * cli_probes.test.sh): after "go" on fd GO (or at once without one), n
 * times each: malloc(0x5a00 + i), probe_target(i, ..., 6 arguments), the
 * USDT probe ptbpf_test:tick(i, "tick") guarded by its semaphore, free.
 * Prints "ptr PID SIZE ADDR" per allocation, "sem PID VALUE" (the
 * semaphore's value seen by the first call) and, with "fork", does the
 * same in a child it forks first, then waits for it; with "exec", execs
 * itself once done to do it all again (mode "-"); with "time", only calls
 * probe_target N times and prints "ns PID NS_PER_CALL".
 *   probe_alloc N fork|exec|time|- [READY_FD GO_FD]
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

unsigned short ptbpf_test_tick_semaphore __attribute__((unused, section(".probes")));

__attribute__((noinline)) long probe_target(long a, long b, long c, long d, long e, long f)
{
	__asm__ volatile("" ::: "memory");
	return a + b + c + d + e + f;
}

static void calls(int n)
{
	unsigned short sem = ptbpf_test_tick_semaphore;

	for (int i = 0; i < n; i++) {
		size_t sz = 0x5a00 + (size_t)i;
		char *p = malloc(sz);

		if (!p)
			exit(1);
		p[0] = 0;
		printf("ptr %d %#zx %p\n", (int)getpid(), sz, (void *)p);
		probe_target(i, 1, 2, 3, 4, 5);
		if (ptbpf_test_tick_semaphore)
			DTRACE_PROBE2(ptbpf_test, tick, i, "tick");
		free(p);
	}
	printf("sem %d %u\n", (int)getpid(), sem);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, forked = argc > 2 && !strcmp(argv[2], "fork");
	pid_t child = 0;
	char c;

	if (argc > 4) {
		/* held: "r" on READY_FD, then wait for a byte on GO_FD */
		int ready = atoi(argv[3]), go = atoi(argv[4]);

		if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
			return 2;
		close(ready);
		close(go);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && !strcmp(argv[2], "time")) {
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		for (int i = 0; i < n; i++)
			probe_target(i, 0, 0, 0, 0, 0);
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("ns %d %.1f\n", (int)getpid(),
		       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / (n ? n : 1));
		return 0;
	}
	if (forked) {
		child = fork();
		if (child < 0)
			return 1;
	}
	calls(n);
	if (child > 0 && waitpid(child, NULL, 0) != child)
		return 1;
	if (argc > 2 && !strcmp(argv[2], "exec")) {
		execl("/proc/self/exe", argv[0], argv[1], "-", (char *)NULL);
		return 1;
	}
	return 0;
}
