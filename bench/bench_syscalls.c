// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Syscall workloads of the benchmark (run untraced and under each tracer).
 *
 *   bench_syscalls getppid N          N getppid() calls
 *   bench_syscalls getppid2 N         two threads, N/2 getppid() calls each
 *   bench_syscalls tree DIR FILES REPS
 *                                     walk DIR (getdents64, newfstatat, and
 *                                     openat+read+close of the first FILES
 *                                     regular files), REPS times
 *   bench_syscalls rw N               N/2 write()s of 64 bytes into a pipe,
 *                                     each read() back (the buffers a
 *                                     decoding tracer copies)
 *   bench_syscalls rate EV_PER_S SECS getppid() paced so that entry+exit
 *                                     events arrive at EV_PER_S for SECS
 *
 * Prints one line (see bench_result()):
 *   ns_per_op X syscalls N total M elapsed_ns T
 * where ns_per_op is the time of one measured syscall in the calling
 * thread (for getppid2, the mean over the two threads), syscalls the
 * number of syscalls of the measured part and total that of the whole
 * workload after the start handshake (warm-up included; each syscall
 * gives an entry and an exit event).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench_common.h"

static void report(double ns_per_op, uint64_t syscalls, uint64_t total, uint64_t elapsed)
{
	bench_result("ns_per_op %.2f syscalls %llu total %llu elapsed_ns %llu\n", ns_per_op,
		     (unsigned long long)syscalls, (unsigned long long)total,
		     (unsigned long long)elapsed);
}

static void loop_getppid(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* rw: n calls, a write of 64 bytes into a pipe and its read, by turns. */
static void loop_rw(int p[2], uint64_t n)
{
	static const char out[64] = "the bytes a decoding tracer copies at each call.";
	char in[64];
	uint64_t i;

	for (i = 0; i < n / 2; i++) {
		if (write(p[1], out, sizeof(out)) != sizeof(out) ||
		    read(p[0], in, sizeof(in)) < 0) {
			perror("rw");
			exit(1);
		}
	}
}

/* getppid2: both threads start together, each times its own loop. */
static pthread_barrier_t barrier;
static uint64_t per_thread;

static void *thread_main(void *arg)
{
	uint64_t *ns = arg, t0;

	pthread_barrier_wait(&barrier);
	t0 = bench_now_ns();
	loop_getppid(per_thread);
	*ns = bench_now_ns() - t0;
	return NULL;
}

/* tree: count every syscall we make ourselves. */
static uint64_t tree_calls, tree_files, tree_max_files;

static void walk(int dfd, const char *path)
{
	char buf[32768], data[4096];
	int fd = openat(dfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	tree_calls++;
	if (fd < 0)
		return;
	for (;;) {
		long off = 0;

		n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		tree_calls++;
		if (n <= 0)
			break;
		while (off < n) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			struct stat st;

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			tree_calls++;
			if (fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW))
				continue;
			if (S_ISDIR(st.st_mode)) {
				walk(fd, d->d_name);
			} else if (S_ISREG(st.st_mode) && tree_files < tree_max_files) {
				int f = openat(fd, d->d_name, O_RDONLY | O_CLOEXEC);

				tree_calls++;
				tree_files++;
				if (f < 0)
					continue;
				if (read(f, data, sizeof(data)) < 0)
					perror("read");
				close(f);
				tree_calls += 2;
			}
		}
	}
	close(fd);
	tree_calls++;
}

int main(int argc, char **argv)
{
	uint64_t t0, t;

	if (argc < 3)
		goto usage;
	bench_sync();
	if (!strcmp(argv[1], "getppid")) {
		uint64_t n = strtoull(argv[2], NULL, 0);

		loop_getppid(n / 100 + 1); /* warm up */
		t0 = bench_now_ns();
		loop_getppid(n);
		t = bench_now_ns() - t0;
		report((double)t / (double)n, n, n + n / 100 + 1, t);
		return 0;
	}
	if (!strcmp(argv[1], "rw")) {
		uint64_t n = strtoull(argv[2], NULL, 0) / 2 * 2;
		int p[2];

		if (pipe(p)) {
			perror("pipe");
			return 1;
		}
		loop_rw(p, n / 100 + 2); /* warm up */
		t0 = bench_now_ns();
		loop_rw(p, n);
		t = bench_now_ns() - t0;
		report((double)t / (double)n, n, n + n / 100 + 2 + 1, t);
		return 0;
	}
	if (!strcmp(argv[1], "getppid2")) {
		uint64_t ns[2];
		pthread_t th[2];
		int i;

		per_thread = strtoull(argv[2], NULL, 0) / 2;
		pthread_barrier_init(&barrier, NULL, 2);
		t0 = bench_now_ns();
		for (i = 0; i < 2; i++)
			if (pthread_create(&th[i], NULL, thread_main, &ns[i]))
				return 1;
		for (i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		t = bench_now_ns() - t0;
		report((double)(ns[0] + ns[1]) / (double)(2 * per_thread), 2 * per_thread,
		       2 * per_thread, t);
		return 0;
	}
	if (!strcmp(argv[1], "tree") && argc >= 5) {
		int reps = atoi(argv[4]), r;

		uint64_t warm;

		tree_max_files = strtoull(argv[3], NULL, 0);
		walk(AT_FDCWD, argv[2]); /* warm up the caches */
		warm = tree_calls;
		tree_calls = 0;
		t0 = bench_now_ns();
		for (r = 0; r < reps; r++) {
			tree_files = 0;
			walk(AT_FDCWD, argv[2]);
		}
		t = bench_now_ns() - t0;
		report((double)t / (double)tree_calls, tree_calls, warm + tree_calls, t);
		return 0;
	}
	if (!strcmp(argv[1], "rate") && argc >= 4) {
		double rate = strtod(argv[2], NULL) / 2; /* syscalls per second */
		uint64_t dur = (uint64_t)(strtod(argv[3], NULL) * 1e9), done = 0;

		t0 = bench_now_ns();
		for (;;) {
			uint64_t now = bench_now_ns() - t0, want;

			if (now >= dur)
				break;
			want = (uint64_t)((double)now * rate / 1e9);
			while (done < want) {
				syscall(SYS_getppid);
				done++;
			}
		}
		t = bench_now_ns() - t0;
		/* ns_per_op here is the achieved event rate (events/s). */
		report(2.0 * (double)done * 1e9 / (double)t, done, done, t);
		return 0;
	}
usage:
	fprintf(stderr, "usage: bench_syscalls getppid|getppid2 N | tree DIR FILES REPS | rate "
			"EV_PER_S SECS\n");
	return 2;
}
