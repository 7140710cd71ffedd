// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A traced program for cli_decode.test.sh (issue #54's exact forms and the
 * decoders real programs use): getrandom, umask, an ioctl without an
 * argument, EPOLL_CTL_DEL, wait4 finding no child yet, fcntl's locks,
 * mincore, pkeys, inotify, sendfile's offset, sigaltstack, the affinity
 * masks, getrusage, memfd_create, waitid, prctl: the same at every run.
 * usage: decode_more DIR (an empty directory, left empty)
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* a signal set in a page the program has not touched yet: its read at the
 * call's entry faults (issue #54: a set printed as a pointer) */
static const struct {
	char before[512 * 1024];
	sigset_t set;
	char after[512 * 1024];
} untouched = { .set = { { 1UL << (SIGUSR2 - 1) } } };

static void check(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(2);
	}
}

/* section 1's exact forms */
static void exact_forms(void)
{
	struct epoll_event ev = { .events = EPOLLIN };
	unsigned char rnd[8];
	int ep, status = 0x1234;

	check(getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) == sizeof(rnd), "getrandom");
	umask(022);
	umask(0);
	umask(022);
	ep = epoll_create1(EPOLL_CLOEXEC);
	check(ep >= 0, "epoll_create1");
	check(ioctl(ep, FIOCLEX) == 0, "ioctl");
	check(ioctl(ep, FIONCLEX) == 0, "ioctl");
	check(epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev) == 0 || 1, "epoll_ctl");
	epoll_ctl(ep, EPOLL_CTL_DEL, 0, &ev);
	close(ep);
	/* no child has changed state: 0, the status untouched */
	if (fork() == 0) {
		usleep(100000);
		_exit(0);
	}
	check(wait4(-1, &status, WNOHANG, NULL) == 0, "wait4");
	check(wait4(-1, &status, 0, NULL) > 0, "wait4");
}

static void locks(const char *dir)
{
	char path[4096];
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 100 };
	int fd;

	snprintf(path, sizeof(path), "%s/lock", dir);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	check(fd >= 0, "open");
	check(fcntl(fd, F_SETLK, &fl) == 0, "F_SETLK");
	fl.l_type = F_UNLCK;
	check(fcntl(fd, F_SETLKW, &fl) == 0, "F_SETLKW");
	fl.l_type = F_RDLCK;
	check(fcntl(fd, F_GETLK, &fl) == 0, "F_GETLK");
	fl.l_type = F_WRLCK;
	fl.l_pid = 0;
	check(fcntl(fd, F_OFD_SETLK, &fl) == 0, "F_OFD_SETLK");
	fl.l_type = F_RDLCK;
	check(fcntl(fd, F_OFD_GETLK, &fl) == 0, "F_OFD_GETLK");
	fl.l_type = F_UNLCK;
	check(fcntl(fd, F_OFD_SETLKW, &fl) == 0, "F_OFD_SETLKW");
	close(fd);
	unlink(path);
}

static void memory(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char vec[4];
	char *p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int key;

	check(p != MAP_FAILED, "mmap");
	p[0] = 1;
	p[2 * pg] = 1;
	check(mincore(p, 4 * pg, vec) == 0, "mincore");
	key = (int)syscall(SYS_pkey_alloc, 0, 0);
	if (key >= 0) {
		syscall(SYS_pkey_mprotect, p, pg, PROT_READ, key);
		syscall(SYS_pkey_free, key);
	}
	syscall(SYS_pkey_mprotect, p, pg, PROT_READ | PROT_WRITE, -1);
	munmap(p, 4 * pg);
}

static void files(const char *dir)
{
	char path[4096], data[1100];
	off_t off = 0;
	int in, out, fd, wd;

	fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	check(fd >= 0, "inotify_init1");
	wd = inotify_add_watch(fd, dir, IN_CREATE | IN_DELETE | IN_MODIFY);
	check(wd >= 0, "inotify_add_watch");
	check(inotify_rm_watch(fd, wd) == 0, "inotify_rm_watch");
	close(fd);
	memset(data, 'x', sizeof(data));
	snprintf(path, sizeof(path), "%s/sendfile", dir);
	in = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	check(in >= 0, "open");
	check(write(in, data, sizeof(data)) == sizeof(data), "write");
	out = open("/dev/null", O_WRONLY);
	check(sendfile(out, in, &off, sizeof(data)) == sizeof(data), "sendfile");
	check(sendfile(out, in, NULL, 10) >= 0, "sendfile");
	close(out);
	close(in);
	unlink(path);
	fd = memfd_create("decode_more", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	check(fd >= 0, "memfd_create");
	close(fd);
}

static void process(void)
{
	static char stack_mem[65536];
	stack_t ss = { .ss_sp = stack_mem, .ss_size = sizeof(stack_mem) }, old;
	struct rusage ru;
	cpu_set_t set;
	siginfo_t si;
	pid_t pid;

	/* its page out of the page tables (a file's page: read again at the next touch) */
	madvise((void *)((uintptr_t)&untouched.set & ~(uintptr_t)4095), 4096, MADV_DONTNEED);
	/* the call itself: glibc's sigprocmask reads the set first */
	check(syscall(SYS_rt_sigprocmask, SIG_BLOCK, &untouched.set, NULL, 8) == 0, "sigprocmask");
	check(syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &untouched.set, NULL, 8) == 0,
	      "sigprocmask");
	/* prctl by its option */
	prctl(PR_CAPBSET_READ, 32 /* CAP_MAC_OVERRIDE */);
	prctl(PR_GET_DUMPABLE);
	prctl(PR_SET_PDEATHSIG, 0);
	prctl(PR_GET_KEEPCAPS);
	prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	check(sigaltstack(&ss, &old) == 0, "sigaltstack");
	ss.ss_flags = SS_DISABLE;
	check(sigaltstack(&ss, NULL) == 0, "sigaltstack");
	CPU_ZERO(&set);
	check(sched_getaffinity(0, sizeof(set), &set) == 0, "sched_getaffinity");
	check(sched_setaffinity(0, sizeof(set), &set) == 0, "sched_setaffinity");
	check(getrusage(RUSAGE_SELF, &ru) == 0, "getrusage");
	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0)
		_exit(7);
	check(waitid(P_PID, (id_t)pid, &si, WEXITED) == 0, "waitid");
	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0)
		_exit(0);
	check(wait4(pid, NULL, 0, &ru) == pid, "wait4");
}

int main(int argc, char **argv)
{
	check(argc == 2, "usage: decode_more DIR");
	exact_forms();
	locks(argv[1]);
	memory();
	files(argv[1]);
	process();
	return 0;
}
