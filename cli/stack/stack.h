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
	int kernel;		      /* a kernel frame (module "[kernel.kallsyms]") */
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
/* One more frame of pc resolved in process pid's modules (activation:
 * pc is no return address), appended to fr: 0, -1 when out of memory. */
int stack_view_add_frame(struct stack_view *s, pid_t pid, struct stack_frames *fr, uint64_t pc,
			 int activation);

/* stack_table.c: a stack_trace event (len bytes at data, untrusted), kept
 * by id for the stack_refs after it. */
void stack_view_table(struct stack_view *s, const void *data, size_t len);
/* The frames of a stack_ref event of process pid appended to *fr (made if
 * NULL): its user stack's, then its kernel stack's. The frames appended,
 * -1 when out of memory; an unknown id gives none. */
int stack_view_ref(struct stack_view *s, pid_t pid, const void *data, size_t len,
		   struct stack_frames **fr);

/* stack_kernel.c: pc named from /proc/kallsyms into f (read once). */
void stack_kernel_resolve(struct stack_frame *f, uint64_t pc, int activation);
void stack_kernel_free(void);
/* How many of the n kernel frames at f, innermost first, are the tracing's
 * own (the BPF program up to the tracepoint): not the program's. */
size_t stack_kernel_tracer_frames(const struct stack_frame *f, size_t n);

/* stack_buildid.c: where -k looks for files by build-id (--debug-dir;
 * NULL: /usr/lib/debug), for libdwfl's debuginfo_path too. */
void stack_set_debug_dir(const char *dir);
/* A file of these build-id bytes under the debug directory's .build-id
 * tree (the ELF, else its .debug file) whose note says so: a path of
 * malloc(), NULL when none; the directory given first, then
 * /usr/lib/debug. */
char *stack_find_build_id(const unsigned char *id, size_t len);

/* stack_fmt.c: strace -k's lines (" > /usr/lib/x86_64-linux-gnu/libc.so.6
 * (__open64+0x51) [0xf8011]"), or a JSON Lines record of the frames; a
 * string of malloc(), NULL when out of memory. */
char *stack_frames_text(const struct stack_frames *fr);
char *stack_frames_json(const struct stack_frames *fr, pid_t pid, pid_t tid);

#endif
