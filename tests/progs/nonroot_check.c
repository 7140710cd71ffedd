/*
 * For tests/system/nonroot.test.sh, run as an unprivileged user:
 *   nonroot_check self     trace a child of ours: 10 getppid must be read
 *   nonroot_check pid PID  try to trace PID
 * Prints what happened; exits 0 on success, else the error number.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace.h>

static int trace_child(void)
{
	struct posix_trace_event_info ev;
	char name[TRACE_EVENT_NAME_MAX], data[1024], c;
	int go[2], err, un, n = 0, i;
	trace_id_t t;
	size_t len;
	pid_t p;

	if (pipe(go))
		return errno;
	p = fork();
	if (p == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		for (i = 0; i < 10; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	close(go[0]);
	err = posix_trace_create(p, NULL, &t);
	if (!err)
		err = posix_trace_start(t);
	if (write(go[1], "g", 1) != 1)
		return EIO;
	waitpid(p, NULL, 0);
	if (err) {
		printf("self: %s\n", strerror(err));
		return err;
	}
	posix_trace_stop(t);
	while (!posix_trace_trygetnext_event(t, &ev, data, sizeof(data), &len, &un) && !un) {
		posix_trace_eventid_get_name(t, ev.posix_event_id, name);
		if (!strcmp(name, "sys_exit_getppid") && ev.posix_pid == p)
			n++;
	}
	posix_trace_shutdown(t);
	printf("self: %d getppid events\n", n);
	return n == 10 ? 0 : EPROTO;
}

int main(int argc, char **argv)
{
	trace_id_t t;
	int err;

	if (argc == 2 && !strcmp(argv[1], "self"))
		return trace_child();
	if (argc == 3 && !strcmp(argv[1], "pid")) {
		err = posix_trace_create(atoi(argv[2]), NULL, &t);
		printf("pid %s: %s\n", argv[2], err ? strerror(err) : "traced");
		if (!err)
			posix_trace_shutdown(t);
		return err;
	}
	return EINVAL;
}
