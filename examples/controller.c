// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A trace controller: it starts a command held, traces it with a POSIX trace
 * stream (its syscalls, process events and user events, merged by timestamp),
 * and prints each event's time, pid and name until the command has exited.
 * Needs root, or CAP_BPF + CAP_PERFMON.
 * Usage: controller COMMAND [ARG...]
 * Build: cc controller.c $(pkg-config --cflags --libs posixtrace)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <trace.h>
#include <unistd.h>

static void print_events(trace_id_t trid)
{
	struct posix_trace_event_info ev;
	char data[1024], name[TRACE_EVENT_NAME_MAX];
	size_t len;
	int unavailable;

	while (!posix_trace_trygetnext_event(trid, &ev, data, sizeof(data), &len, &unavailable) &&
	       !unavailable) {
		if (posix_trace_eventid_get_name(trid, ev.posix_event_id, name))
			strcpy(name, "?");
		printf("%ld.%09ld %d %s (%zu bytes)\n", (long)ev.posix_timestamp.tv_sec,
		       ev.posix_timestamp.tv_nsec, (int)ev.posix_pid, name, len);
	}
}

int main(int argc, char **argv)
{
	int go[2], status, err, done = 0;
	trace_attr_t attr;
	trace_id_t trid;
	pid_t pid;
	char c = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: controller COMMAND [ARG...]\n");
		return 2;
	}
	if (pipe(go))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		/* held until the stream traces it */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		/* user events written before the stream finds them are kept */
		setenv("PTBPF_UEV_PENDING", "1", 1);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(go[0]);
	/*
	 * Inherited: the stream follows the command's exec (the new image's
	 * user events) and its children, as ptbpf record -f does.
	 */
	posix_trace_attr_init(&attr);
	posix_trace_attr_setinherited(&attr, POSIX_TRACE_INHERITED);
	err = posix_trace_create(pid, &attr, &trid);
	posix_trace_attr_destroy(&attr);
	if (!err)
		err = posix_trace_start(trid);
	if (err) {
		fprintf(stderr, "controller: cannot trace %d: %s\n", (int)pid, strerror(err));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 1;
	}
	if (write(go[1], &c, 1) != 1)
		return 1;
	close(go[1]);
	while (!done) {
		done = waitpid(pid, &status, WNOHANG) == pid;
		if (done)
			usleep(200000); /* the last events still on their way */
		else
			usleep(10000);
		print_events(trid);
	}
	posix_trace_shutdown(trid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
