/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: strace's strings and buffers (string_quote and printstr_ex of
 * strace's src/util.c), its flag and value names, times and int arrays.
 */
#include <time.h>
#include <unistd.h>

#include "decode/struct.h"
#include "decode/xlat.h"

/* strace's is_print and its test for the bytes that make -x hex a whole string */
static int is_print(unsigned c)
{
	return c >= ' ' && c < 0x7f;
}

static int needs_hex(unsigned c)
{
	return c > 0x7e || (c < ' ' && (c - 9) >= 5);
}

int fmt_quote(struct sbuf *b, const unsigned char *s, size_t n, int eol_nul, int xflag)
{
	static const char hex[] = "0123456789abcdef";
	int usehex = xflag >= 2;
	size_t i;
	char *o;

	if (xflag == 1)
		for (i = 0; i < n && !(eol_nul && !s[i]); i++)
			if (needs_hex(s[i])) {
				usehex = 1;
				break;
			}
	/* 4 bytes at most for each byte, the quotes */
	if (sb_grow(b, 4 * n + 2))
		return 1;
	o = b->s + b->len;
	*o++ = '"';
	for (i = 0; i < n; i++) {
		unsigned c = s[i];

		if (eol_nul && !c)
			break;
		if (usehex) {
			*o++ = '\\';
			*o++ = 'x';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
			continue;
		}
		switch (c) {
		case '"':
		case '\\':
			*o++ = '\\';
			*o++ = (char)c;
			continue;
		case '\f':
			*o++ = '\\';
			*o++ = 'f';
			continue;
		case '\n':
			*o++ = '\\';
			*o++ = 'n';
			continue;
		case '\r':
			*o++ = '\\';
			*o++ = 'r';
			continue;
		case '\t':
			*o++ = '\\';
			*o++ = 't';
			continue;
		case '\v':
			*o++ = '\\';
			*o++ = 'v';
			continue;
		}
		if (is_print(c)) {
			*o++ = (char)c;
			continue;
		}
		*o++ = '\\';
		/* the shortest octal, all three digits when an octal digit follows */
		if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
			*o++ = (char)('0' + (c >> 6));
			*o++ = (char)('0' + ((c >> 3) & 7));
		} else if (c >> 3) {
			if (c >> 6)
				*o++ = (char)('0' + (c >> 6));
			*o++ = (char)('0' + ((c >> 3) & 7));
		}
		*o++ = (char)('0' + (c & 7));
	}
	*o++ = '"';
	*o = '\0';
	b->len = (size_t)(o - b->s);
	return i == n;
}

int fmt_str(struct sbuf *b, const void *p, size_t len, size_t full, int is_str,
	    const struct decode_opts *o)
{
	const unsigned char *s = p;
	size_t n = len < full ? len : full;
	size_t shown = n < o->strsize ? n : o->strsize;
	int more;

	if (is_str) {
		const unsigned char *nul = memchr(s, '\0', len);

		/* the real length of a string is where its NUL is, when it was captured */
		if (nul)
			n = full = (size_t)(nul - s);
		else if (full < len)
			full = len + 1;
		shown = n < o->strsize ? n : o->strsize;
	}
	fmt_quote(b, s, shown, 0, o->xflag);
	more = full > shown;
	if (more)
		sb_puts(b, "...");
	return 0;
}

void fmt_time_comment(struct sbuf *b, int64_t sec, uint64_t nsec)
{
	char buf[64];
	struct tm tm;
	time_t t = (time_t)sec;
	size_t pos;

	if ((sec == 0 && nsec == 0) || nsec > 999999999 || !localtime_r(&t, &tm))
		return;
	pos = strftime(buf, sizeof(buf), "%FT%T", &tm);
	if (!pos)
		return;
	if (nsec)
		pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, ".%09llu",
					(unsigned long long)nsec);
	if (!strftime(buf + pos, sizeof(buf) - pos, "%z", &tm))
		return;
	sb_printf(b, " /* %s */", buf);
}

void fmt_clock_t(struct sbuf *b, uint64_t ticks)
{
	static long hz;
	long t = hz;

	if (!t) {
		t = sysconf(_SC_CLK_TCK);
		hz = t > 0 ? t : -1;
	}
	sb_udec(b, ticks, 0);
	if (ticks && t > 0 && xlat_get_style() != XLAT_RAW) {
		int width = 0;

		for (long k = t; k >= 10 && width < 9; k /= 10)
			width++;
		sb_printf(b, " /* %llu.%0*llu s */", (unsigned long long)(ticks / (uint64_t)t),
			  width, (unsigned long long)(ticks % (uint64_t)t));
	}
}

void fmt_sec_nsec(struct sbuf *b, int64_t sec, uint64_t nsec, const char *nsec_name)
{
	sb_puts(b, "{tv_sec=");
	sb_dec(b, sec);
	sb_printf(b, ", %s=", nsec_name);
	sb_udec(b, nsec, 0);
	sb_putc(b, '}');
}

int fmt_timespec(struct sbuf *b, const void *p, size_t len)
{
	if (len < 16)
		return -1;
	fmt_sec_nsec(b, (int64_t)ld64(p, 0), ld64(p, 8), "tv_nsec");
	return 0;
}

int fmt_timeval(struct sbuf *b, const void *p, size_t len)
{
	if (len < 16)
		return -1;
	fmt_sec_nsec(b, (int64_t)ld64(p, 0), ld64(p, 8), "tv_usec");
	return 0;
}

int fmt_itimerspec(struct sbuf *b, const void *p, size_t len)
{
	if (len < 32)
		return -1;
	sb_puts(b, "{it_interval=");
	fmt_timespec(b, p, 16);
	sb_puts(b, ", it_value=");
	fmt_timespec(b, (const char *)p + 16, 16);
	sb_putc(b, '}');
	return 0;
}

int fmt_int_array(struct sbuf *b, const void *p, size_t len, size_t n)
{
	if (n > len / 4)
		return -1;
	sb_putc(b, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_puts(b, ", ");
		sb_dec(b, (int32_t)ld32(p, 4 * i));
	}
	sb_putc(b, ']');
	return 0;
}

int fmt_sockopt_int(struct sbuf *b, const void *p, size_t len)
{
	return fmt_int_array(b, p, len, 1);
}

void fmt_clockid(struct sbuf *b, int id)
{
	/* Debian's strace 6.1 has no CLOCKID_TO_FD: a CPU or fd clock's id in hex too */
	xlat_val(b, &xlat_clocknames, (unsigned)id);
}
