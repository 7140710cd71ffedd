/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ptbpf command: shared declarations of its subcommands. */
#ifndef PTBPF_CLI_H
#define PTBPF_CLI_H

/* Exit codes (documented in ptbpf(1) and README.md). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1      /* generic failure */
#define CLI_EXIT_USAGE 2     /* bad command line */
#define CLI_EXIT_PERM 3      /* missing privilege or capability */
#define CLI_EXIT_NOBPF 4     /* kernel lacks BTF or BPF features */
#define CLI_EXIT_NOPID 5     /* no such process */
#define CLI_EXIT_NOCMD 6     /* command not found */
#define CLI_EXIT_BADLOG 7    /* log unreadable or invalid */

extern const char *cli_prog;

int cmd_info(int argc, char **argv);

#endif
