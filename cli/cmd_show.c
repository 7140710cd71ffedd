/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf show: print a trace log; ptbpf list: the event types of this kernel. */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>
#include <ptbpf/evfields.h>

#include "cli.h"
#include "decode/probes.h"
#include "view/view.h"

struct show_args {
	const char *log;
	int json;
	struct view_opts view;
};

enum { OPT_JSON = 0x100 };

static const struct argp_option show_opts[] = {
	{ "json", OPT_JSON, NULL, 0,
	  "JSON Lines: one object per event, plus a stream "
	  "attributes record first and a status record last",
	  0 },
	{ 0 }
};

static error_t show_parse(int key, char *arg, struct argp_state *state)
{
	struct show_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->view;
		break;
	case OPT_JSON:
		a->json = 1;
		break;
	case ARGP_KEY_ARG:
		if (a->log)
			argp_error(state, "only one log file");
		a->log = arg;
		break;
	case ARGP_KEY_END:
		if (!a->log)
			argp_error(state, "give the log file to show");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child show_children[] = {
	{ &view_argp, 0, NULL, 0 },
	{ 0 },
};

static const struct argp show_argp = {
	.options = show_opts,
	.parser = show_parse,
	.children = show_children,
	.args_doc = "LOG",
	.doc = "Print the events of a POSIX trace log (from 'ptbpf record -o' or any program "
	       "using posix_trace_create_withlog) in the same format as 'ptbpf record'. LOG "
	       "may be a pipe, or - for standard input. -c prints strace -c's table of the "
	       "log's syscalls instead, --summary=thread perf trace --summary's.",
};

/*
 * Writes the events of an open log as text or JSON Lines, as the view
 * options vo say (NULL: all of them), and the summaries they ask for;
 * returns an exit code.
 */
/* A log recorded in a pid namespace: its pids are not the host's (JSON has it). */
static void show_pidns_note(trace_id_t trid)
{
	trace_attr_t a;
	uint64_t ino = 0;

	if (posix_trace_attr_init(&a))
		return;
	if (!posix_trace_get_attr(trid, &a))
		ptbpf_trace_attr_getpidns(&a, &ino);
	posix_trace_attr_destroy(&a);
	if (ino && ino != PTBPF_PIDNS_INITIAL)
		cli_err("the pids are those of pid namespace pid:[%llu], not the initial one",
			(unsigned long long)ino);
}

/* Was the log recorded with -f (its inheritance policy)? */
static int log_follows(trace_id_t trid)
{
	trace_attr_t attr;
	int inh = POSIX_TRACE_CLOSE_FOR_CHILD;

	if (posix_trace_get_attr(trid, &attr))
		return 0;
	posix_trace_attr_getinherited(&attr, &inh);
	posix_trace_attr_destroy(&attr);
	return inh == POSIX_TRACE_INHERITED;
}

static int show_log_view(trace_id_t trid, FILE *out, int json, const struct view_opts *vo)
{
	struct fmt_look look;
	static char buf[65536];
	struct view_opts plain;
	struct view *v;
	struct fmt f;
	struct cli_ev ev;
	int unav = 0, err, ret = CLI_EXIT_OK, prints;

	if (!vo) {
		view_opts_init(&plain);
		vo = &plain;
	}
	prints = view_opts_prints(vo);
	/* as --output-text would have printed it */
	view_look(vo, &look, 1, log_follows(trid), 0);
	fmt_init(&f, out, json, &look);
	if (view_new(&v, vo, &f, 0) || (prints && json && fmt_json_attr(out, trid))) {
		if (v)
			cli_err("out of memory");
		view_free(v);
		fmt_fini(&f);
		return CLI_EXIT_FAIL;
	}
	if (prints && !json)
		show_pidns_note(trid);
	for (;;) {
		err = cli_ev_next(trid, &ev, buf, sizeof(buf), &unav);
		if (err) {
			cli_err("reading the log: %s", strerror(err));
			ret = CLI_EXIT_BADLOG;
			break;
		}
		if (unav)
			break;
		view_event(v, &ev);
		if (fmt_failed(&f) || view_failed(v))
			break;
	}
	view_end(v, 0);
	fmt_flush(&f);
	if (fmt_failed(&f) || view_failed(v) || view_report(v, out)) {
		cli_err("out of memory");
		if (!ret)
			ret = CLI_EXIT_FAIL;
	} else if (json && prints) {
		fmt_json_status(out, trid, f.nevents, f.noverflow);
	}
	view_free(v);
	fmt_fini(&f);
	return ret;
}

int show_log(trace_id_t trid, FILE *out, int json)
{
	return show_log_view(trid, out, json, NULL);
}

int cmd_show(int argc, char **argv)
{
	struct show_args a = { 0 };
	trace_id_t trid;
	int ret;

	view_opts_init(&a.view);
	if (argp_parse(&show_argp, argc, argv, 0, NULL, &a))
		return CLI_EXIT_USAGE;
	ret = cli_open_log(a.log, &trid);
	if (ret)
		return ret;
	if (!isatty(STDOUT_FILENO))
		cli_big_buffer(stdout);
	ret = show_log_view(trid, stdout, a.json, &a.view);
	posix_trace_close(trid);
	if (fflush(stdout) && !ret) {
		cli_err("writing the output: %s", strerror(errno));
		ret = CLI_EXIT_FAIL;
	}
	return ret;
}

/* ------------------------------------------------------------------------- */

static const struct argp_option list_opts[] = {
	{ "json", OPT_JSON, NULL, 0, "One JSON object per event type", 0 }, { 0 }
};

struct list_args {
	int json;
	const char *probes; /* uprobe:PATH or usdt:PATH: that binary's */
};

static error_t list_parse(int key, char *arg, struct argp_state *state)
{
	struct list_args *a = state->input;

	switch (key) {
	case OPT_JSON:
		a->json = 1;
		break;
	case ARGP_KEY_ARG:
		if (a->probes || !probe_is_spec(arg))
			argp_error(state, "one argument at most: uprobe:PATH[:PATTERN] or "
					  "usdt:PATH[:[PROVIDER:]PATTERN]");
		a->probes = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp list_argp = {
	.options = list_opts,
	.parser = list_parse,
	.args_doc = "[uprobe:PATH[:PATTERN] | usdt:PATH[:[PROVIDER:]PATTERN]]",
	.doc = "List every event type the running kernel offers (POSIX events, process, "
	       "signal and scheduler events, syscall entry and exit events), one per line; "
	       "or the function symbols (uprobe:) or USDT probes (usdt:) of a binary.",
};

/* The -e group of an event type (its class in <ptbpf/evfields.h>). */
static const char *kind_of(trace_event_id_t id)
{
	const struct ptbpf_event_desc *d = ptbpf_event_desc(id);

	if (d && !strcmp(d->group, "signal"))
		return "signals";
	if (d && (!strcmp(d->group, "stack") || !strcmp(d->group, "fd")))
		return "other"; /* in no group but all */
	if (d)
		return d->group;
	if (PTBPF_EV_IS_SYSCALL(id))
		return "syscalls";
	if (id >= PTBPF_EV_USER_BASE)
		return "user";
	return "other";
}

static void list_one(trace_event_id_t id, const char *name, int json)
{
	if (json)
		printf("{\"id\":%lu,\"name\":\"%s\",\"group\":\"%s\"}\n", (unsigned long)id, name,
		       kind_of(id));
	else
		printf("%s\n", name);
}

/* The system event types are the same in every stream: no stream (no BPF,
 * no privilege) is needed to list them. */
int cmd_list(int argc, char **argv)
{
	trace_event_id_t id = 0;
	char name[TRACE_EVENT_NAME_MAX];
	struct list_args a = { 0 };
	int json;

	if (argp_parse(&list_argp, argc, argv, 0, NULL, &a))
		return CLI_EXIT_USAGE;
	json = a.json;
	if (a.probes)
		return probe_list(a.probes, json);
	while (!ptbpf_system_eventid_next(id, &id))
		if (!ptbpf_system_eventid_get_name(id, name))
			list_one(id, name, json);
	list_one(POSIX_TRACE_UNNAMED_USEREVENT, "posix_trace_unnamed_userevent", json);
	return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
