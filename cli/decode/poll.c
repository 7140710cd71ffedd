/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: poll, epoll and select arguments as strace 6.1 prints them
 * (src/poll.c, epoll.c, desc.c).
 */
#include "decode/struct.h"
#include "decode/abi.h"

/* strace's print_array stops after -s elements (these printers take no
 * options: its default) */
#define ARRAY_MAX 32

void fmt_poll_events(struct sbuf *b, unsigned v)
{
	xlat_flags(b, &xlat_pollflags, v);
}

#define POLLFD_SIZE 8 /* int fd; short events, revents */

int fmt_pollfds(struct sbuf *b, const void *p, size_t len, size_t n, int revents)
{
	const unsigned char *f = p;
	size_t i, printed = 0, at;

	if (!revents) {
		size_t shown = n < ARRAY_MAX ? n : ARRAY_MAX;

		if (len / POLLFD_SIZE < shown)
			return -1;
		sb_putc(b, '[');
		for (i = 0; i < shown; i++) {
			int fd = (int32_t)ld32(f, i * POLLFD_SIZE);

			sb_printf(b, "%s{fd=%d", i ? ", " : "", fd);
			if (fd >= 0) {
				sb_puts(b, ", events=");
				fmt_poll_events(b, ld16(f, i * POLLFD_SIZE + 4));
			}
			sb_putc(b, '}');
		}
		sb_puts(b, n > shown ? ", ...]" : "]");
		return 0;
	}
	/* at exit, those with revents set, as decode_poll_exiting() */
	if (len / POLLFD_SIZE < n)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned rev = ld16(f, i * POLLFD_SIZE + 6);

		if (!rev)
			continue;
		sb_puts(b, printed ? ", " : "[");
		if (printed >= ARRAY_MAX) {
			sb_puts(b, "...");
			break;
		}
		sb_printf(b, "{fd=%d, revents=", (int32_t)ld32(f, i * POLLFD_SIZE));
		at = b->len;
		print_flags(b, rev, xlat_pollflags.f, xlat_pollflags.n, NULL);
		xlat_restyle(b, at, rev, XLAT_HEX);
		sb_putc(b, '}');
		printed++;
	}
	if (printed)
		sb_putc(b, ']');
	return 0;
}

/* struct epoll_event: u32 events, u64 data (packed on x86_64: at 4; arm64: at 8) */
static void epoll_event_at(struct sbuf *b, const unsigned char *e, const struct dec_abi *a)
{
	uint64_t data = ld64(e, a->epoll_event_data_off);

	sb_puts(b, "{events=");
	xlat_flags(b, &xlat_epollevents, ld32(e, 0));
	sb_printf(b, ", data={u32=%u, u64=%llu}}", (uint32_t)data, (unsigned long long)data);
}

int fmt_epoll_event(struct sbuf *b, const void *p, size_t len)
{
	const struct dec_abi *a = decode_abi();

	if (len < a->epoll_event_size)
		return -1;
	epoll_event_at(b, p, a);
	return 0;
}

int fmt_epoll_events(struct sbuf *b, const void *p, size_t len, size_t n)
{
	const struct dec_abi *a = decode_abi();
	size_t shown = n < ARRAY_MAX ? n : ARRAY_MAX;

	if (len / a->epoll_event_size < shown)
		return -1;
	sb_putc(b, '[');
	for (size_t i = 0; i < shown; i++) {
		if (i)
			sb_puts(b, ", ");
		epoll_event_at(b, (const unsigned char *)p + i * a->epoll_event_size, a);
	}
	sb_puts(b, n > shown ? ", ...]" : "]");
	return 0;
}

void fmt_epoll_ctl_op(struct sbuf *b, int op)
{
	xlat_val(b, &xlat_epollctls, (unsigned)op);
}

int fmt_fd_set(struct sbuf *b, const void *p, size_t len, int nfds)
{
	const unsigned char *s = p;
	size_t fdsize;
	int first = 1;

	if (nfds < 0)
		nfds = 0;
	if (nfds > 1024 * 1024)
		nfds = 1024 * 1024;
	/* strace reads whole longs of the set */
	fdsize = (((size_t)nfds + 7) / 8 + 7) & ~(size_t)7;
	if (!fdsize || len < fdsize)
		return -1;
	sb_putc(b, '[');
	for (int fd = 0; fd < nfds; fd++) {
		if (!(s[fd / 8] & (1u << (fd % 8))))
			continue;
		if (!first)
			sb_putc(b, ' ');
		first = 0;
		sb_dec(b, fd);
	}
	sb_putc(b, ']');
	return 0;
}
