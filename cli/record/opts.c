/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf record: its options (the argp table) and their parser. */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>

#include "record/record.h"

enum {
	OPT_BUFSIZE = 0x100,
	OPT_POLICY,
	OPT_DURATION,
	OPT_NAME,
	OPT_JSON,
	OPT_STATS,
	OPT_LOGPOLICY,
	OPT_LOGSIZE,
	OPT_NICE,
	OPT_TEXTOUT,
	OPT_EARLY_UEV,
	OPT_STACK,
	OPT_STACK_DEPTH,
	OPT_KERNEL_STACK,
	OPT_CALL_GRAPH,
	OPT_CGROUP,
	OPT_SEPARATELY,
	OPT_SECCOMP,
	OPT_CLICKHOUSE,
	OPT_CH_TABLE,
	OPT_CH_HOST,
	OPT_CH_RETRY,
	OPT_METRICS_LISTEN,
	OPT_METRICS_PUSH,
	OPT_METRICS_INTERVAL,
	OPT_METRICS_LABEL,
};

static const struct argp_option record_opts[] = {
	{ "output", 'o', "FILE", 0, "Write a POSIX trace log to FILE instead of printing events",
	  0 },
	{ "output-text", OPT_TEXTOUT, "FILE", 0,
	  "Print the events to FILE (- for standard output) instead of standard error", 0 },
	{ "clickhouse", OPT_CLICKHOUSE, "URL", 0,
	  "Send the events to ClickHouse as they are recorded, each once (as 'ptbpf export'), "
	  "from -o's log, or without -o from a log in $TMPDIR removed once all is sent",
	  0 },
	{ "clickhouse-table", OPT_CH_TABLE, "NAME", 0, "With --clickhouse: the table", 0 },
	{ "clickhouse-host", OPT_CH_HOST, "NAME", 0,
	  "With --clickhouse: the rows' host_name (default: this machine's name)", 0 },
	{ "clickhouse-retry-for", OPT_CH_RETRY, "SECONDS", 0,
	  "With --clickhouse: at the end, retry a server that does not answer this long "
	  "(default 60)",
	  0 },
	{ "events", 'e', "EVENTS", 0,
	  "Record only these events: comma-separated names (openat, sys_enter_openat, "
	  "proc_fork, user:NAME), groups (syscalls, proc, signals, sched, user, posix, all), "
	  "strace's syscall classes (%file, %desc, %network, %process, %signal, %ipc, %memory, "
	  "%creds, %clock, %stat, %lstat, %fstat, %statfs...) and /REGEX of syscall names; a "
	  "leading ! excludes (default: all but sched). A selection of syscalls only keeps "
	  "the signals and the exits, as strace's trace= does. strace's trace=EVENTS and "
	  "status=SET are taken too",
	  0 },
	{ "stack", OPT_STACK, "SYSCALLS", 0,
	  "As -k, the user stacks of these syscalls only (names, classes as -e)", 0 },
	{ "stack-depth", OPT_STACK_DEPTH, "N", 0,
	  "With -k: at most N frames a stack (1 to 127, default 32)", 0 },
	{ "kernel-stack", OPT_KERNEL_STACK, NULL, 0,
	  "With -k: the kernel stack too, printed under the user frames", 0 },
	{ "call-graph", OPT_CALL_GRAPH, "dwarf[,SIZE]|fp", 0,
	  "With -k: how the user stack is walked: dwarf (default) copies up to SIZE bytes of it "
	  "for an unwinder (default 8K, at most 16K, a multiple of 8), fp walks frame pointers in "
	  "the kernel (nothing copied, each "
	  "distinct stack stored once; right only for code built with "
	  "-fno-omit-frame-pointer)",
	  0 },
	{ "pid", 'p', "PID[,PID...]", 0, "Trace these running processes", 0 },
	{ "cgroup", OPT_CGROUP, "PATH", 0,
	  "Trace every process of this cgroup v2 directory and of the cgroups below it (a "
	  "container's, a systemd unit's: /sys/fs/cgroup/..., /sys/fs/cgroup/unified/... in a "
	  "hybrid layout), those that join it later too, while they are in it; those the caller "
	  "may not ptrace are left out and counted. Repeatable; with -p or a command, their "
	  "processes are traced as well. Alone, the recording runs until interrupted or "
	  "--duration",
	  0 },
	{ "follow-forks", 'f', NULL, 0,
	  "Also trace the children the processes create (-ff: as -f --output-separately)", 0 },
	{ "output-separately", OPT_SEPARATELY, NULL, 0,
	  "With --output-text FILE: each thread's lines in FILE.TID (a process's: FILE.PID), "
	  "without a pid, as strace -ff -o FILE",
	  0 },
	{ "output-append-mode", 'A', NULL, 0,
	  "Append to --output-text's file instead of truncating it (strace -A)", 0 },
	{ "detach-on", 'b', "execve", 0,
	  "Stop tracing a process when it executes a program (its execve line ends with "
	  "<detached ...>, and nothing of it follows), but the command's first (strace -b "
	  "execve)",
	  0 },
	{ "user", 'u', "USER", 0,
	  "Run the command as USER (a name, or UID:GID): its user and group ids and "
	  "supplementary groups, as strace -u; root only",
	  0 },
	{ "env", 'E', "VAR[=VAL]", 0,
	  "Set VAR to VAL in the command's environment, or without =VAL remove VAR from it "
	  "(repeatable; strace -E)",
	  0 },
	{ "daemonize", 'D', "grandchild", OPTION_ARG_OPTIONAL,
	  "The command is not ptbpf's child: a process ptbpf forks starts it and waits for it "
	  "(strace -D, which runs the tracer as a grandchild, for the same end); it is still "
	  "traced from its execve, and ptbpf still exits with its status",
	  0 },
	{ "seccomp-bpf", OPT_SECCOMP, NULL, 0,
	  "Accepted, for strace's command lines: BPF sees only the selected syscalls without "
	  "seccomp, and a traced process never stops",
	  0 },
	{ "buffer-size", OPT_BUFSIZE, "BYTES", 0,
	  "Stream buffer size (suffixes K, M, G; default 4M, with -k 128M). The kernel rings are "
	  "twice it, and -o's spare stream as much again: about 4 times it in all. Raise it "
	  "(e.g. 32M) where events are lost (a syscall flood)",
	  0 },
	{ "policy", OPT_POLICY, "POLICY", 0,
	  "What to do when the stream is full: loop, until-full, flush", 0 },
	{ "log-policy", OPT_LOGPOLICY, "POLICY", 0,
	  "With -o, when the log is full: append (default: the log grows as needed), "
	  "loop (keep the last --log-size bytes), until-full",
	  0 },
	{ "log-size", OPT_LOGSIZE, "BYTES", 0, "Log size limit for loop and until-full", 0 },
	{ "duration", OPT_DURATION, "SECONDS", 0, "Stop recording after SECONDS", 0 },
	{ "name", OPT_NAME, "NAME", 0, "Name of the trace stream", 0 },
	{ "stats", OPT_STATS, NULL, 0,
	  "At the end, a line of what was recorded on stderr: events, lost, time, CPU (without "
	  "it, printed only when events were lost, with -c or -C, -o, --json or --format=ptbpf)",
	  0 },
	{ "json", OPT_JSON, NULL, 0, "Print events live as JSON Lines (as 'ptbpf show --json')",
	  0 },
	{ "early-user-events", OPT_EARLY_UEV, NULL, 0,
	  "Also keep the user events of the programs the command executes in their first "
	  "milliseconds (sets PTBPF_UEV_PENDING=1 in its environment; the command's own are "
	  "kept without it)",
	  0 },
	{ "metrics-listen", OPT_METRICS_LISTEN, "ADDR:PORT", 0,
	  "While recording, serve GET /metrics in Prometheus's text format (the syscalls "
	  "counted in the kernel, their errors and times, the events and losses); ':PORT' "
	  "listens on 127.0.0.1 only",
	  0 },
	{ "metrics-push", OPT_METRICS_PUSH, "URL", 0,
	  "PUT the same metrics to the Pushgateway at URL (http://HOST:9091), under "
	  "/metrics/job/ptbpf/instance/HOSTNAME, at the end and every --metrics-interval",
	  0 },
	{ "metrics-interval", OPT_METRICS_INTERVAL, "SECONDS", 0,
	  "How often --metrics-push pushes while recording (default 10)", 0 },
	{ "metrics-label", OPT_METRICS_LABEL, "NAME=VALUE", 0,
	  "A label of every metric (host, job, service...; repeatable)", 0 },
	{ "nice", OPT_NICE, "N", 0,
	  "Nice value of ptbpf's own threads (default: the caller's; a lower one, e.g. -10, "
	  "lets it keep up with a program that keeps every CPU busy; the command runs at the "
	  "caller's)",
	  0 },
	{ 0 }
};

/* --metrics-*; ARGP_ERR_UNKNOWN: not one */
static error_t metrics_opt(struct record_args *a, int key, char *arg, struct argp_state *state)
{
	struct record_metrics *m = &a->metrics;
	char *end;

	switch (key) {
	case OPT_METRICS_LISTEN:
		m->listen = arg;
		break;
	case OPT_METRICS_PUSH:
		if (strncmp(arg, "http://", 7) && strncmp(arg, "https://", 8))
			argp_error(state, "--metrics-push: '%s' is not an http:// or https:// URL",
				   arg);
		m->push = arg;
		break;
	case OPT_METRICS_INTERVAL:
		m->interval = strtod(arg, &end);
		if (*end || end == arg || !(m->interval > 0))
			argp_error(state, "invalid --metrics-interval '%s'", arg);
		break;
	case OPT_METRICS_LABEL:
		if (m->nlabels == RECORD_MAX_LABELS)
			argp_error(state, "--metrics-label: at most %d", RECORD_MAX_LABELS);
		m->labels[m->nlabels++] = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k':
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || !v)
		return -1;
	*out = v;
	return 0;
}

struct policy_name {
	const char *name;
	int value;
};

static const struct policy_name stream_policies[] = {
	{ "loop", POSIX_TRACE_LOOP },
	{ "until-full", POSIX_TRACE_UNTIL_FULL },
	{ "flush", POSIX_TRACE_FLUSH },
	{ NULL, 0 },
};

static const struct policy_name log_policies[] = {
	{ "loop", POSIX_TRACE_LOOP },
	{ "until-full", POSIX_TRACE_UNTIL_FULL },
	{ "append", POSIX_TRACE_APPEND },
	{ NULL, 0 },
};

/* The value of a --policy or --log-policy name, -1 if unknown. */
static int policy_value(const char *arg, const struct policy_name *t)
{
	for (; t->name; t++)
		if (!strcmp(arg, t->name))
			return t->value;
	return -1;
}

/* strace's checks of its process options, with its words where it has some;
 * --clickhouse's */
static void record_opts_end(struct record_args *a, struct argp_state *state)
{
	if (a->clickhouse && (a->text_out || a->separately))
		argp_error(state, "--clickhouse records into a log (-o, or its own): "
				  "no event is printed");
	if ((a->ch_table || a->ch_host || a->ch_retry) && !a->clickhouse)
		argp_error(state, "--clickhouse-table, -host, -retry-for: with --clickhouse");
	if (a->clickhouse && a->log_policy == POSIX_TRACE_LOOP)
		argp_error(state, "--clickhouse: a loop log overwrites events before they are sent "
				  "(--log-policy append or until-full)");
	if (a->daemonize && !a->cmd)
		argp_error(state, "COMMAND [ARG...] must be specified with -D/--daemonize");
	if ((a->user || a->nenv) && !a->cmd)
		argp_error(state, "-u and -E are for a command ptbpf starts, not -p or --cgroup");
	if (a->view.detach_exec && a->output && !a->view.cflag && !a->view.threads)
		argp_error(state,
			   "-b execve: with -o no event is printed, and a log keeps them all");
	/* -ff: -f too; a file per process only with a text file (strace: -o) */
	if (a->separately)
		a->follow = 1;
	if (a->separately && (!a->text_out || !strcmp(a->text_out, "-")))
		a->separately = 0;
	if (a->separately && (a->json || a->view.cflag == VIEW_C_ONLY || a->view.threads))
		argp_error(state, "--output-separately: with the text of the events only");
}

/* strace's options for the command and the output files (-f, -ff, -A, -b,
 * -u, -E, -D, --seccomp-bpf), --clickhouse; ARGP_ERR_UNKNOWN: not one. */
static error_t process_opt(struct record_args *a, int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case OPT_CLICKHOUSE:
		a->clickhouse = arg;
		return 0;
	case OPT_CH_TABLE:
		a->ch_table = arg;
		return 0;
	case OPT_CH_HOST:
		if (!*arg)
			argp_error(state, "--clickhouse-host: an empty name");
		a->ch_host = arg;
		return 0;
	case OPT_CH_RETRY: {
		char *end;
		double v = strtod(arg, &end);

		if (end == arg || *end || !(v >= 0 && v <= 1e9))
			argp_error(state, "--clickhouse-retry-for: '%s' is not a number of seconds",
				   arg);
		a->ch_retry = arg;
		return 0;
	}
	}
	switch (key) {
	case 'f':
		if (a->follow++)
			a->separately = 1;
		break;
	case OPT_SEPARATELY:
		a->separately = 1;
		break;
	case 'A':
		a->append = 1;
		break;
	case 'b':
		if (strcmp(arg, "execve"))
			argp_error(state, "-b: syscall '%s' is not supported (only execve)", arg);
		a->view.detach_exec = 1;
		break;
	case 'u':
		a->user = arg;
		break;
	case 'E':
		if (a->nenv == RECORD_MAX_ENV)
			argp_error(state, "-E: at most %d", RECORD_MAX_ENV);
		a->env[a->nenv++] = arg;
		break;
	case 'D':
		/* -DD, -DDD: -D's argument is D, DD */
		if (arg && (!strcmp(arg, "D") || !strcmp(arg, "DD")))
			argp_error(state,
				   "-D%s: not supported (strace's tracer in a process group "
				   "or session of its own): -D only",
				   arg);
		if (arg && strcmp(arg, "grandchild"))
			argp_error(state, "--daemonize=%s: not supported (grandchild only)", arg);
		a->daemonize = 1;
		break;
	case OPT_SECCOMP:
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t record_parse(int key, char *arg, struct argp_state *state)
{
	struct record_args *a = state->input;
	char *end, msg[160];

	if (process_opt(a, key, arg, state) != ARGP_ERR_UNKNOWN)
		return 0;
	if (metrics_opt(a, key, arg, state) != ARGP_ERR_UNKNOWN)
		return 0;
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->view;
		break;
	case 'o':
		a->output = arg;
		break;
	case OPT_TEXTOUT:
		a->text_out = arg;
		break;
	case 'e':
		if (view_qualifier(arg, &a->events, &a->view, msg, sizeof(msg)))
			argp_failure(state, CLI_EXIT_USAGE, 0, "%s", msg);
		break;
	case OPT_STACK:
		a->view.stacks = 1;
		a->stack_events = arg;
		break;
	case OPT_STACK_DEPTH: {
		char *end;
		unsigned long n;

		errno = 0;
		n = strtoul(arg, &end, 10);
		if (errno || end == arg || *end || !n || n > PTBPF_STACK_DEPTH_MAX)
			argp_failure(state, CLI_EXIT_USAGE, 0,
				     "--stack-depth: %s: not a number of frames from 1 to %d", arg,
				     PTBPF_STACK_DEPTH_MAX);
		a->stack_depth = (unsigned int)n;
		break;
	}
	case OPT_KERNEL_STACK:
		a->stack_flags |= PTBPF_STACK_KERNEL;
		break;
	case OPT_CALL_GRAPH:
		if (!strcmp(arg, "fp"))
			a->stack_flags |= PTBPF_STACK_FP;
		else if (!strcmp(arg, "dwarf"))
			a->stack_flags &= ~PTBPF_STACK_FP;
		else if (!strncmp(arg, "dwarf,", 6)) {
			/* perf's form: the bytes of stack copied */
			if (parse_size(arg + 6, &a->stack_bytes) || !a->stack_bytes ||
			    a->stack_bytes > PTBPF_USER_STACK_MAX || a->stack_bytes % 8)
				argp_failure(
					state, CLI_EXIT_USAGE, 0,
					"--call-graph: %s: the size is a multiple of 8 up to %u",
					arg, PTBPF_USER_STACK_MAX);
			a->stack_flags &= ~PTBPF_STACK_FP;
		} else
			argp_failure(state, CLI_EXIT_USAGE, 0, "--call-graph: %s: dwarf or fp",
				     arg);
		a->stack_mode_set = 1;
		break;
	case 'p':
		a->pids = arg;
		break;
	case OPT_CGROUP:
		if (a->ncgroups == RECORD_MAX_CGROUPS)
			argp_error(state, "--cgroup: at most %d", RECORD_MAX_CGROUPS);
		a->cgroups[a->ncgroups++] = arg;
		break;
	case OPT_STATS:
		a->stats = 1;
		break;
	case OPT_JSON:
		a->json = 1;
		break;
	case OPT_EARLY_UEV:
		a->early_uev = 1;
		break;
	case OPT_NAME:
		a->name = arg;
		break;
	case OPT_NICE:
		a->nice = (int)strtol(arg, &end, 10);
		if (*end || end == arg || a->nice < -20 || a->nice > 19)
			argp_error(state, "invalid nice value '%s' (-20 to 19)", arg);
		break;
	case OPT_BUFSIZE:
		if (parse_size(arg, &a->bufsize))
			argp_error(state, "invalid buffer size '%s'", arg);
		a->bufsize_set = 1;
		break;
	case OPT_POLICY:
		a->policy = policy_value(arg, stream_policies);
		if (a->policy < 0)
			argp_error(state, "invalid policy '%s' (loop, until-full or flush)", arg);
		break;
	case OPT_LOGPOLICY:
		a->log_policy = policy_value(arg, log_policies);
		if (a->log_policy < 0)
			argp_error(state, "invalid log policy '%s' (append, loop or until-full)",
				   arg);
		break;
	case OPT_LOGSIZE:
		if (parse_size(arg, &a->log_size))
			argp_error(state, "invalid log size '%s'", arg);
		break;
	case OPT_DURATION:
		a->duration = strtod(arg, &end);
		if (*end || end == arg || a->duration <= 0)
			argp_error(state, "invalid duration '%s'", arg);
		break;
	case ARGP_KEY_ARG:
		/* the command and its arguments: stop parsing options here */
		a->cmd = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!a->cmd && !a->pids && !a->ncgroups)
			argp_error(state,
				   "give a command to run (after --), -p PID or --cgroup PATH");
		if (a->cmd && a->pids)
			argp_error(state, "give either a command or -p PID, not both");
		/* a log holds the events: -T and -P shape printed ones; -z and
		 * -Z select the calls the kernel writes, to the log too */
		if (a->output && !a->view.cflag && !a->view.threads &&
		    (a->view.times >= 0 || a->view.npaths ||
		     (a->view.status != VIEW_ST_ALL && !view_opts_kernel_status(&a->view))))
			argp_error(state, "with -o no event is printed: give -T, -P and statuses "
					  "other than -z or -Z to 'ptbpf show' (or to -c here)");
		if (a->early_uev && !a->cmd)
			argp_error(state, "--early-user-events is for a command ptbpf starts, "
					  "not -p or --cgroup");
		if (a->output && a->text_out)
			argp_error(state, "-o writes a log, --output-text prints: give one");
		record_opts_end(a, state);
		/* as perf's --call-graph implies -g */
		if (a->stack_depth || a->stack_flags || a->stack_mode_set)
			a->view.stacks = 1;
		if (a->view.stacks && !(a->stack_flags & PTBPF_STACK_FP) && !a->bufsize_set)
			a->bufsize = RECORD_STACKS_BUFSIZE;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child record_children[] = {
	{ &view_argp, 0, NULL, 0 },
	{ 0 },
};

const struct argp record_argp = {
	.options = record_opts,
	.parser = record_parse,
	.children = record_children,
	.args_doc = "[-p PID[,PID...]] [--cgroup PATH] | [--cgroup PATH] [--] COMMAND [ARG...]",
	.doc = "Trace a command (started held until tracing is set up, so its first syscall "
	       "is recorded), running processes or the processes of a cgroup. Without -o, "
	       "events are printed live on "
	       "standard error (as strace does; --output-text for a file), one line each, "
	       "strace-like for syscalls; with -o, a POSIX trace log is written "
	       "(read it with 'ptbpf show'). A summary goes to stderr at the end; -c prints "
	       "strace -c's table there instead of the events.\v"
	       "Exit status: the command's own (128+N if killed by signal N); "
	       "3 no permission, 4 kernel lacks BPF/BTF, 5 no such process, 6 command not found, "
	       "8 events not sent to ClickHouse (--clickhouse).",
};
