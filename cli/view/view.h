/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What shapes the events ptbpf record and ptbpf show print, with strace's
 * and perf trace's options: the strace -c table (-c, -C, -S, -U, -w), the
 * time of each call (-T), the status filter (-z, -Z, -e status=), the path
 * filter (-P), the syscall classes of -e (%file...), and perf trace's
 * per-thread summary (--summary=thread|process).
 */
#ifndef PTBPF_CLI_VIEW_H
#define PTBPF_CLI_VIEW_H

#include <argp.h>
#include <stdint.h>
#include <sys/types.h>

#include "fmt/fmt.h"
#include "syscall_types.h"

/* evsel.c: the -e language (see there) */
struct evsel_op {
	enum { EVSEL_RANGE, EVSEL_USER, EVSEL_PROBE } kind;
	int add;			 /* 0: excluded */
	trace_event_id_t lo, hi;	 /* EVSEL_RANGE */
	char user[TRACE_EVENT_NAME_MAX]; /* EVSEL_USER: a user event's name */
	char *probe;			 /* EVSEL_PROBE: its spec (cli/probes.c) */
};
struct evsel {
	struct evsel_op *ops;
	size_t n, cap;
	int from_all; /* starts with an exclusion: from the default selection */
	int other;    /* selects events other than syscalls by name */
	int syscalls; /* selects syscalls */
	/* set by the caller: a selection of syscalls only keeps the signal
	 * and exit lines, as strace's -e trace= does (evsel_select) */
	int strace_lines;
};
/* What record selects without -e: what strace shows (no sched events). */
#define EVSEL_DEFAULT "!sched"

/* Parse a -e spec (errors printed); 0 or -1. */
int evsel_parse(struct evsel *s, const char *spec);
/* Before tracing: do s's probes name files and symbols that exist? 0 or -1. */
int evsel_check_probes(const struct evsel *s, pid_t pid);
/* The events s selects in trid (its user names registered there, its
 * probes added); 0 or -1. */
int evsel_select(const struct evsel *s, trace_id_t trid, trace_event_set_t *sel);
/* Before a stream exists: the system events s selects, and all user event
 * ids if it selects a probe (ptbpf_trace_attr_setevents). */
void evsel_kernel(const struct evsel *s, trace_event_set_t *sel);
/* The POSIX filter of trid that records what s selects; 0 or -1. */
int evsel_filter(const struct evsel *s, trace_id_t trid, trace_event_set_t *filter);
/* The filter that records the events of sel. */
void evsel_complement(const trace_event_set_t *sel, trace_event_set_t *filter);
void evsel_free(struct evsel *s);

/* The SC_* of syscall number nr of the build's architecture, 0: none. */
uint32_t sysclass_of(int nr);
/* The same of architecture arch's nr (SC_ARCH_*: a log's, ev->arch). */
uint32_t sysclass_of_arch(int arch, int nr);
/* The name of arch's syscall nr ("openat"), NULL: none in the schema. */
const char *sysname_of(int arch, int nr);
/* The class of a name of strace's ("%file", "%net"...); 0, or -1: none. */
int sysclass_lookup(const char *name, uint32_t *cls);

/* summary.c: the strace -c table */
enum {
	SUM_COL_NONE,
	SUM_COL_TIME_100S,
	SUM_COL_TIME_TOTAL,
	SUM_COL_TIME_MIN,
	SUM_COL_TIME_MAX,
	SUM_COL_TIME_AVG,
	SUM_COL_CALLS,
	SUM_COL_ERRORS,
	SUM_COL_NAME,
	SUM_COL_MAX,
};
#define SUM_NAME_MAX 32
struct sum_count {
	uint64_t calls, errors, time_ns, min_ns, max_ns;
};
struct summary {
	struct sum_count c[PTBPF_SYSCALL_NR_MAX];
	char name[PTBPF_SYSCALL_NR_MAX][SUM_NAME_MAX];
};
/* strace's columns: % time, seconds, usecs/call, calls, errors, syscall */
extern const uint8_t summary_default_columns[SUM_COL_MAX];
void summary_init(struct summary *s);
/* One call of syscall nr that took ns (< 0: not known) and failed or not. */
void summary_add(struct summary *s, int nr, const char *name, int64_t ns, int error);
int summary_empty(const struct summary *s);
/* The SUM_COL_* of one of strace's column names (-S), -1 if none. */
int summary_sortby(const char *name);
/* -U: the columns (SUM_COL_MAX bytes, 0-ended); 0, or -1 with why in msg. */
int summary_columns(uint8_t *cols, const char *spec, char *msg, size_t msgsz);
/* The table, sorted by column sortby (SUM_COL_NONE: syscall numbers);
 * nothing when no call was counted, as strace. */
void summary_print(const struct summary *s, const uint8_t *cols, int sortby, FILE *out);

/* Calls of syscall nr counted elsewhere (the kernel): calls, of which
 * errors failed, total_ns in all, min_ns and max_ns the extremes. */
void summary_add_counts(struct summary *s, int nr, const char *name, uint64_t calls,
			uint64_t errors, uint64_t total_ns, uint64_t min_ns, uint64_t max_ns);

/* hist.c: --histogram, bpftrace's hist() of each syscall's times */
struct hist;
/* The bucket of a call of ns (< 0: no time known, as 0). */
int hist_bucket(int64_t ns);
/* --histogram=SPEC (NULL: all) into sel (PTBPF_SYSCALL_NR_MAX bits); 0, or
 * -1 with why in msg. */
int hist_select(uint64_t *sel, const char *spec, char *msg, size_t msgsz);
struct hist *hist_new(const uint64_t *sel);
/* The syscalls selected by name on architecture from, by their numbers on
 * to (SC_ARCH_*: a log's); a call to lacks is no longer selected. */
void hist_set_arch(struct hist *h, int from, int to);
void hist_add(struct hist *h, int nr, const char *name, int64_t ns);
void hist_add_buckets(struct hist *h, int nr, const char *name, const uint64_t *b);
/* One histogram (PTBPF_HIST_BUCKETS counts), as bpftrace's @ns[name]. */
void hist_print_one(const char *name, const uint64_t *b, FILE *out);
void hist_print(const struct hist *h, FILE *out);
void hist_free(struct hist *h);

/* thsummary.c: perf trace --summary, per thread or per process */
struct thsum;
/* live: the threads run now (their names are read from /proc) */
struct thsum *thsum_new(int by_process, int live);
void thsum_event(struct thsum *t, const struct cli_ev *ev);
void thsum_syscall(struct thsum *t, pid_t pid, pid_t tid, int nr, const char *name, int64_t ns,
		   int error);
int thsum_print(struct thsum *t, FILE *out); /* -1: out of memory */
void thsum_free(struct thsum *t);

/* pathtrace.c: -P */
struct pathtrace;
struct pathtrace *pathtrace_new(void);
/* path, and what realpath makes of it (said, as strace says it, unless
 * quiet: -e quiet=path-resolution); 0 or -1 */
int pathtrace_add(struct pathtrace *p, const char *path, int quiet);
/* Does the syscall entry ev touch a path of the set? *by_path: through a
 * path argument (not only an fd). */
int pathtrace_entry(const struct pathtrace *p, const struct cli_ev *ev, int *by_path);
/* Its exit (ret; args: the entry's): the fds that now refer to the set. */
void pathtrace_exit(struct pathtrace *p, int arch, pid_t pid, int nr, const uint64_t *args,
		    int by_path, int64_t ret);
void pathtrace_fork(struct pathtrace *p, pid_t parent, pid_t child);
void pathtrace_exec(struct pathtrace *p, pid_t pid);
void pathtrace_gone(struct pathtrace *p, pid_t pid);
/* The fds of running process pid that refer to the set now (/proc). */
void pathtrace_scan(struct pathtrace *p, pid_t pid);
/* Adds to set the events following fds needs. */
void pathtrace_need(const struct pathtrace *p, trace_event_set_t *set);
int pathtrace_failed(const struct pathtrace *p);
void pathtrace_free(struct pathtrace *p);

/* view_opts.c: the options (an argp child of record's and show's) */
enum { VIEW_C_NONE, VIEW_C_ONLY /* -c */, VIEW_C_BOTH /* -C */ };
enum { VIEW_TH_NONE, VIEW_TH_THREAD, VIEW_TH_PROCESS };
/* strace's statuses of a syscall (-e status=) */
enum {
	VIEW_ST_SUCCESSFUL = 1u << 0,
	VIEW_ST_FAILED = 1u << 1,
	VIEW_ST_UNFINISHED = 1u << 2,
	VIEW_ST_UNAVAILABLE = 1u << 3,
	VIEW_ST_DETACHED = 1u << 4,
	VIEW_ST_ALL = (1u << 5) - 1,
};
#define VIEW_MAX_PATHS 256
struct view_opts {
	int cflag;   /* VIEW_C_* */
	int threads; /* VIEW_TH_* */
	int sortby;  /* SUM_COL_*: strace's default, time */
	int sortby_set, columns_set, wall;
	uint8_t columns[SUM_COL_MAX];
	int times;	     /* -T: digits of the fraction of a second, -1: off */
	unsigned int status; /* VIEW_ST_* printed */
	const char *paths[VIEW_MAX_PATHS];
	size_t npaths;
	int stacks;	      /* -k */
	int fds;	      /* -y: 1, -yy: 2 */
	unsigned int strsize; /* -s: bytes of a string printed (and captured) */
	int verbose;	      /* -v */
	int xflag;	      /* -x: 1, -xx: 2 */
	/* look.c: strace's look of the lines (struct fmt_look) */
	int look;		/* FMT_LOOK_*: --format */
	int tflag, rflag, comm; /* -t (counted), -r, -Y */
	int acolumn;		/* -a */
	unsigned int quiet;	/* FMT_Q_*: -q, -e quiet= */
	int nq;			/* -q given so many times */
	uint64_t sigs_hidden;	/* -e signal=: bit N-1, signal N not printed */
	int named_events;	/* -e named events other than syscalls: printed */
	int detach_exec;	/* record -b execve */
	int xstyle;		/* -X: XLAT_ABBREV (0), XLAT_RAW, XLAT_VERBOSE */
	int histogram;		/* --histogram */
	uint64_t hist_sel[PTBPF_SYSCALL_NR_MAX / 64]; /* its syscalls */
};
void view_opts_init(struct view_opts *o);
/* look.c: the options of the look (a child of view_argp) */
extern const struct argp view_look_argp;
/* -e quiet=, -e signal= (name: len bytes): 0, -1 with why in msg, 1: neither */
int view_look_qualifier(struct view_opts *o, const char *name, size_t len, const char *value,
			char *msg, size_t msgsz);
/* The look of lines written to a file (to_file: --output-text FILE, show)
 * or stderr, of processes followed (-f) or not; live: they run now. */
void view_look(const struct view_opts *o, struct fmt_look *l, int to_file, int follow, int live);
/* The options: its input a struct view_opts (view_opts_init'ed). */
extern const struct argp view_argp;
/*
 * An -e of strace's, QUALIFIER=VALUE or a list of events: *events for
 * trace= (or no qualifier), status= into o. 0, or -1 with why in msg (an
 * invalid status, a qualifier ptbpf does not take).
 */
int view_qualifier(const char *arg, const char **events, struct view_opts *o, char *msg,
		   size_t msgsz);
/* Are events printed (not only a summary)? */
int view_opts_prints(const struct view_opts *o);
/*
 * The PTBPF_SYSCALL_* statuses the kernel may select the syscalls by (0:
 * all): not for a summary, which counts every call, nor for -P, which
 * follows the fds of every open, nor for statuses only user space sees
 * (unfinished, unavailable, detached).
 */
unsigned int view_opts_kernel_status(const struct view_opts *o);
/* Does anything of the view act on the events? */
int view_opts_active(const struct view_opts *o);
/* Are only aggregates asked for, which the kernel may count (-c, and
 * --histogram), nothing that needs the events? */
int view_opts_aggregate_only(const struct view_opts *o);

/* view.c: the events between their reader and the printer */
struct view;
/*
 * f: where the events shown are printed (NULL: nowhere); live: the traced
 * processes run now. 0, or -1 (said).
 */
int view_new(struct view **v, const struct view_opts *o, struct fmt *f, int live);
/* The events shown go to f from now on (NULL: nowhere). */
void view_attach(struct view *v, struct fmt *f);
/* -ff: the fmt of thread tid's lines (NULL: the attached one's), from
 * then on; fn NULL: all go to the attached fmt. */
typedef struct fmt *(*view_route_fn)(void *ctx, pid_t tid);
void view_route(struct view *v, view_route_fn fn, void *ctx);
/* -b execve: pid's first exec (the command's) does not detach it. */
void view_keep_exec(struct view *v, pid_t pid);
/* Adds to set the events the view needs recorded besides those shown. */
void view_need(const struct view *v, trace_event_set_t *set);
/* Only these events are shown (the -e selection): the others only serve
 * the view (-P's fds). All are, until this is called. */
void view_set_shown(struct view *v, const trace_event_set_t *shown);
/* pid runs now: what it has open already (-P). */
void view_scan_pid(struct view *v, pid_t pid);
void view_event(struct view *v, const struct cli_ev *ev);
/* No more events: the syscalls still in progress end (detached: the trace
 * stopped; else it was read to its end). */
void view_end(struct view *v, int detached);
/* The summaries asked for; 0, or -1: out of memory. */
int view_report(struct view *v, FILE *out);
/* The syscalls counted in the kernel, into the summaries (-c, --histogram) */
void view_add_stats(struct view *v, const struct ptbpf_syscall_stats *st, size_t n);
int view_failed(const struct view *v);
uint64_t view_nevents(const struct view *v); /* the events shown or summarized */
void view_free(struct view *v);

#endif
