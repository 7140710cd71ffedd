/*
 * Conformance tests: behaviours the standard's text (POSIX.1-2017, XSH
 * 2.11 and the posix_trace_* pages) requires, each quoted above its test,
 * checked through the public API with real BPF. Traced processes are
 * tests/progs/conf_app.c, driven over pipes.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"
#include "itest_read.h"

static char dir[] = "/tmp/ptbpf-itest-conf-XXXXXX";

static const char *logpath(const char *name)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

#define MAXEV 20000
static struct itest_ev evs[MAXEV];

static int read_stream(trace_id_t t)
{
	return itest_read_stream(t, evs, MAXEV);
}

static int read_log(const char *path, trace_id_t *lt)
{
	return itest_read_log(path, lt, evs, MAXEV);
}

static int count(int n, const char *name)
{
	return itest_count(evs, n, name);
}

static int newlog(const char *name)
{
	return itest_newlog(logpath(name));
}

/* ------------------------------------------------------------------ */
/* The traced process                                                  */

struct app {
	pid_t pid;
	int in;	 /* its stdin */
	int out; /* its stdout */
};

static void app_reply(struct app *a, char *line, size_t max)
{
	size_t n = 0;
	char ch;

	for (;;) {
		assert_int_equal(read(a->out, &ch, 1), 1);
		if (ch == '\n')
			break;
		if (n < max - 1)
			line[n++] = ch;
	}
	line[n] = 0;
}

/* Start conf_app mapping the names given (NULL-terminated), until ready. */
static void app_spawn(struct app *a, const char *const *names)
{
	const char *argv[8] = { "conf_app" };
	int in[2], out[2], i;
	char line[64];

	for (i = 0; names && names[i] && i < 6; i++)
		argv[i + 1] = names[i];
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	a->pid = fork();
	assert_true(a->pid >= 0);
	if (a->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execv(itest_prog("conf_app"), (char *const *)argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	a->in = in[1];
	a->out = out[0];
	app_reply(a, line, sizeof(line));
	assert_string_equal(line, "ready");
}

/* Send one command, return its answer in line. */
static void app_cmd(struct app *a, char *line, size_t max, const char *fmt, ...)
{
	char cmd[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd) - 1, fmt, ap);
	va_end(ap);
	cmd[n++] = '\n';
	assert_int_equal(write(a->in, cmd, n), n);
	app_reply(a, line, max);
}

static void app_exit(struct app *a)
{
	int st;

	assert_int_equal(write(a->in, "exit\n", 5), 5);
	close(a->in);
	close(a->out);
	assert_int_equal(waitpid(a->pid, &st, 0), a->pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Filter out every system event but the POSIX ones: the traced
 * process's own syscalls (its pipe reads and writes) do not count. */
static void keep_posix_and_user(trace_id_t t)
{
	trace_event_set_t set;
	trace_event_id_t id;

	assert_int_equal(posix_trace_eventset_fill(&set, POSIX_TRACE_SYSTEM_EVENTS), 0);
	for (id = POSIX_TRACE_ERROR; id <= POSIX_TRACE_FLUSH_STOP; id++)
		assert_int_equal(posix_trace_eventset_del(id, &set), 0);
	assert_int_equal(posix_trace_set_filter(t, &set, POSIX_TRACE_SET_EVENTSET), 0);
}

/* The event type list of t: ids into ids[], their names into names[]. */
static int walk_types(trace_id_t t, trace_event_id_t *ids, char (*names)[TRACE_EVENT_NAME_MAX],
		      int max)
{
	trace_event_id_t id;
	int n = 0, un;

	assert_int_equal(posix_trace_eventtypelist_rewind(t), 0);
	for (;;) {
		assert_int_equal(posix_trace_eventtypelist_getnext_id(t, &id, &un), 0);
		if (un)
			break;
		assert_true(n < max);
		ids[n] = id;
		assert_int_equal(posix_trace_eventid_get_name(t, id, names[n]), 0);
		n++;
	}
	return n;
}

/* How often name is in a type list, and its id there (0: absent). */
static int listed(int n, const trace_event_id_t *ids, char (*names)[TRACE_EVENT_NAME_MAX],
		  const char *name, trace_event_id_t *id)
{
	int i, c = 0;

	*id = 0;
	for (i = 0; i < n; i++) {
		if (!strcmp(names[i], name)) {
			*id = ids[i];
			c++;
		}
	}
	return c;
}

#define MAXTYPES 4096
static trace_event_id_t type_ids[MAXTYPES];
static char type_names[MAXTYPES][TRACE_EVENT_NAME_MAX];

/* ------------------------------------------------------------------ */
/* 1. The log full status of an UNTIL_FULL log                          */

/*
 * A self-traced stream of ssz bytes with an UNTIL_FULL log of 8 KiB, given
 * nev user events (about 25 bytes each in the log): far more than it
 * holds.
 */
static trace_id_t overfill_until_full_log(const char *name, size_t ssz, int nev, int *fd)
{
	trace_event_id_t id;
	trace_attr_t a;
	trace_id_t t;
	int i;

	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamsize(&a, ssz);
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_UNTIL_FULL);
	posix_trace_attr_setlogsize(&a, 8192);
	*fd = newlog(name);
	assert_int_equal(posix_trace_create_withlog(0, &a, *fd, &t), 0);
	keep_posix_and_user(t);
	assert_int_equal(posix_trace_eventid_open("conf.fill", &id), 0);
	assert_int_equal(posix_trace_start(t), 0);
	for (i = 0; i < nev; i++)
		posix_trace_event(id, &i, sizeof(i));
	return t;
}

/* The log read back: full, its last event POSIX_TRACE_STOP. */
static void check_full_log(const char *name)
{
	struct posix_trace_status_info st;
	trace_id_t lt;
	int n;

	n = read_log(logpath(name), &lt);
	assert_true(n > 10);
	assert_true(count(n, "conf.fill") < 1000);
	assert_int_equal(posix_trace_get_status(lt, &st), 0);
	assert_int_equal(st.posix_log_full_status, POSIX_TRACE_FULL);
	assert_string_equal(evs[n - 1].name, "posix_trace_stop");
	assert_int_equal(posix_trace_close(lt), 0);
}

/*
 * posix_trace_attr_getlogfullpolicy: "POSIX_TRACE_UNTIL_FULL The trace
 * stream shall be flushed to the trace log until the trace log is full.
 * This condition can be deduced from the posix_log_full_status member
 * status [...]. The last recorded trace event shall be the
 * POSIX_TRACE_STOP trace event." posix_trace_get_status: "If the Trace Log
 * option is supported and the trid argument refers to a pre-recorded
 * trace stream, the status shall be the status of the completed trace
 * stream."
 */
static void test_until_full_log_status(void **state)
{
	struct posix_trace_status_info st;
	trace_id_t t;
	int fd, i;

	(void)state;
	/* the live stream, once a flush filled its log */
	t = overfill_until_full_log("full_live.log", 16384, 3000, &fd);
	assert_int_equal(posix_trace_flush(t), 0);
	for (i = 0; i < 400; i++) {
		assert_int_equal(posix_trace_get_status(t, &st), 0);
		if (st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING)
			break;
		usleep(5000);
	}
	assert_int_equal(st.posix_stream_flush_status, POSIX_TRACE_NOT_FLUSHING);
	assert_int_equal(st.posix_log_full_status, POSIX_TRACE_FULL);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
	check_full_log("full_live.log");

	/*
	 * A stream that holds every event (4 MiB: nothing is flushed before
	 * it is half full or a second has passed), stopped, then shut down:
	 * the flush of the shutdown fills the log, and takes a while.
	 */
	t = overfill_until_full_log("full_shut.log", 4 << 20, 20000, &fd);
	assert_int_equal(posix_trace_stop(t), 0);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
	check_full_log("full_shut.log");
}

/* ------------------------------------------------------------------ */
/* 2. The overrun status of a LOOP stream                               */

/*
 * XSH 2.11.1: "An overrun occurs when: The policy is POSIX_TRACE_LOOP and a
 * recorded trace event is overwritten." posix_trace_get_status "shall
 * return [...] the current trace status for the trace stream". The
 * traced process posts three times what the stream holds, nobody reads:
 * by the time of the call, the oldest of them cannot be read any more.
 * LOOP: "the trace stream will always contain the most recent trace
 * events recorded."
 */
static void test_loop_overrun_status(void **state)
{
	struct posix_trace_status_info st;
	const char *names[] = { "conf.loop", NULL };
	trace_attr_t a;
	trace_id_t t;
	struct app app;
	size_t ssz = 16384, evsz;
	char line[64];
	int n, i, first = -1, k, posted;

	(void)state;
	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamsize(&a, ssz);
	posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_LOOP);
	assert_int_equal(posix_trace_attr_getmaxusereventsize(&a, sizeof(int), &evsz), 0);
	posted = 3 * (int)(ssz / evsz);
	app_spawn(&app, names);
	assert_int_equal(posix_trace_create(app.pid, &a, &t), 0);
	keep_posix_and_user(t);
	assert_int_equal(posix_trace_start(t), 0);
	app_cmd(&app, line, sizeof(line), "post conf.loop %d", posted);
	assert_string_equal(line, "posted");
	usleep(50000); /* the drainer runs meanwhile */
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_status, POSIX_TRACE_RUNNING);
	assert_int_equal(st.posix_stream_full_status, POSIX_TRACE_FULL);
	assert_int_equal(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
	/* "reset to zero after its value is read" */
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
	/* the newest events, contiguous, the last one posted last */
	n = read_stream(t);
	assert_string_equal(evs[0].name, "posix_trace_overflow");
	assert_string_equal(evs[1].name, "posix_trace_resume");
	for (i = 2; i < n; i++) {
		assert_string_equal(evs[i].name, "conf.loop");
		memcpy(&k, evs[i].data, sizeof(k));
		if (first < 0)
			first = k;
		assert_int_equal(k, first + i - 2);
	}
	assert_int_equal(k, posted - 1);
	assert_true(first > 0);
	print_message("LOOP of %zu bytes, %d events posted: the last %d read\n", ssz, posted,
		      n - 2);
	app_exit(&app);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* ------------------------------------------------------------------ */
/* 3. posix_trace_clear keeps the names                                 */

/*
 * posix_trace_clear: "The posix_trace_clear() function shall reinitialize
 * the trace stream [...] as if it were returning from the
 * posix_trace_create() function, except that [...] the mapping of trace
 * event type identifiers to trace event names shall be unchanged".
 * XSH 2.11: "Each active trace stream shall have a mapping that
 * incorporates all the trace event type identifiers predefined by the
 * trace system plus all the mappings of trace event names to trace event
 * type identifiers of the processes that are being traced into that trace
 * stream."
 */
static void test_clear_keeps_names(void **state)
{
	const char *names[] = { "conf.clear.early", NULL };
	static const char *const mapped[] = { "conf.clear.early", "conf.clear.late",
					      "conf.clear.ctl" };
	trace_event_id_t before[3], id, ctl;
	char name[TRACE_EVENT_NAME_MAX], line[64];
	struct app app;
	trace_id_t t;
	int i, n;

	(void)state;
	app_spawn(&app, names);
	assert_int_equal(posix_trace_create(app.pid, NULL, &t), 0);
	keep_posix_and_user(t);
	assert_int_equal(posix_trace_start(t), 0);
	/* mapped by the traced process after the stream was created, no
	 * event of it recorded; and by the controller */
	app_cmd(&app, line, sizeof(line), "open conf.clear.late");
	assert_int_equal(posix_trace_trid_eventid_open(t, "conf.clear.ctl", &ctl), 0);
	n = walk_types(t, type_ids, type_names, MAXTYPES);
	for (i = 0; i < 3; i++) {
		assert_int_equal(listed(n, type_ids, type_names, mapped[i], &before[i]), 1);
		assert_int_equal(posix_trace_eventid_get_name(t, before[i], name), 0);
		assert_string_equal(name, mapped[i]);
	}
	assert_int_equal(before[2], ctl);
	assert_int_equal(posix_trace_clear(t), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(posix_trace_eventid_get_name(t, before[i], name), 0);
		assert_string_equal(name, mapped[i]);
		assert_int_equal(posix_trace_trid_eventid_open(t, mapped[i], &id), 0);
		assert_int_equal(id, before[i]);
	}
	n = walk_types(t, type_ids, type_names, MAXTYPES);
	for (i = 0; i < 3; i++) {
		assert_int_equal(listed(n, type_ids, type_names, mapped[i], &id), 1);
		assert_int_equal(id, before[i]);
	}
	/* events recorded after the clear carry the same identifiers */
	app_cmd(&app, line, sizeof(line), "post conf.clear.early 1");
	app_cmd(&app, line, sizeof(line), "post conf.clear.late 1");
	assert_int_equal(posix_trace_stop(t), 0);
	n = read_stream(t);
	assert_int_equal(count(n, "conf.clear.early"), 1);
	assert_int_equal(count(n, "conf.clear.late"), 1);
	for (i = 0; i < n; i++) {
		if (!strcmp(evs[i].name, "conf.clear.early"))
			assert_int_equal(evs[i].info.posix_event_id, before[0]);
		if (!strcmp(evs[i].name, "conf.clear.late"))
			assert_int_equal(evs[i].info.posix_event_id, before[1]);
	}
	app_exit(&app);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* ------------------------------------------------------------------ */
/* 4. The longest event name                                            */

/*
 * posix_trace_eventid_get_name: "The name of the trace event shall have a
 * maximum of {TRACE_EVENT_NAME_MAX} characters"; posix_trace_eventid_open
 * fails with ENAMETOOLONG only when "The size of the name pointed to by
 * the event_name argument was longer than the implementation-defined value
 * {TRACE_EVENT_NAME_MAX}". A name of TRACE_EVENT_NAME_MAX - 1 characters
 * (the terminating NUL makes TRACE_EVENT_NAME_MAX bytes) is accepted, and
 * comes back whole from the stream, from a traced process's event and
 * from the log, with nothing written past TRACE_EVENT_NAME_MAX bytes.
 */
static void check_long_name(trace_id_t t, trace_event_id_t id, const char *want)
{
	char buf[TRACE_EVENT_NAME_MAX + 16];

	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(posix_trace_eventid_get_name(t, id, buf), 0);
	assert_int_equal(strlen(buf), TRACE_EVENT_NAME_MAX - 1);
	assert_memory_equal(buf, want, TRACE_EVENT_NAME_MAX);
	for (size_t i = TRACE_EVENT_NAME_MAX; i < sizeof(buf); i++)
		assert_int_equal((unsigned char)buf[i], 0x5a);
}

static void test_longest_name(void **state)
{
	char ctl_name[TRACE_EVENT_NAME_MAX], usr_name[TRACE_EVENT_NAME_MAX];
	char too_long[TRACE_EVENT_NAME_MAX + 1];
	const char *names[] = { NULL };
	trace_event_id_t ctl, usr, id;
	char line[64];
	struct app app;
	trace_attr_t a;
	trace_id_t t, lt;
	int fd, n, i, v = 7, seen = 0;

	(void)state;
	memset(ctl_name, 'c', sizeof(ctl_name) - 1);
	ctl_name[sizeof(ctl_name) - 1] = 0;
	memset(usr_name, 'u', sizeof(usr_name) - 1);
	usr_name[sizeof(usr_name) - 1] = 0;
	memset(too_long, 'x', sizeof(too_long) - 1);
	too_long[sizeof(too_long) - 1] = 0;

	posix_trace_attr_init(&a);
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
	fd = newlog("longname.log");
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
	keep_posix_and_user(t);
	assert_int_equal(posix_trace_eventid_open(too_long, &id), ENAMETOOLONG);
	assert_int_equal(posix_trace_trid_eventid_open(t, too_long, &id), ENAMETOOLONG);
	assert_int_equal(posix_trace_eventid_open(usr_name, &usr), 0);
	assert_int_equal(posix_trace_trid_eventid_open(t, ctl_name, &ctl), 0);
	check_long_name(t, ctl, ctl_name);
	assert_int_equal(posix_trace_start(t), 0);
	posix_trace_event(usr, &v, sizeof(v));
	assert_int_equal(posix_trace_stop(t), 0);
	/* the traced process's name, as the stream knows it */
	assert_int_equal(posix_trace_trid_eventid_open(t, usr_name, &id), 0);
	check_long_name(t, id, usr_name);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);

	/* the log: the event of the traced process, and the type list */
	n = read_log(logpath("longname.log"), &lt);
	for (i = 0; i < n; i++) {
		if (!strcmp(evs[i].name, usr_name)) {
			check_long_name(lt, evs[i].info.posix_event_id, usr_name);
			seen++;
		}
	}
	assert_int_equal(seen, 1);
	assert_int_equal(posix_trace_trid_eventid_open(lt, ctl_name, &id), 0);
	check_long_name(lt, id, ctl_name);
	assert_int_equal(posix_trace_close(lt), 0);

	/* a name mapped by another traced process, read with its event */
	memset(usr_name, 'p', sizeof(usr_name) - 1);
	app_spawn(&app, names);
	assert_int_equal(posix_trace_create(app.pid, NULL, &t), 0);
	keep_posix_and_user(t);
	assert_int_equal(posix_trace_start(t), 0);
	app_cmd(&app, line, sizeof(line), "post %s 1", usr_name);
	assert_int_equal(posix_trace_stop(t), 0);
	n = read_stream(t);
	for (i = 0, seen = 0; i < n; i++) {
		if (!strcmp(evs[i].name, usr_name)) {
			check_long_name(t, evs[i].info.posix_event_id, usr_name);
			seen++;
		}
	}
	assert_int_equal(seen, 1);
	app_exit(&app);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* ------------------------------------------------------------------ */
/* 5. The event type list holds late user types                         */

/*
 * posix_trace_eventtypelist_getnext_id returns "the next trace event type
 * identifier in that same list", the "list of trace events of the trace
 * stream"; XSH 2.11: "Each active trace stream shall have a mapping that
 * incorporates all the trace event type identifiers predefined by the
 * trace system plus all the mappings of trace event names to trace event
 * type identifiers of the processes that are being traced into that trace
 * stream. These mappings are defined from the instrumented application by
 * calling the posix_trace_eventid_open() function and from the controller
 * process by calling the posix_trace_trid_eventid_open() function."
 */
static void test_typelist_late_types(void **state)
{
	const char *names[] = { "conf.list.early", NULL };
	static const char *const posix_names[] = {
		"posix_trace_error",	   "posix_trace_start",	     "posix_trace_stop",
		"posix_trace_filter",	   "posix_trace_overflow",   "posix_trace_resume",
		"posix_trace_flush_start", "posix_trace_flush_stop",
	};
	trace_event_id_t id, back;
	char line[64];
	struct app app;
	trace_id_t t;
	int n, i;

	(void)state;
	app_spawn(&app, names);
	assert_int_equal(posix_trace_create(app.pid, NULL, &t), 0);
	/* after the stream was created, before the walk; no event posted */
	app_cmd(&app, line, sizeof(line), "open conf.list.late");
	assert_int_equal(posix_trace_trid_eventid_open(t, "conf.list.ctl", &id), 0);
	n = walk_types(t, type_ids, type_names, MAXTYPES);
	for (i = 0; i < (int)(sizeof(posix_names) / sizeof(posix_names[0])); i++) {
		assert_int_equal(listed(n, type_ids, type_names, posix_names[i], &back), 1);
		assert_int_equal(back, (trace_event_id_t)(POSIX_TRACE_ERROR + i));
	}
	assert_int_equal(listed(n, type_ids, type_names, "posix_trace_unnamed_userevent", &back),
			 1);
	assert_int_equal(back, POSIX_TRACE_UNNAMED_USEREVENT);
	assert_int_equal(listed(n, type_ids, type_names, "conf.list.ctl", &back), 1);
	assert_int_equal(back, id);
	assert_int_equal(listed(n, type_ids, type_names, "conf.list.early", &back), 1);
	assert_int_equal(posix_trace_trid_eventid_open(t, "conf.list.early", &id), 0);
	assert_int_equal(id, back);
	assert_int_equal(listed(n, type_ids, type_names, "conf.list.late", &back), 1);
	assert_int_equal(posix_trace_trid_eventid_open(t, "conf.list.late", &id), 0);
	assert_int_equal(id, back);
	/* mapped between two walks: the second one has it */
	app_cmd(&app, line, sizeof(line), "open conf.list.later");
	n = walk_types(t, type_ids, type_names, MAXTYPES);
	assert_int_equal(listed(n, type_ids, type_names, "conf.list.later", &back), 1);
	/* an event of it carries the listed identifier */
	assert_int_equal(posix_trace_start(t), 0);
	app_cmd(&app, line, sizeof(line), "post conf.list.later 1");
	assert_int_equal(posix_trace_stop(t), 0);
	n = read_stream(t);
	for (i = 0; i < n && strcmp(evs[i].name, "conf.list.later"); i++)
		;
	assert_true(i < n);
	assert_int_equal(evs[i].info.posix_event_id, back);
	app_exit(&app);
	assert_int_equal(posix_trace_shutdown(t), 0);
}

/* ------------------------------------------------------------------ */
/* 6. A process that exits without posix_trace_shutdown                 */

static trace_id_t exit_reader_trid;
static volatile int exit_grandchild;

/*
 * LeakSanitizer's check at exit takes locks that a fork from this
 * multithreaded child may have copied held: off in the grandchild, which
 * exits through exit() only to see that our exit handler leaves the
 * parent's streams alone.
 */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return exit_grandchild;
}

/* Blocked in posix_trace_getnext_event when the process exits. */
static void *exit_reader(void *arg)
{
	struct posix_trace_event_info info;
	char data[64];
	size_t len;
	int un;

	(void)arg;
	for (;;)
		if (posix_trace_getnext_event(exit_reader_trid, &info, data, sizeof(data), &len,
					      &un))
			break;
	return NULL;
}

/*
 * The child of test_exit_shuts_down: a stream with a log for itself, a
 * second stream without one that another thread reads (blocked), a
 * forked child that calls exit() itself, a user event, then exit().
 */
static void exit_child(const char *log)
{
	trace_event_id_t id;
	pthread_t th;
	trace_attr_t a;
	trace_id_t t;
	int fd, v = 42, st;
	pid_t gc;

	posix_trace_attr_init(&a);
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
	fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || posix_trace_create_withlog(0, &a, fd, &t) ||
	    posix_trace_eventid_open("conf.exit", &id) || posix_trace_start(t))
		_exit(10);
	if (posix_trace_create(0, NULL, &exit_reader_trid) ||
	    pthread_create(&th, NULL, exit_reader, NULL))
		_exit(11);
	/* the streams are this process's, not its child's */
	gc = fork();
	if (gc == 0) {
		exit_grandchild = 1;
		exit(0);
	}
	if (waitpid(gc, &st, 0) != gc || !WIFEXITED(st) || WEXITSTATUS(st))
		_exit(12);
	posix_trace_event(id, &v, sizeof(v));
	exit(0);
}

/*
 * posix_trace_create: "If the process exits, invokes a member of the exec
 * family of functions, or is terminated, the trace streams that the
 * process had created and that have not yet been shut down, shall be
 * automatically shut down as if an explicit call were made to the
 * posix_trace_shutdown() function." "For an active trace stream with log,
 * when the posix_trace_shutdown() function is called, all trace events
 * that have not yet been flushed to the trace log shall be flushed [...]
 * and the trace log shall be closed. When a trace log is closed, all the
 * information that may be retrieved later from the trace log through the
 * trace interface shall have been written to the trace log."
 */
static void test_exit_shuts_down(void **state)
{
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	trace_id_t lt;
	int st, n, i, v;
	pid_t c;

	(void)state;
	c = fork();
	assert_true(c >= 0);
	if (c == 0)
		exit_child(logpath("exit.log"));
	assert_int_equal(waitpid(c, &st, 0), c);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	n = read_log(logpath("exit.log"), &lt);
	assert_int_equal(count(n, "conf.exit"), 1);
	for (i = 0; strcmp(evs[i].name, "conf.exit"); i++)
		;
	memcpy(&v, evs[i].data, sizeof(v));
	assert_int_equal(v, 42);
	assert_string_equal(evs[0].name, "posix_trace_start");
	/* closed: the trailer with the counters of the stream is there */
	assert_int_equal(ptbpf_trace_get_counters(lt, &cnt), 0);
	assert_true(cnt.recorded >= 3);
	assert_int_equal(posix_trace_close(lt), 0);
}

/* ------------------------------------------------------------------ */
/* Further departures found on the pages of clear and shutdown          */

/*
 * posix_trace_shutdown: "The posix_trace_shutdown() function shall stop
 * the tracing of trace events in the trace stream identified by trid, as
 * if posix_trace_stop() had been invoked." posix_trace_stop: "The effect
 * of calling the posix_trace_stop() function shall be recorded in the
 * trace stream as the POSIX_TRACE_STOP system trace event [...]. If the
 * trace stream is suspended when this function is called, the
 * POSIX_TRACE_STOP system trace event shall not be recorded". So the log
 * of a running stream shut down ends with STOP (data 0: not automatic),
 * that of a stopped one has its one STOP; an UNTIL_FULL log whose last
 * flush is the shutdown's ends with it too ("The last recorded trace
 * event shall be the POSIX_TRACE_STOP trace event").
 */
static void test_shutdown_stops(void **state)
{
	trace_event_id_t id;
	trace_attr_t a;
	trace_id_t t;
	int fd, n, v = 5, pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		posix_trace_attr_init(&a);
		posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
		fd = newlog("stop.log");
		assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
		keep_posix_and_user(t);
		assert_int_equal(posix_trace_eventid_open("conf.stop", &id), 0);
		assert_int_equal(posix_trace_start(t), 0);
		posix_trace_event(id, &v, sizeof(v));
		if (pass)
			assert_int_equal(posix_trace_stop(t), 0);
		assert_int_equal(posix_trace_shutdown(t), 0);
		close(fd);
		n = read_log(logpath("stop.log"), NULL);
		assert_int_equal(count(n, "conf.stop"), 1);
		assert_int_equal(count(n, "posix_trace_stop"), 1);
		assert_string_equal(evs[n - 1].name, "posix_trace_stop");
		memcpy(&v, evs[n - 1].data, sizeof(v));
		assert_int_equal(v, 0);
	}

	/* an UNTIL_FULL log that the shutdown's flush fills */
	t = overfill_until_full_log("stop_full.log", 4 << 20, 20000, &fd);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
	check_full_log("stop_full.log");
}

/*
 * posix_trace_shutdown: "The posix_trace_flush() and posix_trace_shutdown()
 * functions shall fail if: [...] ENOSPC No space left on device." The
 * events a shutdown flushes do not fit the device: it says so (and frees
 * the stream all the same: "A call to this function shall unconditionally
 * deallocate the resources").
 */
static void test_shutdown_enospc(void **state)
{
	char mnt[] = "/tmp/ptbpf-itest-conf-small-XXXXXX", path[128], blob[1000];
	struct posix_trace_status_info st;
	trace_event_id_t id;
	trace_attr_t a;
	trace_id_t t;
	int fd, i;

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
	posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
	/* a stream that holds them all: nothing is flushed before the
	 * shutdown (a FLUSH stream flushes at half full, or after 1 s) */
	posix_trace_attr_setstreamsize(&a, 4 << 20);
	assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
	keep_posix_and_user(t);
	assert_int_equal(posix_trace_eventid_open("conf.enospc", &id), 0);
	assert_int_equal(posix_trace_start(t), 0);
	memset(blob, 'b', sizeof(blob));
	for (i = 0; i < 600; i++)
		posix_trace_event(id, blob, sizeof(blob));
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_flush_error, 0);
	assert_int_equal(posix_trace_shutdown(t), ENOSPC);
	assert_int_equal(posix_trace_shutdown(t), EINVAL); /* freed all the same */
	close(fd);
	umount(mnt);
	rmdir(mnt);
}

/*
 * posix_trace_clear: "The posix_trace_clear() function shall reinitialize
 * the trace stream identified by the argument trid as if it were returning
 * from the posix_trace_create() function" and its log "as if it were
 * returning from the posix_trace_create_withlog() function"; XSH 2.11.1:
 * "When the corresponding trace stream is created, the
 * posix_stream_overrun_status member shall be set to
 * POSIX_TRACE_NO_OVERRUN", and likewise posix_log_overrun_status. An
 * overrun before the clear, not yet read, is not reported after it.
 */
static void test_clear_resets_overrun(void **state)
{
	struct posix_trace_status_info st;
	trace_event_id_t id;
	trace_attr_t a;
	trace_id_t t;
	size_t evsz;
	int fd, i, n;

	(void)state;
	/* a LOOP stream overwrote events */
	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamsize(&a, 16384);
	assert_int_equal(posix_trace_attr_getmaxusereventsize(&a, sizeof(int), &evsz), 0);
	assert_int_equal(posix_trace_create(0, &a, &t), 0);
	keep_posix_and_user(t);
	assert_int_equal(posix_trace_eventid_open("conf.clear.loop", &id), 0);
	assert_int_equal(posix_trace_start(t), 0);
	n = 3 * (int)(16384 / evsz);
	for (i = 0; i < n; i++)
		posix_trace_event(id, &i, sizeof(i));
	assert_int_equal(posix_trace_stop(t), 0); /* takes them in: overwrites */
	assert_int_equal(posix_trace_clear(t), 0);
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
	assert_int_equal(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
	assert_int_equal(posix_trace_shutdown(t), 0);

	/* an UNTIL_FULL log dropped events; clear waits for the flush */
	t = overfill_until_full_log("clear_full.log", 16384, 3000, &fd);
	assert_int_equal(posix_trace_flush(t), 0);
	assert_int_equal(posix_trace_clear(t), 0);
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_log_overrun_status, POSIX_TRACE_NO_OVERRUN);
	assert_int_equal(st.posix_log_full_status, POSIX_TRACE_NOT_FULL);
	assert_int_equal(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
	assert_int_equal(posix_trace_shutdown(t), 0);
	close(fd);
}

/*
 * posix_trace_attr_setstreamfullpolicy: "POSIX_TRACE_UNTIL_FULL [...] The
 * trace system shall restart the trace stream when it is empty and may
 * restart it sooner. A POSIX_TRACE_START trace event shall be reported
 * before reporting the next recorded trace event." A clear empties a stream
 * that UNTIL_FULL stopped; it runs again, START first.
 */
static void test_clear_restart_start(void **state)
{
	struct posix_trace_status_info st;
	trace_event_id_t id;
	trace_attr_t a;
	trace_id_t t;
	int i, n, v;

	(void)state;
	posix_trace_attr_init(&a);
	posix_trace_attr_setstreamsize(&a, 16384);
	posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_UNTIL_FULL);
	assert_int_equal(posix_trace_create(0, &a, &t), 0);
	keep_posix_and_user(t);
	assert_int_equal(posix_trace_eventid_open("conf.clear.full", &id), 0);
	assert_int_equal(posix_trace_start(t), 0);
	for (i = 0; i < 2000; i++)
		posix_trace_event(id, &i, sizeof(i));
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
	assert_int_equal(st.posix_stream_full_status, POSIX_TRACE_FULL);
	assert_int_equal(posix_trace_clear(t), 0);
	assert_int_equal(posix_trace_get_status(t, &st), 0);
	assert_int_equal(st.posix_stream_status, POSIX_TRACE_RUNNING);
	assert_int_equal(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
	v = 12345;
	posix_trace_event(id, &v, sizeof(v));
	assert_int_equal(posix_trace_stop(t), 0);
	n = read_stream(t);
	assert_int_equal(n, 3);
	assert_string_equal(evs[0].name, "posix_trace_start");
	assert_string_equal(evs[1].name, "conf.clear.full");
	memcpy(&v, evs[1].data, sizeof(v));
	assert_int_equal(v, 12345);
	assert_string_equal(evs[2].name, "posix_trace_stop");
	assert_int_equal(posix_trace_shutdown(t), 0);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_until_full_log_status),
		cmocka_unit_test(test_loop_overrun_status),
		cmocka_unit_test(test_clear_keeps_names),
		cmocka_unit_test(test_longest_name),
		cmocka_unit_test(test_typelist_late_types),
		cmocka_unit_test(test_exit_shuts_down),
		cmocka_unit_test(test_shutdown_stops),
		cmocka_unit_test(test_shutdown_enospc),
		cmocka_unit_test(test_clear_resets_overrun),
		cmocka_unit_test(test_clear_restart_start),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, setup, teardown);
}
