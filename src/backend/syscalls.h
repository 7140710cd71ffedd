/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscall numbers, names, argument counts and path arguments (x86_64, from
 * schema/syscalls.def).
 */
#ifndef PTBPF_BACKEND_SYSCALLS_H
#define PTBPF_BACKEND_SYSCALLS_H

#include <stdbool.h>
#include <ptbpf/events.h>

/*
 * Name of syscall nr ("openat"); "syscall_NNN" for a number without a
 * known name. NULL when nr is outside 0 .. PTBPF_SYSCALL_NR_MAX - 1.
 */
const char *syscalls__name(int nr);

/* Does nr have a real name (is it in the syscall table of the build)? */
bool syscalls__known(int nr);

/*
 * Number of the syscall called name (also "syscall_NNN"), or -ENOENT.
 */
int syscalls__lookup(const char *name);

/*
 * Which arguments (0-5) of syscall nr are path names: fills args[0] and
 * args[1] (-1: none) and returns how many there are (0, 1 or 2).
 */
int syscalls__path_args(int nr, int args[2]);

/*
 * How many of the six argument registers syscall nr reads (0-6): 6 for a
 * number the build's table does not know.
 */
int syscalls__nargs(int nr);

#endif
