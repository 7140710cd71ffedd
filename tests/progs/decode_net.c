// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A traced program for cli_decode.test.sh (strace's decoding, issue #35):
 * the socket calls strace decodes, on loopback, in one process and the same
 * at every run. A TCP server and its client on fixed ports (the client's
 * too: no ephemeral port in a sockaddr), closed with SO_LINGER 0 so that no
 * TIME_WAIT keeps the ports from the next run; a UDP socket sending to
 * itself, then with IP_PKTINFO, IP_TTL and IP_TOS control messages; an AF_UNIX socketpair with
 * sendmsg/recvmsg and iovecs. usage: decode_net
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define SERVER_PORT 39035
#define CLIENT_PORT 39036
#define UDP_PORT    39037

static void check(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(2);
	}
}

static struct sockaddr_in loopback(int port)
{
	struct sockaddr_in sa;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sa;
}

static void tcp_pair(void)
{
	struct sockaddr_in srv = loopback(SERVER_PORT), cli = loopback(CLIENT_PORT), peer;
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	socklen_t len;
	int one = 1, type = 0, ls, cs, as;
	char buf[64];

	ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	check(ls >= 0, "socket");
	check(!setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)), "SO_REUSEADDR");
	check(!bind(ls, (struct sockaddr *)&srv, sizeof(srv)), "bind server");
	check(!listen(ls, 4), "listen");

	cs = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
	check(cs >= 0, "socket");
	check(!setsockopt(cs, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)), "SO_REUSEADDR");
	check(!bind(cs, (struct sockaddr *)&cli, sizeof(cli)), "bind client");
	check(!connect(cs, (struct sockaddr *)&srv, sizeof(srv)), "connect");
	len = sizeof(peer);
	as = accept4(ls, (struct sockaddr *)&peer, &len, SOCK_CLOEXEC);
	check(as >= 0, "accept4");

	check(!setsockopt(cs, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)), "TCP_NODELAY");
	len = sizeof(type);
	check(!getsockopt(cs, SOL_SOCKET, SO_TYPE, &type, &len), "SO_TYPE");
	len = sizeof(peer);
	check(!getsockname(cs, (struct sockaddr *)&peer, &len), "getsockname");
	len = sizeof(peer);
	check(!getpeername(as, (struct sockaddr *)&peer, &len), "getpeername");

	check(sendto(cs, "hello, server\n", 14, 0, NULL, 0) == 14, "sendto");
	check(recvfrom(as, buf, 14, MSG_WAITALL, NULL, NULL) == 14, "recvfrom");
	check(send(as, "hello, client\n", 14, 0) == 14, "send");
	check(recv(cs, buf, 14, MSG_WAITALL) == 14, "recv");

	check(!shutdown(cs, SHUT_WR), "shutdown");
	check(recv(as, buf, sizeof(buf), 0) == 0, "recv at end");
	check(!setsockopt(cs, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)), "SO_LINGER");
	check(!setsockopt(as, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)), "SO_LINGER");
	close(as);
	close(cs);
	close(ls);
}

/* A datagram with its control messages: IP_PKTINFO, IP_TTL and IP_TOS. */
static void udp_control(int s, const struct sockaddr_in *me)
{
	int one = 1, tos = 0x10;
	char buf[32];
	union {
		char b[128];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = ctl.b,
			    .msg_controllen = sizeof(ctl.b) };

	check(!setsockopt(s, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one)), "IP_PKTINFO");
	check(!setsockopt(s, IPPROTO_IP, IP_RECVTTL, &one, sizeof(one)), "IP_RECVTTL");
	check(!setsockopt(s, IPPROTO_IP, IP_RECVTOS, &one, sizeof(one)), "IP_RECVTOS");
	check(!setsockopt(s, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)), "IP_TOS");
	check(sendto(s, "with control", 12, 0, (const struct sockaddr *)me, sizeof(*me)) == 12,
	      "sendto udp control");
	check(recvmsg(s, &m, 0) == 12, "recvmsg udp control");
}

static void udp_self(void)
{
	struct sockaddr_in me = loopback(UDP_PORT), from;
	socklen_t len = sizeof(from);
	char buf[32];
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	check(s >= 0, "socket udp");
	check(!bind(s, (struct sockaddr *)&me, sizeof(me)), "bind udp");
	check(sendto(s, "datagram\0\1\2\377", 12, 0, (struct sockaddr *)&me, sizeof(me)) == 12,
	      "sendto udp");
	check(recvfrom(s, buf, sizeof(buf), 0, (struct sockaddr *)&from, &len) == 12,
	      "recvfrom udp");
	/* nothing more: EAGAIN */
	check(recvfrom(s, buf, sizeof(buf), 0, NULL, NULL) < 0, "recvfrom udp empty");
	udp_control(s, &me);
	close(s);
}

static void unix_pair(void)
{
	char a[8], b[16];
	struct iovec out[2] = { { "first:", 6 }, { "second part\n", 12 } };
	struct iovec in[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct msghdr mo = { .msg_iov = out, .msg_iovlen = 2 };
	struct msghdr mi = { .msg_iov = in, .msg_iovlen = 2 };
	int sv[2];

	check(!socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), "socketpair");
	check(sendmsg(sv[0], &mo, 0) == 18, "sendmsg");
	check(recvmsg(sv[1], &mi, 0) == 18, "recvmsg");
	check(!shutdown(sv[1], SHUT_RDWR), "shutdown unix");
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	tcp_pair();
	udp_self();
	unix_pair();
	puts("decode_net done");
	return 0;
}
