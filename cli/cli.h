/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ptbpf command: its subcommands' entry points. */
#ifndef PTBPF_CLI_CLI_H
#define PTBPF_CLI_CLI_H

#include <stdio.h>
#include <trace.h>

int cmd_info(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_export(int argc, char **argv);

/* cmd_show.c: events of an open log as text or JSON Lines; an exit code */
int show_log(trace_id_t trid, FILE *out, int json);

#endif
