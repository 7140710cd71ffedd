/*
 * A traced child running a known script of syscalls (for itest_stream):
 *   script_child READY_FD GO_FD PATH NBYTES K [FLAGS]
 * writes its pthread_self() and gettid() to READY_FD, waits for a byte on
 * GO_FD, then: openat(PATH), write NBYTES to /dev/null, getppid K times,
 * kill(self, SIGUSR1), fork a child that exits 7, waitpid, and with
 * FLAGS containing "threads" runs 2 threads doing getppid K times each;
 * then execs /bin/true (exits 0 if FLAGS contains "noexec").
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int k;
static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	got = sig;
}

static void *worker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < k; i++)
		syscall(SYS_getppid);
	return NULL;
}

int main(int argc, char **argv)
{
	int ready, go, fd, i, st;
	size_t n;
	char buf[4096], c;
	uint64_t ids[2];
	pid_t p;
	const char *flags = argc > 6 ? argv[6] : "";

	if (argc < 6)
		return 2;
	ready = atoi(argv[1]);
	go = atoi(argv[2]);
	n = (size_t)atol(argv[4]);
	k = atoi(argv[5]);
	ids[0] = (uint64_t)pthread_self();
	ids[1] = (uint64_t)syscall(SYS_gettid);
	if (write(ready, ids, sizeof(ids)) != sizeof(ids) || read(go, &c, 1) != 1)
		return 3;
	signal(SIGUSR1, on_usr1);
	fd = openat(AT_FDCWD, argv[3], O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	fd = open("/dev/null", O_WRONLY);
	memset(buf, 'x', sizeof(buf));
	if (write(fd, buf, n) != (ssize_t)n)
		return 4;
	close(fd);
	for (i = 0; i < k; i++)
		syscall(SYS_getppid);
	kill(getpid(), SIGUSR1);
	p = fork();
	if (p == 0)
		_exit(7);
	waitpid(p, &st, 0);
	if (strstr(flags, "threads")) {
		pthread_t t[2];

		pthread_create(&t[0], NULL, worker, NULL);
		pthread_create(&t[1], NULL, worker, NULL);
		pthread_join(t[0], NULL);
		pthread_join(t[1], NULL);
	}
	if (!got)
		return 5;
	if (strstr(flags, "noexec"))
		return 0;
	execl("/bin/true", "true", (char *)NULL);
	return 6;
}
