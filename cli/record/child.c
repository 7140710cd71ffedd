/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record: the command, started held until tracing is set up, so that
 * its first syscall is recorded.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/record.h"

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

static void drop_privileges(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	uid_t uid = getuid();
	gid_t gid = getgid();

	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (!syscall(SYS_capget, &h, d)) {
		d[0].inheritable = d[1].inheritable = 0;
		if (uid != 0) {
			/* ptbpf got capabilities from its file: the command gets none */
			d[0].effective = d[1].effective = 0;
			d[0].permitted = d[1].permitted = 0;
		}
		syscall(SYS_capset, &h, d);
	}
	if (getegid() != gid && setresgid(gid, gid, gid))
		_exit(127);
	if (geteuid() != uid && setresuid(uid, uid, uid))
		_exit(127);
	/* ptbpf's exec with file capabilities made it, and so this fork, not
	 * dumpable: its own user could not ptrace it, nor may ptbpf trace it.
	 * It holds nothing of ptbpf's capabilities now (nor BPF objects: it
	 * was forked before any). */
	if (uid != 0 && !prctl(PR_GET_DUMPABLE, 0, 0, 0, 0))
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

char *resolve_cmd(const char *cmd, int *err)
{
	const char *path = getenv("PATH");
	char *buf;
	size_t n;

	*err = ENOENT;
	if (strchr(cmd, '/')) {
		if (access(cmd, F_OK)) {
			*err = errno;
			return NULL;
		}
		return strdup(cmd);
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *end = strchrnul(path, ':');

		n = end - path;
		buf = malloc(n + strlen(cmd) + 3);
		if (!buf)
			return NULL;
		if (n)
			sprintf(buf, "%.*s/%s", (int)n, path, cmd);
		else
			sprintf(buf, "./%s", cmd);
		if (!access(buf, X_OK)) {
			struct stat st;

			if (!stat(buf, &st) && S_ISREG(st.st_mode))
				return buf;
		} else if (errno == EACCES) {
			*err = EACCES;
		}
		free(buf);
		path = *end ? end + 1 : end;
	}
	return NULL;
}

/* The command, in the forked process: held, then its exec; never returns. */
static void child_run(struct child *c, const char *path, char **argv, int go, int errw)
{
	unsigned long long spins;
	char b;
	int e;

	drop_privileges();
	if (child_user_env(c))
		_exit(127);
	/* another user's ids made it not dumpable: ptbpf (root) traces it
	 * anyway, and the exec makes it what the program's file says */
	if (c->set_user)
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	__atomic_store_n(&c->shared[2], 1, __ATOMIC_SEQ_CST);
	/* asked for only: a tracer should not change what the traced
	 * program sees (env prints one variable more) */
	if (c->early_uev)
		setenv("PTBPF_UEV_PENDING", "1", 1);
	/* held until the stream exists (read) and is started (spin) */
	if (read(go, &b, 1) != 1)
		_exit(127);
	__atomic_store_n(&c->shared[0], 1, __ATOMIC_SEQ_CST);
	/* no syscalls here: they would be recorded (bounded if ptbpf dies) */
	for (spins = 0; !__atomic_load_n(&c->shared[1], __ATOMIC_SEQ_CST); spins++) {
		if (spins >> 32)
			_exit(127);
		cpu_relax();
	}
	if (c->shared[1] != 1)
		_exit(127);
	execv(path, argv);
	e = errno;
	if (write(errw, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * -D: the waiter, between ptbpf and the command. It forks the command,
 * writes its pid (or -errno) to stw, waits for it and writes its wait
 * status there. It ignores the signals that end ptbpf (a terminal's ^C, a
 * group's kill), which ptbpf passes on to the command: it outlives the
 * command only as long as its wait takes.
 */
static void waiter_run(struct child *c, const char *path, char **argv, int fds[3])
{
	int st = 0, stw = fds[2];
	pid_t pid = fork();

	if (pid == 0)
		child_run(c, path, argv, fds[0], fds[1]);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	/* the pipes' ends are the command's: an exec closes the error pipe */
	close(fds[0]);
	close(fds[1]);
	st = pid < 0 ? -errno : pid;
	if (write(stw, &st, sizeof(st)) != sizeof(st) || pid < 0)
		_exit(127);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	_exit(write(stw, &st, sizeof(st)) == sizeof(st) ? 0 : 127);
}

/* -D: the command's pid from the waiter, in c->pid; 0 or a negative errno */
static int waiter_pid(struct child *c)
{
	int v = 0;
	ssize_t n;

	do
		n = read(c->status_fd, &v, sizeof(v));
	while (n < 0 && errno == EINTR);
	if (n != sizeof(v) || v <= 0) {
		waitpid(c->waiter, NULL, 0);
		c->waiter = 0;
		return n == sizeof(v) && v < 0 ? v : -ECHILD;
	}
	c->pid = v;
	return 0;
}

int start_child(struct child *c, const char *path, char **argv)
{
	int go[2], errp[2], stp[2] = { -1, -1 };
	pid_t pid;

	c->status_fd = -1;
	c->shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->shared == MAP_FAILED)
		return -errno;
	if (pipe2(go, O_CLOEXEC) || pipe2(errp, O_CLOEXEC) ||
	    (c->daemonize && pipe2(stp, O_CLOEXEC)))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(go[1]);
		close(errp[0]);
		if (c->daemonize) {
			close(stp[0]);
			waiter_run(c, path, argv, (int[3]){ go[0], errp[1], stp[1] });
		}
		child_run(c, path, argv, go[0], errp[1]);
	}
	close(go[0]);
	close(errp[1]);
	c->go_fd = go[1];
	c->err_fd = errp[0];
	c->pid = pid;
	if (c->daemonize) {
		int err;

		close(stp[1]);
		c->status_fd = stp[0];
		c->waiter = pid;
		err = waiter_pid(c);
		if (err)
			return err;
	}
	/* the check that ptbpf may trace it sees it as the command will run */
	for (int i = 0; i < 20000 && !__atomic_load_n(&c->shared[2], __ATOMIC_SEQ_CST); i++)
		usleep(50);
	return 0;
}

void child_ready(struct child *c)
{
	int i;

	if (write(c->go_fd, "g", 1) != 1)
		return;
	for (i = 0; i < 20000 && !__atomic_load_n(&c->shared[0], __ATOMIC_SEQ_CST); i++)
		usleep(50);
}

int child_go(struct child *c, int ok)
{
	int e = 0;
	ssize_t n;

	__atomic_store_n(&c->shared[1], ok ? 1 : 2, __ATOMIC_SEQ_CST);
	if (!ok)
		return 0;
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	return n == sizeof(e) ? e : 0;
}

int child_wait(struct child *c, int *status, int nohang)
{
	pid_t w = c->waiter ? c->waiter : c->pid, p;
	int st = 0;

	p = waitpid(w, &st, nohang ? WNOHANG : 0);
	if (p != w)
		return p == 0 ? 0 : -1;
	/* -D: the waiter's own status says only that it could tell */
	if (c->waiter && read(c->status_fd, &st, sizeof(st)) != sizeof(st))
		st = 127 << 8;
	if (status)
		*status = st;
	return 1;
}

void child_free(struct child *c)
{
	if (c->status_fd > 0)
		close(c->status_fd);
	c->status_fd = -1;
	free(c->groups);
	c->groups = NULL;
}
