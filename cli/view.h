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


#endif
