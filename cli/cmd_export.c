/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf export: a trace log's events into a ClickHouse table, each once. */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export/export.h"

enum {
	OPT_CLICKHOUSE = 0x100,
	OPT_TABLE,
	OPT_HOST,
	OPT_BATCH,
	OPT_RETRY,
	OPT_FOLLOW_FD,
};

static const struct argp_option export_opts[] = {
	{ "clickhouse", OPT_CLICKHOUSE, "URL", 0,
	  "The ClickHouse server's HTTP interface: http://[USER[:PASSWORD]@]HOST:8123/ (or "
	  "CLICKHOUSE_USER, CLICKHOUSE_PASSWORD in the environment; the URL: PTBPF_CLICKHOUSE_URL)",
	  0 },
	{ "clickhouse-table", OPT_TABLE, "NAME", 0,
	  "The table ([DB.]NAME, default ptbpf_events), created if missing", 0 },
	{ "host", OPT_HOST, "NAME", 0, "The rows' host_name (default: this machine's name)", 0 },
	{ "batch-rows", OPT_BATCH, "N", 0, "Rows per INSERT at most (default 10000)", 0 },
	{ "retry-for", OPT_RETRY, "SECONDS", 0,
	  "Retry a server that does not answer this long before giving up (default 60)", 0 },
	{ "follow-fd", OPT_FOLLOW_FD, "FD", OPTION_HIDDEN, "", 0 },
	{ 0 }
};

/* A number in [min, max], or an argp error. */
static double num_arg(struct argp_state *state, const char *opt, const char *arg, double min,
		      double max)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= min && v <= max))
		argp_error(state, "%s: '%s' is not a number from %g to %g", opt, arg, min, max);
	return v;
}

static error_t export_parse(int key, char *arg, struct argp_state *state)
{
	struct ship_opts *o = state->input;

	switch (key) {
	case OPT_CLICKHOUSE:
		o->url = arg;
		break;
	case OPT_TABLE:
		o->table = arg;
		break;
	case OPT_HOST:
		if (!*arg)
			argp_error(state, "--host: an empty name");
		o->host = arg;
		break;
	case OPT_BATCH:
		/* below ClickHouse's max_insert_block_size: one batch, one block */
		o->batch_rows = (size_t)num_arg(state, "--batch-rows", arg, 1, 100000);
		break;
	case OPT_RETRY:
		o->retry_secs = num_arg(state, "--retry-for", arg, 0, 1e9);
		break;
	case OPT_FOLLOW_FD:
		o->follow_fd = (int)num_arg(state, "--follow-fd", arg, 0, 1 << 20);
		break;
	case ARGP_KEY_ARG:
		if (o->log)
			argp_error(state, "only one log file");
		if (!strcmp(arg, "-"))
			argp_error(state, "the log must be a file (it may be read again)");
		o->log = arg;
		break;
	case ARGP_KEY_END:
		if (!o->log)
			argp_error(state, "give the log file to export");
		if (!o->url)
			o->url = getenv("PTBPF_CLICKHOUSE_URL");
		if (!o->url)
			argp_error(state, "give the server with --clickhouse=URL");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp export_argp = {
	.options = export_opts,
	.parser = export_parse,
	.args_doc = "LOG",
	.doc = "Send the events of a POSIX trace log to a ClickHouse table, one row per event (a "
	       "syscall's entry and exit: one row), each once: the rows the table already holds "
	       "of the log's stream are not sent again, so exporting a log twice adds nothing "
	       "and exporting a log a record could not finish completes it. Exit status 8: "
	       "events were not sent (said, with the command that sends them).",
};

int cmd_export(int argc, char **argv)
{
	struct ship_opts o;

	ship_opts_init(&o);
	if (argp_parse(&export_argp, argc, argv, 0, NULL, &o))
		return CLI_EXIT_USAGE;
	return ship_log(&o);
}
