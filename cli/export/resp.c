/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf export: ClickHouse's answers (TabSeparated, and its error
 * messages), parsed. They come from the network: any bytes are taken,
 * nothing is read past n (tests/fuzz/fuzz_ch_resp.c).
 */
#include <stdint.h>
#include <string.h>

#include "export/export.h"

/* A decimal u64 at s[*i] (up to a tab or a newline); 0, or -1. */
static int parse_u64(const char *s, size_t n, size_t *i, uint64_t *v)
{
	uint64_t x = 0;
	size_t start = *i;

	for (; *i < n && s[*i] >= '0' && s[*i] <= '9'; (*i)++) {
		unsigned d = (unsigned)(s[*i] - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	if (*i == start)
		return -1;
	*v = x;
	return 0;
}

int ch_parse_state(const char *s, size_t n, uint64_t *count, uint64_t *max)
{
	size_t i = 0;

	if (parse_u64(s, n, &i, count) || i >= n || s[i++] != '\t' || parse_u64(s, n, &i, max))
		return -1;
	if (i < n && s[i] == '\n')
		i++;
	return i == n ? 0 : -1;
}

int ch_describe_type(const char *s, size_t n, const char *name, char *type, size_t size)
{
	size_t nl = strlen(name), i = 0;

	while (i < n) {
		const char *line = s + i, *end = memchr(line, '\n', n - i);
		size_t len = end ? (size_t)(end - line) : n - i;
		const char *tab = memchr(line, '\t', len);

		i += len + 1;
		if (!tab || (size_t)(tab - line) != nl || memcmp(line, name, nl))
			continue;
		len -= nl + 1;
		end = memchr(tab + 1, '\t', len);
		if (end)
			len = (size_t)(end - tab - 1);
		if (!size)
			return 0;
		if (len > size - 1)
			len = size - 1;
		memcpy(type, tab + 1, len);
		type[len] = '\0';
		return 0;
	}
	return -1;
}

int ch_error_text(const char *s, size_t n, char *msg, size_t size)
{
	const char *code = NULL;
	size_t k = 0, i;
	uint64_t c = 0;

	for (i = 0; i + 6 <= n; i++)
		if (!memcmp(s + i, "Code: ", 6)) {
			code = s + i;
			break;
		}
	if (code) {
		i = (size_t)(code - s) + 6;
		if (parse_u64(s, n, &i, &c) || c > 100000)
			c = 0;
	}
	/* one line, printable: a server's bytes go to a terminal */
	for (i = 0; size && i < n && k + 1 < size; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\n' || ch == '\r') {
			if (i + 1 >= n)
				break;
			ch = ' ';
		}
		msg[k++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	if (size)
		msg[k] = '\0';
	return (int)c;
}

int ch_code_transient(int code)
{
	switch (code) {
	case 57:  /* TABLE_ALREADY_EXISTS: two CREATE ... IF NOT EXISTS at once */
	case 159: /* TIMEOUT_EXCEEDED */
	case 202: /* TOO_MANY_SIMULTANEOUS_QUERIES */
	case 203: /* NO_FREE_CONNECTION */
	case 209: /* SOCKET_TIMEOUT */
	case 210: /* NETWORK_ERROR */
	case 241: /* MEMORY_LIMIT_EXCEEDED */
	case 242: /* TABLE_IS_READ_ONLY */
	case 252: /* TOO_MANY_PARTS */
	case 319: /* UNKNOWN_STATUS_OF_INSERT */
	case 425: /* SYSTEM_ERROR */
		return 1;
	}
	return 0;
}
