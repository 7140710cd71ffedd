/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Signal and path cases that tests/cli/signals.test.sh runs under both
 * strace -f and ptbpf record -f, to compare the lines they print.
 *
 * usage: sig_cases CASE
 *   term      a child sleeps, its parent sends it SIGTERM and reaps it
 *   threads   four threads; one calls exit_group while the others block
 *   blocked   a SIGTERM comes while blocked in two threads, then one
 *             unblocks it
 *   chld      a child exits 3; its parent catches SIGCHLD and reaps it
 *   handler   handlers of SIGUSR1 and of signal 34 run and return
 *             (rt_sigreturn restores a mask of SIGUSR2 and signal 35)
 *   restart   a read interrupted by a handled signal, without then with
 *             SA_RESTART
 *   paths     path syscalls take names from pages never touched before:
 *             initialised data's and a file mapping's
 *   exec      execve of a name in a file mapping never touched before
 *   threxit   four threads: one ends by pthread_exit, one by returning, one
 *             is blocked when the main thread returns (exit_group)
 *   nochld    a child exits 0; its parent, without a SIGCHLD handler,
 *             reaps it
 *   latethr FIFO  an openat of FIFO (made, then removed), its name in an
 *             untouched file mapping, blocked until another thread opens
 *             it for writing while a third makes syscalls
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void on_sig(int sig)
{
	(void)sig;
}

static void handle(int sig, int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static int case_term(void)
{
	pid_t c = fork();
	int st;

	if (c == 0) {
		nap(10000);
		_exit(0);
	}
	nap(300);
	kill(c, SIGTERM);
	waitpid(c, &st, 0);
	return 0;
}

static void *blocker(void *arg)
{
	(void)arg;
	nap(10000);
	return NULL;
}

static int case_threads(void)
{
	pthread_t t[3];

	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, blocker, NULL);
	nap(300);
	syscall(SYS_exit_group, 0);
	return 1;
}

/*
 * SIGTERM blocked in both threads when it comes, then unblocked in one: it
 * is delivered as it is there, and the other thread ends with a SIGKILL.
 */
static int case_blocked(void)
{
	pthread_t t;
	sigset_t m;

	sigemptyset(&m);
	sigaddset(&m, SIGTERM);
	sigprocmask(SIG_BLOCK, &m, NULL);
	pthread_create(&t, NULL, blocker, NULL);
	kill(getpid(), SIGTERM);
	nap(100);
	sigprocmask(SIG_UNBLOCK, &m, NULL);
	return 1;
}

static int case_chld(void)
{
	pid_t c;
	int st;

	handle(SIGCHLD, SA_RESTART);
	c = fork();
	if (c == 0) {
		/* the parent is in its sleep when the signal comes */
		nap(100);
		_exit(3);
	}
	nap(300);
	waitpid(c, &st, 0);
	return 0;
}

/* Blocked while the handler runs: rt_sigreturn restores the mask with them. */
static int case_handler(void)
{
	sigset_t m;

	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	sigaddset(&m, 35);
	sigprocmask(SIG_BLOCK, &m, NULL);
	handle(SIGUSR1, 0);
	kill(getpid(), SIGUSR1);
	/* a real-time signal: strace names it by the kernel's numbers */
	handle(34, 0);
	kill(getpid(), 34);
	return 0;
}

/* A child sends SIGUSR1 to its parent, blocked in read on an empty pipe. */
static void interrupted_read(int flags)
{
	int p[2];
	char c;
	pid_t k;

	if (pipe(p))
		return;
	handle(SIGUSR1, flags);
	k = fork();
	if (k == 0) {
		nap(300);
		kill(getppid(), SIGUSR1);
		nap(300);
		if (write(p[1], "x", 1) < 0)
			_exit(1);
		_exit(0);
	}
	/* without SA_RESTART: -1 EINTR, what the test looks for */
	if (read(p[0], &c, 1) < 0)
		c = 0;
	waitpid(k, NULL, 0);
	close(p[0]);
	close(p[1]);
}

static int case_restart(void)
{
	interrupted_read(0);
	interrupted_read(SA_RESTART);
	return 0;
}

/*
 * A name 1 MiB into initialised data: the page is file-backed and mapped
 * on first touch only, and far from any the loader or libc touch (the
 * kernel maps pages around a fault, not a megabyte away).
 */
#define FAR_OFF (1 << 20)
static char far_data[2 * FAR_OFF] = {
	[FAR_OFF] = '/', 'e', 't', 'c', '/', 'h', 'o', 's', 't', 's'
};

/* A file holding name, mapped but not read: its page is not mapped yet. */
static const char *untouched_map(const char *name)
{
	char file[64];
	int fd;
	void *m;

	snprintf(file, sizeof(file), "/tmp/sig_cases.%d", (int)getpid());
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return NULL;
	if (write(fd, name, strlen(name) + 1) < 0) {
		close(fd);
		return NULL;
	}
	m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	unlink(file);
	return m == MAP_FAILED ? NULL : m;
}

static int case_paths(void)
{
	struct statfs sf;
	const char *m = untouched_map("/etc/passwd");
	int fd;

	if (!m)
		return 1;
	statfs(far_data + FAR_OFF, &sf);
	fd = openat(AT_FDCWD, m, O_RDONLY);
	if (fd >= 0)
		close(fd);
	return 0;
}

static int case_exec(void)
{
	const char *m = untouched_map("/bin/true");
	char *argv[] = { "true", NULL };
	char *envp[] = { NULL };

	if (!m)
		return 1;
	execve(m, argv, envp);
	return 1;
}

static void *ender(void *arg)
{
	if (arg)
		pthread_exit(NULL);
	return NULL;
}

static int case_threxit(void)
{
	pthread_t t[3];

	pthread_create(&t[0], NULL, ender, &t[1]);
	pthread_join(t[0], NULL);
	pthread_create(&t[1], NULL, ender, NULL);
	pthread_join(t[1], NULL);
	pthread_create(&t[2], NULL, blocker, NULL);
	nap(100);
	return 0;
}

/* The SIGCHLD is ignored without a handler: strace shows it all the same. */
static int case_nochld(void)
{
	pid_t c = fork();
	int st;

	if (c == 0) {
		/* the parent is in its wait4 when it exits */
		nap(100);
		_exit(0);
	}
	waitpid(c, &st, 0);
	return 0;
}

static volatile int spinning = 1;
static volatile unsigned long spins;

static void *spinner(void *arg)
{
	(void)arg;
	while (spinning) {
		/* a call about every 10 us: fewer lines than the printer holds
		 * (FMT_HOLD_MAX) in the 50 ms it may hold them */
		for (volatile int i = 0; i < 10000; i++)
			;
		getppid();
		spins++;
	}
	return NULL;
}

static const char *latethr_fifo;

static void *fifo_writer(void *arg)
{
	int fd;

	(void)arg;
	/* well within the time the printer holds a line for its exit */
	nap(5);
	fd = open(latethr_fifo, O_WRONLY);
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int case_latethr(void)
{
	const char *m;
	pthread_t t, w;
	int fd;

	unlink(latethr_fifo);
	if (mkfifo(latethr_fifo, 0600) < 0)
		return 1;
	m = untouched_map(latethr_fifo);
	if (!m)
		return 1;
	pthread_create(&t, NULL, spinner, NULL);
	pthread_create(&w, NULL, fifo_writer, NULL);
	/* blocks until the writer opens: the spinner's calls come between
	 * the openat's entry and its exit every time */
	fd = openat(AT_FDCWD, m, O_RDONLY);
	if (fd >= 0)
		close(fd);
	pthread_join(w, NULL);
	spinning = 0;
	pthread_join(t, NULL);
	munmap((void *)m, 4096);
	unlink(latethr_fifo);
	return fd < 0;
}

/*
 * A sanitized build: no leak check at exit, which forks a ptrace'd helper
 * (a process more under ptbpf) and fails under strace.
 */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return 1;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(void);
	} cases[] = {
		{ "term", case_term },	     { "threads", case_threads },
		{ "chld", case_chld },	     { "handler", case_handler },
		{ "restart", case_restart }, { "paths", case_paths },
		{ "exec", case_exec },	     { "blocked", case_blocked },
		{ "threxit", case_threxit }, { "nochld", case_nochld },
	};

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 3 && !strcmp(argv[1], "latethr")) {
		latethr_fifo = argv[2];
		return case_latethr();
	}
	for (size_t i = 0; argc == 2 && i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(argv[1], cases[i].name))
			return cases[i].run();
	fprintf(stderr, "usage: sig_cases "
			"term|threads|blocked|chld|handler|restart|paths|exec|threxit|nochld|"
			"latethr FIFO\n");
	return 2;
}
