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

#include "decode/struct.h"

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
	xlat_val(b, &xlat_ethernet_protocols, ntohs(ld16(a, 2)));
	sb_puts(b, "), sll_ifindex=");
	fmt_ifindex(b, ld32(a, 4));
	sb_puts(b, ", sll_hatype=");
	xlat_val(b, &xlat_arp_hardware_types, ld16(a, 8));
	sb_puts(b, ", sll_pkttype=");
	xlat_val(b, &xlat_af_packet_types, a[10]);
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
	xlat_val(b, &xlat_addrfams, family);
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
	xlat_val(b, &xlat_addrfams, v);
}

void fmt_packet_proto(struct sbuf *b, unsigned proto)
{
	sb_puts(b, "htons(");
	xlat_val(b, &xlat_ethernet_protocols, ntohs((uint16_t)proto));
	sb_putc(b, ')');
}

void fmt_msg_flags(struct sbuf *b, unsigned long v)
{
	xlat_flags(b, &xlat_msg_flags, v);
}

void fmt_sockopt_level_name(struct sbuf *b, int level, int name)
{
	static const struct {
		int level;
		const struct xlat *names;
	} levels[] = {
		{ SOL_SOCKET, &xlat_sock_options },    { SOL_IP, &xlat_sock_ip_options },
		{ SOL_IPV6, &xlat_sock_ipv6_options }, { SOL_TCP, &xlat_sock_tcp_options },
		{ SOL_UDP, &xlat_sock_udp_options },   { SOL_NETLINK, &xlat_sock_netlink_options },
	};
	size_t at = b->len;

	/* strace's print_sockopt_fd_level_name: its "SOL_??" */
	fmt_xval(b, (unsigned)level, xlat_socketlayers.f, xlat_socketlayers.n, "SOL_??");
	xlat_restyle(b, at, (unsigned)level, XLAT_HEX);
	sb_puts(b, ", ");
	for (size_t i = 0; i < DS_NELEM(levels); i++) {
		if (levels[i].level == level) {
			xlat_val(b, levels[i].names, (unsigned)name);
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
/* strace's cmsg printers (src/msghdr.c): a message without one prints no data */
/* How a control message's data prints (strace's cmsg printers). */
enum cmsg_kind {
	CM_FDS,	      /* [3, 4] */
	CM_CREDS,     /* {pid=, uid=, gid=} */
	CM_STRING,    /* "..." */
	CM_TIMEVAL,   /* {tv_sec=, tv_usec=} */
	CM_TIMESPEC,  /* {tv_sec=, tv_nsec=} */
	CM_TIMESPEC3, /* [{...}, {...}, {...}] */
	CM_PKTINFO,   /* {ipi_ifindex=, ipi_spec_dst=, ipi_addr=} */
	CM_UINTS,     /* [64] */
	CM_XBYTES,    /* [0x10] */
	CM_RECVERR,   /* {ee_errno=, ..., offender={sa_family=...}} */
	CM_SOCKADDR,  /* {sa_family=AF_INET, ...} */
};

static const struct cmsg_printer {
	int level, type;
	unsigned int min_len; /* shorter data prints as bytes */
	enum cmsg_kind kind;
} cmsg_printers[] = {
	{ SOL_SOCKET, 1, 4, CM_FDS },	     { SOL_SOCKET, 2, 12, CM_CREDS },
	{ SOL_SOCKET, 3, 1, CM_STRING },     { SOL_SOCKET, 29, 1, CM_TIMEVAL },
	{ SOL_SOCKET, 35, 1, CM_TIMESPEC },  { SOL_SOCKET, 37, 1, CM_TIMESPEC3 },
	{ SOL_SOCKET, 63, 1, CM_TIMEVAL },   { SOL_SOCKET, 64, 1, CM_TIMESPEC },
	{ SOL_SOCKET, 65, 1, CM_TIMESPEC3 }, { SOL_IP, 1, 1, CM_XBYTES },
	{ SOL_IP, 2, 4, CM_UINTS },	     { SOL_IP, 3, 1, CM_STRING }, /* SCM_SECURITY */
	{ SOL_IP, 6, 1, CM_XBYTES },	     { SOL_IP, 7, 1, CM_XBYTES },
	{ SOL_IP, 8, 12, CM_PKTINFO },	     { SOL_IP, 11, 32, CM_RECVERR },
	{ SOL_IP, 20, 16, CM_SOCKADDR },     { SOL_IP, 23, 4, CM_UINTS },
};

static void cmsg_inet_addr(struct sbuf *b, const unsigned char *a)
{
	char s[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, a, s, sizeof(s));
	sb_printf(b, "inet_addr(\"%s\")", s);
}

/* A message's data (n bytes at d) by its printer; 0, or -1 when none applies. */
static int cmsg_data(struct sbuf *b, int level, int type, const unsigned char *d, size_t n)
{
	const struct cmsg_printer *pr = NULL;
	size_t i;

	for (i = 0; i < sizeof(cmsg_printers) / sizeof(cmsg_printers[0]); i++)
		if (cmsg_printers[i].level == level && cmsg_printers[i].type == type)
			pr = &cmsg_printers[i];
	if (!pr || n < pr->min_len)
		return -1;
	switch (pr->kind) {
	case CM_FDS:
	case CM_UINTS:
		sb_putc(b, '[');
		for (i = 0; i + 4 <= n; i += 4)
			sb_printf(b, pr->kind == CM_FDS ? (i ? ", %d" : "%d") : (i ? ", %u" : "%u"),
				  ld32(d, i));
		sb_putc(b, ']');
		break;
	case CM_CREDS:
		sb_printf(b, "{pid=%u, uid=%u, gid=%u}", ld32(d, 0), ld32(d, 4), ld32(d, 8));
		break;
	case CM_STRING:
		fmt_quote(b, d, n, 0, 0);
		break;
	case CM_TIMEVAL:
	case CM_TIMESPEC:
		if ((pr->kind == CM_TIMEVAL ? fmt_timeval(b, d, n) : fmt_timespec(b, d, n)))
			sb_puts(b, "???");
		break;
	case CM_TIMESPEC3:
		if (n < 48) {
			sb_puts(b, "???");
			break;
		}
		for (i = 0; i < 3; i++) {
			sb_puts(b, i ? ", " : "[");
			fmt_timespec(b, d + 16 * i, 16);
		}
		sb_putc(b, ']');
		break;
	case CM_PKTINFO:
		sb_puts(b, "{ipi_ifindex=");
		fmt_ifindex(b, ld32(d, 0));
		sb_puts(b, ", ipi_spec_dst=");
		cmsg_inet_addr(b, d + 4);
		sb_puts(b, ", ipi_addr=");
		cmsg_inet_addr(b, d + 8);
		sb_putc(b, '}');
		break;
	case CM_XBYTES:
		for (i = 0; i < n; i++)
			sb_printf(b, d[i] ? "%s%#x" : "%s0", i ? ", " : "[", d[i]);
		sb_putc(b, ']');
		break;
	case CM_RECVERR:
		sb_printf(b,
			  "{ee_errno=%u, ee_origin=%u, ee_type=%u, ee_code=%u, ee_info=%u, "
			  "ee_data=%u, offender=",
			  ld32(d, 0), d[4], d[5], d[6], ld32(d, 8), ld32(d, 12));
		fmt_sockaddr(b, d + 16, 16, 16);
		sb_putc(b, '}');
		break;
	case CM_SOCKADDR:
		fmt_sockaddr(b, d, n < 128 ? n : 128, n < 128 ? n : 128);
		break;
	}
	return 0;
}

int fmt_cmsgs(struct sbuf *b, const void *p, size_t len, size_t full)
{
	const unsigned char *c = p;
	size_t off = 0;

	sb_putc(b, '[');
	while (len - off >= 16) {
		uint64_t clen = ld64(c, off);
		int level = (int)ld32(c, off + 8), type = (int)ld32(c, off + 12);
		size_t dlen = clen > len - off ? len - off : clen;

		dlen = dlen > 16 ? dlen - 16 : 0;
		if (off)
			sb_puts(b, ", ");
		sb_printf(b, "{cmsg_len=%llu, cmsg_level=", (unsigned long long)clen);
		xlat_val(b, &xlat_socketlayers, (unsigned)level);
		sb_puts(b, ", cmsg_type=");
		if (level == SOL_SOCKET)
			xlat_val(b, &xlat_scmvals, (unsigned)type);
		else if (level == SOL_IP)
			xlat_val(b, &xlat_ip_cmsg_types, (unsigned)type);
		else
			sb_printf(b, "%#x", (unsigned)type);
		if (dlen) {
			size_t at = b->len;

			sb_puts(b, ", cmsg_data=");
			if (cmsg_data(b, level, type, c + off + 16, dlen))
				sb_truncate(b, at);
		}
		sb_putc(b, '}');
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
