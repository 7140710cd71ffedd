// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench_ctl: a trace controller written against the public API only, the
 * library's side of the benchmark (independent of the ptbpf command).
 *
 *   bench_ctl [-o LOG] [-u] [-n] -- CMD [ARG...]
 *
 * Starts CMD (one of the benchmark programs, which wait in bench_sync()),
 * creates a stream on it (with a log in LOG if -o: policy FLUSH, log
 * policy APPEND), starts it, lets CMD run, reads every event with
 * posix_trace_timedgetnext_event() unless -n or -o, and prints on stderr
 *   bench_ctl: read N recorded R lost L kdropped D udropped U log_bytes B
 *              elapsed_ns T cpu_ns C
 * (one line). -u filters the system events out (user events only).
 * elapsed_ns runs from the start signal to the end of shutdown (and
 * fdatasync of the log); cpu_ns is the CPU time bench_ctl's own threads
 * used over the same span (the library's drainer and flusher included, CMD
 * not).
 * The exit status is CMD's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "bench_common.h"

static void die(const char *what, int err)
{
	fprintf(stderr, "bench_ctl: %s: %s\n", what, strerror(err));
	exit(1);
}

int main(int argc, char **argv)
{
	const char *log_path = NULL;
	int user_only = 0, no_read = 0, opt, ready[2], go[2], log_fd = -1, st = 0, err;
	unsigned long long nread = 0;
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	struct posix_trace_event_info ev;
	struct timespec abst = { 0 };
	trace_attr_t attr;
	trace_id_t t;
	uint64_t t0, elapsed, cpu0, cpu;
	char c, data[4096];
	pid_t child;
	int exited = 0;

	while ((opt = getopt(argc, argv, "+o:un")) != -1) {
		switch (opt) {
		case 'o':
			log_path = optarg;
			break;
		case 'u':
			user_only = 1;
			break;
		case 'n':
			no_read = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc) {
	usage:
		fprintf(stderr, "usage: bench_ctl [-o LOG] [-u] [-n] -- CMD [ARG...]\n");
		return 2;
	}
	if (pipe(ready) || pipe(go))
		die("pipe", errno);
	child = fork();
	if (child < 0)
		die("fork", errno);
	if (!child) {
		char r[16], g[16];

		close(ready[0]);
		close(go[1]);
		snprintf(r, sizeof(r), "%d", ready[1]);
		snprintf(g, sizeof(g), "%d", go[0]);
		setenv("BENCH_READY_FD", r, 1);
		setenv("BENCH_GO_FD", g, 1);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "bench_ctl: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &c, 1) != 1) {
		waitpid(child, &st, 0);
		fprintf(stderr, "bench_ctl: the command did not start\n");
		return 1;
	}
	posix_trace_attr_init(&attr);
	if (log_path) {
		log_fd = open(log_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (log_fd < 0)
			die(log_path, errno);
		posix_trace_attr_setlogfullpolicy(&attr, POSIX_TRACE_APPEND);
		posix_trace_attr_setlogsize(&attr, (size_t)4 << 30);
		err = posix_trace_create_withlog(child, &attr, log_fd, &t);
		no_read = 1;
	} else {
		err = posix_trace_create(child, &attr, &t);
	}
	if (err) {
		kill(child, SIGKILL);
		die("posix_trace_create", err);
	}
	if (user_only) {
		trace_event_set_t set;

		posix_trace_eventset_fill(&set, POSIX_TRACE_SYSTEM_EVENTS);
		err = posix_trace_set_filter(t, &set, POSIX_TRACE_SET_EVENTSET);
		if (err)
			fprintf(stderr, "bench_ctl: set_filter: %s (ignored)\n", strerror(err));
	}
	err = posix_trace_start(t);
	if (err) {
		kill(child, SIGKILL);
		die("posix_trace_start", err);
	}
	t0 = bench_now_ns();
	cpu0 = bench_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	if (write(go[1], "g", 1) != 1)
		die("start", errno);
	close(go[1]);
	close(ready[0]);
	for (err = ETIMEDOUT;;) {
		size_t len;
		int unav = 0, fresh = 0;

		if (no_read) {
			waitpid(child, &st, 0);
			break;
		}
		/*
		 * A new deadline only after a timeout, as an analyzer that
		 * minds its cost would: a past one still returns every
		 * waiting event, and times out at once only when none waits.
		 */
		if (err == ETIMEDOUT) {
			fresh = 1;
			clock_gettime(CLOCK_REALTIME, &abst);
			abst.tv_nsec += 100 * 1000000L;
			if (abst.tv_nsec >= 1000000000L) {
				abst.tv_sec++;
				abst.tv_nsec -= 1000000000L;
			}
		}
		err = posix_trace_timedgetnext_event(t, &ev, data, sizeof(data), &len, &unav,
						     &abst);
		if (!err && !unav) {
			nread++;
			if (nread % 4096)
				continue;
		} else if (err && err != ETIMEDOUT) {
			fprintf(stderr, "bench_ctl: getnext: %s\n", strerror(err));
			break;
		}
		if (exited && ((err == ETIMEDOUT && fresh) || unav))
			break;
		if (!exited && waitpid(child, &st, WNOHANG) == child)
			exited = 1;
	}
	if (!exited && !no_read)
		waitpid(child, &st, 0);
	/* stopped first: events still in the rings (a stream that waits for
	 * its log, or a reader behind) come in and are counted */
	posix_trace_stop(t);
	memset(&cnt, 0, sizeof(cnt));
	cnt.sz = sizeof(cnt);
	ptbpf_trace_get_counters(t, &cnt);
	err = posix_trace_shutdown(t);
	if (err)
		fprintf(stderr, "bench_ctl: shutdown: %s\n", strerror(err));
	if (log_fd >= 0) {
		struct stat sb;

		fdatasync(log_fd);
		if (!fstat(log_fd, &sb))
			cnt.log_bytes = (uint64_t)sb.st_size;
	}
	elapsed = bench_now_ns() - t0;
	cpu = bench_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	fprintf(stderr,
		"bench_ctl: read %llu recorded %llu lost %llu kdropped %llu udropped %llu "
		"log_bytes %llu elapsed_ns %llu cpu_ns %llu\n",
		nread, (unsigned long long)cnt.recorded, (unsigned long long)cnt.lost,
		(unsigned long long)cnt.kernel_dropped, (unsigned long long)cnt.user_dropped,
		(unsigned long long)cnt.log_bytes, (unsigned long long)elapsed,
		(unsigned long long)cpu);
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}
