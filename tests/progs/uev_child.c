// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A traced process for itest_uev: links the shared libposixtrace only and
 * talks to the test over stdin (commands, one per line) and stdout.
 *
 *   uev_child basic     names before/after attach, events, a thread, a flood
 *   uev_child fork      fork with the stream inherited or not
 *   uev_child die       threads flood until the test kills the process
 *   uev_child scribble  overwrite the region with garbage, keep emitting
 *   uev_child early [exit]  emit 100 events first thing in main (run it with
 *                       PTBPF_UEV_PENDING=1), then wait for "more"/"exit";
 *                       with "exit": 20 events and return at once
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace.h>

static void wait_cmd(const char *want)
{
	char line[64];
	size_t n = 0;

	for (;;) {
		char ch;

		if (read(0, &ch, 1) != 1)
			exit(3);
		if (ch != '\n') {
			if (n < sizeof(line) - 1)
				line[n++] = ch;
			continue;
		}
		line[n] = 0;
		if (!strcmp(line, want))
			return;
		n = 0;
	}
}

__attribute__((noinline)) static void emit_one(trace_event_id_t id, const void *p, size_t len)
{
	posix_trace_event(id, p, len);
	__asm__ volatile("" ::: "memory");
}

static void fill(unsigned char *buf, size_t len, uint32_t seq)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	memcpy(buf, &seq, sizeof(seq));
}

static trace_event_id_t id_c;

static void *thread_main(void *arg)
{
	unsigned char buf[200];
	uint32_t i;

	dprintf(1, "thread %d %llx\n", gettid(), (unsigned long long)pthread_self());
	for (i = 0; i < 10; i++) {
		fill(buf, sizeof(buf), 1000 + i);
		emit_one(id_c, buf, sizeof(buf));
	}
	return NULL;
}

static int mode_basic(void)
{
	trace_event_id_t a, b, a2;
	unsigned char buf[200];
	pthread_t th;
	uint32_t i;

	if (posix_trace_eventid_open("before.a", &a) || posix_trace_eventid_open("before.b", &b))
		return 2;
	dprintf(1, "ready %u %u %llx\n", a, b, (unsigned long long)(uintptr_t)emit_one);
	wait_cmd("go");
	if (posix_trace_eventid_open("after.c", &id_c) || posix_trace_eventid_open("before.a", &a2))
		return 2;
	dprintf(1, "ids %u %u\n", id_c, a2);
	for (i = 0; i < 100; i++) {
		fill(buf, sizeof(buf), i);
		emit_one(a, buf, 16);
		emit_one(b, buf, 16);
		emit_one(id_c, buf, 200);
		emit_one(POSIX_TRACE_UNNAMED_USEREVENT, buf, 4);
	}
	pthread_create(&th, NULL, thread_main, NULL);
	pthread_join(th, NULL);
	dprintf(1, "done %d %llx\n", gettid(), (unsigned long long)pthread_self());
	wait_cmd("flood");
	for (i = 0; i < 1000; i++) {
		fill(buf, sizeof(buf), i);
		emit_one(a, buf, 64);
	}
	dprintf(1, "flooded\n");
	wait_cmd("exit");
	return 0;
}

static int mode_fork(void)
{
	trace_event_id_t id;
	uint32_t seq;
	pid_t child;
	int st;

	if (posix_trace_eventid_open("f.ev", &id))
		return 2;
	dprintf(1, "ready %u\n", id);
	wait_cmd("go");
	seq = 1;
	emit_one(id, &seq, sizeof(seq)); /* P1 */
	child = fork();
	if (child == 0) {
		trace_event_id_t id2, idn;

		seq = 2;
		emit_one(id, &seq, sizeof(seq)); /* C1 */
		posix_trace_eventid_open("f.ev", &id2);
		posix_trace_eventid_open("f.child", &idn);
		dprintf(1, "child %d %u %u\n", getpid(), id2, idn);
		wait_cmd("go2");
		seq = 3;
		emit_one(idn, &seq, sizeof(seq)); /* C2 */
		dprintf(1, "child-done\n");
		_exit(0);
	}
	waitpid(child, &st, 0);
	seq = 4;
	emit_one(id, &seq, sizeof(seq)); /* P2 */
	dprintf(1, "done\n");
	wait_cmd("exit");
	return 0;
}

static void *flood_main(void *arg)
{
	unsigned char buf[4096];
	uint32_t i;

	for (i = 0;; i++) {
		fill(buf, 64, i);
		emit_one(POSIX_TRACE_UNNAMED_USEREVENT, buf, sizeof(buf));
	}
	return NULL;
}

static int mode_die(void)
{
	pthread_t th[3];
	int i;

	dprintf(1, "ready\n");
	wait_cmd("go");
	for (i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, flood_main, NULL);
	dprintf(1, "flooding\n");
	flood_main(NULL);
	return 0;
}

static int mode_scribble(void)
{
	unsigned long start = 0, end = 0;
	char line[512], path[64];
	trace_event_id_t id;
	uint32_t i, seed = 12345;
	FILE *maps;
	int fd, tr;

	posix_trace_eventid_open("s.ev", &id);
	dprintf(1, "ready %u\n", id);
	wait_cmd("go");
	for (i = 0; i < 10; i++)
		emit_one(id, &i, sizeof(i));
	dprintf(1, "emitted\n");
	wait_cmd("scribble");
	maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps)) {
		if (strstr(line, "/memfd:ptbpf-uev") && sscanf(line, "%lx-%lx", &start, &end) == 2)
			break;
		start = end = 0;
	}
	if (maps)
		fclose(maps);
	/* try to shrink the file under the controller: the seal forbids it */
	tr = -1;
	for (fd = 3; fd < 64; fd++) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, line, sizeof(line) - 1);
		if (n > 0) {
			line[n] = 0;
			if (strstr(line, "/memfd:ptbpf-uev"))
				tr = ftruncate(fd, 4096) ? -errno : 0;
		}
	}
	for (i = 0; start && i < 3; i++) {
		unsigned char *p = (unsigned char *)start;
		unsigned long k;

		/* garbage over the control area and the first rings (sparse) */
		for (k = 0; k < 64 * 1024 + 4 * 65536 && start + k < end; k++) {
			seed = seed * 1103515245u + 12345u;
			p[k] = (unsigned char)(seed >> 16);
		}
		for (k = 0; k < 100; k++)
			emit_one(id, &k, sizeof(k));
	}
	dprintf(1, "scribbled %d %d\n", start != 0, tr);
	wait_cmd("exit");
	return 0;
}

static int mode_early(bool quit)
{
	unsigned char buf[64];
	trace_event_id_t id;
	uint32_t i, n = quit ? 20 : 100;

	posix_trace_eventid_open("early.ev", &id);
	for (i = 0; i < n; i++) {
		fill(buf, sizeof(buf), i);
		emit_one(id, buf, sizeof(buf));
	}
	if (quit)
		return 0;
	dprintf(1, "emitted %u\n", id);
	wait_cmd("more");
	for (; i < n + 10; i++) {
		fill(buf, sizeof(buf), i);
		emit_one(id, buf, sizeof(buf));
	}
	dprintf(1, "more\n");
	wait_cmd("exit");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "early"))
		return mode_early(argc > 2 && !strcmp(argv[2], "exit"));
	if (!strcmp(argv[1], "basic"))
		return mode_basic();
	if (!strcmp(argv[1], "fork"))
		return mode_fork();
	if (!strcmp(argv[1], "die"))
		return mode_die();
	if (!strcmp(argv[1], "scribble"))
		return mode_scribble();
	return 2;
}
