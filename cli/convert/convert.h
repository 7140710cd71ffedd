/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf convert: its writers (JSON Lines is show_log's, in cmd_show.c). */
#ifndef PTBPF_CLI_CONVERT_H
#define PTBPF_CLI_CONVERT_H

#include <stdio.h>

#include "fmt/fmt.h"

/* convert_chrome.c: the events of trid as Chrome trace-event JSON; an exit code */
int convert_chrome(trace_id_t trid, FILE *out);
/*
 * perfetto.c: the events of trid as a Perfetto trace (perfetto.protos.Trace
 * of TrackEvents), written as the log is read; an exit code
 */
int convert_perfetto(trace_id_t trid, FILE *out);
/*
 * convert_ctf.c: the events of trid as a CTF 1.8 trace in dir; an exit code.
 * A dir that exists and holds anything is refused unless force.
 */
int convert_ctf(trace_id_t trid, const char *dir, int force);

/* call.c: a syscall's entry kept until its exit (the slices of chrome and perfetto) */
struct conv_call {
	trace_event_id_t id; /* the entry's, 0: no call open */
	int64_t ts;
	struct sbuf text;  /* the call decoded */
	struct sbuf data;  /* the entry's payload when it lacks a path (fmt_late_keep) */
	struct sbuf entry; /* the entry's payload: its arguments one by one */
	uint64_t args[6];  /* the entry's arguments, for its result (fcntl's) */
	int has_args;
};
/* Keeps ev, an entry of sys; -1 when out of memory. */
int conv_call_open(struct conv_call *c, const struct cli_ev *ev, const char *sys);
void conv_call_free(struct conv_call *c);

/* stacks.c: the user stacks of a log in a Chrome/Perfetto trace: a tree of
 * frames, each (caller, name) stored once and referred to by id, as the
 * format's "stackFrames" table and each slice's "sf" want. */
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
