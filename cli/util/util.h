/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ptbpf command's shared utilities: exit codes, messages, strings, pid maps, the environment.
 */
#ifndef PTBPF_CLI_UTIL_UTIL_H
#define PTBPF_CLI_UTIL_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
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
#define CLI_EXIT_UNSENT 8 /* events not sent (ptbpf export, record --clickhouse) */

/* the command's name in messages (argv[0]'s last part) */
extern const char *cli_prog;

/* util.c: messages, errors */
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

/* The events lost in the gap of a POSIX_TRACE_OVERFLOW (its 8 bytes of data). */
static inline uint64_t overflow_count(const void *data)
{
	uint64_t n;

	memcpy(&n, data, sizeof(n));
	return n;
}

#endif
