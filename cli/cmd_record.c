/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf record: trace a command or running processes, live or into a log. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "cli.h"

/* Live output reads this many events (and bytes of their data) per call. */
#define LIVE_BATCH 1024
/* Live output to a pipe or a file: written out at least this often (s). */
#define LIVE_OUT_S	 0.2
#define LIVE_BATCH_BYTES (1u << 20)

enum {
	OPT_BUFSIZE = 0x100,
	OPT_POLICY,
	OPT_DURATION,
	OPT_NAME,
	OPT_JSON,
	OPT_LOGPOLICY,
	OPT_LOGSIZE,
	OPT_NICE,
};

/* ptbpf's own threads run this much below the caller's nice value. */
#define DEFAULT_NICE_BOOST 5

static const struct argp_option record_opts[] = {
	{ "output", 'o', "FILE", 0, "Write a POSIX trace log to FILE instead of printing events",
	  0 },
	{ "events", 'e', "EVENTS", 0,
	  "Record only these events: comma-separated names (openat, sys_enter_openat, "
	  "proc_fork, user:NAME) and groups (syscalls, proc, signals, sched, user, posix, all); "
	  "a leading ! excludes",
	  0 },
	{ "pid", 'p', "PID[,PID...]", 0, "Trace these running processes", 0 },
	{ "follow-forks", 'f', NULL, 0, "Also trace the children the processes create", 0 },
	{ "buffer-size", OPT_BUFSIZE, "BYTES", 0, "Stream buffer size (suffixes K, M, G)", 0 },
	{ "policy", OPT_POLICY, "POLICY", 0,
	  "What to do when the stream is full: loop, until-full, flush", 0 },
	{ "log-policy", OPT_LOGPOLICY, "POLICY", 0,
	  "With -o, when the log is full: append (default: the log grows as needed), "
	  "loop (keep the last --log-size bytes), until-full",
	  0 },
	{ "log-size", OPT_LOGSIZE, "BYTES", 0, "Log size limit for loop and until-full", 0 },
	{ "duration", OPT_DURATION, "SECONDS", 0, "Stop recording after SECONDS", 0 },
	{ "name", OPT_NAME, "NAME", 0, "Name of the trace stream", 0 },
	{ "absolute", 't', NULL, 0, "Print absolute timestamps (seconds since the epoch)", 0 },
	{ "json", OPT_JSON, NULL, 0, "Print events live as JSON Lines (as 'ptbpf show --json')",
	  0 },
	{ "nice", OPT_NICE, "N", 0,
	  "Nice value of ptbpf's own threads (default: 5 below the caller's, so that it keeps "
	  "up with a program that keeps every CPU busy; the command runs at the caller's)",
	  0 },
	{ 0 }
};

struct record_args {
	const char *output;
	const char *events;
	const char *pids;
	int follow;
	size_t bufsize;
	int policy; /* -1: default */
	int log_policy;
	size_t log_size;
	double duration;
	const char *name;
	int absolute;
	int json;
	int nice; /* NICE_DEFAULT: the caller's - DEFAULT_NICE_BOOST */
	char **cmd;
};

#define NICE_DEFAULT 100

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k':
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || !v)
		return -1;
	*out = v;
	return 0;
}

struct policy_name {
	const char *name;
	int value;
};

static const struct policy_name stream_policies[] = {
	{ "loop", POSIX_TRACE_LOOP },
	{ "until-full", POSIX_TRACE_UNTIL_FULL },
	{ "flush", POSIX_TRACE_FLUSH },
	{ NULL, 0 },
};

static const struct policy_name log_policies[] = {
	{ "loop", POSIX_TRACE_LOOP },
	{ "until-full", POSIX_TRACE_UNTIL_FULL },
	{ "append", POSIX_TRACE_APPEND },
	{ NULL, 0 },
};

/* The value of a --policy or --log-policy name, -1 if unknown. */
static int policy_value(const char *arg, const struct policy_name *t)
{
	for (; t->name; t++)
		if (!strcmp(arg, t->name))
			return t->value;
	return -1;
}

static error_t record_parse(int key, char *arg, struct argp_state *state)
{
	struct record_args *a = state->input;
	char *end;

	switch (key) {
	case 'o':
		a->output = arg;
		break;
	case 'e':
		a->events = arg;
		break;
	case 'p':
		a->pids = arg;
		break;
	case 'f':
		a->follow = 1;
		break;
	case 't':
		a->absolute = 1;
		break;
	case OPT_JSON:
		a->json = 1;
		break;
	case OPT_NAME:
		a->name = arg;
		break;
	case OPT_NICE:
		a->nice = (int)strtol(arg, &end, 10);
		if (*end || end == arg || a->nice < -20 || a->nice > 19)
			argp_error(state, "invalid nice value '%s' (-20 to 19)", arg);
		break;
	case OPT_BUFSIZE:
		if (parse_size(arg, &a->bufsize))
			argp_error(state, "invalid buffer size '%s'", arg);
		break;
	case OPT_POLICY:
		a->policy = policy_value(arg, stream_policies);
		if (a->policy < 0)
			argp_error(state, "invalid policy '%s' (loop, until-full or flush)", arg);
		break;
	case OPT_LOGPOLICY:
		a->log_policy = policy_value(arg, log_policies);
		if (a->log_policy < 0)
			argp_error(state, "invalid log policy '%s' (append, loop or until-full)",
				   arg);
		break;
	case OPT_LOGSIZE:
		if (parse_size(arg, &a->log_size))
			argp_error(state, "invalid log size '%s'", arg);
		break;
	case OPT_DURATION:
		a->duration = strtod(arg, &end);
		if (*end || end == arg || a->duration <= 0)
			argp_error(state, "invalid duration '%s'", arg);
		break;
	case ARGP_KEY_ARG:
		/* the command and its arguments: stop parsing options here */
		a->cmd = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!a->cmd && !a->pids)
			argp_error(state, "give a command to run (after --) or -p PID");
		if (a->cmd && a->pids)
			argp_error(state, "give either a command or -p PID, not both");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp record_argp = {
	.options = record_opts,
	.parser = record_parse,
	.args_doc = "[-p PID[,PID...]] | [--] COMMAND [ARG...]",
	.doc = "Trace a command (started held until tracing is set up, so its first syscall "
	       "is recorded) or running processes. Without -o, events are printed live, one "
	       "line each, strace-like for syscalls; with -o, a POSIX trace log is written "
	       "(read it with 'ptbpf show'). A summary goes to stderr at the end.\v"
	       "Exit status: the command's own (128+N if killed by signal N); "
	       "3 no permission, 4 kernel lacks BPF/BTF, 5 no such process, 6 command not found.",
};

/* ---------------------------------------------------------------------------
 * Signals, time
 */

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static double clock_secs(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static double now_mono(void)
{
	return clock_secs(CLOCK_MONOTONIC);
}

/* CPU time of ptbpf's own threads (the library's included, the command not). */
static double cpu_self(void)
{
	return clock_secs(CLOCK_PROCESS_CPUTIME_ID);
}

/* ---------------------------------------------------------------------------
 * The command: started held until the stream is started.
 */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

struct child {
	pid_t pid;
	int go_fd;	      /* write end: releases the child's read() */
	int err_fd;	      /* read end: errno of a failed exec */
	volatile int *shared; /* [0]: child ready, [1]: 1 go, 2 abort */
};

static void drop_privileges(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	uid_t uid = getuid();
	gid_t gid = getgid();

	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (!syscall(SYS_capget, &h, d)) {
		d[0].inheritable = d[1].inheritable = 0;
		if (uid != 0) {
			/* ptbpf got capabilities from its file: the command gets none */
			d[0].effective = d[1].effective = 0;
			d[0].permitted = d[1].permitted = 0;
		}
		syscall(SYS_capset, &h, d);
	}
	if (getegid() != gid && setresgid(gid, gid, gid))
		_exit(127);
	if (geteuid() != uid && setresuid(uid, uid, uid))
		_exit(127);
}

/* The path execve will get, searched in PATH like execvp. */
static char *resolve_cmd(const char *cmd, int *err)
{
	const char *path = getenv("PATH");
	char *buf;
	size_t n;

	*err = ENOENT;
	if (strchr(cmd, '/')) {
		if (access(cmd, F_OK)) {
			*err = errno;
			return NULL;
		}
		return strdup(cmd);
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *end = strchrnul(path, ':');

		n = end - path;
		buf = malloc(n + strlen(cmd) + 3);
		if (!buf)
			return NULL;
		if (n)
			sprintf(buf, "%.*s/%s", (int)n, path, cmd);
		else
			sprintf(buf, "./%s", cmd);
		if (!access(buf, X_OK)) {
			struct stat st;

			if (!stat(buf, &st) && S_ISREG(st.st_mode))
				return buf;
		} else if (errno == EACCES) {
			*err = EACCES;
		}
		free(buf);
		path = *end ? end + 1 : end;
	}
	return NULL;
}

/*
 * Before the stream exists: the threads the library creates for it inherit
 * this thread's nice value (a per-thread value on Linux); the command,
 * forked already, keeps the caller's. A traced program that keeps every
 * CPU busy otherwise starves the drainer and the printer of their fair
 * share, and a LOOP stream overwrites what they have not read (2 threads
 * of getppid on 2 CPUs lost 3-14% of their events live). Without the
 * privilege to lower it (CAP_SYS_NICE), it stays as it is.
 */
static void set_nice(int nice)
{
	int cur;

	if (nice == NICE_DEFAULT) {
		errno = 0;
		cur = getpriority(PRIO_PROCESS, 0);
		if (errno)
			return;
		nice = cur - DEFAULT_NICE_BOOST < -20 ? -20 : cur - DEFAULT_NICE_BOOST;
	}
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

static int start_child(struct child *c, const char *path, char **argv)
{
	int go[2], errp[2];

	c->shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->shared == MAP_FAILED)
		return -errno;
	if (pipe2(go, O_CLOEXEC) || pipe2(errp, O_CLOEXEC))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		unsigned long long spins;
		char b;
		int e;

		close(go[1]);
		close(errp[0]);
		drop_privileges();
		setenv("PTBPF_UEV_PENDING", "1", 1);
		/* held until the stream exists (read) and is started (spin) */
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		__atomic_store_n(&c->shared[0], 1, __ATOMIC_SEQ_CST);
		/* no syscalls here: they would be recorded (bounded if ptbpf dies) */
		for (spins = 0; !__atomic_load_n(&c->shared[1], __ATOMIC_SEQ_CST); spins++) {
			if (spins >> 32)
				_exit(127);
			cpu_relax();
		}
		if (c->shared[1] != 1)
			_exit(127);
		execv(path, argv);
		e = errno;
		if (write(errp[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(errp[1]);
	c->go_fd = go[1];
	c->err_fd = errp[0];
	return 0;
}

/* The stream exists: let the child leave its read(), wait until it spins. */
static void child_ready(struct child *c)
{
	int i;

	if (write(c->go_fd, "g", 1) != 1)
		return;
	for (i = 0; i < 20000 && !__atomic_load_n(&c->shared[0], __ATOMIC_SEQ_CST); i++)
		usleep(50);
}

/* Returns the exec errno (0: exec succeeded). */
static int child_go(struct child *c, int ok)
{
	int e = 0;
	ssize_t n;

	__atomic_store_n(&c->shared[1], ok ? 1 : 2, __ATOMIC_SEQ_CST);
	if (!ok)
		return 0;
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	return n == sizeof(e) ? e : 0;
}

/* ---------------------------------------------------------------------------
 * Recording
 */

struct rec {
	struct record_args *a;
	trace_id_t trid;
	int have_child;
	struct child child;
	int child_done, child_status;
	pid_t *pids;
	int *pidfds;
	int npids, nalive;
	double t0, last_status;
	double cpu0; /* cpu_self() when tracing started */
	int status_tty;
	uint64_t last_recorded;
	double last_rate_t;
	uint64_t printed; /* events printed live */
	int log_error;	  /* writing the log failed (an errno value) */
};

static void status_line(struct rec *r, int final)
{
	struct ptbpf_counters c = { .sz = sizeof(c) };
	double t = now_mono();

	if (!r->status_tty)
		return;
	if (final) {
		if (r->last_status > 0)
			fprintf(stderr, "\r\033[K");
		return;
	}
	if (t - (r->last_status > 0 ? r->last_status : r->t0) < 1.0)
		return;
	if (ptbpf_trace_get_counters(r->trid, &c))
		return;
	fprintf(stderr, "\r\033[K%s: %llu events (%.0f/s), %llu lost, log %llu bytes", cli_prog,
		(unsigned long long)c.recorded,
		(c.recorded - r->last_recorded) /
			(t - (r->last_status > 0 ? r->last_status : r->t0)),
		(unsigned long long)c.lost, (unsigned long long)c.log_bytes);
	r->last_recorded = c.recorded;
	r->last_status = t;
}

/* Nonzero once every traced process has exited. */
static int targets_done(struct rec *r)
{
	int i, st;

	if (r->have_child) {
		if (!r->child_done) {
			pid_t p = waitpid(r->child.pid, &st, WNOHANG);

			if (p == r->child.pid) {
				r->child_done = 1;
				r->child_status = st;
			}
		}
		return r->child_done;
	}
	for (i = 0; i < r->npids; i++) {
		struct pollfd p = { .fd = r->pidfds[i], .events = POLLIN };

		if (r->pidfds[i] < 0)
			continue;
		if (poll(&p, 1, 0) == 1) {
			close(r->pidfds[i]);
			r->pidfds[i] = -1;
			r->nalive--;
		}
	}
	return r->nalive == 0;
}

/*
 * The events in the log at path, once it is closed: as its trailer says,
 * or, for a log without one (its writing failed), counted.
 */
static uint64_t log_events_of(const char *path)
{
	struct ptbpf_counters c = { .sz = sizeof(c) };
	struct posix_trace_event_info ev;
	uint64_t n = 0;
	trace_id_t t;
	char data[64];
	size_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC), un = 0;

	if (fd < 0)
		return 0;
	if (posix_trace_open(fd, &t)) {
		close(fd);
		return 0;
	}
	if (!ptbpf_trace_get_counters(t, &c) && c.log_events) {
		n = c.log_events;
	} else {
		while (!posix_trace_getnext_event(t, &ev, data, sizeof(data), &len, &un) && !un)
			n++;
	}
	posix_trace_close(t);
	close(fd);
	return n;
}

/*
 * The closing line: what was printed, or written to the log, and what was
 * lost; the two add up to the events generated (see struct ptbpf_counters).
 * c: the counters read once every event was in.
 */
static void print_summary(struct rec *r, const struct ptbpf_counters *c, int logfd)
{
	struct stat st;

	status_line(r, 1);
	if (r->a->output)
		fprintf(stderr, "%s: %llu events written to %s (%lld bytes), %llu lost", cli_prog,
			(unsigned long long)log_events_of(r->a->output), r->a->output,
			fstat(logfd, &st) ? 0LL : (long long)st.st_size,
			(unsigned long long)(c->lost + c->log_dropped));
	else
		fprintf(stderr, "%s: %llu events printed, %llu lost", cli_prog,
			(unsigned long long)r->printed, (unsigned long long)c->lost);
	fprintf(stderr, ", %.3f s, CPU %.3f s\n", now_mono() - r->t0, cpu_self() - r->cpu0);
}

/*
 * What both recording loops check each round: a signal or --duration
 * (true: stop now), the status line, and the targets' exit, which sets
 * *end_at: the time by which the events still in flight must be in.
 */
static bool record_tick(struct rec *r, double *end_at)
{
	if (got_signal)
		return true;
	if (r->a->duration > 0 && now_mono() - r->t0 >= r->a->duration)
		return true;
	status_line(r, 0);
	if (!*end_at && targets_done(r))
		*end_at = now_mono() + 2.0;
	return false;
}

/* Print a batch of what the stream holds, or of what comes until *until
 * (NULL: no wait); the events printed. */
static size_t print_batch(struct rec *r, struct fmt *f, void *buf, size_t bufsz,
			  const struct timespec *until, int *err)
{
	static struct ptbpf_event batch[LIVE_BATCH];
	struct cli_ev ev;
	size_t got = 0, i;

	if (until)
		*err = ptbpf_trace_timedgetnext_events(r->trid, batch, LIVE_BATCH, buf, bufsz, &got,
						       until);
	else
		*err = ptbpf_trace_trygetnext_events(r->trid, batch, LIVE_BATCH, buf, bufsz, &got);
	for (i = 0; !*err && i < got; i++) {
		cli_ev_from(r->trid, &ev, &batch[i]);
		fmt_event(f, &ev);
	}
	return *err ? 0 : got;
}

/* Live: read and print until the targets exit or we are told to stop. */
static void record_live(struct rec *r)
{
	static char buf[LIVE_BATCH_BYTES];
	struct fmt f;
	double end_at = 0, idle_since = 0, next_tick = 0, next_out = now_mono() + LIVE_OUT_S, t;
	int err;
	size_t got;

	fmt_init(&f, stdout, r->a->json, r->a->absolute);
	if (r->a->json)
		fmt_json_attr(stdout, r->trid);
	for (;;) {
		struct timespec ab;

		/* what is there first, without a deadline to compute */
		got = print_batch(r, &f, buf, sizeof(buf), NULL, &err);
		if (!err && !got) {
			clock_gettime(CLOCK_REALTIME, &ab);
			ab.tv_nsec += 50 * 1000000L;
			if (ab.tv_nsec >= 1000000000L) {
				ab.tv_sec++;
				ab.tv_nsec -= 1000000000L;
			}
			got = print_batch(r, &f, buf, sizeof(buf), &ab, &err);
		}
		if (got) {
			idle_since = 0;
			/* the exit and status checks (a wait4 each) every 10 ms
			 * while events flow, not every 1024 events */
			t = now_mono();
			if (t < next_tick)
				continue;
			next_tick = t + 0.01;
			/* a pipe or a file gets its lines within LIVE_OUT_S
			 * while events keep coming (only a pause of 50 ms
			 * flushed them, and a steady trickle never paused) */
			if (!f.tty && t >= next_out) {
				fmt_out(&f);
				fflush(stdout);
				next_out = t + LIVE_OUT_S;
			}
		} else if (err && err != ETIMEDOUT && err != EINTR) {
			cli_err("reading events: %s", strerror(err));
			break;
		} else {
			/*
			 * Nothing for 50 ms: on a terminal, show a blocked call
			 * now (<unfinished ...>); in a pipe or file keep the
			 * lines as 'ptbpf show' prints them, just flush.
			 */
			if (f.tty) {
				fmt_flush(&f);
			} else {
				fmt_out(&f);
				fflush(stdout);
			}
			if (!idle_since)
				idle_since = now_mono();
		}
		if (record_tick(r, &end_at))
			break;
		/* after the exit: read what is still in flight, until idle */
		if (end_at &&
		    ((idle_since && now_mono() - idle_since >= 0.15) || now_mono() >= end_at))
			break;
	}
	posix_trace_stop(r->trid);
	while (print_batch(r, &f, buf, sizeof(buf), NULL, &err))
		;
	fmt_flush(&f);
	if (r->a->json)
		fmt_json_status(stdout, r->trid, f.nevents, f.noverflow);
	r->printed = f.nevents;
	fmt_fini(&f);
	fflush(stdout);
}

/* With a log: the library flushes the stream to the log; just wait. */
static void record_log(struct rec *r)
{
	double stable_since = 0, end_at = 0;
	uint64_t last = ~0ULL;

	for (;;) {
		struct ptbpf_counters c = { .sz = sizeof(c) };

		usleep(50000);
		if (record_tick(r, &end_at))
			break;
		/* the log cannot be written (a full disk...): stop now, the
		 * events so far stay readable */
		if (!ptbpf_trace_get_counters(r->trid, &c) && c.log_error) {
			r->log_error = c.log_error;
			break;
		}
		if (end_at) {
			/* wait until the last events came in */
			if (c.recorded != last) {
				last = c.recorded;
				stable_since = now_mono();
			} else if (now_mono() - stable_since >= 0.15) {
				break;
			}
			if (now_mono() >= end_at)
				break;
		}
	}
	posix_trace_stop(r->trid);
}

static int exit_code_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return CLI_EXIT_FAIL;
}

static int parse_pids(struct rec *r, const char *spec)
{
	char *copy = strdup(spec), *tok, *save = NULL;
	int ret = 0;

	r->pids = calloc(strlen(spec) + 1, sizeof(*r->pids));
	r->pidfds = calloc(strlen(spec) + 1, sizeof(*r->pidfds));
	if (!copy || !r->pids || !r->pidfds) {
		free(copy);
		cli_err("out of memory");
		return CLI_EXIT_FAIL;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long p = strtol(tok, &end, 10);
		int fd;

		if (*end || p <= 0 || p > 0x3fffffff) {
			cli_err("invalid pid '%s'", tok);
			ret = CLI_EXIT_USAGE;
			break;
		}
		fd = syscall(SYS_pidfd_open, (pid_t)p, 0);
		if (fd < 0) {
			if (errno == ESRCH) {
				cli_err("no such process: %ld", p);
				ret = CLI_EXIT_NOPID;
			} else {
				cli_err("pidfd_open(%ld): %s", p, strerror(errno));
				ret = CLI_EXIT_FAIL;
			}
			break;
		}
		r->pidfds[r->npids] = fd;
		r->pids[r->npids++] = p;
	}
	free(copy);
	if (!ret && !r->npids) {
		cli_err("-p: no pid given");
		ret = CLI_EXIT_USAGE;
	}
	r->nalive = r->npids;
	return ret;
}

int cmd_record(int argc, char **argv)
{
	struct record_args a = { .policy = -1,
				 .log_policy = POSIX_TRACE_APPEND,
				 .nice = NICE_DEFAULT };
	struct rec r;
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	struct evsel sel = { 0 };
	trace_attr_t attr;
	struct sigaction sa;
	int logfd = -1, err, ret = CLI_EXIT_OK, i, created = 0;
	char *path = NULL;
	pid_t first_pid;

	if (argp_parse(&record_argp, argc, argv, ARGP_IN_ORDER, NULL, &a))
		return CLI_EXIT_USAGE;
	/* before anything is started or written: a bad -e changes nothing */
	if (a.events && evsel_parse(&sel, a.events))
		return CLI_EXIT_USAGE;
	memset(&r, 0, sizeof(r));
	r.a = &a;
	r.status_tty = isatty(STDERR_FILENO);

	if (a.pids) {
		ret = parse_pids(&r, a.pids);
		if (ret)
			goto out_free;
		first_pid = r.pids[0];
	} else {
		path = resolve_cmd(a.cmd[0], &err);
		if (!path) {
			cli_err("%s: %s", a.cmd[0],
				err == ENOENT ? "command not found" : strerror(err));
			ret = CLI_EXIT_NOCMD;
			goto out_free;
		}
		err = start_child(&r.child, path, a.cmd);
		if (err) {
			cli_err("cannot start %s: %s", a.cmd[0], strerror(-err));
			ret = CLI_EXIT_FAIL;
			goto out_free;
		}
		r.have_child = 1;
		first_pid = r.child.pid;
	}

	if (a.output) {
		/* not truncated here: the library does it once it can trace, and
		 * a failed start leaves the file as it was (or gone, if new) */
		logfd = open(a.output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		created = logfd >= 0;
		if (logfd < 0 && errno == EEXIST)
			logfd = open(a.output, O_WRONLY | O_CLOEXEC);
		if (logfd < 0) {
			cli_err("cannot create %s: %s", a.output, strerror(errno));
			ret = CLI_EXIT_FAIL;
			goto abort_child;
		}
	}

	posix_trace_attr_init(&attr);
	if (a.name && (err = posix_trace_attr_setname(&attr, a.name))) {
		cli_err("--name: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	if (a.bufsize && (err = posix_trace_attr_setstreamsize(&attr, a.bufsize))) {
		cli_err("--buffer-size: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	if (a.policy >= 0 && (err = posix_trace_attr_setstreamfullpolicy(&attr, a.policy))) {
		cli_err("--policy: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	if (a.follow)
		posix_trace_attr_setinherited(&attr, POSIX_TRACE_INHERITED);
	if (a.output && (err = posix_trace_attr_setlogfullpolicy(&attr, a.log_policy))) {
		cli_err("--log-policy: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}
	if (a.output && a.log_size && (err = posix_trace_attr_setlogsize(&attr, a.log_size))) {
		cli_err("--log-size: %s", strerror(err));
		ret = CLI_EXIT_USAGE;
		goto abort_child;
	}

	set_nice(a.nice);
	if (a.output)
		err = posix_trace_create_withlog(first_pid, &attr, logfd, &r.trid);
	else
		err = posix_trace_create(first_pid, &attr, &r.trid);
	posix_trace_attr_destroy(&attr);
	if (err) {
		ret = cli_trace_error(err, "cannot trace", (long)first_pid);
		goto abort_child;
	}
	for (i = 1; i < r.npids; i++) {
		err = ptbpf_trace_add_pid(r.trid, r.pids[i]);
		if (err) {
			ret = cli_trace_error(err, "cannot trace", (long)r.pids[i]);
			goto shutdown;
		}
	}
	if (a.events) {
		trace_event_set_t filter;

		if (evsel_filter(&sel, r.trid, &filter)) {
			ret = CLI_EXIT_USAGE;
			goto shutdown;
		}
		err = posix_trace_set_filter(r.trid, &filter, POSIX_TRACE_SET_EVENTSET);
		if (err) {
			cli_err("cannot set the event filter: %s", strerror(err));
			ret = CLI_EXIT_FAIL;
			goto shutdown;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (!a.output && !isatty(STDOUT_FILENO))
		cli_big_buffer(stdout);

	if (r.have_child)
		child_ready(&r.child);
	err = posix_trace_start(r.trid);
	if (err) {
		ret = cli_trace_error(err, "cannot start tracing", (long)first_pid);
		goto shutdown;
	}
	r.t0 = now_mono();
	r.cpu0 = cpu_self();
	if (r.have_child) {
		err = child_go(&r.child, 1);
		if (err) {
			cli_err("%s: cannot execute: %s", a.cmd[0], strerror(err));
			ret = CLI_EXIT_NOCMD;
			waitpid(r.child.pid, NULL, 0);
			r.have_child = 0;
			posix_trace_stop(r.trid);
			goto shutdown;
		}
	}

	if (a.output)
		record_log(&r);
	else
		record_live(&r);

	if (got_signal && r.have_child && !r.child_done)
		kill(r.child.pid, got_signal);
	/* --duration ran out, or the log cannot be written: the command goes
	 * on untraced; do not wait for it */
	if ((!got_signal || r.log_error) && r.have_child && !r.child_done && !targets_done(&r))
		r.have_child = 0;
	memset(&cnt, 0, sizeof(cnt));
	cnt.sz = sizeof(cnt);
	ptbpf_trace_get_counters(r.trid, &cnt);
	err = posix_trace_shutdown(r.trid);
	if (!r.log_error && a.output)
		r.log_error = err ? err : cnt.log_error;
	if (r.log_error)
		cli_err("writing %s: %s: the events before the error are in it", a.output,
			strerror(r.log_error));
	else if (err)
		cli_err("closing the trace: %s", strerror(err));
	print_summary(&r, &cnt, logfd);
	if (a.output && close(logfd) && !r.log_error) {
		cli_err("writing %s: %s", a.output, strerror(errno));
		ret = CLI_EXIT_FAIL;
	}
	if (r.log_error)
		ret = CLI_EXIT_FAIL;
	if (r.have_child) {
		if (!r.child_done && waitpid(r.child.pid, &r.child_status, 0) == r.child.pid)
			r.child_done = 1;
		if (r.child_done && ret == CLI_EXIT_OK)
			ret = exit_code_of(r.child_status);
	}
	if (fflush(stdout) && ret == CLI_EXIT_OK)
		ret = CLI_EXIT_FAIL;
	goto out_free;

shutdown:
	posix_trace_shutdown(r.trid);
abort_child:
	if (r.have_child) {
		child_go(&r.child, 0);
		close(r.child.go_fd);
		waitpid(r.child.pid, NULL, 0);
	}
	if (logfd >= 0)
		close(logfd);
	if (created)
		unlink(a.output);
out_free:
	for (i = 0; i < r.npids; i++)
		if (r.pidfds[i] >= 0)
			close(r.pidfds[i]);
	free(r.pids);
	free(r.pidfds);
	free(path);
	evsel_free(&sel);
	return ret;
}
