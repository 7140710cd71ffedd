/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: the printers of the scalar argument types of schema/syscalls.def, as strace 6.1 prints
 * them on x86_64; results that need the call's arguments (fcntl's F_GETFL).
 */
#ifndef PTBPF_DECODE_SCALAR_H
#define PTBPF_DECODE_SCALAR_H

#include <stdint.h>

#include "decode/decode.h"
#include "syscall_types.h"
#include "xlat_tables.h"

struct sysdesc {
	const char *name;
	signed char nargs;  /* printed; -1: no description (sys_desc() gives NULL) */
	unsigned char ret;  /* enum rtype */
	unsigned char form; /* enum sform */
	struct {
		unsigned char type; /* enum atype */
		unsigned char xlat; /* enum xlat_id: the schema's printer column */
	} a[6];
};

/* Prints argument i of args, of a type other than A_PATH, with table xlat (XL_: none). */
void scalar_arg(struct sbuf *b, int type, int xlat, const uint64_t *args, int i);
/* The arguments of d's call with these values it prints, a bit each. */
unsigned scalar_argmask(const struct sysdesc *d, const uint64_t *args);
/*
 * A successful result of a form of its own (R_FCNTL's depends on the
 * arguments, NULL: unknown), after " = "; 0: not such a result, nothing
 * printed.
 */
int scalar_ret(struct sbuf *b, const struct sysdesc *d, const uint64_t *args, int64_t ret);

#endif
