/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The output of events: strace-like text and JSON Lines. */
#ifndef PTBPF_CLI_FMT_FMT_H
#define PTBPF_CLI_FMT_FMT_H

#include "decode/decode.h"

/*
 * ,"fd":3,"buf":"\"...\"",...: each argument the call prints by its
 * name, a number as one, else strace's text (fmt_json.c).
 */
void fmt_json_args(struct sbuf *b, const char *sys, const struct sysdesc *d, const void *data,
		   size_t len, const void *xdata, size_t xlen);

/*
 * The same arguments one by one to fn: name ("argN" when the schema has
 * none), text (NULL: out of memory) and whether it is a decimal integer.
 */
typedef void fmt_arg_fn(void *ctx, const char *name, const char *text, size_t n, int is_int);
void fmt_sys_args_each(const char *sys, const struct sysdesc *d, const void *data, size_t len,
		       const void *xdata, size_t xlen, fmt_arg_fn *fn, void *ctx);

/*
 * fmt_late.c: paths an entry could not read, brought by its exit. keep: a
 * copy of the entry ev's payload when it lacks a path (else emptied); redo:
 * text is the entry decoded again with the paths of exit_ev, if it has
 * any; json: the exit's "late_paths" field.
 */
void fmt_late_keep(struct sbuf *keep, const struct cli_ev *ev);
/* Does the kept entry lack a path (else it is kept for its exit's captures)? */
int fmt_late_faults(const struct sbuf *keep);
void fmt_late_redo(struct sbuf *text, const struct sbuf *keep, const char *sys,
		   const struct cli_ev *exit_ev);
void fmt_late_json(struct sbuf *b, const void *data, size_t len);

/*
 * fmt_hold.c: lines held in order behind an open one (text to be closed
 * by a later event): kind, the open line's tid and trace time; cut: where
 * a replacement's text starts; data: an entry's payload (fmt_late_keep).
 */
#define FMT_HOLD_MAX 4096
#define FMT_HOLD_NS  50000000LL
enum { FMT_HOLD_CLOSED, FMT_HOLD_LATE, FMT_HOLD_RESTART };
struct fmt_hold_line {
	struct sbuf text, repl, data;
	pid_t tid;
	int kind, replaced;
	int64_t ts;
	size_t cut;
};
struct fmt_hold {
	struct fmt_hold_line *l; /* a ring of cap, n from head */
	size_t head, n, cap;
};
/* An open line; 0, or -1 when out of memory (then kept closed, or lost). */
int fmt_hold_open(struct fmt_hold *h, const char *line, size_t len, size_t cut, pid_t tid, int kind,
		  int64_t ts, const void *data, size_t dlen);
/* Whole lines after the last held one (h->n must be nonzero); 0 or -1. */
int fmt_hold_add(struct fmt_hold *h, const char *lines, size_t len);
/* tid's open line of kind, or NULL. */
struct fmt_hold_line *fmt_hold_find(struct fmt_hold *h, pid_t tid, int kind);
/* The open lines of thread from are thread to's (an exec's new id). */
void fmt_hold_rekey(struct fmt_hold *h, pid_t from, pid_t to);
/* Closes l, with repl in place of its text from cut when repl is not NULL. */
void fmt_hold_close(struct fmt_hold_line *l, const char *repl, size_t rlen);
/* Appends to out the lines that may go (all: every one); how many. */
size_t fmt_hold_drain(struct fmt_hold *h, struct sbuf *out, int64_t now, int all);
void fmt_hold_fini(struct fmt_hold *h);

/* signal.c: a signal's code: "SI_USER", "CLD_EXITED", ... or the number */
void fmt_sig_code(struct sbuf *b, int signo, int code);
/* the line of a signal_deliver; nonzero: it has none */
void fmt_signal_deliver(struct sbuf *b, const struct ptbpf_ev_signal *e, size_t len,
			const char *comm);
int fmt_signal_hidden(const struct cli_ev *ev);
struct fmt;
/* -e signal=: is ev the delivery of a signal not printed, or a death by one? */
int fmt_signal_filtered(const struct fmt *f, const struct cli_ev *ev);
/* nonzero: ev is a signal_generate of a SIGCHLD the kernel ignored, which
 * strace shows delivered (its line goes after tid's syscall: fmt_chld_*) */
int fmt_signal_ignored_chld(const struct cli_ev *ev);
struct fmt;
void fmt_chld_add(struct fmt *f, pid_t tid, const char *line, size_t len);
/* Appends tid's lines (tid < 0: all) to out, forgotten; how many. */
int fmt_chld_take(struct fmt *f, pid_t tid, struct sbuf *out);
void fmt_chld_fini(struct fmt *f);

/*
 * How text lines look: strace's (the default) or ptbpf's own ("TS PID/TID "
 * before each line, every event printed).
 */
enum { FMT_LOOK_STRACE, FMT_LOOK_PTBPF };
/* strace's pid prefix: "[pid N] " while several threads are traced (its
 * stderr), "N " on every line (its -o FILE with -f), none (-ff's files) */
enum { FMT_PID_AUTO, FMT_PID_FILE, FMT_PID_NONE };
/* strace's -e quiet= messages */
enum {
	FMT_Q_ATTACH = 1u << 0,
	FMT_Q_PERSONALITY = 1u << 1,
	FMT_Q_EXIT = 1u << 2,
	FMT_Q_PATH = 1u << 3,
	FMT_Q_EXECVE = 1u << 4, /* thread-execve, superseded */
	FMT_Q_ALL = (1u << 5) - 1,
};
struct fmt_look {
	int look;	      /* FMT_LOOK_* */
	int pids;	      /* FMT_PID_* */
	int tflag;	      /* -t 1, -tt 2, -ttt 3 (ptbpf's look: any, epoch seconds) */
	int rflag;	      /* -r */
	int comm;	      /* -Y: the command name after the pid */
	int acolumn;	      /* -a: the column of " = " (strace's 40) */
	int live;	      /* the threads run now: a name not seen is read from /proc */
	int forks;	      /* -f: a new thread is counted from its fork (strace attaches it) */
	int all_events;	      /* ptbpf's own events printed too (-e named them) */
	unsigned int quiet;   /* FMT_Q_* not printed */
	uint64_t sigs_hidden; /* -e signal=: bit N-1, signal N not printed */
};
void fmt_look_init(struct fmt_look *l);

/* fmt.c: the output of events, text (strace-like) or JSON Lines (fmt_jsonl.c) */
/* pending.c: a call printed <unfinished ...>, its exit to come */
struct fmt_pending {
	pid_t pid, tid;
	int64_t ts; /* of its entry: -T */
	char name[TRACE_EVENT_NAME_MAX];
	struct sbuf data; /* its entry's payload, when its exit brings captures */
	uint64_t args[6]; /* its entry's arguments, for its result */
	int args_ok;
};

struct fmt {
	FILE *out;
	int json;
	struct fmt_look look;
	int have_origin;
	int64_t origin;
	int tty;   /* flush each line */
	int times; /* -T: digits of the syscall times printed, -1: none */
	/* strace-style merging of a syscall entry with its exit */
	int have_held;
	struct cli_ev held;
	struct sbuf held_text;
	struct sbuf held_data;	 /* its payload, when it lacks a path (fmt_late_keep) */
	struct sbuf resume_data; /* the payload of the entry an exit resumes */
	/* the arguments of the held entry and of the one an exit resumes, for
	 * the results printed by them (fcntl's); *_ok 0: unknown */
	uint64_t held_args[6], resume_args[6];
	int held_args_ok, resume_args_ok;
	int64_t held_ts;
	size_t held_nalive;		/* the threads counted at its entry (its leader) */
	char held_comm[PTBPF_COMM_LEN]; /* its thread's name then (-Y) */
	struct sbuf deferred;		/* other events seen while an entry is held */
	int ndeferred;
	/* lines under the next exit printed (-k's frames), before what was
	 * deferred: taken (NULL) when it is printed */
	const char *exit_after;
	struct fmt_pending *unfinished; /* tids with a printed <unfinished ...> */
	size_t nunfinished, capunfinished;
	struct fmt_hold hold;  /* lines waiting behind an open one (fmt_hold.c) */
	struct fmt_chld *chld; /* ignored SIGCHLDs' lines, after tid's syscall */
	size_t nchld, capchld;
	struct sbuf line, tmp; /* line: lines not yet written out, the last from line_at */
	size_t line_at;
	struct line_prefix prefix;
	/* leader.c: the threads seen and not exited (strace's nprocs), their
	 * names (-Y), the time of the last line (-r), -t's second */
	struct pidmap alive, comms;
	size_t nalive;
	int count_threads; /* strace's look with [pid N] or -Y */
	pid_t alive_last;  /* counted: the last event's thread (most are its) */
	int64_t last_line_ts;
	int64_t tsec;
	char tsec_s[16];
	uint64_t nevents, noverflow;
	/* --json: tid -> struct sbuf, the payload of its ioctl or exec entry
	 * in progress (sys_exit_uses_entry), for its exit */
	struct pidmap json_entries;
};
void fmt_init(struct fmt *f, FILE *out, int json, const struct fmt_look *look);
/* pending.c: tid's call printed unfinished (data: the entry's payload for
 * its resumed line, or NULL; args: its arguments, or NULL) */
void fmt_pending_add(struct fmt *f, pid_t pid, pid_t tid, const char *name, int64_t ts,
		     const struct sbuf *data, const uint64_t *args);
/* Forgets tid's; its entry time, or -1 if none. Its payload kept for the
 * resumed line goes to f->resume_data (else emptied). */
int64_t fmt_pending_del(struct fmt *f, pid_t tid);
int fmt_pending_has(const struct fmt *f, pid_t tid);
/* A thread's calls in progress are another's now (an exec by a thread
 * other than the leader takes the leader's id). */
void fmt_pending_rekey(struct fmt *f, pid_t from, pid_t to);
void fmt_pending_free(struct fmt *f);
void fmt_event(struct fmt *f, const struct cli_ev *ev);
/* Nonzero once a buffer of f failed: its output is incomplete. */
int fmt_failed(const struct fmt *f);
/* -b execve: tid is no longer traced, its held entry printed with
 * strace's " <detached ...>" (one printed <unfinished ...>: nothing more). */
void fmt_detached(struct fmt *f, pid_t tid);
/* Prints a held entry as <unfinished ...>, then writes out (fmt_out). */
void fmt_flush(struct fmt *f);
/* Prints a held entry as <unfinished ...> (its exit prints resumed). */
void fmt_held_unfinished(struct fmt *f);
/*
 * The trace ends, the processes go on: each call printed <unfinished ...>
 * as "<... NAME resumed> <detached ...>" (at trace time now), the held
 * entry as "NAME(ARGS <detached ...>", as strace's on detach.
 */
void fmt_detach(struct fmt *f, int64_t now);
/*
 * stale.c, live output: a call without its exit for delay ns of trace
 * time at now (the stream emptied) is printed <unfinished ...>, and held
 * lines as old go out; nonzero if lines were added.
 */
int fmt_stale(struct fmt *f, int64_t now, int64_t delay);
/* Whole lines of text that belong under the event printed last (-k's
 * frames): after it, also when it waits behind a held entry. */
void fmt_lines_after(struct fmt *f, const char *text);
/* Writes the lines made so far to the FILE (without fflush). */
void fmt_out(struct fmt *f);
void fmt_fini(struct fmt *f);
/* An event not printed (not selected) that counts threads (a fork, an exit). */
void fmt_note(struct fmt *f, const struct cli_ev *ev);
/* line.c: a line in f->line (from f->line_at): begun, and ended with its
 * newline (out, or behind the held lines). */
void fmt_line_begin(struct fmt *f);
void fmt_line_end(struct fmt *f);
/* What f->line holds is whole lines (from offset from: behind the held
 * ones, if any); out if a chunk is full. */
void fmt_lines_done(struct fmt *f);
void fmt_lines_done_from(struct fmt *f, size_t from);

/* fmt_jsonl.c: the JSON Lines record of ev, as a line of f */
void fmt_json_event(struct fmt *f, const struct cli_ev *ev);
/* Frees the entries f->json_entries keeps for their exits. */
void fmt_json_entries_free(struct fmt *f);
/* JSON records of the stream's attributes (-1: out of memory, nothing
 * written) and its final status. */
int fmt_json_attr(FILE *out, trace_id_t trid);
void fmt_json_status(FILE *out, trace_id_t trid, uint64_t nevents, uint64_t noverflow);

/* fmt_json.c: appends the JSON object members (no braces) describing ev. */
void fmt_json_fields(struct sbuf *b, const struct cli_ev *ev);
/* The same, for a syscall exit whose entry's payload is known (elen bytes;
 * entry NULL: not known): what the exit brought that only the entry says
 * how to print (an ioctl's bytes, by its command) is printed too. */
void fmt_json_fields_entry(struct sbuf *b, const struct cli_ev *ev, const void *entry, size_t elen);

/* fmt_other.c: the text of ev, an event that is no syscall (after the
 * line's leader), in f's look */
void fmt_other_text(struct sbuf *b, const struct cli_ev *ev, int look);

/* leader.c: strace's printleader and tabto, and the threads it counts */
/* Begins a line at ts of thread tid of pid with its leader, nalive
 * threads counted and comm its name (-Y; NULL: its name now), as strace
 * printed them when the line began. */
void fmt_leader(struct fmt *f, int64_t ts, pid_t pid, pid_t tid, size_t nalive, const char *comm);
/* tid's name now (-Y), "" without -Y or when unknown. */
const char *fmt_thread_comm(struct fmt *f, pid_t tid);
/* -Y: "<name>" after the pid sys returned, as strace's (while the process
 * is there: a pid wait4 returns was reaped, it has none, nor later). */
void fmt_pid_result(struct fmt *f, const char *sys, pid_t pid);
/* Spaces before " = " up to the result column (-a). */
void fmt_tab(struct fmt *f);
/* The thread ev is the first event of, or whose fork it is, if not
 * counted yet (else 0). */
pid_t fmt_new_thread(const struct fmt *f, const struct cli_ev *ev);
/* Before ev is printed: its thread (a fork's child) is counted, its name
 * known (-Y). */
void fmt_threads_event(struct fmt *f, const struct cli_ev *ev);
/* A thread that runs before its first event (the command, -p's). */
void fmt_thread_known(struct fmt *f, pid_t tid);
/* A thread no longer traced or gone (an exec gave it another id). */
void fmt_thread_gone(struct fmt *f, pid_t tid);
/* After ev was printed: a thread it ends is no longer counted. */
void fmt_threads_after(struct fmt *f, const struct cli_ev *ev);
/* The name of thread tid (look.comm: from its fork or exec), or "". */
const char *fmt_comm(struct fmt *f, pid_t tid);
/* Is ev a line of ptbpf's own, not printed in strace's look? */
int fmt_look_hides(const struct fmt *f, const struct cli_ev *ev);
void fmt_threads_fini(struct fmt *f);

#endif
