/*
 * An instrumented program for itest_user_events (links the shared
 * libposixtrace only):  uevent_app READY_FD GO_FD MODE [N]
 * Registers "pre.event" before telling READY_FD, waits for a byte on
 * GO_FD, then runs MODE:
 *   script    getppid, pre.event "A", getppid, post.event (2000 bytes),
 *             then registers names until the id limit; prints nothing
 *   flood N   N events of an int + 64 bytes
 *   mixed N   two threads, each N times: pre.event (int seq + 64 bytes),
 *             then getppid
 *   fork      pre.event, then a child emits pre.event and exits 0
 *   die       emits events until killed
 *   scribble  emits 10 events, overwrites its shared region, emits 10 more
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace.h>

struct payload {
	int seq;
	unsigned char bytes[64];
};

static void scribble(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long lo, hi;

	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "ptbpf-uev") || sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		/* garbage over the control area and the start of every ring */
		for (unsigned long p = lo; p < hi && p < lo + (64 << 10); p += 8)
			*(volatile uint64_t *)p = 0xdeadbeefcafef00dULL ^ p;
		for (unsigned long p = lo + (64 << 10); p + 4096 <= hi; p += 16 << 20)
			memset((void *)p, 0xa5, 4096);
	}
	if (f)
		fclose(f);
}

static trace_event_id_t mixed_id;
static int mixed_n, mixed_syscall;

/* mixed_n user events, each followed by a getppid if mixed_syscall. */
static void *mixed_thread(void *arg)
{
	struct payload pl = { 0 };
	int i;

	(void)arg;
	for (i = 0; i < mixed_n; i++) {
		pl.seq = i;
		posix_trace_event(mixed_id, &pl, sizeof(pl));
		if (mixed_syscall)
			syscall(SYS_getppid);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	trace_event_id_t pre, post, id;
	struct payload pl = { 0 };
	char c, name[32], big[2000];
	int i, n, st;
	pid_t p;

	if (argc < 4)
		return 2;
	if (posix_trace_eventid_open("pre.event", &pre))
		return 3;
	if (write(atoi(argv[1]), "r", 1) != 1 || read(atoi(argv[2]), &c, 1) != 1)
		return 4;
	n = argc > 4 ? atoi(argv[4]) : 0;
	if (!strcmp(argv[3], "script")) {
		if (posix_trace_eventid_open("post.event", &post))
			return 5;
		syscall(SYS_getppid);
		posix_trace_event(pre, "A", 1);
		syscall(SYS_getppid);
		memset(big, 'z', sizeof(big));
		posix_trace_event(post, big, sizeof(big));
		for (i = 0; i < TRACE_USER_EVENT_MAX + 10; i++) {
			snprintf(name, sizeof(name), "gen.%d", i);
			if (posix_trace_eventid_open(name, &id))
				return 6;
			posix_trace_event(id, &i, sizeof(i));
		}
		return 0;
	}
	if (!strcmp(argv[3], "flood")) {
		for (i = 0; i < n; i++) {
			pl.seq = i;
			posix_trace_event(pre, &pl, sizeof(pl));
		}
		return 0;
	}
	if (!strcmp(argv[3], "bigflood")) {
		/* events of 2000 bytes, faster than any reader copies them */
		memset(big, 'b', sizeof(big));
		for (i = 0; i < n; i++) {
			memcpy(big, &i, sizeof(i));
			posix_trace_event(pre, big, sizeof(big));
		}
		return 0;
	}
	if (!strcmp(argv[3], "mixed") || !strcmp(argv[3], "flood2")) {
		pthread_t th[2];

		mixed_id = pre;
		mixed_n = n;
		mixed_syscall = !strcmp(argv[3], "mixed");
		for (i = 0; i < 2; i++)
			if (pthread_create(&th[i], NULL, mixed_thread, NULL))
				return 8;
		for (i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		return 0;
	}
	if (!strcmp(argv[3], "fork")) {
		posix_trace_event(pre, "P", 1);
		p = fork();
		if (p == 0) {
			posix_trace_event(pre, "C", 1);
			_exit(0);
		}
		waitpid(p, &st, 0);
		return 0;
	}
	if (!strcmp(argv[3], "die")) {
		for (i = 0;; i++) {
			pl.seq = i;
			posix_trace_event(pre, &pl, sizeof(pl));
		}
	}
	if (!strcmp(argv[3], "scribble")) {
		for (i = 0; i < 10; i++)
			posix_trace_event(pre, &i, sizeof(i));
		scribble();
		for (i = 0; i < 10; i++)
			posix_trace_event(pre, &i, sizeof(i));
		return 0;
	}
	return 7;
}
