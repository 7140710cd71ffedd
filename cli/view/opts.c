/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The options of the view (see view.h), with strace's spelling, as an argp
 * child of ptbpf record and ptbpf show; the -e qualifiers of strace; and
 * the strace options ptbpf does not take, each refused by name.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "stack/stack.h"
#include "view/view.h"

enum {
	OPT_STATUS = 0x200,
	OPT_FAILING,
	OPT_HISTOGRAM,
	OPT_DEBUG_DIR,
	/* strace's long options without a short one, refused */
	OPT_NO_STRINGS_IN_HEX,
	OPT_NO_PIDNS,
	OPT_NO_TIPS,
	OPT_NO_ABBREV,
	OPT_NO_VERBOSE,
	OPT_NO_RAW,
	OPT_NO_READ,
	OPT_NO_WRITE,
	OPT_NO_FAULT,
	OPT_NO_INJECT,
	OPT_NO_KVM,
	OPT_NO_DECODE_FDS,
	OPT_NO_SECONTEXT,
};

/*
 * strace 6.1's options that ptbpf does not take: hidden, with what they do
 * as their doc, refused by name. Each takes an optional argument, so that
 * --string-limit=80 gets this error, not argp's.
 */
#define REFUSED (OPTION_HIDDEN | OPTION_ARG_OPTIONAL)

/* strace's -e qualifiers: trace= and status= are taken, the others not */
static const struct {
	const char *name;
	int taken;
	const char *what;
} qualifiers[] = {
	{ "trace", 1, NULL },
	{ "t", 1, NULL },
	{ "status", 1, NULL },
	{ "abbrev", 0, "abbreviated structures" },
	{ "a", 0, "abbreviated structures" },
	{ "verbose", 0, "unabbreviated structures" },
	{ "v", 0, "unabbreviated structures" },
	{ "raw", 0, "raw arguments" },
	{ "x", 0, "raw arguments" },
	{ "signal", 1, "selecting the signals printed" },
	{ "signals", 1, "selecting the signals printed" },
	{ "s", 1, "selecting the signals printed" },
	{ "quiet", 1, "suppressing messages" },
	{ "silent", 1, "suppressing messages" },
	{ "silence", 1, "suppressing messages" },
	{ "q", 1, "suppressing messages" },
	{ "read", 0, "dumps of the data read" },
	{ "reads", 0, "dumps of the data read" },
	{ "r", 0, "dumps of the data read" },
	{ "write", 0, "dumps of the data written" },
	{ "writes", 0, "dumps of the data written" },
	{ "w", 0, "dumps of the data written" },
	{ "fault", 0, "fault injection" },
	{ "inject", 0, "fault injection" },
	{ "kvm", 0, "KVM vcpu exits" },
	{ "decode-fd", 0, "the paths of fds" },
	{ "decode-fds", 0, "the paths of fds" },
	{ "decode-pid", 0, "the command names of pids" },
	{ "decode-pids", 0, "the command names of pids" },
	{ "secontext", 0, "SELinux contexts" },
};

static const struct {
	const char *name;
	unsigned int bit;
} statuses[] = {
	{ "successful", VIEW_ST_SUCCESSFUL }, { "failed", VIEW_ST_FAILED },
	{ "unfinished", VIEW_ST_UNFINISHED }, { "unavailable", VIEW_ST_UNAVAILABLE },
	{ "detached", VIEW_ST_DETACHED },
};

/* strace's -T precisions: the digits after the point */
static const struct {
	const char *name;
	int digits;
} precisions[] = {
	{ "s", 0 },
	{ "ms", 3 },
	{ "us", 6 },
	{ "ns", 9 },
};

static const struct argp_option view_options[] = {
	{ NULL, 0, NULL, 0, "strace's summary, filters and times:", 10 },
	{ "summary-only", 'c', NULL, 0,
	  "Print no events: at the end, strace -c's table of the syscalls (calls, errors, "
	  "time in each syscall)",
	  10 },
	{ "summary", 'C', "MODE", OPTION_ARG_OPTIONAL,
	  "Without MODE: print the events and, at the end, the -c table; thread or process: "
	  "print no events, but perf trace --summary's tables per thread or per process",
	  10 },
	{ "summary-sort-by", 'S', "SORTBY", 0,
	  "Sort the -c table by time (the default), calls, errors, name, min-time, max-time, "
	  "avg-time or nothing",
	  10 },
	{ "summary-columns", 'U', "COLUMNS", 0,
	  "The -c table's columns: time-percent, total-time, min-time, max-time, avg-time, "
	  "calls, errors, name",
	  10 },
	{ "histogram", OPT_HISTOGRAM, "SYSCALLS", OPTION_ARG_OPTIONAL,
	  "At the end, each syscall's (or these: a comma list) distribution of times in log2 "
	  "buckets, as bpftrace's hist(); counted in the kernel with -c",
	  10 },
	{ "summary-wall-clock", 'w', NULL, 0,
	  "Accepted: ptbpf's -c times always are the time between entry and exit", 10 },
	{ "syscall-times", 'T', "PRECISION", OPTION_ARG_OPTIONAL,
	  "Print the time spent in each syscall at the end of its line, <S.UUUUUU> (PRECISION "
	  "s, ms, us or ns: the digits)",
	  10 },
	{ "successful-only", 'z', NULL, 0, "Print only the syscalls that succeeded", 10 },
	{ "failed-only", 'Z', NULL, 0, "Print only the syscalls that failed", 10 },
	{ "failing-only", OPT_FAILING, NULL, OPTION_ALIAS, NULL, 10 },
	{ "status", OPT_STATUS, "SET", 0,
	  "Print only the syscalls of these statuses (as -e status=): successful, failed, "
	  "unfinished, unavailable, detached",
	  10 },
	{ "trace-path", 'P', "PATH", 0,
	  "Print only the syscalls that touch PATH, by name or through an fd that refers to it "
	  "(repeat for more paths)",
	  10 },
	{ "stack-traces", 'k', NULL, 0,
	  "Print the user stack of each syscall under its line, as strace -k (recorded with "
	  "record -k: unwound with the DWARF CFI of each module)",
	  10 },
	{ "debug-dir", OPT_DEBUG_DIR, "DIR", 0,
	  "With -k: look for separate debug info and, by build-id, for files moved or "
	  "deleted since the trace in DIR (default /usr/lib/debug)",
	  10 },
	{ NULL, 'y', NULL, 0,
	  "Print the paths of fd arguments and results, as strace -y (-yy: socket endpoints "
	  "and device numbers too; record -y records what each fd is)",
	  10 },
	{ "string-limit", 's', "N", 0,
	  "Print at most N bytes of each string or buffer an argument points to, as strace -s "
	  "(default 32; record captures that much, 0: nothing, arguments print as pointers)",
	  10 },
	{ "no-abbrev", 'v', NULL, 0, "Print every field of the structures arguments point to", 10 },
	{ NULL, 'x', NULL, 0,
	  "Print strings with a non-printable byte in hexadecimal (-xx: every string)", 10 },
	{ "const-print-style", 'X', "STYLE", 0,
	  "Print constants as strace -X does: raw (their values), abbrev (their names, the "
	  "default) or verbose (both: 0x3 /* PROT_READ|PROT_WRITE */)",
	  10 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, NULL, 10 }, /* strace's -h: the help */
	{ "debug", 'd', "X", REFUSED, "its debug output", 0 },
	{ NULL, 'F', "X", REFUSED, "following vforks (ptbpf -f follows them)", 0 },
	{ "instruction-pointer", 'i', "X", REFUSED, "printing the instruction pointer", 0 },
	{ "interruptible", 'I', "X", REFUSED, "when the tracer may be interrupted", 0 },
	{ "syscall-number", 'n', "X", REFUSED, "printing syscall numbers", 0 },
	{ "summary-syscall-overhead", 'O', "X", REFUSED, "the overhead taken off -c's times", 0 },
	{ "strings-in-hex", OPT_NO_STRINGS_IN_HEX, "X", REFUSED, "strings in hexadecimal", 0 },
	{ "pidns-translation", OPT_NO_PIDNS, "X", REFUSED, "pid namespace translation", 0 },
	{ "tips", OPT_NO_TIPS, "X", REFUSED, "tips", 0 },
	{ "abbrev", OPT_NO_ABBREV, "X", REFUSED, "abbreviated structures", 0 },
	{ "verbose", OPT_NO_VERBOSE, "X", REFUSED, "unabbreviated structures", 0 },
	{ "raw", OPT_NO_RAW, "X", REFUSED, "raw arguments", 0 },
	{ "read", OPT_NO_READ, "X", REFUSED, "dumps of the data read", 0 },
	{ "write", OPT_NO_WRITE, "X", REFUSED, "dumps of the data written", 0 },
	{ "fault", OPT_NO_FAULT, "X", REFUSED, "fault injection", 0 },
	{ "inject", OPT_NO_INJECT, "X", REFUSED, "fault injection", 0 },
	{ "kvm", OPT_NO_KVM, "X", REFUSED, "KVM vcpu exits", 0 },
	{ "decode-fds", OPT_NO_DECODE_FDS, "X", REFUSED, "the paths of fds", 0 },
	{ "secontext", OPT_NO_SECONTEXT, "X", REFUSED, "SELinux contexts", 0 },
	{ 0 }
};

void view_opts_init(struct view_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sortby = SUM_COL_TIME_100S;
	memcpy(o->columns, summary_default_columns, sizeof(o->columns));
	o->times = -1;
	o->status = VIEW_ST_ALL;
	o->strsize = 32;
	o->acolumn = 40;
}

/* strace's qualify_tokens(): ! inverts, none, all, or a comma list */
static int parse_status(const char *spec, unsigned int *set, char *msg, size_t msgsz)
{
	unsigned int s = 0;
	int invert = 0;
	const char *p;

	while (*spec == '!') {
		invert = !invert;
		spec++;
	}
	if (!strcmp(spec, "all")) {
		s = VIEW_ST_ALL;
	} else if (strcmp(spec, "none")) {
		for (p = spec;;) {
			size_t len = strcspn(p, ","), i;

			for (i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
				if (strlen(statuses[i].name) == len &&
				    !strncmp(statuses[i].name, p, len))
					break;
			if (i == sizeof(statuses) / sizeof(statuses[0])) {
				snprintf(msg, msgsz,
					 "invalid status '%.*s' (successful, failed, unfinished, "
					 "unavailable, detached)",
					 (int)len, p);
				return -1;
			}
			s |= statuses[i].bit;
			if (!p[len])
				break;
			p += len + 1;
		}
	}
	*set = invert ? VIEW_ST_ALL & ~s : s;
	return 0;
}

int view_qualifier(const char *arg, const char **events, struct view_opts *o, char *msg,
		   size_t msgsz)
{
	const char *eq = strchr(arg, '=');
	int look;

	if (eq) {
		size_t len = (size_t)(eq - arg);

		for (size_t i = 0; i < sizeof(qualifiers) / sizeof(qualifiers[0]); i++) {
			if (strlen(qualifiers[i].name) != len ||
			    strncmp(qualifiers[i].name, arg, len))
				continue;
			if (!qualifiers[i].taken) {
				snprintf(msg, msgsz,
					 "-e %.*s=: not supported (strace's qualifier for %s)",
					 (int)len, arg, qualifiers[i].what);
				return -1;
			}
			if (!strcmp(qualifiers[i].name, "status"))
				return parse_status(eq + 1, &o->status, msg, msgsz);
			look = view_look_qualifier(o, arg, len, eq + 1, msg, msgsz);
			if (look <= 0)
				return look;
			*events = eq + 1;
			return 0;
		}
	}
	*events = arg;
	return 0;
}

/* An option of strace's that ptbpf does not take: said by its names. */
static int refuse(struct argp_state *state, int key)
{
	const struct argp_option *op;

	for (op = view_options; op->key || op->name || op->doc; op++) {
		if (op->key != key || !(op->flags & OPTION_ARG_OPTIONAL) || !op->doc ||
		    !(op->flags & OPTION_HIDDEN))
			continue;
		if (key < 128 && op->name)
			argp_failure(state, CLI_EXIT_USAGE, 0,
				     "-%c (--%s): not supported (strace's option for %s)", key,
				     op->name, op->doc);
		else if (key < 128)
			argp_failure(state, CLI_EXIT_USAGE, 0,
				     "-%c: not supported (strace's option for %s)", key, op->doc);
		else
			argp_failure(state, CLI_EXIT_USAGE, 0,
				     "--%s: not supported (strace's option for %s)", op->name,
				     op->doc);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* The summary's options (-c, -C, -S, -U, -w); ARGP_ERR_UNKNOWN: not one. */
static error_t summary_opt(struct view_opts *o, int key, char *arg, struct argp_state *state)
{
	char msg[160];
	int c;

	switch (key) {
	case 'c':
		if (o->cflag == VIEW_C_BOTH)
			argp_error(state,
				   "-c/--summary-only and -C/--summary are mutually exclusive");
		o->cflag = VIEW_C_ONLY;
		break;
	case 'C':
		if (arg && !strcmp(arg, "thread")) {
			o->threads = VIEW_TH_THREAD;
		} else if (arg && !strcmp(arg, "process")) {
			o->threads = VIEW_TH_PROCESS;
		} else if (arg) {
			argp_error(state, "invalid --summary '%s' (thread or process, or none)",
				   arg);
		} else {
			if (o->cflag == VIEW_C_ONLY)
				argp_error(state, "-c/--summary-only and -C/--summary are "
						  "mutually exclusive");
			o->cflag = VIEW_C_BOTH;
		}
		break;
	case 'S':
		c = summary_sortby(arg);
		if (c < 0)
			argp_error(state, "invalid sortby: '%s'", arg);
		o->sortby = c;
		o->sortby_set = 1;
		break;
	case 'U':
		if (summary_columns(o->columns, arg, msg, sizeof(msg)))
			argp_failure(state, CLI_EXIT_USAGE, 0, "-U: %s", msg);
		o->columns_set = 1;
		break;
	case 'w':
		o->wall = 1;
		break;
	case OPT_HISTOGRAM:
		if (hist_select(o->hist_sel, arg, msg, sizeof(msg)))
			argp_failure(state, CLI_EXIT_USAGE, 0, "--histogram: %s", msg);
		o->histogram = 1;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* -T[PRECISION] */
static void times_opt(struct view_opts *o, const char *arg, struct argp_state *state)
{
	size_t i;

	o->times = 6;
	for (i = 0; arg && i < sizeof(precisions) / sizeof(precisions[0]); i++)
		if (!strcmp(arg, precisions[i].name))
			o->times = precisions[i].digits;
	if (arg && o->times == 6 && strcmp(arg, "us"))
		argp_error(state, "invalid -T precision '%s' (s, ms, us or ns)", arg);
}

/* -s STRSIZE */
static void strsize_opt(struct view_opts *o, const char *arg, struct argp_state *state)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || n > PTBPF_STRSIZE_MAX)
		argp_error(state, "-s: invalid string size '%s' (0 to %d)", arg, PTBPF_STRSIZE_MAX);
	o->strsize = (unsigned int)n;
}

/* strace's checks of the options together, with its words */
static void view_opts_end(const struct view_opts *o, struct argp_state *state)
{
	if (o->wall && !o->cflag)
		argp_error(state, "-w/--summary-wall-clock must be given with "
				  "(-c/--summary-only or -C/--summary)");
	if (o->columns_set && !o->cflag)
		argp_error(state, "-U/--summary-columns must be given with "
				  "(-c/--summary-only or -C/--summary)");
	if (o->sortby_set && !o->cflag)
		cli_err("-S/--summary-sort-by has no effect without "
			"(-c/--summary-only or -C/--summary)");
}

static error_t view_parse(int key, char *arg, struct argp_state *state)
{
	struct view_opts *o = state->input;
	char msg[160];

	if (summary_opt(o, key, arg, state) != ARGP_ERR_UNKNOWN)
		return 0;
	switch (key) {
	case 'T':
		times_opt(o, arg, state);
		break;
	case 'z':
		o->status = VIEW_ST_SUCCESSFUL;
		break;
	case 'Z':
	case OPT_FAILING:
		o->status = VIEW_ST_FAILED;
		break;
	case OPT_STATUS:
		if (parse_status(arg, &o->status, msg, sizeof(msg)))
			argp_failure(state, CLI_EXIT_USAGE, 0, "--status: %s", msg);
		break;
	case 'k':
		o->stacks = 1;
		break;
	case OPT_DEBUG_DIR:
		stack_set_debug_dir(arg);
		break;
	case 'y':
		if (o->fds < 2)
			o->fds++;
		break;
	case 's':
		strsize_opt(o, arg, state);
		break;
	case 'v':
		o->verbose = 1;
		break;
	case 'x':
		if (o->xflag < 2)
			o->xflag++;
		break;
	case 'X':
		if (!strcmp(arg, "raw"))
			o->xstyle = XLAT_RAW;
		else if (!strcmp(arg, "abbrev"))
			o->xstyle = XLAT_ABBREV;
		else if (!strcmp(arg, "verbose"))
			o->xstyle = XLAT_VERBOSE;
		else
			argp_failure(state, CLI_EXIT_USAGE, 0,
				     "-X: '%s' is not raw, abbrev or verbose", arg);
		break;
	case 'P':
		if (o->npaths == VIEW_MAX_PATHS)
			argp_error(state, "-P: at most %d paths", VIEW_MAX_PATHS);
		o->paths[o->npaths++] = arg;
		break;
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case ARGP_KEY_INIT:
		state->child_inputs[0] = o;
		break;
	case ARGP_KEY_END:
		view_opts_end(o, state);
		break;
	default:
		return refuse(state, key);
	}
	return 0;
}

static const struct argp_child view_children[] = {
	{ &view_look_argp, 0, NULL, 0 },
	{ 0 },
};

const struct argp view_argp = {
	.options = view_options,
	.parser = view_parse,
	.children = view_children,
};

unsigned int view_opts_kernel_status(const struct view_opts *o)
{
	if (o->cflag != VIEW_C_NONE || o->threads != VIEW_TH_NONE || o->npaths)
		return 0;
	if (o->status == VIEW_ST_SUCCESSFUL)
		return PTBPF_SYSCALL_SUCCESSFUL;
	if (o->status == VIEW_ST_FAILED)
		return PTBPF_SYSCALL_FAILED;
	return 0;
}
