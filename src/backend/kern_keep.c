// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kept programs, the library's side: the helper is found next to the
 * library (the build tree) or in its libexec directory (installed), and
 * started with posix_spawn, the set as its fds 3 on; a set is taken from
 * the helper's socket, which must belong to our own user.
 */
#include "backend/kern_keep.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PTBPF_KEEP_RELDIR
#define PTBPF_KEEP_RELDIR "../libexec/ptbpf"
#endif

uint64_t kern_keep__hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

int kern_keep__take(uint64_t key, struct keep_msg *msg, int *fds, int max)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * KEEP_MAX_FDS)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = msg, .iov_len = sizeof(*msg) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct timeval tv = { .tv_usec = 200000 };
	struct sockaddr_un sa;
	struct ucred cred;
	socklen_t salen = keep__addr(&sa, geteuid(), key), len = sizeof(cred);
	struct cmsghdr *h;
	ssize_t got;
	int s, n = 0, err = -EPROTO;

	/* non-blocking: a name squatted by another user, its queue left full,
	 * would block a blocking connect() forever */
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		return -errno;
	if (connect(s, (struct sockaddr *)&sa, salen) ||
	    fcntl(s, F_SETFL, fcntl(s, F_GETFL) & ~O_NONBLOCK)) {
		close(s);
		return -ENOENT;
	}
	/* an abstract name anyone may take: only our own user's helper */
	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) || cred.uid != geteuid()) {
		close(s);
		return -EPERM;
	}
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	m.msg_control = u.buf;
	m.msg_controllen = sizeof(u.buf);
	got = recvmsg(s, &m, MSG_CMSG_CLOEXEC);
	close(s);
	h = got >= 0 ? CMSG_FIRSTHDR(&m) : NULL;
	if (h && h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS &&
	    h->cmsg_len >= CMSG_LEN(0))
		n = (int)((h->cmsg_len - CMSG_LEN(0)) / sizeof(int)); /* <= KEEP_MAX_FDS */
	if (got == (ssize_t)sizeof(*msg) && !(m.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) &&
	    msg->magic == KEEP_MAGIC && n <= max &&
	    (uint64_t)msg->nmaps + msg->nprogs + msg->nrings == (uint64_t)n)
		err = 0;
	for (int i = 0; i < n; i++) {
		int fd;

		memcpy(&fd, CMSG_DATA(h) + i * sizeof(int), sizeof(fd));
		if (err)
			close(fd);
		else
			fds[i] = fd;
	}
	return err ? err : n;
}

/* The helper at dir/rel/ptbpf-keep if it is one we may run: a regular
 * executable of root or of our user that no one else may write. */
static int kern_keep__helper_at(char *path, size_t size, const char *dir, const char *rel)
{
	struct stat st;
	int n = snprintf(path, size, "%s%s%s/%s", dir, *rel ? "/" : "", rel, KEEP_HELPER);

	if (n < 0 || (size_t)n >= size || stat(path, &st))
		return -ENOENT;
	if (!S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR) ||
	    (st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return -ENOENT;
	return 0;
}

/* Next to the library (a build tree), or at its libexec directory. */
static int kern_keep__helper(char *path, size_t size)
{
	char dir[PATH_MAX], *slash;
	Dl_info info;

	if (!dladdr((void *)kern_keep__helper, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, dir))
		return -ENOENT;
	slash = strrchr(dir, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	if (!kern_keep__helper_at(path, size, dir, ""))
		return 0;
	return kern_keep__helper_at(path, size, dir, PTBPF_KEEP_RELDIR);
}

int kern_keep__give(uint64_t key, const struct keep_msg *msg, const int *fds, unsigned int ms)
{
	int n = (int)(msg->nmaps + msg->nprogs + msg->nrings), tmp[KEEP_MAX_FDS], err, st;
	char path[PATH_MAX], a_key[20], a_ms[12], a_maps[12], a_progs[12], a_rings[12];
	char *argv[] = { KEEP_HELPER, a_key, a_ms, a_maps, a_progs, a_rings, NULL };
	char *envp[] = { NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	pid_t pid;
	int i;

	if (n <= 0 || n > KEEP_MAX_FDS)
		return -EINVAL;
	err = kern_keep__helper(path, sizeof(path));
	if (err)
		return err;
	snprintf(a_key, sizeof(a_key), "%016" PRIx64, key);
	snprintf(a_ms, sizeof(a_ms), "%u", ms);
	snprintf(a_maps, sizeof(a_maps), "%u", msg->nmaps);
	snprintf(a_progs, sizeof(a_progs), "%u", msg->nprogs);
	snprintf(a_rings, sizeof(a_rings), "%u", msg->nrings);
	/* copies above the helper's range, so that no dup2 below overwrites
	 * one before it is moved */
	for (i = 0; i < n; i++) {
		tmp[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3 + n);
		if (tmp[i] < 0) {
			err = -errno;
			goto out;
		}
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	/* out of the caller's session: a Ctrl-C for it is not for the helper */
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
						POSIX_SPAWN_SETSID);
	for (int j = 0; j < n; j++)
		posix_spawn_file_actions_adddup2(&fa, tmp[j], 3 + j);
	err = -posix_spawn(&pid, path, &fa, &attr, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	/* it forks at once and leaves: its child holds the set */
	while (!err && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
out:
	while (i-- > 0)
		close(tmp[i]);
	return err;
}
