/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf convert: a trace log to a Perfetto trace, Chrome trace-event JSON, CTF 1.8 or JSON Lines.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "cli.h"
#include "convert/convert.h"

enum { TO_NONE, TO_PERFETTO, TO_CHROME, TO_CTF, TO_JSONL };

struct convert_args {
	const char *log;
	const char *out;
	int to;
	int force;
};

static const struct argp_option convert_opts[] = {
	{ "to", 'T', "FORMAT", 0, "Output format: perfetto, chrome, ctf or jsonl", 0 },
	{ "output", 'o', "OUT", 0,
	  "Output file (perfetto, chrome, jsonl; - for stdout) or directory (ctf)", 0 },
	{ "force", 'f', NULL, 0, "Write into an existing, non-empty CTF directory", 0 },
	{ 0 }
};

static error_t convert_parse(int key, char *arg, struct argp_state *state)
{
	struct convert_args *a = state->input;

	switch (key) {
	case 'T':
		if (!strcmp(arg, "perfetto"))
			a->to = TO_PERFETTO;
		else if (!strcmp(arg, "chrome"))
			a->to = TO_CHROME;
		else if (!strcmp(arg, "ctf"))
			a->to = TO_CTF;
		else if (!strcmp(arg, "jsonl") || !strcmp(arg, "json"))
			a->to = TO_JSONL;
		else
			argp_error(state, "unknown format '%s' (perfetto, chrome, ctf or jsonl)",
				   arg);
		break;
	case 'o':
		a->out = arg;
		break;
	case 'f':
		a->force = 1;
		break;
	case ARGP_KEY_ARG:
		if (a->log)
			argp_error(state, "only one log file");
		a->log = arg;
		break;
	case ARGP_KEY_END:
		if (!a->log)
			argp_error(state, "give the log file to convert");
		if (a->to == TO_NONE)
			argp_error(state, "give the output format with --to");
		if (!a->out)
			argp_error(state, "give the output with -o");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp convert_argp = {
	.options = convert_opts,
	.parser = convert_parse,
	.args_doc = "LOG",
	.doc = "Convert a POSIX trace log (LOG: a file, a pipe, or - for standard input).\v"
	       "perfetto: a Perfetto trace (protobuf) for ui.perfetto.dev and its trace "
	       "processor: a track per process and thread, each syscall a slice with its "
	       "arguments and result, other events instants, lost events a counter.\n"
	       "chrome: Chrome trace-event JSON for chrome://tracing and older tools; "
	       "syscalls are complete slices per thread, other events instants.\n"
	       "ctf: a CTF 1.8 trace directory (metadata + stream_0) that babeltrace2 and "
	       "Trace Compass read; lost events become discarded-event counts. A directory that "
	       "exists and is not empty is refused unless --force is given.\n"
	       "jsonl: JSON Lines, as 'ptbpf show --json'.",
};

int cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	trace_id_t trid;
	FILE *out = stdout;
	int ret;

	if (argp_parse(&convert_argp, argc, argv, 0, NULL, &a))
		return CLI_EXIT_USAGE;
	ret = cli_open_log(a.log, &trid);
	if (ret)
		return ret;
	if (a.to == TO_CTF) {
		ret = convert_ctf(trid, a.out, a.force);
		posix_trace_close(trid);
		return ret;
	}
	if (strcmp(a.out, "-")) {
		out = fopen(a.out, "w");
		if (!out) {
			cli_err("cannot create %s: %s", a.out, strerror(errno));
			posix_trace_close(trid);
			return CLI_EXIT_FAIL;
		}
	}
	cli_big_buffer(out);
	if (a.to == TO_PERFETTO)
		ret = convert_perfetto(trid, out);
	else if (a.to == TO_CHROME)
		ret = convert_chrome(trid, out);
	else
		ret = show_log(trid, out, 1);
	posix_trace_close(trid);
	if ((out == stdout ? fflush(out) : fclose(out)) && !ret) {
		cli_err("writing %s: %s", a.out, strerror(errno));
		ret = CLI_EXIT_FAIL;
	}
	return ret;
}
