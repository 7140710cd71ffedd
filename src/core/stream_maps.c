// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A stream with stacks, started on a process that already runs: its
 * executable file mappings of /proc/PID/maps as proc_map events, as the
 * kernel side writes them for the mmaps and execs that come later.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <ptbpf/events.h>

#include "backend/map_build_id.h"
#include "core/stream_int.h"

/* One line of maps into *m: 0, or -EINVAL for one that is not an
 * executable mapping of a file. */
static int maps_line(const char *line, struct ptbpf_ev_proc_map *m)
{
	unsigned long long start, end, off, ino;
	unsigned int major, minor;
	char perms[8];
	int n = 0;
	struct stat st;
	const char *path;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off, &major,
		   &minor, &ino, &n) != 7 ||
	    !n || perms[2] != 'x')
		return -EINVAL;
	path = line + n;
	if (path[0] != '/')
		return -EINVAL; /* [vdso], anonymous memory */
	memset(m, 0, sizeof(*m));
	m->path_len = (uint32_t)strcspn(path, "\n");
	if (m->path_len >= sizeof(m->path))
		return -EINVAL;
	memcpy(m->path, path, m->path_len);
	m->path[m->path_len++] = 0;
	m->start = start;
	m->len = end - start;
	m->offset = off;
	m->ino = ino;
	m->dev = major << 20 | minor;
	m->kind = PTBPF_MAP_MMAP;
	if (!stat(m->path, &st) && (uint64_t)st.st_ino == ino)
		m->size = (uint64_t)st.st_size;
	return 0;
}

int stream__record_maps(struct pt_stream *s, pid_t pid, uint64_t ts)
{
	struct ptbpf_ev_proc_map m;
	char path[64], line[PTBPF_MAP_PATH_MAX + 128];
	FILE *f;

	if (filtered(s, PTBPF_EV_PROC_MAP))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct pt_event_hdr h = {
			.id = PTBPF_EV_PROC_MAP,
			.pid = pid,
			.tid = pid,
			.ts = ts,
		};

		if (maps_line(line, &m))
			continue;
		h.data_len = map__add_build_id(&m);
		stream__store(s, &h, &m);
	}
	fclose(f);
	return 0;
}
