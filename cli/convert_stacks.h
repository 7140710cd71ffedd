/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The user stacks of a log in a Chrome/Perfetto trace: a tree of frames,
 * each (caller, name) stored once and referred to by id, as the format's
 * "stackFrames" table and each slice's "sf" want.
 */
#ifndef PTBPF_CLI_CONVERT_STACKS_H
#define PTBPF_CLI_CONVERT_STACKS_H

#include <stddef.h>
#include <sys/types.h>

#include "cli.h"

struct frame_tree;

struct frame_tree *frame_tree_new(void);
void frame_tree_free(struct frame_tree *t);
/* An event of the log (proc_map, user_stack, stack_trace, stack_ref); for
 * a user_stack or stack_ref the id of its innermost frame, 0 for none
 * (other events, no memory). A stack_ref of kernel frames only puts them
 * on parent, the user stack its event had before. */
unsigned int frame_tree_event(struct frame_tree *t, const struct cli_ev *ev, unsigned int parent);
/* Appends ,"stackFrames":{...} (nothing when there are no frames). */
void frame_tree_json(const struct frame_tree *t, struct sbuf *b);

#endif
