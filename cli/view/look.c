/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The options of how text lines look, strace's (-t, -tt, -ttt, -r, -a, -Y,
 * -q, -e quiet=, -e signal=) and --format=ptbpf for ptbpf's own: an argp
 * child of the view's options.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "view/view.h"

enum {
	OPT_FORMAT = 0x400,
	OPT_QUIET,
	OPT_SIGNAL,
	OPT_DECODE_PIDS,
};

static const struct argp_option look_options[] = {
	{ NULL, 0, NULL, 0, "strace's look of the text:", 11 },
	{ "format", OPT_FORMAT, "LOOK", 0,
	  "strace (the default): each line as strace prints it; ptbpf: ptbpf's own, "
	  "\"SECONDS PID/TID \" before every line, all of ptbpf's events (the POSIX "
	  "markers, proc_fork, proc_exec, signal_generate) and, at the end, a summary line",
	  11 },
	{ "absolute-timestamps", 't', NULL, 0,
	  "strace -t: the time of day before each line, HH:MM:SS (-tt: with microseconds, "
	  "-ttt: seconds since the epoch with microseconds)",
	  11 },
	{ "absolute", 't', NULL, OPTION_ALIAS, NULL, 11 },
	{ "relative-timestamps", 'r', NULL, 0,
	  "strace -r: the time since the previous line before each line", 11 },
	{ "columns", 'a', "COLUMN", 0, "strace -a: the column of \" = \" (default 40)", 11 },
	{ NULL, 'Y', NULL, 0, "strace -Y: the command name after each pid printed", 11 },
	{ "decode-pids", OPT_DECODE_PIDS, "comm", 0, "As -Y", 11 },
	{ "quiet", 'q', "SET", OPTION_ARG_OPTIONAL,
	  "strace -q, -qq, -qqq and -e quiet=SET: messages not printed (attach, exit, "
	  "path-resolution, thread-execve, personality, all, none; -q: attach, -qq: and exit, "
	  "-qqq: all). ptbpf prints no attach messages",
	  11 },
	{ "silent", 'q', "SET", OPTION_ALIAS | OPTION_ARG_OPTIONAL, NULL, 11 },
	{ "silence", 'q', "SET", OPTION_ALIAS | OPTION_ARG_OPTIONAL, NULL, 11 },
	{ "signal", OPT_SIGNAL, "SET", 0,
	  "strace -e signal=SET: only these signals' lines are printed (names, numbers, all, "
	  "none, ! excludes)",
	  11 },
	{ "signals", OPT_SIGNAL, "SET", OPTION_ALIAS, NULL, 11 },
	{ 0 }
};

static const struct {
	const char *name;
	unsigned int bits;
} quiet_names[] = {
	{ "attach", FMT_Q_ATTACH },
	{ "personality", FMT_Q_PERSONALITY },
	{ "exit", FMT_Q_EXIT },
	{ "exits", FMT_Q_EXIT },
	{ "path-resolution", FMT_Q_PATH },
	{ "thread-execve", FMT_Q_EXECVE },
	{ "superseded", FMT_Q_EXECVE },
	{ "all", FMT_Q_ALL },
	{ "none", 0 },
};

/* A comma list of words, each a set of bits by lookup; ! inverts the whole. */
static int parse_set(const char *spec, uint64_t all, uint64_t *set,
		     int (*lookup)(const char *w, size_t n, uint64_t *bits))
{
	uint64_t s = 0, bits;
	int invert = 0;

	while (*spec == '!') {
		invert = !invert;
		spec++;
	}
	for (const char *p = spec;;) {
		size_t n = strcspn(p, ",");

		if (!n || lookup(p, n, &bits))
			return -1;
		s |= bits;
		if (!p[n])
			break;
		p += n + 1;
	}
	*set = invert ? all & ~s : s;
	return 0;
}

static int quiet_lookup(const char *w, size_t n, uint64_t *bits)
{
	for (size_t i = 0; i < sizeof(quiet_names) / sizeof(quiet_names[0]); i++) {
		if (strlen(quiet_names[i].name) == n && !strncmp(quiet_names[i].name, w, n)) {
			*bits = quiet_names[i].bits;
			return 0;
		}
	}
	return -1;
}

/* strace's signal names: HUP or SIGHUP, any case, or a number (1 to 64). */
static int signal_lookup(const char *w, size_t n, uint64_t *bits)
{
	char word[16], *end;
	unsigned long nr;

	if (n >= sizeof(word))
		return -1;
	memcpy(word, w, n);
	word[n] = '\0';
	if (!strcasecmp(word, "all")) {
		*bits = ~0ull;
		return 0;
	}
	if (!strcasecmp(word, "none")) {
		*bits = 0;
		return 0;
	}
	if (isdigit((unsigned char)word[0])) {
		errno = 0;
		nr = strtoul(word, &end, 10);
		if (errno || *end || nr < 1 || nr > 64)
			return -1;
		*bits = 1ull << (nr - 1);
		return 0;
	}
	w = strncasecmp(word, "SIG", 3) ? word : word + 3;
	for (int sig = 1; sig < NSIG && sig <= 64; sig++) {
		const char *abbrev = sigabbrev_np(sig);

		if (abbrev && !strcasecmp(abbrev, w)) {
			*bits = 1ull << (sig - 1);
			return 0;
		}
	}
	return -1;
}

int view_look_qualifier(struct view_opts *o, const char *name, size_t len, const char *value,
			char *msg, size_t msgsz)
{
	uint64_t set;

	if ((len == 5 && !strncmp(name, "quiet", 5)) || (len == 6 && !strncmp(name, "silent", 6)) ||
	    (len == 7 && !strncmp(name, "silence", 7)) || (len == 1 && name[0] == 'q')) {
		if (parse_set(value, FMT_Q_ALL, &set, quiet_lookup)) {
			snprintf(msg, msgsz, "invalid quiet set '%s' (%s)", value,
				 "attach, exit, path-resolution, thread-execve, personality, all, "
				 "none");
			return -1;
		}
		o->quiet = (unsigned int)set;
		return 0;
	}
	if ((len == 6 && !strncmp(name, "signal", 6)) ||
	    (len == 7 && !strncmp(name, "signals", 7)) || (len == 1 && name[0] == 's')) {
		if (parse_set(value, ~0ull, &set, signal_lookup)) {
			snprintf(msg, msgsz, "invalid signal set '%s'", value);
			return -1;
		}
		o->sigs_hidden = ~set;
		return 0;
	}
	return 1;
}

static void columns_opt(struct view_opts *o, const char *arg, struct argp_state *state)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 0 || n > 1024)
		argp_error(state, "-a: invalid column '%s' (0 to 1024)", arg);
	o->acolumn = (int)n;
}

static error_t look_parse(int key, char *arg, struct argp_state *state)
{
	struct view_opts *o = state->input;
	char msg[160];

	switch (key) {
	case OPT_FORMAT:
		if (!strcmp(arg, "strace"))
			o->look = FMT_LOOK_STRACE;
		else if (!strcmp(arg, "ptbpf"))
			o->look = FMT_LOOK_PTBPF;
		else
			argp_error(state, "invalid --format '%s' (strace or ptbpf)", arg);
		break;
	case 't':
		if (o->tflag < 3)
			o->tflag++;
		break;
	case 'r':
		o->rflag = 1;
		break;
	case 'a':
		columns_opt(o, arg, state);
		break;
	case 'Y':
		o->comm = 1;
		break;
	case OPT_DECODE_PIDS:
		if (strcmp(arg, "comm"))
			argp_error(state, "--decode-pids: only comm is taken (pidns: no)");
		o->comm = 1;
		break;
	case 'q':
		/* "-qq" is -q with the argument "q": more -q, as strace's */
		if (arg && (!*arg || arg[strspn(arg, "q")])) {
			if (view_look_qualifier(o, "quiet", 5, arg, msg, sizeof(msg)))
				argp_failure(state, CLI_EXIT_USAGE, 0, "--quiet: %s", msg);
		} else {
			/* -q: attach and personality, -qq: exit too, -qqq: all */
			o->nq += 1 + (arg ? (int)strlen(arg) : 0);
			o->quiet = o->nq == 1	? FMT_Q_ATTACH | FMT_Q_PERSONALITY
				   : o->nq == 2 ? FMT_Q_ATTACH | FMT_Q_PERSONALITY | FMT_Q_EXIT
						: FMT_Q_ALL;
		}
		break;
	case OPT_SIGNAL:
		if (view_look_qualifier(o, "signal", 6, arg, msg, sizeof(msg)))
			argp_failure(state, CLI_EXIT_USAGE, 0, "--signal: %s", msg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp view_look_argp = {
	.options = look_options,
	.parser = look_parse,
};

void view_look(const struct view_opts *o, struct fmt_look *l, int to_file, int follow, int live)
{
	fmt_look_init(l);
	l->look = o->look;
	l->tflag = o->tflag;
	l->rflag = o->rflag;
	l->comm = o->comm;
	l->acolumn = o->acolumn >= 0 ? o->acolumn : 40;
	l->quiet = o->quiet;
	l->sigs_hidden = o->sigs_hidden;
	l->live = live;
	l->forks = follow;
	l->all_events = o->look == FMT_LOOK_PTBPF || o->named_events;
	/* strace -o FILE: the pid on every line with -f (or several -p) */
	l->pids = to_file && follow ? FMT_PID_FILE : FMT_PID_AUTO;
}
