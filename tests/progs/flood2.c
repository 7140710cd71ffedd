// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Test helper: a syscall flood, two threads making N getppid() calls each,
 * started together, as fast as they can.
 * usage: flood2 N
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_barrier_t start;
static long n;

static void *flood(void *arg)
{
	long i;

	(void)arg;
	pthread_barrier_wait(&start);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: flood2 N\n");
		return 2;
	}
	pthread_barrier_init(&start, NULL, 2);
	if (pthread_create(&t, NULL, flood, NULL))
		return 1;
	flood(NULL);
	pthread_join(t, NULL);
	return 0;
}
