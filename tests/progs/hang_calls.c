/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program that hangs in a syscall, for the live <unfinished ...> tests:
 * hang_calls [-i] MODE TIMEFILE notes in TIMEFILE the time (CLOCK_REALTIME,
 * seconds) just before it blocks and its pid, then blocks in:
 *   read   a read of an empty pipe (its write end open here: forever);
 *   futex  a FUTEX_WAIT on a word nobody wakes (forever);
 *   loop   forever a getppid, the time noted, a FUTEX_WAIT of 2 s
 *          (for -p: each wait begins after the tracer attached).
 * -i: SIGINT ignored (a Ctrl-C of the tracer leaves it running).
 */
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int word;

/* The time now and the pid, in path (written anew); 0 or -1. */
static int note_time(const char *path)
{
	struct timespec t;
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	clock_gettime(CLOCK_REALTIME, &t);
	fprintf(f, "%lld.%09ld %d\n", (long long)t.tv_sec, t.tv_nsec, (int)getpid());
	return fclose(f) ? -1 : 0;
}

static long futex_wait(const struct timespec *timeout)
{
	return syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, timeout, NULL, 0);
}

int main(int argc, char **argv)
{
	struct timespec two = { .tv_sec = 2 };
	int argi = 1, p[2];
	char c;

	if (argc > 1 && !strcmp(argv[1], "-i")) {
		signal(SIGINT, SIG_IGN);
		argi++;
	}
	if (argc - argi != 2) {
		fprintf(stderr, "usage: hang_calls [-i] read|futex|loop TIMEFILE\n");
		return 2;
	}
	if (!strcmp(argv[argi], "loop")) {
		for (;;) {
			getppid();
			if (note_time(argv[argi + 1]))
				return 1;
			futex_wait(&two);
		}
	}
	if (pipe(p) || note_time(argv[argi + 1]))
		return 1;
	if (!strcmp(argv[argi], "read"))
		return read(p[0], &c, 1) == 1 ? 0 : 1;
	if (!strcmp(argv[argi], "futex"))
		return futex_wait(NULL) ? 1 : 0;
	return 2;
}
