// SPDX-License-Identifier: LGPL-2.1-or-later
/* proc_map paths, from the kernel side's reversed names to a path. */
#include "backend/kern_map.h"

#include <string.h>

uint32_t kern_map__expand(const void *rec, size_t len, struct ptbpf_ev_proc_map *m)
{
	const size_t fixed = offsetof(struct ptbpf_ev_proc_map, path);
	const char *rev;
	size_t n, out = 0, end;

	if (len <= fixed || len > sizeof(*m))
		return 0;
	memcpy(m, rec, fixed);
	rev = (const char *)rec + fixed;
	n = strnlen(rev, len - fixed);
	/* one more byte: the leading '/' the root had no name for */
	if (n + 2 > sizeof(m->path))
		n = sizeof(m->path) - 2;
	end = n;
	while (end > 0) {
		size_t start = end;

		while (start > 0 && rev[start - 1] != '/')
			start--;
		m->path[out++] = '/';
		memcpy(m->path + out, rev + start, end - start);
		out += end - start;
		end = start ? start - 1 : 0;
	}
	if (!out && m->kind != PTBPF_MAP_INTERP)
		m->path[out++] = '/';
	m->path[out++] = 0;
	m->path_len = (uint32_t)out;
	return (uint32_t)(fixed + out);
}
