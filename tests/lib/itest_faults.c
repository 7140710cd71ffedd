/*
 * Streams under pressure and failures: what the counters add up to, the
 * flush markers of a flood, a create that fails, a process whose
 * user-event slots are all taken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"

static char dir[] = "/tmp/ptbpf-itest-faults-XXXXXX";

static const char *path_of(const char *name)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

/* Only the POSIX events and the user events (the kernel's are noise here). */
static void posix_and_user(trace_id_t t)
{
	trace_event_set_t kernel;

	posix_trace_eventset_fill(&kernel, POSIX_TRACE_SYSTEM_EVENTS);
	for (trace_event_id_t i = 1; i < PTBPF_EV_KERNEL_FIRST; i++)
		posix_trace_eventset_del(i, &kernel);
	assert_int_equal(posix_trace_set_filter(t, &kernel, POSIX_TRACE_SET_EVENTSET), 0);
}

/*
 * A LOOP stream that overflows: every event posted is read or lost, and
 * the counters say so: recorded (what the reader got) + lost = posted.
 */
static void test_counters_add_up(void **state)
{
	struct ptbpf_counters c = { .sz = sizeof(c) };
	struct posix_trace_event_info ev;
	trace_event_id_t id;
	trace_attr_t a;
	trace_id_t t;
	uint64_t user = 0, other = 0, markers = 0;
	char data[256];
	size_t len;
	int i, un = 0;

	(void)state;
	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamsize(&a, 16 << 10);
	posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_LOOP);
	assert_int_equal(posix_trace_create(0, &a, &t), 0);
	posix_and_user(t);
	assert_int_equal(posix_trace_eventid_open("faults.count", &id), 0);
	assert_int_equal(posix_trace_start(t), 0);
	memset(data, 'c', sizeof(data));
	for (i = 0; i < 5000; i++)
		posix_trace_event(id, data, 100);
	assert_int_equal(posix_trace_stop(t), 0);
	for (;;) {
		assert_int_equal(
			posix_trace_trygetnext_event(t, &ev, data, sizeof(data), &len, &un), 0);
		if (un)
			break;
		if (ev.posix_event_id == id)
			user++;
		else if (ev.posix_event_id == POSIX_TRACE_OVERFLOW ||
			 ev.posix_event_id == POSIX_TRACE_RESUME)
			markers++; /* of the reader, not stored */
		else
			other++; /* START, STOP */
	}
	assert_int_equal(ptbpf_trace_get_counters(t, &c), 0);
	print_message("read %llu of 5000 (+%llu), lost %llu, recorded %llu\n",
		      (unsigned long long)user, (unsigned long long)other,
		      (unsigned long long)c.lost, (unsigned long long)c.recorded);
	assert_true(c.lost > 0);
	assert_int_equal(c.recorded, user + other);
	assert_int_equal(c.recorded + c.lost, 5000 + 2); /* and START, STOP */
	assert_int_equal(markers, 2);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

static volatile int flood_stop;

static void *flood(void *arg)
{
	(void)arg;
	while (!flood_stop)
		syscall(SYS_getppid);
	return NULL;
}

/*
 * A log flooded with syscalls while flushes are asked for: each
 * POSIX_TRACE_FLUSH_START has its POSIX_TRACE_FLUSH_STOP after it, and
 * none comes without one before it.
 */
static void test_flush_markers_pair(void **state)
{
	struct posix_trace_event_info ev;
	pthread_t th[2];
	trace_attr_t a;
	trace_id_t t;
	char data[1024];
	size_t len;
	int fd, i, un = 0, open_flushes = 0, starts = 0, stops = 0, most = 0;

	(void)state;
	fd = open(path_of("flood.log"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamsize(&a, 256 << 10);
	/* the whole log (a LOOP log keeps the newest: a STOP whose START it
	 * overwrote) */
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	flood_stop = 0;
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, flood, NULL), 0);
	for (i = 0; i < 100; i++) {
		assert_int_equal(posix_trace_flush(t), 0);
		usleep(2000);
	}
	flood_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);

	fd = open(path_of("flood.log"), O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(posix_trace_open(fd, &t), 0);
	for (;;) {
		assert_int_equal(posix_trace_getnext_event(t, &ev, data, sizeof(data), &len, &un),
				 0);
		if (un)
			break;
		if (ev.posix_event_id == POSIX_TRACE_FLUSH_START) {
			starts++;
			if (++open_flushes > most)
				most = open_flushes;
		} else if (ev.posix_event_id == POSIX_TRACE_FLUSH_STOP) {
			stops++;
			assert_true(open_flushes > 0); /* a stop of a flush begun */
			open_flushes--;
		}
	}
	print_message("%d flush starts, %d stops, at most %d open at once\n", starts, stops, most);
	assert_true(starts >= 100);
	assert_int_equal(stops, starts);
	assert_int_equal(posix_trace_close(t), 0);
	close(fd);
}

/* A file's bytes and the blocks it holds. */
struct file_state {
	off_t size;
	blkcnt_t blocks;
	char head[64];
};

static void file_state(int fd, struct file_state *f)
{
	struct stat st;

	assert_int_equal(fstat(fd, &st), 0);
	memset(f, 0, sizeof(*f));
	f->size = st.st_size;
	f->blocks = st.st_blocks;
	assert_true(pread(fd, f->head, sizeof(f->head), 0) >= 0);
}

static void assert_same_file(int fd, const struct file_state *before)
{
	struct file_state now;

	file_state(fd, &now);
	assert_int_equal(now.size, before->size);
	assert_int_equal(now.blocks, before->blocks);
	assert_memory_equal(now.head, before->head, sizeof(now.head));
}

/* A file holding something of its own. */
static int precious_file(const char *path, struct file_state *f)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "precious data, not a log\n", 25, 0), 25);
	fsync(fd);
	file_state(fd, f);
	return fd;
}

/* A create_withlog that fails leaves its file as it found it. */
static void test_failed_create_keeps_file(void **state)
{
	char mnt[] = "/tmp/ptbpf-itest-tiny-XXXXXX", p[128];
	trace_id_t logs[TRACE_SYS_MAX], t;
	struct file_state f;
	trace_attr_t a;
	pid_t gone;
	int fd, lfd, i, n;

	(void)state;
	/* no handle left (TRACE_SYS_MAX opened logs): EAGAIN */
	lfd = open(path_of("small.log"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(lfd >= 0);
	assert_int_equal(posix_trace_create_withlog(0, NULL, lfd, &t), 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
	for (n = 0; n < TRACE_SYS_MAX; n++)
		if (posix_trace_open(lfd, &logs[n]))
			break;
	assert_true(n > 0);
	fd = precious_file(path_of("precious1"), &f);
	assert_int_equal(posix_trace_create_withlog(0, NULL, fd, &t), EAGAIN);
	assert_same_file(fd, &f);
	for (i = 0; i < n; i++)
		posix_trace_close(logs[i]);
	close(lfd);
	close(fd);

	/* no such process: ESRCH */
	gone = fork();
	if (!gone)
		_exit(0);
	waitpid(gone, NULL, 0);
	fd = precious_file(path_of("precious2"), &f);
	assert_int_equal(posix_trace_create_withlog(gone, NULL, fd, &t), ESRCH);
	assert_same_file(fd, &f);
	close(fd);

	/* no room for the log on the device: ENOSPC */
	assert_non_null(mkdtemp(mnt));
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=256k")) {
		rmdir(mnt);
		if (getenv("CI"))
			fail_msg("cannot mount a small tmpfs in CI: %s", strerror(errno));
		skip();
	}
	snprintf(p, sizeof(p), "%s/precious3", mnt);
	fd = precious_file(p, &f);
	posix_trace_attr_init(&a);
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_UNTIL_FULL);
	posix_trace_attr_setlogsize(&a, 16 << 20);
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), ENOSPC);
	assert_same_file(fd, &f);
	close(fd);
	umount(mnt);
	rmdir(mnt);
}

/*
 * A process has UEV_NSLOTS (8) user-event slots: a ninth stream on it
 * cannot be created (EAGAIN), rather than run without its user events.
 */
static void test_ninth_stream(void **state)
{
	trace_id_t t[9];
	trace_attr_t a;
	int go[2], i;
	pid_t p;
	char c;

	(void)state;
	assert_int_equal(pipe(go), 0);
	p = fork();
	if (!p) {
		/* this test program links the library: it has a region */
		close(go[1]);
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamsize(&a, 16 << 10);
	for (i = 0; i < 8; i++) {
		int err = posix_trace_create(p, &a, &t[i]);

		if (err)
			fail_msg("stream %d: %s", i + 1, strerror(err));
	}
	assert_int_equal(posix_trace_create(p, &a, &t[8]), EAGAIN);
	assert_int_equal(posix_trace_shutdown(t[3]), 0);
	assert_int_equal(posix_trace_create(p, &a, &t[3]), 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(posix_trace_shutdown(t[i]), 0);
	close(go[1]);
	waitpid(p, NULL, 0);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_add_up),
		cmocka_unit_test(test_flush_markers_pair),
		cmocka_unit_test(test_failed_create_keeps_file),
		cmocka_unit_test(test_ninth_stream),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, setup, teardown);
}
