// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An execve made by a thread other than the leader (the thread takes the
 * leader's id: strace's "+++ superseded by execve in pid N +++"); its
 * strings in a page the process has not touched yet, as a program's
 * constant data often is. Usage: thread_exec PROGRAM [ARG].
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static char **args;

static void *thread(void *arg)
{
	(void)arg;
	execve(args[0], args, NULL);
	perror("execve");
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 2) {
		fprintf(stderr, "usage: thread_exec PROGRAM [ARG]\n");
		return 2;
	}
	args = argv + 1;
	if (pthread_create(&t, NULL, thread, NULL))
		return 1;
	pthread_join(t, NULL);
	return 1;
}
