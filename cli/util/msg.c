/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: its messages on stderr, after its name. */
#include <stdarg.h>
#include <stdio.h>

#include "util/util.h"

const char *cli_prog = "ptbpf";

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
