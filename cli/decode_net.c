/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: socket addresses, socket options and message flags as strace 6.1
 * prints them (src/sockaddr.c, net.c).
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "decode_struct.h"
#include "decode_net_xlat.h"

/* "lo" as strace's if_nametoindex("lo"), else the number */
static void fmt_ifindex(struct sbuf *b, uint32_t idx)
{
	char name[IF_NAMESIZE];

	if (idx && if_indextoname(idx, name)) {
		sb_puts(b, "if_nametoindex(");
		fmt_quote(b, (const unsigned char *)name, strnlen(name, sizeof(name)), 1, 0);
		sb_putc(b, ')');
	} else {
		sb_printf(b, "%u", idx);
	}
}

static void sa_un(struct sbuf *b, const unsigned char *a, size_t addrlen)
{
	size_t un_len = addrlen > sizeof(struct sockaddr_un) ? sizeof(struct sockaddr_un) : addrlen;
	size_t path_len = un_len - 2;
	const unsigned char *path = a + 2;

	sb_puts(b, "sun_path=");
	if (path[0]) {
		fmt_quote(b, path, path_len, 1, 0);
	} else {
		sb_putc(b, '@');
		fmt_quote(b, path + 1, path_len - 1, 0, 0);
	}
}

static void sa_in(struct sbuf *b, const unsigned char *a)
{
	char s[INET_ADDRSTRLEN];

	sb_printf(b, "sin_port=htons(%u), ", ntohs(ld16(a, 2)));
	inet_ntop(AF_INET, a + 4, s, sizeof(s));
	sb_printf(b, "sin_addr=inet_addr(\"%s\")", s);
}

static void sa_in6(struct sbuf *b, const unsigned char *a, size_t addrlen)
{
	struct in6_addr in6;
	char s[INET6_ADDRSTRLEN];

	memcpy(&in6, a + 8, sizeof(in6));
	sb_printf(b, "sin6_port=htons(%u), sin6_flowinfo=htonl(%u), ", ntohs(ld16(a, 2)),
		  ntohl(ld32(a, 4)));
	inet_ntop(AF_INET6, &in6, s, sizeof(s));
	sb_printf(b, "inet_pton(AF_INET6, \"%s\", &sin6_addr)", s);
	if (addrlen <= 24) /* offsetof(struct sockaddr_in6, sin6_scope_id) */
		return;
	sb_puts(b, ", sin6_scope_id=");
	if (IN6_IS_ADDR_LINKLOCAL(&in6) || IN6_IS_ADDR_MC_LINKLOCAL(&in6))
		fmt_ifindex(b, ld32(a, 24));
	else
		sb_printf(b, "%u", ld32(a, 24));
}

static void sa_nl(struct sbuf *b, const unsigned char *a)
{
	if (ld16(a, 2))
		sb_printf(b, "nl_pad=%#x, ", ld16(a, 2));
	sb_printf(b, "nl_pid=%d, nl_groups=%#08x", (int32_t)ld32(a, 4), ld32(a, 8));
}

static void sa_ll(struct sbuf *b, const unsigned char *a, size_t addrlen)
{
	unsigned halen = a[11];
	size_t oob_halen = addrlen - 12; /* the bytes of sll_addr addrlen covers */

	sb_puts(b, "sll_protocol=htons(");
	fmt_xval(b, ntohs(ld16(a, 2)), xl_ethernet_protocols, DS_NELEM(xl_ethernet_protocols),
		 "ETH_P_???");
	sb_puts(b, "), sll_ifindex=");
	fmt_ifindex(b, ld32(a, 4));
	sb_puts(b, ", sll_hatype=");
	fmt_xval(b, ld16(a, 8), xl_arp_hardware_types, DS_NELEM(xl_arp_hardware_types),
		 "ARPHRD_???");
	sb_puts(b, ", sll_pkttype=");
	fmt_xval(b, a[10], xl_af_packet_types, DS_NELEM(xl_af_packet_types), "PACKET_???");
	sb_printf(b, ", sll_halen=%u", halen);
	if (!halen)
		return;
	sb_puts(b, ", sll_addr=[");
	/* sll_addr has 8 bytes; strace reads a larger halen on in its zeroed buffer */
	for (unsigned i = 0; i < halen; i++) {
		if (i)
			sb_puts(b, ", ");
		if (i >= oob_halen) {
			sb_puts(b, "...");
			break;
		}
		sb_printf(b, "%#02x", a[12 + i]);
	}
	sb_putc(b, ']');
}

int fmt_sockaddr(struct sbuf *b, const void *p, size_t len, size_t addrlen)
{
	/* strace's buffer: a sockaddr_storage and a NUL, zeroed past addrlen */
	unsigned char a[sizeof(struct sockaddr_storage) + 1 + 255] = { 0 };
	unsigned family;

	if (addrlen < 2)
		return -1;
	if (addrlen > sizeof(struct sockaddr_storage))
		addrlen = sizeof(struct sockaddr_storage);
	if (len < addrlen)
		return -1;
	memcpy(a, p, addrlen);
	family = ld16(a, 0);
	sb_puts(b, "{sa_family=");
	fmt_xval(b, family, xl_addrfams, DS_NELEM(xl_addrfams), "AF_???");
	if (addrlen > 2) {
		sb_puts(b, ", ");
		if (family == AF_UNIX && addrlen >= 3)
			sa_un(b, a, addrlen);
		else if (family == AF_INET && addrlen >= sizeof(struct sockaddr_in))
			sa_in(b, a);
		else if (family == AF_INET6 && addrlen >= 24)
			sa_in6(b, a, addrlen);
		else if (family == AF_NETLINK && addrlen >= 12)
			sa_nl(b, a);
		else if (family == AF_PACKET && addrlen >= 20)
			sa_ll(b, a, addrlen);
		else {
			sb_puts(b, "sa_data=");
			fmt_quote(b, a + 2, addrlen - 2, 0, 0);
		}
	}
	sb_putc(b, '}');
	return 0;
}

int fmt_linger(struct sbuf *b, const void *p, size_t len)
{
	if (len < 8)
		return -1;
	sb_printf(b, "{l_onoff=%d, l_linger=%d}", (int32_t)ld32(p, 0), (int32_t)ld32(p, 4));
	return 0;
}

void fmt_addrfam(struct sbuf *b, unsigned v)
{
	fmt_xval(b, v, xl_addrfams, DS_NELEM(xl_addrfams), "AF_???");
}

void fmt_packet_proto(struct sbuf *b, unsigned proto)
{
	sb_puts(b, "htons(");
	fmt_xval(b, ntohs((uint16_t)proto), xl_ethernet_protocols, DS_NELEM(xl_ethernet_protocols),
		 "ETH_P_???");
	sb_putc(b, ')');
}

void fmt_msg_flags(struct sbuf *b, unsigned long v)
{
	fmt_flags_dflt(b, v, xl_msg_flags, DS_NELEM(xl_msg_flags), "MSG_???");
}

void fmt_sockopt_level_name(struct sbuf *b, int level, int name)
{
	static const struct {
		int level;
		const struct flag *names;
		size_t n;
		const char *dflt;
	} levels[] = {
		{ SOL_SOCKET, xl_sock_options, DS_NELEM(xl_sock_options), "SO_???" },
		{ SOL_IP, xl_sock_ip_options, DS_NELEM(xl_sock_ip_options), "IP_???" },
		{ SOL_IPV6, xl_sock_ipv6_options, DS_NELEM(xl_sock_ipv6_options), "IPV6_???" },
		{ SOL_TCP, xl_sock_tcp_options, DS_NELEM(xl_sock_tcp_options), "TCP_???" },
		{ SOL_UDP, xl_sock_udp_options, DS_NELEM(xl_sock_udp_options), "UDP_???" },
	};

	fmt_xval(b, (unsigned)level, xl_socketlayers, DS_NELEM(xl_socketlayers), "SOL_??");
	sb_puts(b, ", ");
	for (size_t i = 0; i < DS_NELEM(levels); i++) {
		if (levels[i].level == level) {
			fmt_xval(b, (unsigned)name, levels[i].names, levels[i].n, levels[i].dflt);
			return;
		}
	}
	/* a level strace has no names for (or that ptbpf lacks): the number */
	sb_printf(b, "%u", (unsigned)name);
}

/*
 * Control messages (struct cmsghdr, 16 bytes, then the data, each at an
 * 8-byte boundary) of len bytes captured of full: strace's list, for the
 * types ptbpf decodes (SCM_RIGHTS, SCM_CREDENTIALS); -1 for any other,
 * whose data strace decodes its own way: the caller prints the address.
 */
int fmt_cmsgs(struct sbuf *b, const void *p, size_t len, size_t full)
{
	const unsigned char *c = p;
	size_t off = 0, at = b->len;

	sb_putc(b, '[');
	while (len - off >= 16) {
		uint64_t clen;
		int level, type;
		size_t dlen, i;

		memcpy(&clen, c + off, 8);
		memcpy(&level, c + off + 8, 4);
		memcpy(&type, c + off + 12, 4);
		dlen = clen > len - off ? len - off : clen;
		dlen = dlen > 16 ? dlen - 16 : 0;
		if (level != SOL_SOCKET || (type != SCM_RIGHTS && type != SCM_CREDENTIALS)) {
			sb_truncate(b, at);
			return -1;
		}
		if (off)
			sb_puts(b, ", ");
		sb_printf(b, "{cmsg_len=%llu, cmsg_level=SOL_SOCKET, cmsg_type=%s, cmsg_data=",
			  (unsigned long long)clen,
			  type == SCM_RIGHTS ? "SCM_RIGHTS" : "SCM_CREDENTIALS");
		if (type == SCM_RIGHTS) {
			sb_putc(b, '[');
			for (i = 0; i + 4 <= dlen; i += 4) {
				int fd;

				memcpy(&fd, c + off + 16 + i, 4);
				sb_printf(b, i ? ", %d" : "%d", fd);
			}
			sb_puts(b, "]}");
		} else if (dlen >= 12) {
			uint32_t u[3];

			memcpy(u, c + off + 16, sizeof(u));
			sb_printf(b, "{pid=%u, uid=%u, gid=%u}}", u[0], u[1], u[2]);
		} else {
			sb_truncate(b, at);
			return -1;
		}
		if (clen < 16) {
			off += 16;
			break;
		}
		if (clen >= len - off) {
			off = len; /* also a length whose rounding would wrap */
			break;
		}
		clen = (clen + 7) & ~7ull;
		if (clen >= len - off) {
			off = len;
			break;
		}
		off += clen;
	}
	/* strace: what is left after the last whole message, or not read */
	if (off < len || len < full)
		sb_puts(b, off ? ", ..." : "...");
	sb_putc(b, ']');
	return 0;
}
