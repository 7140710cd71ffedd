/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf record: what its files share (options, the held command, the loops). */
#ifndef PTBPF_CLI_RECORD_H
#define PTBPF_CLI_RECORD_H

#include <argp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "cli.h"
#include "view.h"

/* ptbpf's own threads run this much below the caller's nice value. */
#define DEFAULT_NICE_BOOST 5
/* --nice not given: the caller's nice value less DEFAULT_NICE_BOOST */
#define NICE_DEFAULT 100

struct record_args {
	const char *output;
	const char *events;
	const char *stack_events; /* --stack: which syscalls; NULL: all (-k) */
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
	struct view_opts view; /* strace's -c, -T, -z, -P... */
};

/* record_opts.c: the options and their parser (fills a struct record_args) */
extern const struct argp record_argp;

/* record_stacks.c: -k, a user stack with every syscall entry, or with
 * those of --stack's spec (-e's language); 0, or -1 (said) */
int record_set_stacks(trace_attr_t *attr, const char *spec);

/* record_child.c: the command, started held until the stream is started */
struct child {
	pid_t pid;
	int go_fd;	      /* write end: releases the child's read() */
	int err_fd;	      /* read end: errno of a failed exec */
	volatile int *shared; /* [0]: child ready, [1]: 1 go, 2 abort */
};
/* The path execve will get, searched in PATH like execvp (NULL: *err). */
char *resolve_cmd(const char *cmd, int *err);
/* Forks the command, held before its execve; 0 or a negative errno. */
int start_child(struct child *c, const char *path, char **argv);
/* The stream exists: let the child leave its read(), wait until it spins. */
void child_ready(struct child *c);
/* Releases the child to exec (ok) or to exit; the exec errno (0: exec succeeded). */
int child_go(struct child *c, int ok);

/* One recording: its options, stream and targets. */
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
	struct view *view;
};

/* cmd_record.c: the signal that asks the recording to stop, 0: none */
extern volatile sig_atomic_t got_signal;

static inline double clock_secs(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static inline double now_mono(void)
{
	return clock_secs(CLOCK_MONOTONIC);
}

/* CPU time of ptbpf's own threads (the library's included, the command not). */
static inline double cpu_self(void)
{
	return clock_secs(CLOCK_PROCESS_CPUTIME_ID);
}

/* record_status.c: the status line, the loops' checks and the summary */
/* The status line on a terminal once a second; final: erase it. */
void status_line(struct rec *r, int final);
/* Nonzero once every traced process has exited. */
int targets_done(struct rec *r);
/*
 * What both recording loops check each round: a signal or --duration
 * (true: stop now), the status line, and the targets' exit, which sets
 * *end_at: the time by which the events still in flight must be in.
 */
bool record_tick(struct rec *r, double *end_at);
/*
 * The closing line: what was printed, or written to the log, and what was
 * lost; the two add up to the events generated (see struct ptbpf_counters).
 * c: the counters read once every event was in.
 */
void print_summary(struct rec *r, const struct ptbpf_counters *c, int logfd);

/*
 * record_live.c: read and print until the targets exit or we are told to
 * stop; 0, or -1 when out of memory (said)
 */
int record_live(struct rec *r);
/* record_log.c: with a log the library flushes the stream to it; just wait */
void record_log(struct rec *r);
/* The log written, read back into the view (-c with -o); 0 or an exit code. */
int record_log_view(struct rec *r);

#endif
