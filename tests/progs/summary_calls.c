// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A traced program for the strace comparisons (cli_summary.test.sh,
 * cli_strace_opts.test.sh): syscalls that fail in several ways, some that
 * succeed, signals it sends itself (handled: rt_sigreturn), a child that
 * makes calls of its own, and a file (argv[1]) opened, copied with dup2 and
 * fcntl, read through the copies and closed, for -P, and a call of each
 * strace class. The same calls at every run: no threads, no timing.
 * usage: summary_calls FILE
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

static void failing_calls(int n)
{
	char c;
	int p[2];

	if (pipe(p))
		_exit(2);
	for (int i = 0; i < n; i++) {
		if (open("/nonexistent/summary_calls", O_RDONLY) >= 0 || close(-1) == 0 ||
		    read(-1, &c, 1) >= 0 || mkdir("/", 0755) == 0 ||
		    access("/nonexistent/summary_calls", F_OK) == 0 ||
		    chdir("/nonexistent/summary_calls") == 0 || dup(-1) >= 0 ||
		    lseek(p[0], 0, SEEK_SET) >= 0 || socket(-1, SOCK_STREAM, 0) >= 0)
			_exit(2);
		/* and some that succeed */
		if (kill(getpid(), 0) || getppid() <= 0 || write(p[1], "x", 1) != 1 ||
		    read(p[0], &c, 1) != 1)
			_exit(2);
	}
	close(p[0]);
	close(p[1]);
}

/* One call of the classes the C library no longer makes on its own
 * (%stat, %lstat, %statfs, %fstatfs, %clock, %creds, %ipc). arm64 has no
 * stat and lstat: newfstatat, as its C library calls them. */
#ifndef SYS_stat
#define stat_call(path, st)  syscall(SYS_newfstatat, AT_FDCWD, path, st, 0)
#define lstat_call(path, st) syscall(SYS_newfstatat, AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW)
#else
#define stat_call(path, st)  syscall(SYS_stat, path, st)
#define lstat_call(path, st) syscall(SYS_lstat, path, st)
#endif
static void class_calls(const char *path)
{
	struct statfs sf;
	struct timespec ts;
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || stat_call(path, &st) || lstat_call(path, &st) || statfs(path, &sf) ||
	    fstatfs(fd, &sf) || syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) ||
	    getuid() == (uid_t)-2 || getgid() == (gid_t)-2 || semctl(-1, 0, IPC_RMID) != -1)
		_exit(2);
	close(fd);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	char buf[64];
	int fd, fd2, st;
	pid_t pid;

	if (argc != 2)
		return 2;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	failing_calls(20);
	class_calls(argv[1]);
	for (int i = 0; i < 3; i++)
		raise(SIGUSR1);

	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return 2;
	if (dup2(fd, 10) != 10 || (fd2 = fcntl(10, F_DUPFD_CLOEXEC, 20)) < 20)
		return 2;
	if (read(fd2, buf, sizeof(buf)) < 0 || lseek(10, 0, SEEK_SET) != 0 || read(10, buf, 1) < 0)
		return 2;
	close(fd);

	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		/* the child reads the file through the fd it inherited */
		if (read(10, buf, sizeof(buf)) < 0)
			_exit(2);
		failing_calls(5);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 2;
	close(10);
	close(fd2);
	return got == 3 ? 0 : 2;
}
