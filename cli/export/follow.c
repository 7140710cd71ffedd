/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record --clickhouse: "ptbpf export LOG --follow-fd" in a process
 * of its own beside the record (its own memory, a server that does not
 * answer never slows the record down), reading the log as it is written.
 * The record ends it by closing the pipe once the log is complete: the
 * exporter then sends the rest and exits with export's status. It dies
 * with the record (PR_SET_PDEATHSIG) and ignores the signals that stop
 * the record (Ctrl-C), so that it sends the end of the log.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "export/export.h"

struct follow {
	pid_t pid;
	int wfd; /* the pipe's end that the record closes */
};

static void follow_child(int rfd, const char *log, const struct follow_opts *o)
{
	char *argv[12], retry[64];
	int n = 0;

	argv[n++] = "ptbpf";
	argv[n++] = "export";
	argv[n++] = (char *)log;
	argv[n++] = "--follow-fd=3";
	argv[n++] = "--clickhouse-table";
	argv[n++] = (char *)(o->table ? o->table : CH_TABLE_DEFAULT);
	if (o->host) {
		argv[n++] = "--host";
		argv[n++] = (char *)o->host;
	}
	if (o->retry_for) {
		snprintf(retry, sizeof(retry), "--retry-for=%s", o->retry_for);
		argv[n++] = retry;
	}
	argv[n] = NULL;
	/* the record's signals stop the record, which then ends this */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(rfd, 3) < 0)
		_exit(127);
	close_range(4, ~0U, 0);
	/* the URL's password is not shown in ps (the environment is the user's own) */
	setenv("PTBPF_CLICKHOUSE_URL", o->url, 1);
	execv("/proc/self/exe", argv);
	fprintf(stderr, "%s: cannot run the exporter: %s\n", cli_prog, strerror(errno));
	_exit(127);
}

struct follow *follow_start(const char *log, const struct follow_opts *o)
{
	struct follow *fw = calloc(1, sizeof(*fw));
	int p[2];

	if (!fw || pipe2(p, O_CLOEXEC)) {
		cli_err("cannot start the exporter: %s", strerror(errno));
		free(fw);
		return NULL;
	}
	fw->pid = fork();
	if (fw->pid < 0) {
		cli_err("cannot start the exporter: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		free(fw);
		return NULL;
	}
	if (!fw->pid) {
		close(p[1]);
		follow_child(p[0], log, o);
	}
	close(p[0]);
	fw->wfd = p[1];
	return fw;
}

int follow_finish(struct follow *fw)
{
	int st = 0;
	pid_t r;

	if (!fw)
		return CLI_EXIT_UNSENT;
	close(fw->wfd);
	do
		r = waitpid(fw->pid, &st, 0);
	while (r < 0 && errno == EINTR);
	free(fw);
	if (r < 0 || !WIFEXITED(st)) {
		cli_err("the exporter was killed: events were not sent (ptbpf export sends them)");
		return CLI_EXIT_UNSENT;
	}
	return WEXITSTATUS(st);
}
