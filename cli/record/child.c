/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record: the command, started held until tracing is set up, so that
 * its first syscall is recorded.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

int start_child(struct child *c, const char *path, char **argv)
{
	int go[2], errp[2];

	c->shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->shared == MAP_FAILED)
		return -errno;
	if (pipe2(go, O_CLOEXEC) || pipe2(errp, O_CLOEXEC))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		unsigned long long spins;
		char b;
		int e;

		close(go[1]);
		close(errp[0]);
		drop_privileges();
		__atomic_store_n(&c->shared[2], 1, __ATOMIC_SEQ_CST);
		/* asked for only: a tracer should not change what the traced
		 * program sees (env prints one variable more) */
		if (c->early_uev)
			setenv("PTBPF_UEV_PENDING", "1", 1);
		/* held until the stream exists (read) and is started (spin) */
		if (read(go[0], &b, 1) != 1)
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
		if (write(errp[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(errp[1]);
	c->go_fd = go[1];
	c->err_fd = errp[0];
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
