// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptbpf-keep: holds a stream's loaded BPF objects for a while after the
 * stream ends, for the next stream of the same user and settings (see
 * common/keep.h). Started by the library with the objects as fds 3 on:
 *
 *	ptbpf-keep KEY MS NMAPS NPROGS NRINGS
 *
 * It leaves its starter at once (the starter waits for that), empties the
 * maps' per-process state, and offers the objects on the abstract socket
 * of (its uid, KEY) for MS milliseconds, to a process of its own uid only;
 * then it exits, and the kernel frees what no one took.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/keep.h"

static int parse_u64(const char *s, int base, uint64_t max, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, base);
	return errno || end == s || *end || *v > max ? -1 : 0;
}

static int64_t now_ms(void)
{
	return (int64_t)(clock__mono_ns() / 1000000);
}

/* Hand the fds to one peer of our uid: 0 once sent. */
static int serve(int conn, const struct keep_msg *msg, int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * KEEP_MAX_FDS)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = sizeof(*msg) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct cmsghdr *h;

	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) || cred.uid != geteuid())
		return -1;
	memset(&u, 0, sizeof(u));
	m.msg_control = u.buf;
	m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
	h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
	for (int i = 0; i < nfds; i++)
		memcpy(CMSG_DATA(h) + i * sizeof(int), &(int){ 3 + i }, sizeof(int));
	return sendmsg(conn, &m, MSG_NOSIGNAL) == (ssize_t)sizeof(*msg) ? 0 : -1;
}

int main(int argc, char **argv)
{
	uint64_t key, ms, nmaps, nprogs, nrings;
	struct keep_msg msg = { .magic = KEEP_MAGIC };
	struct sockaddr_un sa;
	socklen_t salen;
	int64_t end;
	int nfds, s, null;

	if (argc != 6 || parse_u64(argv[1], 16, UINT64_MAX, &key) ||
	    parse_u64(argv[2], 10, KEEP_MAX_MS, &ms) ||
	    parse_u64(argv[3], 10, KEEP_MAX_FDS, &nmaps) ||
	    parse_u64(argv[4], 10, KEEP_MAX_FDS, &nprogs) ||
	    parse_u64(argv[5], 10, KEEP_MAX_FDS, &nrings) ||
	    nmaps + nprogs + nrings > KEEP_MAX_FDS || nmaps + nprogs + nrings == 0)
		return 2;
	nfds = (int)(nmaps + nprogs + nrings);
	for (int i = 0; i < nfds; i++)
		if (fcntl(3 + i, F_GETFD) < 0)
			return 2;
	/* nothing of the starter's but the objects: its stdio may be a pipe
	 * someone reads to its end */
	syscall(SYS_close_range, 3 + nfds, ~0U, 0);
	null = open("/dev/null", O_RDWR);
	for (int fd = 0; fd < 3 && null >= 0; fd++)
		if (fd != null)
			dup2(null, fd);
	if (null > 2)
		close(null);
	switch (fork()) {
	case -1:
		return 1;
	case 0:
		break;
	default:
		_exit(0);
	}
	end = now_ms() + (int64_t)ms;
	msg.nmaps = (uint32_t)nmaps;
	msg.nprogs = (uint32_t)nprogs;
	msg.nrings = (uint32_t)nrings;
	/* listening first: a stream that comes meanwhile waits in the queue */
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	salen = keep__addr(&sa, geteuid(), key);
	/* the name taken: another set of these settings is kept already */
	if (s < 0 || bind(s, (struct sockaddr *)&sa, salen) || listen(s, 8))
		return 0;
	/* the programs were detached: wait until none still runs (an RCU
	 * grace period) before emptying their maps */
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		usleep(100000);
	for (int i = 0; i < (int)nmaps; i++)
		keep__clear_map(3 + i);
	for (int64_t left; (left = end - now_ms()) > 0;) {
		struct pollfd p = { .fd = s, .events = POLLIN };
		int conn;

		if (poll(&p, 1, (int)(left > 1000000 ? 1000000 : left)) <= 0)
			continue;
		conn = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		if (conn < 0)
			continue;
		if (!serve(conn, &msg, nfds))
			return 0;
		close(conn);
	}
	return 0;
}
