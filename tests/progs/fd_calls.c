// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The calls that make, copy and drop fds, for ptbpf record -y / -yy beside
 * strace -y / -yy (tests/cli/fds.test.sh): a file, a pipe, a socketpair, a
 * TCP and an AF_UNIX loopback connection, dup2 onto an open fd, fcntl
 * F_DUPFD_CLOEXEC, close, chdir, a UDPv6 socket, a memfd, and a fork whose
 * child uses the fds it inherits. usage: fd_calls DIR (for a socket file)
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(9) };
	struct sockaddr_un ua = { .sun_family = AF_UNIX };
	socklen_t al = sizeof(a);
	int p[2], sv[2], f, l, c, s, d, u, us, uc, ua2, m, e;
	char b[64];
	pid_t pid;

	if (argc != 2 || strlen(argv[1]) + 8 > sizeof(ua.sun_path))
		return 2;
	/* the fd that dup2 replaces below: a device, for -yy's <char M:N> */
	d = open("/dev/null", O_RDONLY);
	if (d < 0 || (d != 10 && (dup2(d, 10) != 10 || close(d))))
		return 1;
	f = open("/etc/hostname", O_RDONLY);
	if (f < 0 || read(f, b, sizeof(b)) < 0 || pipe(p) || write(p[1], "x", 1) != 1 ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || write(sv[0], "y", 1) != 1)
		return 1;
	e = eventfd(0, EFD_CLOEXEC);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (e < 0 || l < 0 || bind(l, (void *)&a, sizeof(a)) || getsockname(l, (void *)&a, &al) ||
	    listen(l, 1))
		return 1;
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&a, sizeof(a)))
		return 1;
	s = accept(l, NULL, NULL);
	if (s < 0 || write(c, "z", 1) != 1 || read(s, b, 1) != 1)
		return 1;
	d = dup2(f, 10);
	close(f);
	if (d < 0 || read(d, b, 1) < 0)
		return 1;
	d = fcntl(d, F_DUPFD_CLOEXEC, 20);
	a6.sin6_addr = in6addr_loopback;
	u = socket(AF_INET6, SOCK_DGRAM, 0);
	if (d < 0 || u < 0 || connect(u, (void *)&a6, sizeof(a6)) || write(u, "q", 1) != 1)
		return 1;
	snprintf(ua.sun_path, sizeof(ua.sun_path), "%s/sock", argv[1]);
	us = socket(AF_UNIX, SOCK_STREAM, 0);
	if (us < 0 || bind(us, (void *)&ua, sizeof(ua)) || listen(us, 1))
		return 1;
	uc = socket(AF_UNIX, SOCK_STREAM, 0);
	if (uc < 0 || connect(uc, (void *)&ua, sizeof(ua)))
		return 1;
	ua2 = accept(us, NULL, NULL);
	if (ua2 < 0 || write(uc, "1", 1) != 1 || read(ua2, b, 1) != 1)
		return 1;
	m = memfd_create("fd_calls", 0);
	if (m < 0 || write(m, "1", 1) != 1 || chdir("/etc"))
		return 1;
	f = open("hostname", O_RDONLY);
	if (f < 0 || close(f))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		/* the child's copy of the table */
		if (write(p[1], "c", 1) != 1 || write(sv[1], "c", 1) != 1 ||
		    write(ua2, "c", 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (waitpid(pid, NULL, 0) != pid || read(p[0], b, 2) != 2 || write(s, "2", 1) != 1)
		return 1;
	close(e);
	close(m);
	return 0;
}
