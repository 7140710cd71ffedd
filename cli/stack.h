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
/*
 * The frames of a user_stack event of process pid, as strace -k prints
 * them (" > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64+0x51) [0xf8011]"
 * a line each) in a string of malloc(), NULL when there is none.
 */
char *stack_view_frames(struct stack_view *s, pid_t pid, const void *data, size_t len);

#endif
