/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The events as the command reads them, and strace-like decoding of their syscalls. */
#ifndef PTBPF_CLI_DECODE_DECODE_H
#define PTBPF_CLI_DECODE_DECODE_H

#include "util/util.h"

struct sysdesc;

/* One event as read from a stream or a log. */
struct cli_ev {
	struct posix_trace_event_info info;
	pid_t tid;
	uint8_t sys_off;	    /* name + sys_off: a syscall's name; 0: none */
	const char *name;	    /* the event's type: in the name cache, or name_buf */
	const struct sysdesc *desc; /* that syscall's decoding, NULL if unknown */
	uint8_t arch;		    /* SC_ARCH_* of the trace (its syscall numbers) */
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
int sys_makes_child(const char *name);		  /* clone, clone3, fork, vfork */
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
/* decode.c: a user event's data as strace prints a buffer (-s, -x); truncated:
 * it had more */
void decode_user_data(struct sbuf *b, const void *p, size_t len, int truncated);
void decode_sys_ret(struct sbuf *b, const struct sysdesc *d, const uint64_t *args, int64_t ret);
/*
 * One argument at a time (JSON): the arguments an entry's line prints, a
 * bit each; and argument i's text, with the captures of the entry and of
 * its exit xdata (NULL: none).
 */
unsigned decode_sys_argmask(const struct sysdesc *d, const void *data, size_t len);
void decode_sys_arg(struct sbuf *b, const struct sysdesc *d, const void *data, size_t len,
		    const void *xdata, size_t xlen, int i);
/* ,"decoded":{"buf":"...",...}: what exit xdata of syscall sys brought, each
 * argument by its name (entry: the entry's payload, for what it says how
 * to print; NULL: unknown). */
void decode_json_exit(struct sbuf *b, const char *sys, const struct sysdesc *d, const void *xdata,
		      size_t xlen, const void *entry, size_t elen);
/* The name the kernel gives argument i of syscall sys ("fd"), NULL: none known. */
const char *sys_arg_name(const char *sys, int i);
/* What strace prints after the result, from the exit's captures (poll's revents). */
void decode_sys_after_ret(struct sbuf *b, const void *xdata, size_t xlen);
void decode_signal(struct sbuf *b, int sig);
/* -Y: the names printed after pid arguments, name_of(ctx, pid) ("" or NULL:
 * none); name_of NULL: none (the default). */
void decode_set_pid_names(const char *(*name_of)(void *ctx, int pid), void *ctx);
void decode_exit_status(struct sbuf *b, int status);
const char *errno_name(int e);
const char *errno_desc(int e);

/* flag and value tables (xlat/NAME.in) and their printers */
#include "decode/xlat.h"

/* decode_sigset.c: a signal mask as strace prints it: "[HUP INT]", "~[KILL]" */
void decode_sigset(struct sbuf *b, uint64_t mask);
/* strace's name of signal sig (1-31) without "SIG", NULL for others */
const char *sig_abbrev(int sig);

/* the fd tables of -y (fdtable.c), the probes of -e (probes.c), the
 * captures of syscall memory (caps.c) */
#include "decode/fdtable.h"
#include "decode/probes.h"
#include "decode/caps.h"

#endif
