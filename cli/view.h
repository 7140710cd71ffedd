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

#include "cli.h"

/* sysclass.c: strace's classes of each syscall (cli/syscall_classes.h) */
enum {
	SC_DESC = 1u << 0,
	SC_FILE = 1u << 1,
	SC_IPC = 1u << 2,
	SC_NETWORK = 1u << 3,
	SC_PROCESS = 1u << 4,
	SC_SIGNAL = 1u << 5,
	SC_MEMORY = 1u << 6,
	SC_STAT = 1u << 7,
	SC_LSTAT = 1u << 8,
	SC_FSTAT = 1u << 9,
	SC_STAT_LIKE = 1u << 10,
	SC_STATFS = 1u << 11,
	SC_FSTATFS = 1u << 12,
	SC_STATFS_LIKE = 1u << 13,
	SC_PURE = 1u << 14,
	SC_CREDS = 1u << 15,
	SC_CLOCK = 1u << 16,
	SC_NEVER_FAILS = 1u << 17, /* not a class: strace never counts it failed */
};
/* The SC_* of syscall number nr (x86_64), 0: none. */
uint32_t sysclass_of(int nr);
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


#endif
