/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf record: what its files share (options, the held command, the loops). */
#ifndef PTBPF_CLI_RECORD_H
#define PTBPF_CLI_RECORD_H

#include <argp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "view/view.h"

/*
 * --buffer-size not given: the stream's size, the library's default. The
 * kernel rings are twice it, the log's spare stream as much again: a
 * record then fits a container of 128 MiB, and a tree walk or a build
 * loses nothing; a 2-thread syscall flood on 2 CPUs outruns the live
 * printer and loses some (docs/benchmarks.md).
 */
#define RECORD_DEFAULT_BUFSIZE ((size_t)4 << 20)
/* What the loss line proposes at least: the flood loses nothing with it. */
#define RECORD_LOSS_BUFSIZE ((size_t)32 << 20)
/* The largest stream (the library's bound). */
#define RECORD_MAX_BUFSIZE ((size_t)1 << 30)
/*
 * With -k's copied stacks (8 KiB a syscall): the tree walk of bench/run
 * makes about 1 GB/s of them, more than the drainer takes on 2 CPUs, and
 * with this much it loses nothing (docs/benchmarks.md).
 */
#define RECORD_STACKS_BUFSIZE ((size_t)128 << 20)
/* --nice not given: ptbpf's threads run at the caller's nice value */
#define NICE_DEFAULT 100
/* --cgroup given at most this often */
#define RECORD_MAX_CGROUPS 16
/* -E given at most this often */
#define RECORD_MAX_ENV 64

/* --metrics-*: what the metrics room (cli/metrics) is given */
#define RECORD_MAX_LABELS 16
struct record_metrics {
	const char *listen;		       /* --metrics-listen ADDR:PORT */
	const char *push;		       /* --metrics-push URL */
	double interval;		       /* --metrics-interval seconds, 0: the default */
	const char *labels[RECORD_MAX_LABELS]; /* --metrics-label K=V */
	int nlabels;
};

struct record_args {
	const char *output;
	const char *clickhouse; /* --clickhouse: the server the log's events go to */
	const char *ch_table;	/* --clickhouse-table, NULL: the default */
	const char *ch_host;	/* --clickhouse-host, NULL: this machine's name */
	const char *ch_retry;	/* --clickhouse-retry-for, NULL: export's default */
	const char *text_out;	/* --output-text: NULL stderr, - stdout, or a file */
	const char *events;
	const char *stack_events; /* --stack: which syscalls; NULL: all (-k) */
	unsigned int stack_depth; /* --stack-depth, 0: the default */
	unsigned int stack_flags; /* --kernel-stack, --call-graph=fp: PTBPF_STACK_* */
	int stack_mode_set;	  /* --call-graph given */
	size_t stack_bytes;	  /* --call-graph=dwarf,SIZE; 0: the default */
	const char *pids;
	const char *cgroups[RECORD_MAX_CGROUPS]; /* --cgroup */
	int ncgroups;
	int follow;
	int separately;	  /* -ff, --output-separately: with --output-text, FILE.PID */
	int append;	  /* -A: --output-text appended to */
	int daemonize;	  /* -D: the command is not ptbpf's child */
	const char *user; /* -u */
	const char *env[RECORD_MAX_ENV]; /* -E VAR=VAL, -E VAR: in that order */
	int nenv;
	size_t bufsize;
	int bufsize_set; /* --buffer-size given */
	int policy;	 /* -1: default */
	int log_policy;
	size_t log_size;
	double duration;
	const char *name;
	int json;
	int stats;     /* --stats: the summary line in any case */
	int nice;      /* NICE_DEFAULT: the caller's */
	int early_uev; /* --early-user-events */
	char **cmd;
	struct view_opts view; /* strace's -c, -T, -z, -P... */
	struct record_metrics metrics;
};

/* count.c: syscalls counted in the kernel */
/* Only aggregates asked for, nothing the events would be needed for? */
int record_counts_only(const struct record_args *a);
/* The PTBPF_AGG_* the record asks the stream for, 0: none. */
unsigned int record_aggregate(const struct record_args *a);
/* The syscalls' events out of set: the kernel counts them. */
void record_no_syscalls(trace_event_set_t *set);
/* The counts so far, in a new array of *n (NULL: none); 0 or an errno. */
int record_stats(trace_id_t trid, struct ptbpf_syscall_stats **st, size_t *n);

/* record_opts.c: the options and their parser (fills a struct record_args) */
extern const struct argp record_argp;

/* record_stacks.c: -k, a user stack with every syscall entry, or with
 * those of --stack's spec (-e's language), taken as --stack-depth,
 * --kernel-stack and --call-graph say; 0, or -1 (said) */
int record_set_stacks(trace_attr_t *attr, const struct record_args *a);

/* record_child.c: the command, started held until the stream is started */
struct child {
	pid_t pid;
	int go_fd;		/* write end: releases the child's read() */
	int err_fd;		/* read end: errno of a failed exec */
	volatile int *shared;	/* [0]: child ready, [1]: 1 go, 2 abort, [2]: ids set */
	int early_uev;		/* give it PTBPF_UEV_PENDING=1 */
	const char *const *env; /* -E: VAR=VAL set, VAR removed */
	int nenv;
	/* -u: the ids it runs with (set_user 0: ptbpf's caller's) */
	int set_user;
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	int ngroups;
	/* -D: waiter, the process that forked it and waits for it, status_fd
	 * where the waiter writes its pid, then its wait status (0: no -D) */
	int daemonize;
	pid_t waiter;
	int status_fd;
};
/* The path execve will get, searched in PATH like execvp (NULL: *err). */
char *resolve_cmd(const char *cmd, int *err);
/* Forks the command, held before its execve; 0 or a negative errno. */
int start_child(struct child *c, const char *path, char **argv);
/* The stream exists: let the child leave its read(), wait until it spins. */
void child_ready(struct child *c);
/* Releases the child to exec (ok) or to exit; the exec errno (0: exec succeeded). */
int child_go(struct child *c, int ok);
/* Its end: 1 and its wait status in *status, 0 not yet (nohang), -1 an error. */
int child_wait(struct child *c, int *status, int nohang);
void child_free(struct child *c);

/* user.c: -u, the ids of USER (a name, or UID:GID) in c; 0 or an exit code (said) */
int child_user(struct child *c, const char *user);
/* In the forked command: its ids set as -u says and its environment as -E
 * says; 0, or -1 (errno) */
int child_user_env(const struct child *c);

/* record_early.c: the user events of the command's first milliseconds */
#define EARLY_MAX_FILES 16
struct early {
	pid_t pid;
	const char *cmd; /* kept until early_uev_wait() */
	int type;	 /* the uprobe PMU's, -1: none */
	int n;
	int fds[EARLY_MAX_FILES]; /* a uprobe per libposixtrace file the command may load */
	pthread_t thread;	  /* opening them, then closing them */
	int running, released;
};
/*
 * Before the held command (pid, executable cmd) execs: raise the semaphore
 * that asks its libposixtrace for a provisional slot, in the command alone
 * (started, early_uev_wait() waits for it); a file it cannot be raised in
 * is passed over.
 */
void early_uev_attach(struct early *e, pid_t pid, const char *cmd);
void early_uev_wait(struct early *e);
/* The command has exited: the uprobes are closed, on a thread. */
void early_uev_release(struct early *e);
/* Closed, the thread joined. */
void early_uev_detach(struct early *e);

/* record_out.c: the live output, from --output-text (NULL: standard error) */
struct live_out {
	FILE *f;	  /* NULL: not open */
	const char *name; /* the file, "standard output" or "standard error" */
	int fd, tty;
	int err;	       /* the first write error (an errno value), 0: none */
	uint64_t lines, bytes; /* what reached the file */
};
/* 0, or -1 when it cannot be opened (said); append: -A, else truncated. */
int live_out_open(struct live_out *o, const char *path, int append);
/* Writes out what stdio holds; the first write error (0: none). */
int live_out_flush(struct live_out *o);
/* Writes out and closes it (if open); the first write error (0: none). */
int live_out_close(struct live_out *o);

/* separate.c: -ff, each thread's lines in --output-text's FILE.TID */
struct separate {
	const char *prefix;
	int append;
	struct fmt_look look;
	int failed, open_failed; /* a file not made: out of memory, or said */
	struct pidmap files;	 /* tid -> its file and formatter */
};
/* v's lines go to the files from now on, first's file made (when > 0);
 * 0, or -1 if it cannot be (said). */
int separate_init(struct separate *s, struct view *v, const char *prefix, int append,
		  const struct fmt_look *look, pid_t first);
/* Every file written out and closed, their events added to *nevents; 0,
 * or -1 when a file could not be made or written (said). */
int separate_close(struct separate *s, uint64_t *nevents);

/* One recording: its options, stream and targets. */
struct rec {
	struct record_args *a;
	trace_id_t trid;
	int have_child;
	struct child child;
	struct early early;
	int child_done, child_status;
	pid_t *pids;
	int *pidfds;
	int npids, nalive;
	double t0, last_status;
	double cpu0; /* cpu_self() when tracing started */
	int status_tty;
	uint64_t last_recorded;
	double last_rate_t;
	uint64_t printed;     /* events printed live */
	int log_error;	      /* writing the log failed (an errno value) */
	double sig_passed_at; /* got_signal was passed on to the command then (0: not) */
	struct view *view;
	struct live_out out;	     /* without -o: where the events are printed */
	struct rec_metrics *metrics; /* --metrics-*, NULL: none */
	uint64_t kcounted;	     /* -c alone: the syscalls the kernel counted */
};

/* metrics.c: --metrics-listen, --metrics-push */
/* The options checked before anything starts: 0 or an exit code (said). */
int record_metrics_check(const struct record_args *a);
/* The server listening (before the command runs): 0 or an exit code. */
int record_metrics_start(struct rec *r);
/* An event read (counted by type). */
void record_metrics_event(struct rec *r, trace_event_id_t id);
/* While recording: the pushes every interval. */
void record_metrics_tick(struct rec *r);
/* Before the stream is shut down: the last push (last_push), the server
 * stopped. */
void record_metrics_end(struct rec *r, int last_push);

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
 * What both recording loops check each round: a signal, --duration or the
 * targets' exit (true: stop now), and the status line.
 */
bool record_tick(struct rec *r);
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
/*
 * inflight.c, -p: the calls the processes are blocked in as tracing
 * begins (/proc/PID/task/TID/syscall), to the view as entries made at
 * now (the stream's clock), as strace -p shows them when it attaches.
 */
void record_inflight(struct rec *r, int64_t now);
/* record_log.c: with a log the library flushes the stream to it; just wait */
void record_log(struct rec *r);
/* The log written, read back into the view (-c with -o); 0 or an exit code. */
int record_log_view(struct rec *r);

#endif
