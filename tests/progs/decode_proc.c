// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A traced program for cli_decode.test.sh (strace's decoding, issue #35):
 * process, signal, time, limit and event-fd calls strace decodes, the same
 * at every run: a child that executes this program again with an argument
 * vector and a two-variable environment and exits 3, waited for; a signal
 * sent to itself and handled; short fixed sleeps; polls that find what
 * they wait for at once.
 * usage: decode_proc (the child: decode_proc child ARG...)
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

static void check(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(2);
	}
}

static void child_process(const char *self)
{
	char *argv[] = { (char *)self, "child", "two words", "quote\"d\n", NULL };
	char *envp[] = { "A=1", "B=two", NULL };
	int status;
	pid_t pid = fork();

	check(pid >= 0, "fork");
	if (pid == 0) {
		execve(self, argv, envp);
		_exit(127);
	}
	check(wait4(pid, &status, 0, NULL) == pid, "wait4");
	check(WIFEXITED(status) && WEXITSTATUS(status) == 3, "child status");
}

static void signal_calls(void)
{
	struct sigaction sa, old;
	sigset_t set, oldset;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	check(!sigaction(SIGUSR1, &sa, &old), "rt_sigaction");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGTERM);
	check(!sigprocmask(SIG_BLOCK, &set, &oldset), "rt_sigprocmask");
	check(!kill(getpid(), SIGUSR1) && got == 1, "kill");
	check(!sigprocmask(SIG_SETMASK, &oldset, NULL), "rt_sigprocmask restore");
	check(kill(getpid(), 0) == 0, "kill 0");
}

static void time_calls(void)
{
	struct timespec ts = { 0, 1000000 };

	check(!syscall(SYS_nanosleep, &ts, NULL), "nanosleep");
	check(!clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL), "clock_nanosleep");
}

static void limit_calls(void)
{
	struct rlimit rl, core = { 0, 0 };
	struct utsname un;
	struct sysinfo si;
	gid_t gids[64];
	int n;

	check(!syscall(SYS_getrlimit, RLIMIT_NOFILE, &rl), "getrlimit");
	check(!syscall(SYS_setrlimit, RLIMIT_CORE, &core), "setrlimit");
	check(!prlimit(0, RLIMIT_CORE, NULL, &rl), "prlimit64");
	check(!uname(&un), "uname");
	check(!sysinfo(&si), "sysinfo");
	/* how many supplementary groups, then which (as many as there are) */
	n = getgroups(0, gids);
	check(n >= 0 && n <= 64, "getgroups 0");
	check(getgroups(64, gids) == n, "getgroups");
}

static void poll_calls(void)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 0x1234 }, out;
	struct timespec zero = { 0, 0 };
	struct itimerspec its = { { 0, 0 }, { 0, 2000000 } };
#ifdef SYS_select
	struct timeval tv = { 0, 0 };
#endif
	struct pollfd pfd[2];
	unsigned long long n;
	fd_set rd;
	int p[2], ep, efd, tfd;
	sigset_t mask;

	check(!pipe(p), "pipe");
	check(write(p[1], "x", 1) == 1, "write");
	pfd[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	check(poll(pfd, 2, 0) == 2, "poll");
	check(ppoll(pfd, 1, &zero, NULL) == 1, "ppoll");
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
#ifdef SYS_select /* not on arm64 */
	check(syscall(SYS_select, p[0] + 1, &rd, NULL, NULL, &tv) == 1, "select");
#endif
	FD_SET(p[0], &rd);
	check(pselect(p[0] + 1, &rd, NULL, NULL, &zero, NULL) == 1, "pselect6");
	/* with a mask: BPF reads the set the pair points to */
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGTERM);
	FD_SET(p[0], &rd);
	check(pselect(p[0] + 1, &rd, NULL, NULL, &zero, &mask) == 1, "pselect6 mask");

	ep = epoll_create1(EPOLL_CLOEXEC);
	check(ep >= 0, "epoll_create1");
	check(!epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev), "epoll_ctl");
	check(epoll_wait(ep, &out, 1, 0) == 1, "epoll_wait");
	check(!epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL), "epoll_ctl del");

	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	check(efd >= 0, "eventfd2");
	n = 5;
	check(write(efd, &n, sizeof(n)) == sizeof(n), "write eventfd");
	check(read(efd, &n, sizeof(n)) == sizeof(n) && n == 5, "read eventfd");

	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	check(tfd >= 0, "timerfd_create");
	check(!timerfd_settime(tfd, 0, &its, NULL), "timerfd_settime");
	check(read(tfd, &n, sizeof(n)) == sizeof(n) && n == 1, "read timerfd");
	check(!timerfd_gettime(tfd, &its), "timerfd_gettime");

	close(tfd);
	close(efd);
	close(ep);
	close(p[0]);
	close(p[1]);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child")) {
		check(getppid() > 1, "getppid");
		return 3;
	}
	child_process(argv[0]);
	signal_calls();
	time_calls();
	limit_calls();
	poll_calls();
	puts("decode_proc done");
	return 0;
}
