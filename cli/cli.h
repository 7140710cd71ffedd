/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ptbpf command: shared declarations of its subcommands. */
#ifndef PTBPF_CLI_H
#define PTBPF_CLI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

/* Exit codes (documented in ptbpf(1) and README.md). */
#define CLI_EXIT_OK	0
#define CLI_EXIT_FAIL	1 /* generic failure */
#define CLI_EXIT_USAGE	2 /* bad command line */
#define CLI_EXIT_PERM	3 /* missing privilege or capability */
#define CLI_EXIT_NOBPF	4 /* kernel lacks BTF or BPF features */
#define CLI_EXIT_NOPID	5 /* no such process */
#define CLI_EXIT_NOCMD	6 /* command not found */
#define CLI_EXIT_BADLOG 7 /* log unreadable or invalid */

extern const char *cli_prog;

int cmd_info(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_list(int argc, char **argv);

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

/* cmd_show.c: events of an open log as text or JSON Lines; an exit code */
int show_log(trace_id_t trid, FILE *out, int json, int absolute);

/* util.c: messages, strings, errors */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A growable string. An allocation that fails leaves it failed: it keeps
 * what it held, later appends change nothing, and its user checks failed
 * where it writes the text out (ptbpf then says "out of memory" and exits
 * with 1).
 */
/* pidmap.c: a map from a process or thread id (> 0) to a pointer */
struct pidmap {
	struct pidmap_ent {
		pid_t key; /* 0: free */
		void *val;
	} * e;
	size_t cap, n;
};
void *pidmap_get(const struct pidmap *m, pid_t key);
int pidmap_put(struct pidmap *m, pid_t key, void *val); /* 0, or -1: no memory */
void *pidmap_del(struct pidmap *m, pid_t key);		/* the value removed, or NULL */
void pidmap_free(struct pidmap *m, void (*free_val)(void *));

struct sbuf {
	char *s;
	size_t len, cap; /* cap 0 once failed: every append asks sb_grow_slow */
	int failed;
};
/* Room for need more bytes and the NUL (out of line: the rare growth);
 * 0, or -1 when b has failed, now or before. */
int sb_grow_slow(struct sbuf *b, size_t need);
/* The live printer writes millions of lines a second: the usual case
 * (room enough) inline. */
static inline int sb_grow(struct sbuf *b, size_t need)
{
	if (b->len + need + 1 > b->cap)
		return sb_grow_slow(b, need);
	return 0;
}
/* Marks b failed, as a failed allocation does. */
void sb_fail(struct sbuf *b);

static inline void sb_putc(struct sbuf *b, char c)
{
	if (sb_grow(b, 1))
		return;
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

static inline void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	if (sb_grow(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static inline void sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

/* Appends the text of from; a failed from fails b. */
static inline void sb_cat(struct sbuf *b, const struct sbuf *from)
{
	if (from->failed)
		sb_fail(b);
	else if (from->len)
		sb_putn(b, from->s, from->len);
}

/* Keeps the first len bytes (at most b->len). */
static inline void sb_truncate(struct sbuf *b, size_t len)
{
	b->len = len;
	if (b->s) /* NULL only before the first allocation */
		b->s[len] = '\0';
}

static inline void sb_reset(struct sbuf *b)
{
	b->len = 0;
	sb_grow(b, 0);
	sb_truncate(b, 0);
}

/* Frees the text; b is empty (and not failed) again. */
void sb_free(struct sbuf *b);
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_udec(struct sbuf *b, uint64_t v, int width); /* zero-padded to width (at most 20) */
void sb_dec(struct sbuf *b, int64_t v);
void sb_xhex(struct sbuf *b, uint64_t v); /* as "%#lx" */
/* C-style quoted string ("..." with \n, \t, \xNN escapes), like strace. */
void sb_quote(struct sbuf *b, const char *s, size_t n);
/* JSON string literal. */
void sb_json_str(struct sbuf *b, const char *s, size_t n);
void sb_hex(struct sbuf *b, const void *p, size_t n);

/*
 * The start of a text line, "S.UUUUUU PID/TID ". The second and the ids
 * of the last few threads are kept formatted: they repeat from line to
 * line, and formatting them was a third of a live line's cost.
 */
struct line_prefix {
	uint64_t sec; /* of sec_s, when sec_len */
	uint8_t sec_len;
	char sec_s[24]; /* "S." */
	struct {
		pid_t pid, tid;
		uint8_t len; /* 0: unused */
		char s[32];  /* " PID/TID " */
	} ids[4];
	unsigned int next; /* the ids entry replaced next */
};
/* Appends the prefix of a line at t_ns (negative: "-S.UUUUUU"). */
void sb_line_prefix(struct sbuf *b, struct line_prefix *p, int64_t t_ns, pid_t pid, pid_t tid);

/*
 * Exit code and message for an error number returned by posix_trace_create*
 * or ptbpf_trace_add_pid on pid; prints the message.
 */
int cli_trace_error(int err, const char *what, long pid);

/* env.c: what keeps ptbpf from tracing here, whatever the kernel offers */
enum cli_env {
	CLI_ENV_OK,
	CLI_ENV_NOPROC,	    /* /proc is not mounted */
	CLI_ENV_PROC_PIDNS, /* /proc is another pid namespace's */
	CLI_ENV_USERNS,	    /* not the initial user namespace: bpf() is refused */
	CLI_ENV_SECCOMP,    /* a seccomp filter refuses bpf() (with CAP_BPF held) */
};
/* The first of them found (cheap: no BPF object is made). */
enum cli_env cli_env_probe(void);
/* What it means and what to do, for a message ("" for CLI_ENV_OK). */
const char *cli_env_msg(enum cli_env e);
/* The exit code of a command it stops. */
int cli_env_exit(enum cli_env e);
/* /proc alone (before anything is traced): an exit code, the error said. */
int cli_env_check_proc(void);
/* Opens and validates a log; prints the error and returns an exit code. */
int cli_open_log(const char *path, trace_id_t *trid);
/*
 * Fully buffer out (the one output stream of a command) with a 1 MiB
 * buffer, before anything is written to it.
 */
void cli_big_buffer(FILE *out);

struct sysdesc;

/* One event as read from a stream or a log. */
struct cli_ev {
	struct posix_trace_event_info info;
	pid_t tid;
	uint8_t sys_off;	    /* name + sys_off: a syscall's name; 0: none */
	const char *name;	    /* the event's type: in the name cache, or name_buf */
	const struct sysdesc *desc; /* that syscall's decoding, NULL if unknown */
	const void *data;
	size_t len;
	char name_buf[TRACE_EVENT_NAME_MAX]; /* a name not cached (no memory for it) */
};

/* Reads the next event of trid with posix_trace_getnext_event (logs). */
int cli_ev_next(trace_id_t trid, struct cli_ev *ev, void *buf, size_t bufsz, int *unavail);
/* Fills name and tid of ev after a successful getnext of any kind. */
void cli_ev_complete(trace_id_t trid, struct cli_ev *ev);
/* Fills ev from an event of ptbpf_trace_trygetnext_events(). */
void cli_ev_from(trace_id_t trid, struct cli_ev *ev, const struct ptbpf_event *e);

/*
 * Timestamps in nanoseconds, clamped to [0, INT64_MAX]: a log may hold
 * times past 2^63 ns, and the difference of two clamped times (relative
 * times, durations) cannot overflow.
 */
static inline int64_t ts_ns(const struct timespec *t)
{
	int64_t ns;

	if (t->tv_sec < 0)
		return 0;
	if (__builtin_mul_overflow((int64_t)t->tv_sec, 1000000000LL, &ns) ||
	    __builtin_add_overflow(ns, (int64_t)t->tv_nsec, &ns))
		return INT64_MAX;
	return ns < 0 ? 0 : ns;
}

/*
 * The entry time of the syscall whose exit is ev: from the duration the
 * exit has where it has one (a stream that records syscalls by their
 * result, whose entry events may be stamped later), else entry_ts.
 */
static inline int64_t exit_entry_ts(const struct cli_ev *ev, int64_t entry_ts)
{
	const struct ptbpf_ev_sys_exit_ext *x = ev->data;
	int64_t exit_ts = ts_ns(&ev->info.posix_timestamp);

	if (ev->len < offsetof(struct ptbpf_ev_sys_exit_ext, paths) || !x->duration ||
	    x->duration > (uint64_t)exit_ts)
		return entry_ts;
	return exit_ts - (int64_t)x->duration;
}

/* The events lost in the gap of a POSIX_TRACE_OVERFLOW (its 8 bytes of data). */
static inline uint64_t overflow_count(const void *data)
{
	uint64_t n;

	memcpy(&n, data, sizeof(n));
	return n;
}

/* "openat" for a syscall's entry or exit event, else NULL */
static inline const char *sys_name_of(const struct cli_ev *ev)
{
	return ev->sys_off ? ev->name + ev->sys_off : NULL;
}

/* decode.c: strace-like decoding of syscall arguments and results */
size_t sys_name_offset(const char *ev_name);	  /* of "openat" in "sys_exit_openat", or 0 */
const struct sysdesc *sys_desc(const char *name); /* NULL: unknown syscall */
int sys_result_is_fd(const char *name);		  /* strace's RVAL_FD: -y prints the fd's path */
int sys_noreturn(const struct sysdesc *d);	  /* exit, exit_group */
int sys_nargs(const struct sysdesc *d);		  /* arguments it prints (6 if unknown) */
/* 1 if what d's exit brings is printed by its entry's arguments (an ioctl's
 * bytes by its command, an exec's strings by its count). */
int sys_exit_uses_entry(const struct sysdesc *d);
void decode_sys_args(struct sbuf *b, const char *name, const struct sysdesc *d, const void *data,
		     size_t len);
/* The same with the captures of its exit (xdata NULL: none). */
void decode_sys_call(struct sbuf *b, const char *name, const struct sysdesc *d, const void *data,
		     size_t len, const void *xdata, size_t xlen);
/*
 * A call whose exit brings captures, split by other events as strace
 * splits it: "read(3, " (then " <unfinished ...>"), and at its exit the
 * arguments from the first one the exit brings: "\"abc\", 832" (after
 * "<... read resumed>", before ")"). 0: the call is not split so (nothing
 * printed).
 */
int decode_sys_unfinished(struct sbuf *b, const char *name, const struct sysdesc *d,
			  const void *data, size_t len);
int decode_sys_resumed(struct sbuf *b, const struct sysdesc *d, const void *data, size_t len,
		       const void *xdata, size_t xlen);
/* args: the entry's arguments (fcntl's result is by its command), NULL: unknown */
void decode_sys_ret(struct sbuf *b, const struct sysdesc *d, const uint64_t *args, int64_t ret);
/*
 * One argument at a time (JSON): the arguments an entry's line prints, a
 * bit each; and argument i's text, with the captures of the entry and of
 * its exit xdata (NULL: none).
 */
unsigned decode_sys_argmask(const struct sysdesc *d, const void *data, size_t len);
void decode_sys_arg(struct sbuf *b, const struct sysdesc *d, const void *data, size_t len,
		    const void *xdata, size_t xlen, int i);
/*
 * ,"fd":3,"buf":"\"...\"",...: each argument the call prints by its
 * name, a number as one, else strace's text (fmt_json.c).
 */
void fmt_json_args(struct sbuf *b, const char *sys, const struct sysdesc *d, const void *data,
		   size_t len, const void *xdata, size_t xlen);
/* The name the kernel gives argument i of syscall sys ("fd"), NULL: none known. */
const char *sys_arg_name(const char *sys, int i);
/* What strace prints after the result, from the exit's captures (poll's revents). */
void decode_sys_after_ret(struct sbuf *b, const void *xdata, size_t xlen);
void decode_signal(struct sbuf *b, int sig);
void decode_exit_status(struct sbuf *b, int status);
const char *errno_name(int e);
const char *errno_desc(int e);

/* A flag's value and name, for print_flags (F(O_CREAT) names itself). */
struct flag {
	unsigned long v;
	const char *n;
};

#define F(x)                                                                                       \
	{                                                                                          \
		x, #x                                                                              \
	}

/* "A|B|0x40" in the order of fl (a value covering several bits first); v 0: zero, or "0". */
void print_flags(struct sbuf *b, unsigned long v, const struct flag *fl, size_t n,
		 const char *zero);

/* decode_sigset.c: a signal mask as strace prints it: "[HUP INT]", "~[KILL]" */
void decode_sigset(struct sbuf *b, uint64_t mask);
/* strace's name of signal sig (1-31) without "SIG", NULL for others */
const char *sig_abbrev(int sig);

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
/* Closes l, with repl in place of its text from cut when repl is not NULL. */
void fmt_hold_close(struct fmt_hold_line *l, const char *repl, size_t rlen);
/* Appends to out the lines that may go (all: every one); how many. */
size_t fmt_hold_drain(struct fmt_hold *h, struct sbuf *out, int64_t now, int all);
void fmt_hold_fini(struct fmt_hold *h);

/* fmt_signal.c: the line of a signal_deliver; nonzero: it has none */
void fmt_signal_deliver(struct sbuf *b, const struct ptbpf_ev_signal *e, size_t len);
int fmt_signal_hidden(const struct cli_ev *ev);
/* nonzero: ev is a signal_generate of a SIGCHLD the kernel ignored, which
 * strace shows delivered (its line goes after tid's syscall: fmt_chld_*) */
int fmt_signal_ignored_chld(const struct cli_ev *ev);
struct fmt;
void fmt_chld_add(struct fmt *f, pid_t tid, const char *line, size_t len);
/* Appends tid's lines (tid < 0: all) to out, forgotten; how many. */
int fmt_chld_take(struct fmt *f, pid_t tid, struct sbuf *out);
void fmt_chld_fini(struct fmt *f);

/* fmt.c: the output of events, text (strace-like) or JSON Lines (fmt_jsonl.c) */
struct fmt_pending;
struct fmt {
	FILE *out;
	int json;
	int absolute;
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
	struct sbuf deferred; /* other events seen while an entry is held */
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
	uint64_t nevents, noverflow;
	/* --json: tid -> struct sbuf, the payload of its ioctl or exec entry
	 * in progress (sys_exit_uses_entry), for its exit */
	struct pidmap json_entries;
};
void fmt_init(struct fmt *f, FILE *out, int json, int absolute);
void fmt_event(struct fmt *f, const struct cli_ev *ev);
/* Nonzero once a buffer of f failed: its output is incomplete. */
int fmt_failed(const struct fmt *f);
/* Prints a held entry as <unfinished ...>, then writes out (fmt_out). */
void fmt_flush(struct fmt *f);
/* Whole lines of text that belong under the event printed last (-k's
 * frames): after it, also when it waits behind a held entry. */
void fmt_lines_after(struct fmt *f, const char *text);
/* Writes the lines made so far to the FILE (without fflush). */
void fmt_out(struct fmt *f);
void fmt_fini(struct fmt *f);
/* A line in f->line (from f->line_at): begun, and ended with its newline
 * (out, or behind the held lines). */
void fmt_line_begin(struct fmt *f);
void fmt_line_end(struct fmt *f);

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

/* fmt_other.c: the text of ev, an event that is no syscall (after "ts pid/tid ") */
void fmt_other_text(struct sbuf *b, const struct cli_ev *ev);
/* "SI_USER", "CLD_EXITED", ... or the number */
void fmt_sig_code(struct sbuf *b, int signo, int code);

#endif
