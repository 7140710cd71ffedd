/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: record, show, convert and list POSIX traces (a libposixtrace client). */
#include <argp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <ptbpf/ptbpf.h>

#include "cli.h"
#include "util/util.h"

struct subcmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct subcmd subcmds[] = {
	{ "record", cmd_record, "trace a command or running processes (live or into a log)" },
	{ "show", cmd_show, "print the events of a trace log (text or JSON Lines)" },
	{ "convert", cmd_convert, "convert a trace log to Chrome JSON, CTF or JSON Lines" },
	{ "export", cmd_export, "send the events of a trace log to ClickHouse, each once" },
	{ "list", cmd_list, "list the event types the running kernel offers" },
	{ "info", cmd_info,
	  "what the kernel and the caller offer, and how to fix what is missing" },
};

#define NSUB (sizeof(subcmds) / sizeof(subcmds[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: ptbpf COMMAND [OPTION...] [ARG...]\n\nCommands:\n");
	for (i = 0; i < NSUB; i++)
		fprintf(f, "  %-9s %s\n", subcmds[i].name, subcmds[i].help);
	fprintf(f, "\nptbpf COMMAND --help shows the options of a command.\n"
		   "Options: --help, --usage, --version\n");
}

/* The optional features this ptbpf was built with, as strace -V names its own. */
static const char version_features[] = "stack-trace=libdw"
#if defined(__SANITIZE_ADDRESS__)
				       " asan"
#endif
	;

/*
 * GNU's --version: the first line "ptbpf X.Y.Z" alone (scripts read its last
 * word), then the library's version and what was compiled in, as strace -V.
 */
static void print_version(FILE *f, struct argp_state *state)
{
	fprintf(f,
		"ptbpf %s\n"
		"libposixtrace %s, libdw %s\n"
		"License LGPL-2.1-or-later: this is free software; see the source for copying\n"
		"conditions. There is NO warranty; not even for MERCHANTABILITY or FITNESS\n"
		"FOR A PARTICULAR PURPOSE.\n"
		"\n"
		"Optional features enabled: %s\n",
		PTBPF_VERSION_STRING, ptbpf_version(), dwfl_version(NULL), version_features);
}

/*
 * The library's messages (libbpf's verifier logs, probe failures) go to
 * stderr only with PTBPF_VERBOSE set, its debug messages with
 * PTBPF_VERBOSE=2: ptbpf reports every failure in one line itself.
 */
static int lib_print(enum ptbpf_print_level level, const char *fmt, va_list ap)
{
	const char *v = getenv("PTBPF_VERBOSE");

	if (!v || !*v || (level == PTBPF_DEBUG && strcmp(v, "2")))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	size_t i;

	ptbpf_set_print(lib_print);

	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "-?")) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "--usage")) {
		printf("Usage: ptbpf [--help] [--usage] [--version] COMMAND [ARG...]\n");
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		print_version(stdout, NULL);
		return CLI_EXIT_OK;
	}
	/* argp errors exit with our usage code and name "ptbpf COMMAND" */
	argp_err_exit_status = CLI_EXIT_USAGE;
	argp_program_version_hook = print_version;
	argp_program_bug_address = NULL;
	for (i = 0; i < NSUB; i++) {
		if (!strcmp(argv[1], subcmds[i].name)) {
			static char name[64];

			snprintf(name, sizeof(name), "ptbpf %s", subcmds[i].name);
			argv[1] = name;
			return subcmds[i].fn(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "ptbpf: unknown command '%s' (ptbpf --help lists them)\n", argv[1]);
	return CLI_EXIT_USAGE;
}
