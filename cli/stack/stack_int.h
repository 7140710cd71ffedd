/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* -k: what the stack_*.c files share of a struct stack_view. */
#ifndef PTBPF_CLI_STACK_INT_H
#define PTBPF_CLI_STACK_INT_H

#include "stack/stack.h"
#include "util/util.h"

struct stack_view {
	struct pidmap procs;  /* pid -> struct stack_proc */
	struct pidmap tables; /* stack_trace id -> struct ptbpf_ev_stack_trace of malloc() */
};

/* libdwfl's debuginfo_path (stack_buildid.c), NULL: its default */
extern char *stack_dwfl_debuginfo_path;

#endif
