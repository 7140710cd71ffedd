/*
 * Integration tests of trace logs through the public API: streams created
 * with posix_trace_create_withlog, flushed, shut down, and read back with
 * posix_trace_open.
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
#include <time.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"
#include "itest_read.h"

static char dir[] = "/tmp/ptbpf-itest-log-XXXXXX";

static const char *logpath(const char *name)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

#define MAXREC 50000
static struct itest_ev recs[MAXREC];

static int read_log(const char *path, trace_id_t *out)
{
	return itest_read_log(path, out, recs, MAXREC);
}

static int count(int n, const char *name)
{
	return itest_count(recs, n, name);
}

static int newlog(const char *name)
{
	return itest_newlog(logpath(name));
}

/*
 * A started stream of 16 KiB (the smallest kernel rings) with a new log
 * name, of this log full policy and size (0: the default size).
 */
static trace_id_t start_small_log(const char *name, int policy, size_t logsize, int *fd)
{
	trace_attr_t a;
	trace_id_t t;

	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamsize(&a, 16384);
	posix_trace_attr_setlogfullpolicy(&a, policy);
	if (logsize)
		posix_trace_attr_setlogsize(&a, logsize);
	*fd = newlog(name);
	assert_int_equal(posix_trace_create_withlog(0, &a, *fd, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	return t;
}

/*
 * n getppid calls into a stream of start_small_log, paced: every 100 the
 * caller drains the stream itself (ptbpf_trace_get_counters does, and
 * resets nothing) and pauses. Its kernel rings are the smallest (256 KiB
 * a CPU, about 5000 records): under QEMU without KVM the drainer can go
 * without a CPU long enough for them to fill (CI's 6.12 run lost 559 of
 * 3000 getppid so, once), which is not what these tests look at.
 */
static void getppid_paced(trace_id_t t, int n)
{
	struct ptbpf_counters c = { .sz = sizeof(c) };
	int i;

	for (i = 0; i < n; i++) {
		syscall(SYS_getppid);
		if (i % 100 == 99) {
			assert_int_equal(ptbpf_trace_get_counters(t, &c), 0);
			usleep(2000);
		}
	}
}

/* Events, data, names, attributes and status survive the round trip. */
static void test_round_trip(void **state)
{
	trace_attr_t a, got;
	trace_id_t t, lt;
	trace_event_id_t uid, id;
	struct posix_trace_status_info st;
	char name[TRACE_NAME_MAX];
	int fd, i, n, k = 0, un;
	size_t sz;

	(void)state;
	posix_trace_attr_init(&a);
	posix_trace_attr_setname(&a, "roundtrip");
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
	posix_trace_attr_setstreamsize(&a, 1 << 20);
	fd = newlog("rt.log");
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
	assert_int_equal(posix_trace_eventid_open("test.roundtrip", &uid), 0);
	assert_int_equal(posix_trace_start(t), 0);
	for (i = 0; i < 100; i++) {
		syscall(SYS_getppid);
		posix_trace_event(uid, &i, sizeof(i));
	}
	assert_int_equal(posix_trace_stop(t), 0);
	/* only getnext reads a stream with a log */
	{
		struct posix_trace_event_info info;
		size_t len;

		assert_int_equal(posix_trace_trygetnext_event(t, &info, NULL, 0, &len, &un),
				 EINVAL);
	}
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);

	n = read_log(logpath("rt.log"), &lt);
	assert_int_equal(count(n, "sys_exit_getppid"), 100);
	assert_int_equal(count(n, "test.roundtrip"), 100);
	assert_string_equal(recs[0].name, "posix_trace_start");
	for (i = 0; i < n; i++) {
		if (strcmp(recs[i].name, "test.roundtrip"))
			continue;
		assert_int_equal(recs[i].len, sizeof(int));
		assert_int_equal(*(int *)recs[i].data, k);
		assert_int_equal(recs[i].info.posix_pid, getpid());
		assert_true(pthread_equal(recs[i].info.posix_thread_id, pthread_self()));
		k++;
	}
	for (i = 1; i < n; i++)
		assert_true(recs[i].info.posix_timestamp.tv_sec >
				    recs[i - 1].info.posix_timestamp.tv_sec ||
			    (recs[i].info.posix_timestamp.tv_sec ==
				     recs[i - 1].info.posix_timestamp.tv_sec &&
			     recs[i].info.posix_timestamp.tv_nsec >=
				     recs[i - 1].info.posix_timestamp.tv_nsec));
	/* attributes */
	assert_int_equal(posix_trace_get_attr(lt, &got), 0);
	assert_int_equal(posix_trace_attr_getname(&got, name), 0);
	assert_string_equal(name, "roundtrip");
	assert_int_equal(posix_trace_attr_getstreamsize(&got, &sz), 0);
	assert_int_equal(sz, 1 << 20);
	assert_int_equal(posix_trace_attr_getlogfullpolicy(&got, &i), 0);
	assert_int_equal(i, POSIX_TRACE_APPEND);
	assert_int_equal(posix_trace_attr_getstreamfullpolicy(&got, &i), 0);
	assert_int_equal(i, POSIX_TRACE_FLUSH);
	assert_int_equal(posix_trace_get_status(lt, &st), 0);
	assert_int_equal(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
	{
		struct ptbpf_counters cn = { .sz = sizeof(cn) };

		assert_int_equal(ptbpf_trace_get_counters(lt, &cn), 0);
		assert_true(cn.recorded >= 200);
		assert_int_equal(cn.lost, 0);
	}
	/* names of the log */
	assert_int_equal(posix_trace_trid_eventid_open(lt, "test.roundtrip", &id), 0);
	for (i = 0; i < n && strcmp(recs[i].name, "test.roundtrip"); i++)
		;
	assert_int_equal(id, recs[i].info.posix_event_id);
	assert_int_equal(posix_trace_eventid_get_name(lt, id, name), 0);
	assert_string_equal(name, "test.roundtrip");
	assert_int_equal(posix_trace_trid_eventid_open(lt, "sys_enter_openat", &id), 0);
	/* rewind restarts from the oldest event */
	assert_int_equal(posix_trace_rewind(lt), 0);
	{
		struct posix_trace_event_info info;
		size_t len;
		char buf[600];

		assert_int_equal(posix_trace_getnext_event(lt, &info, buf, sizeof(buf), &len, &un),
				 0);
		assert_int_equal(un, 0);
		assert_int_equal(info.posix_event_id, POSIX_TRACE_START);
	}
	/* the trace analyzer calls that an active stream alone has */
	{
		struct posix_trace_event_info info;
		size_t len;

		assert_int_equal(posix_trace_trygetnext_event(lt, &info, NULL, 0, &len, &un),
				 EINVAL);
		assert_int_equal(posix_trace_start(lt), EINVAL);
		assert_int_equal(posix_trace_stop(lt), EINVAL);
		assert_int_equal(posix_trace_shutdown(lt), EINVAL);
	}
	/* the type list of the log */
	{
		trace_event_id_t e;
		int m = 0, seen = 0;

		while (!posix_trace_eventtypelist_getnext_id(lt, &e, &un) && !un) {
			assert_int_equal(posix_trace_eventid_get_name(lt, e, name), 0);
			if (!strcmp(name, "test.roundtrip"))
				seen = 1;
			m++;
		}
		assert_true(m > 600);
		assert_true(seen);
		assert_int_equal(posix_trace_eventtypelist_rewind(lt), 0);
	}
	assert_int_equal(posix_trace_close(lt), 0);
	assert_int_equal(posix_trace_close(lt), EINVAL);
}

static void test_create_withlog_errors(void **state)
{
	trace_id_t t;
	trace_attr_t a;
	int fd;

	(void)state;
	fd = open(logpath("ro.log"), O_RDONLY | O_CREAT, 0600);
	assert_int_equal(posix_trace_create_withlog(0, NULL, fd, &t), EBADF);
	close(fd);
	assert_int_equal(posix_trace_create_withlog(0, NULL, fd, &t), EBADF); /* closed */
	assert_int_equal(posix_trace_create_withlog(0, NULL, -1, &t), EBADF);
	fd = open(logpath("app.log"), O_WRONLY | O_CREAT | O_APPEND, 0600);
	assert_int_equal(posix_trace_create_withlog(0, NULL, fd, &t), EINVAL);
	close(fd);
	fd = open("/dev/null", O_WRONLY);
	assert_int_equal(posix_trace_create_withlog(0, NULL, fd, &t), EINVAL); /* not a file */
	close(fd);
	fd = newlog("esrch.log");
	assert_int_equal(posix_trace_create_withlog(999999999, NULL, fd, &t), ESRCH);
	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_FLUSH);
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0); /* FLUSH is valid here */
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
}

/* posix_trace_open: not a log, or an unknown version: EINVAL. */
static void test_open_errors(void **state)
{
	trace_id_t t;
	int fd;

	(void)state;
	fd = open("/etc/passwd", O_RDONLY);
	assert_int_equal(posix_trace_open(fd, &t), EINVAL);
	close(fd);
	fd = newlog("empty.log");
	assert_int_equal(posix_trace_open(fd, &t), EINVAL);
	close(fd);
	assert_int_equal(posix_trace_open(-1, &t), EBADF);
	assert_int_equal(posix_trace_rewind(12345), EINVAL);
}

/* Flush: status goes FLUSHING then NOT_FLUSHING; FLUSH_START/STOP bracket it. */
static void test_flush_status(void **state)
{
	trace_id_t t;
	struct posix_trace_status_info st;
	int fd, i, n, seen_flushing = 0;

	(void)state;
	fd = newlog("flush.log");
	assert_int_equal(posix_trace_create_withlog(0, NULL, fd, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	for (i = 0; i < 1000; i++)
		syscall(SYS_getppid);
	assert_int_equal(posix_trace_flush(t), 0);
	for (i = 0; i < 200; i++) {
		assert_int_equal(posix_trace_get_status(t, &st), 0);
		if (st.posix_stream_flush_status == POSIX_TRACE_FLUSHING)
			seen_flushing = 1;
		else
			break;
		usleep(5000);
	}
	assert_int_equal(st.posix_stream_flush_status, POSIX_TRACE_NOT_FLUSHING);
	assert_int_equal(st.posix_stream_flush_error, 0);
	(void)seen_flushing; /* a fast disk may finish before the first look */
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
	n = read_log(logpath("flush.log"), NULL);
	assert_true(count(n, "posix_trace_flush_start") >= 1);
	assert_true(count(n, "posix_trace_flush_stop") >= 1);
	assert_true(count(n, "sys_exit_getppid") >= 1000);
}

/* The library's threads have names: a stream's drainer, a log's flusher. */
static void test_thread_names(void **state)
{
	trace_id_t t;
	int fd;

	(void)state;
	fd = newlog("names.log");
	assert_int_equal(posix_trace_create_withlog(0, NULL, fd, &t), 0);
	assert_true(itest_thread("ptbpf-drainer") > 0);
	assert_true(itest_thread("ptbpf-flusher") > 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
}

/* A full stream with POSIX_TRACE_FLUSH is flushed, nothing is lost. */
static void test_stream_policy_flush(void **state)
{
	trace_id_t t;
	struct posix_trace_status_info st;
	int fd, n;

	(void)state;
	t = start_small_log("sflush.log", POSIX_TRACE_APPEND, 0, &fd);
	getppid_paced(t, 5000); /* the stream fills and is flushed many times */
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
	n = read_log(logpath("sflush.log"), NULL);
	assert_int_equal(count(n, "sys_exit_getppid"), 5000);
}

/* Log full policies with a tiny log. */
static int log_with_policy(int policy, size_t logsize, int events, const char *name)
{
	trace_id_t t;
	struct posix_trace_status_info st;
	int fd;

	t = start_small_log(name, policy, logsize, &fd);
	getppid_paced(t, events);
	assert_int_equal(posix_trace_flush(t), 0);
	usleep(200000);
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
	return st.posix_log_full_status;
}

static void test_log_policies(void **state)
{
	struct stat sb;
	int n, full;

	(void)state;
	/* APPEND: no limit */
	full = log_with_policy(POSIX_TRACE_APPEND, 4096, 3000, "append.log");
	assert_int_equal(full, POSIX_TRACE_NOT_FULL);
	n = read_log(logpath("append.log"), NULL);
	assert_int_equal(count(n, "sys_exit_getppid"), 3000);

	/* UNTIL_FULL: stops writing at the log size, the status says full */
	full = log_with_policy(POSIX_TRACE_UNTIL_FULL, 24576, 3000, "until.log");
	assert_int_equal(full, POSIX_TRACE_FULL);
	n = read_log(logpath("until.log"), NULL);
	print_message("UNTIL_FULL, 24 KiB: %d events kept\n", n);
	assert_true(n > 100 && n < 3000);
	assert_string_equal(recs[0].name, "posix_trace_start"); /* the oldest kept */
	/* "the last recorded trace event shall be the POSIX_TRACE_STOP" */
	assert_string_equal(recs[n - 1].name, "posix_trace_stop");
	assert_int_equal(*(int *)recs[n - 1].data, 1);

	/* LOOP: the newest events within the log size */
	full = log_with_policy(POSIX_TRACE_LOOP, 24576, 3000, "loop.log");
	n = read_log(logpath("loop.log"), NULL);
	print_message("LOOP, 24 KiB: %d events kept\n", n);
	assert_true(n > 100 && n < 3000);
	assert_true(strcmp(recs[0].name, "posix_trace_start") != 0); /* oldest overwritten */
	{
		/* the newest were kept: the last getppid, then the flush */
		int i, last = -1, flush = -1;

		for (i = 0; i < n; i++) {
			if (!strcmp(recs[i].name, "sys_exit_getppid"))
				last = i;
			if (!strcmp(recs[i].name, "posix_trace_flush_start"))
				flush = i;
		}
		assert_true(last >= 0);
		assert_true(flush > last);
	}
	assert_int_equal(stat(logpath("loop.log"), &sb), 0);
	assert_true(sb.st_size < 24576 + 65536 + 1024 * 1024); /* bounded */
}

/* A controller killed with SIGKILL leaves a log that opens, with every
 * event flushed before it died. */
static void test_sigkill_controller(void **state)
{
	int sync[2], st, n;
	pid_t c;
	char ch;

	(void)state;
	assert_int_equal(pipe(sync), 0);
	c = fork();
	if (c == 0) {
		trace_id_t t;
		trace_attr_t a;
		int fd = newlog("killed.log"), i;

		posix_trace_attr_init(&a);
		posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
		if (posix_trace_create_withlog(0, &a, fd, &t) || posix_trace_start(t))
			_exit(1);
		for (i = 0; i < 500; i++)
			syscall(SYS_getppid);
		posix_trace_flush(t);
		/* wait for the flush to end */
		for (i = 0; i < 500; i++) {
			struct posix_trace_status_info s;

			posix_trace_get_status(t, &s);
			if (s.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING)
				break;
			usleep(2000);
		}
		for (i = 0; i < 500; i++)
			syscall(SYS_getppid);
		if (write(sync[1], "k", 1) != 1)
			_exit(2);
		pause();
		_exit(0);
	}
	close(sync[1]);
	assert_int_equal(read(sync[0], &ch, 1), 1);
	kill(c, SIGKILL);
	waitpid(c, &st, 0);
	n = read_log(logpath("killed.log"), NULL);
	assert_true(count(n, "sys_exit_getppid") >= 500);
	assert_string_equal(recs[0].name, "posix_trace_start");
}

/* The markers a reader of the stream gets are in the log too. */
static int markers_log(int policy, const char *name)
{
	trace_attr_t a;
	trace_id_t t;
	int fd, i;

	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamfullpolicy(&a, policy);
	posix_trace_attr_setstreamsize(&a, 8192);
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
	fd = newlog(name);
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	for (i = 0; i < 3000; i++)
		syscall(SYS_getppid);
	assert_int_equal(posix_trace_flush(t), 0);
	syscall(SYS_getppid);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
	return read_log(logpath(name), NULL);
}

static void test_markers_in_log(void **state)
{
	int n, i, j;

	(void)state;
	/* LOOP: OVERFLOW then RESUME, with the timestamps of the gap */
	n = markers_log(POSIX_TRACE_LOOP, "mloop.log");
	i = 0;
	while (i < n && strcmp(recs[i].name, "posix_trace_overflow"))
		i++;
	assert_true(i < n);
	assert_string_equal(recs[i + 1].name, "posix_trace_resume");
	assert_true(count(n, "sys_exit_getppid") < 3000);
	/* UNTIL_FULL: an automatic STOP after the last event that fitted,
	 * and the stream runs again after the flush: START, then events */
	n = markers_log(POSIX_TRACE_UNTIL_FULL, "muntil.log");
	for (i = 0; i < n && strcmp(recs[i].name, "posix_trace_stop"); i++)
		;
	assert_true(i < n);
	assert_int_equal(*(int *)recs[i].data, 1);
	for (j = i + 1; j < n && strcmp(recs[j].name, "posix_trace_start"); j++)
		;
	assert_true(j < n);
	assert_true(count(n, "sys_exit_getppid") < 3000);
	assert_string_equal(recs[j - 1].name, "posix_trace_flush_start");
}

/* posix_trace_clear empties the stream and starts the log again. */
static void test_clear(void **state)
{
	trace_attr_t a;
	trace_id_t t;
	trace_event_id_t before, after;
	struct posix_trace_status_info st;
	int fd, n, v = 1;

	(void)state;
	posix_trace_attr_init(&a);
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_UNTIL_FULL);
	fd = newlog("clear.log");
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
	assert_int_equal(posix_trace_eventid_open("clear.before", &before), 0);
	assert_int_equal(posix_trace_eventid_open("clear.after", &after), 0);
	assert_int_equal(posix_trace_start(t), 0);
	posix_trace_event(before, &v, sizeof(v));
	assert_int_equal(posix_trace_flush(t), 0);
	assert_int_equal(posix_trace_clear(t), 0);
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_status, POSIX_TRACE_RUNNING); /* unchanged */
	assert_int_equal(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
	assert_int_equal(st.posix_log_full_status, POSIX_TRACE_NOT_FULL);
	posix_trace_event(after, &v, sizeof(v));
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
	n = read_log(logpath("clear.log"), NULL);
	assert_int_equal(count(n, "clear.before"), 0);
	assert_int_equal(count(n, "clear.after"), 1);
	assert_int_equal(count(n, "posix_trace_start"), 0); /* recorded before the clear */
}

/* The log cannot be preallocated on a full device: ENOSPC. */
static void test_enospc(void **state)
{
	char mnt[] = "/tmp/ptbpf-itest-small-XXXXXX";
	trace_attr_t a;
	trace_id_t t;
	char path[128];
	int fd;

	(void)state;
	assert_non_null(mkdtemp(mnt));
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=256k")) {
		rmdir(mnt);
		if (getenv("CI"))
			fail_msg("cannot mount a small tmpfs in CI: %s", strerror(errno));
		skip();
	}
	snprintf(path, sizeof(path), "%s/log", mnt);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	posix_trace_attr_init(&a);
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_UNTIL_FULL);
	posix_trace_attr_setlogsize(&a, 16 << 20);
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), ENOSPC);
	close(fd);

	/* the device fills during a flush: the flush error says ENOSPC and
	 * what was written before stays readable */
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	posix_trace_attr_init(&a);
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	{
		struct posix_trace_status_info st;
		char blob[1000];
		trace_event_id_t id;
		int i, k, err = 0, n;

		memset(blob, 'b', sizeof(blob));
		assert_int_equal(posix_trace_eventid_open("fill.event", &id), 0);
		for (k = 0; k < 40 && !err; k++) {
			for (i = 0; i < 100; i++)
				posix_trace_event(id, blob, sizeof(blob));
			assert_int_equal(posix_trace_flush(t), 0);
			for (i = 0; i < 200; i++) {
				assert_int_equal(posix_trace_get_status(t, &st), 0);
				if (st.posix_stream_flush_error) {
					err = st.posix_stream_flush_error;
					break;
				}
				if (st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING)
					break;
				usleep(2000);
			}
		}
		assert_int_equal(err, ENOSPC);
		/* read once, reset */
		assert_int_equal(posix_trace_get_status(t, &st), 0);
		assert_int_equal(st.posix_stream_flush_error, 0);
		posix_trace_shutdown(t);
		close(fd);
		n = read_log(path, NULL);
		assert_true(count(n, "fill.event") >= 100);
	}
	umount(mnt);
	rmdir(mnt);
}

/*
 * A user-event flood into a log whose flusher cannot keep up: the stream
 * takes what it and the log's spare queue hold and leaves the rest in the
 * user-event ring (its producer drops what does not fit), instead of
 * copying the stream aside. Every event is either in the log, in order,
 * or counted as lost, with a gap marker where events are missing.
 */
static void test_flood_into_log(void **state)
{
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	trace_event_set_t set;
	trace_event_id_t id;
	trace_id_t t;
	int fd, i, n, got = 0, overflow = 0, last = -1, nev = 45000;
	char blob[256];

	(void)state;
	t = start_small_log("flood.log", POSIX_TRACE_APPEND, 0, &fd);
	posix_trace_eventset_fill(&set, POSIX_TRACE_SYSTEM_EVENTS); /* user events only */
	assert_int_equal(posix_trace_set_filter(t, &set, POSIX_TRACE_SET_EVENTSET), 0);
	assert_int_equal(posix_trace_eventid_open("flood.event", &id), 0);
	memset(blob, 'f', sizeof(blob));
	for (i = 0; i < nev; i++) {
		memcpy(blob, &i, sizeof(i));
		posix_trace_event(id, blob, sizeof(blob));
	}
	/* stopped: what is still in the ring comes in and is counted */
	assert_int_equal(posix_trace_stop(t), 0);
	assert_int_equal(ptbpf_trace_get_counters(t, &cnt), 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
	n = read_log(logpath("flood.log"), NULL);
	for (i = 0; i < n; i++) {
		int seq;

		if (!strcmp(recs[i].name, "posix_trace_overflow"))
			overflow++;
		if (strcmp(recs[i].name, "flood.event"))
			continue;
		memcpy(&seq, recs[i].data, sizeof(seq));
		assert_true(seq > last); /* in order, none twice */
		if (seq != last + 1)
			assert_true(overflow > 0); /* a gap comes after a marker */
		last = seq;
		got++;
	}
	print_message("%d of %d events in the log, %llu lost (%llu dropped by the ring), "
		      "%d gap markers\n",
		      got, nev, (unsigned long long)cnt.lost, (unsigned long long)cnt.user_dropped,
		      overflow);
	assert_int_equal((uint64_t)got + cnt.lost, (uint64_t)nev);
	assert_true(got > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),   cmocka_unit_test(test_create_withlog_errors),
		cmocka_unit_test(test_open_errors),  cmocka_unit_test(test_flush_status),
		cmocka_unit_test(test_thread_names), cmocka_unit_test(test_stream_policy_flush),
		cmocka_unit_test(test_log_policies), cmocka_unit_test(test_sigkill_controller),
		cmocka_unit_test(test_clear),	     cmocka_unit_test(test_markers_in_log),
		cmocka_unit_test(test_enospc),	     cmocka_unit_test(test_flood_into_log),
	};
	char cmd[128];
	int rc;

	itest_require_bpf();
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		rc = rc ? rc : 1;
	return rc;
}
