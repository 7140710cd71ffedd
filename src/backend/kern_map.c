// SPDX-License-Identifier: LGPL-2.1-or-later
/* proc_map and fd_info paths, from the kernel side's reversed names to a path. */
#include "backend/kern_map.h"

#include <string.h>

size_t kern_map__path(const char *rev, size_t len, char *out, size_t cap, int root)
{
	size_t n = strnlen(rev, len), o = 0, end;

	if (cap < 2)
		return 0;
	/* one more byte: the leading '/' the root had no name for */
	if (n + 2 > cap)
		n = cap - 2;
	end = n;
	while (end > 0) {
		size_t start = end;

		while (start > 0 && rev[start - 1] != '/')
			start--;
		out[o++] = '/';
		memcpy(out + o, rev + start, end - start);
		o += end - start;
		end = start ? start - 1 : 0;
	}
	if (!o && root)
		out[o++] = '/';
	out[o++] = 0;
	return o;
}

uint32_t kern_map__expand(const void *rec, size_t len, struct ptbpf_ev_proc_map *m)
{
	const size_t fixed = offsetof(struct ptbpf_ev_proc_map, path);

	if (len <= fixed || len > sizeof(*m))
		return 0;
	memcpy(m, rec, fixed);
	m->path_len = (uint32_t)kern_map__path((const char *)rec + fixed, len - fixed, m->path,
					       sizeof(m->path), m->kind != PTBPF_MAP_INTERP);
	return (uint32_t)(fixed + m->path_len);
}

uint32_t kern_map__expand_fd(const void *rec, size_t len, struct ptbpf_ev_fd_info *fi)
{
	const size_t fixed = offsetof(struct ptbpf_ev_fd_info, path);
	size_t n;

	if (len <= fixed || len > sizeof(*fi))
		return 0;
	memcpy(fi, rec, len);
	if (fi->kind == PTBPF_FD_FILE) {
		fi->path_len = (uint32_t)kern_map__path((const char *)rec + fixed, len - fixed,
							fi->path, sizeof(fi->path), 1);
	} else {
		/* a name as it is (a socket's, an anon inode's) */
		n = strnlen(fi->path, len - fixed);
		if (n == len - fixed)
			n--;
		fi->path[n] = 0;
		fi->path_len = (uint32_t)n + 1;
	}
	return (uint32_t)(fixed + fi->path_len);
}
