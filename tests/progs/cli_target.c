/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A known program for the ptbpf CLI tests: cli_target PATH [EXIT [SLEEP_MS]]
 * opens PATH (created), writes, reads it back, fails to open a missing
 * file, asks for its parent, forks a child that exits 3 and waits for it,
 * optionally sleeps SLEEP_MS in a loop of nanosleep (for -p and Ctrl-C
 * tests), then exits with EXIT (default 0).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/cli_target.tmp";
	int code = argc > 2 ? atoi(argv[2]) : 0;
	long sleep_ms = argc > 3 ? atol(argv[3]) : 0;
	char buf[64];
	int fd, st = 0;
	pid_t c;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return 100;
	if (write(fd, "hello, ptbpf\n", 13) != 13)
		return 101;
	lseek(fd, 0, SEEK_SET);
	if (read(fd, buf, sizeof(buf)) != 13)
		return 102;
	close(fd);
	if (open("/nonexistent/ptbpf-cli-target", O_RDONLY) >= 0)
		return 103;
	getppid();
	c = fork();
	if (c == 0) {
		getppid();
		_exit(3);
	}
	waitpid(c, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 3)
		return 104;
	unlink(path);
	while (sleep_ms > 0) {
		struct timespec ts = { 0, 10 * 1000000L };

		nanosleep(&ts, NULL);
		sleep_ms -= 10;
	}
	return code;
}
