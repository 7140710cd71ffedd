/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf convert: its writers (JSON Lines is show_log's, in cmd_show.c). */
#ifndef PTBPF_CLI_CONVERT_H
#define PTBPF_CLI_CONVERT_H

#include <stdio.h>

#include "cli.h"

/* convert_chrome.c: the events of trid as Chrome trace-event JSON; an exit code */
int convert_chrome(trace_id_t trid, FILE *out);
/*
 * convert_ctf.c: the events of trid as a CTF 1.8 trace in dir; an exit code.
 * A dir that exists and holds anything is refused unless force.
 */
int convert_ctf(trace_id_t trid, const char *dir, int force);

#endif
