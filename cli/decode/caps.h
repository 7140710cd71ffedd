/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The captures of a syscall event (struct ptbpf_sys_cap), as strace prints them. */
#ifndef PTBPF_DECODE_CAPS_H
#define PTBPF_DECODE_CAPS_H

#include <stddef.h>
#include <stdint.h>
#include <ptbpf/events.h>

#include "decode/decode.h"
#include "decode/struct.h"

/* -s, -v, -x: how much of what is captured is printed (default -s 32) */
struct decode_opts;
void decode_set_opts(const struct decode_opts *o);
const struct decode_opts *decode_get_opts(void);

#define CAP_SET_MAX 48 /* execve: 32 argv strings and the vectors' ends */

struct cap_ref {
	struct ptbpf_sys_cap h; /* a copy: the payload's is unaligned */
	const unsigned char *p; /* h.len bytes, inside the payload */
};

struct cap_set {
	struct cap_ref c[CAP_SET_MAX];
	int n;
	int has_ret; /* an exit's: ret is its result */
	int64_t ret;
};

/* The captures of a sys_enter or sys_exit payload (none: n = 0). */
void caps_of_entry(struct cap_set *cs, const void *data, size_t len);
void caps_of_exit(struct cap_set *cs, const void *data, size_t len);
/* Does the entry (its payload) hold argument arg as it prints, whatever its
 * exit captures of it (a signal set, fcntl's lock to set)? */
int caps_entry_whole(const void *data, size_t len, int arg);
/* The first argument an entry's exit brings a capture of, -1: none. */
int caps_exit_arg(const void *data, size_t len);
/* Did the entry read every string of argument arg's vector that is printed
 * (then what its exit brings for it, execve's argument area, is not needed)? */
int caps_vector_whole(const struct cap_set *ent, int arg);
/* Argument arg (args: the call's values; type: its A_* in the syscall's
 * description) from the exit's captures, else the entry's: 1 printed, 0
 * nothing printed (no capture, or a short one). */
int caps_print_arg(struct sbuf *b, const struct cap_set *ent, const struct cap_set *exit, int arg,
		   const uint64_t *args, int type);
/* JSON: an exit's captures, ",\"decoded\":{\"buf\":\"...\"}" by argument name;
 * entry (NULL: not known) is its entry's payload, for what depends on it
 * (an ioctl's command, an exec's argv) */
/* The text of capture i of x for JSON (an iovec, a msghdr: the whole
 * argument); nonzero: none. */
int caps_json_arg(struct sbuf *t, const struct cap_set *x, int i);
/* What strace prints after the result: poll's " ([{fd=3, revents=POLLIN}])" */
void caps_print_after_ret(struct sbuf *b, const struct cap_set *exit);

#endif
