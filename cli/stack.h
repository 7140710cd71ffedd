/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -k: the user stacks of a trace, unwound and symbolized when shown, with
 * elfutils (libdwfl): the proc_map events say which file is mapped where
 * in each process, each user_stack event holds the registers and a copy
 * of the stack to unwind with the modules' DWARF call frame information.
 */
#ifndef PTBPF_CLI_STACK_H
#define PTBPF_CLI_STACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct stack_view;

/* NULL: no memory (said). */
struct stack_view *stack_view_new(void);
void stack_view_free(struct stack_view *s);
/* A proc_map event of process pid (len bytes at data, from a log: untrusted). */
void stack_view_map(struct stack_view *s, pid_t pid, const void *data, size_t len);
/* Process pid is gone: its modules are forgotten. */
void stack_view_gone(struct stack_view *s, pid_t pid);
/* One frame: module NULL when no module holds pc (a file gone since). */
struct stack_frame {
	char *module, *symbol, *file; /* NULL: not known */
	uint64_t pc;		      /* the address */
	uint64_t modoff;	      /* pc's offset in its module */
	uint64_t symoff;	      /* pc's offset in its symbol */
	int line;		      /* of file, 0: not known */
};

struct stack_frames {
	struct stack_frame *f;
	size_t n;
};

/* The frames of a user_stack event of process pid, innermost first (at
 * least one: pc); NULL when there is none (a damaged event, no memory). */
struct stack_frames *stack_view_frames(struct stack_view *s, pid_t pid, const void *data,
				       size_t len);
void stack_frames_free(struct stack_frames *fr);

/* stack_fmt.c: strace -k's lines (" > /usr/lib/x86_64-linux-gnu/libc.so.6
 * (__open64+0x51) [0xf8011]"), or a JSON Lines record of the frames; a
 * string of malloc(), NULL when out of memory. */
char *stack_frames_text(const struct stack_frames *fr);
char *stack_frames_json(const struct stack_frames *fr, pid_t pid, pid_t tid);

#endif
