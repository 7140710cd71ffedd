// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A stream with fd_info events: what the fds of a process that runs
 * already refer to, from /proc/PID/fd (and fdinfo for the close-on-exec
 * flag, the net tables for a socket's addresses), as fd_info events
 * flagged PTBPF_FD_SNAPSHOT. The kernel side writes the fds made later.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <netinet/in.h>
#include <ptbpf/events.h>

#include "core/stream_int.h"

#define FI_FIXED offsetof(struct ptbpf_ev_fd_info, path)

/* The net tables of /proc/PID/net: family, type, protocol of their sockets. */
static const struct net_table {
	const char *name;
	uint16_t family, type, protocol;
} net_tables[] = {
	{ "tcp", AF_INET, SOCK_STREAM, IPPROTO_TCP },
	{ "tcp6", AF_INET6, SOCK_STREAM, IPPROTO_TCP },
	{ "udp", AF_INET, SOCK_DGRAM, IPPROTO_UDP },
	{ "udp6", AF_INET6, SOCK_DGRAM, IPPROTO_UDP },
	{ "udplite", AF_INET, SOCK_DGRAM, IPPROTO_UDPLITE },
	{ "udplite6", AF_INET6, SOCK_DGRAM, IPPROTO_UDPLITE },
};

/* "0100007F:1F90" (4 or 16 bytes, as the kernel prints them: each 32-bit
 * word of the address in host order) into addr and port; 0 or -1. */
static int net_addr(const char *s, uint8_t *addr, size_t n, uint16_t *port)
{
	for (size_t w = 0; w < n / 4; w++) {
		char word[9];
		uint32_t v;

		memcpy(word, s + 8 * w, 8);
		word[8] = 0;
		if (sscanf(word, "%8" SCNx32, &v) != 1)
			return -1;
		memcpy(addr + 4 * w, &v, 4);
	}
	if (s[8 * (n / 4)] != ':' || sscanf(s + 8 * (n / 4) + 1, "%4" SCNx16, port) != 1)
		return -1;
	return 0;
}

/* The socket of inode ino in the inet tables of pid: 0, or -ENOENT. */
static int inet_socket(pid_t pid, uint64_t ino, struct ptbpf_ev_fd_info *fi)
{
	for (size_t t = 0; t < sizeof(net_tables) / sizeof(net_tables[0]); t++) {
		size_t n = net_tables[t].family == AF_INET ? 4 : 16;
		char path[64], line[512], la[64], ra[64];
		unsigned long long i;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/net/%s", (int)pid, net_tables[t].name);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%*s %63s %63s %*s %*s %*s %*s %*s %*s %llu", la, ra,
				   &i) != 3 ||
			    i != ino)
				continue;
			if (strlen(la) != 2 * n + 5 || strlen(ra) != 2 * n + 5 ||
			    net_addr(la, fi->laddr, n, &fi->lport) ||
			    net_addr(ra, fi->raddr, n, &fi->rport))
				break;
			fi->family = net_tables[t].family;
			fi->type = net_tables[t].type;
			fi->protocol = net_tables[t].protocol;
			fi->path[0] = 0;
			fi->path_len = 1;
			fclose(f);
			return 0;
		}
		fclose(f);
	}
	return -ENOENT;
}

/* An AF_UNIX socket of inode ino: its type and bound name (no peer:
 * /proc/net/unix does not say it). */
static int unix_socket(pid_t pid, uint64_t ino, struct ptbpf_ev_fd_info *fi)
{
	char path[64], line[PTBPF_FD_PATH_MAX + 128];
	unsigned int type;
	unsigned long long i;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/net/unix", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		n = 0;
		if (sscanf(line, "%*s %*s %*s %*s %x %*s %llu%n", &type, &i, &n) != 2 || i != ino)
			continue;
		fi->family = AF_UNIX;
		fi->type = (uint16_t)type;
		while (line[n] == ' ')
			n++;
		fi->path_len = (uint32_t)strcspn(line + n, "\n");
		if (fi->path_len >= sizeof(fi->path))
			fi->path_len = sizeof(fi->path) - 1;
		memcpy(fi->path, line + n, fi->path_len);
		fi->path[fi->path_len++] = 0;
		fclose(f);
		return 0;
	}
	fclose(f);
	return -ENOENT;
}

/* The close-on-exec flag of pid's fd, from its fdinfo. */
static int fd_cloexec(pid_t pid, int fd)
{
	char path[64], line[128];
	unsigned int flags;
	int ce = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "flags: %o", &flags) == 1)
			ce = (flags & O_CLOEXEC) != 0;
	fclose(f);
	return ce;
}

/* fi for the link at path (/proc/PID/fd/N, /proc/PID/cwd): 0 or -errno. */
static int fd_link(pid_t pid, const char *path, struct ptbpf_ev_fd_info *fi)
{
	static const char deleted[] = " (deleted)";
	char link[PTBPF_FD_PATH_MAX];
	unsigned long long ino;
	struct stat st;
	ssize_t n;

	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = 0;
	if (!stat(path, &st)) {
		fi->ino = st.st_ino;
		fi->mode = st.st_mode;
		fi->dev = major(st.st_dev) << 20 | minor(st.st_dev);
		if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			fi->rdev = major(st.st_rdev) << 20 | minor(st.st_rdev);
	}
	if (sscanf(link, "pipe:[%llu]", &ino) == 1) {
		fi->kind = PTBPF_FD_PIPE;
		n = 0;
	} else if (sscanf(link, "socket:[%llu]", &ino) == 1) {
		fi->kind = PTBPF_FD_SOCKET;
		fi->ino = ino;
		n = 0;
		if (!inet_socket(pid, ino, fi) || !unix_socket(pid, ino, fi))
			return 0;
	} else if (!strncmp(link, "anon_inode:", 11)) {
		fi->kind = PTBPF_FD_ANON;
		memmove(link, link + 11, (size_t)n - 10);
		n -= 11;
	} else if (link[0] == '/') {
		fi->kind = PTBPF_FD_FILE;
		if ((size_t)n > sizeof(deleted) - 1 &&
		    !strcmp(link + n - (sizeof(deleted) - 1), deleted)) {
			n -= sizeof(deleted) - 1;
			link[n] = 0;
			fi->flags |= PTBPF_FD_DELETED;
		}
	} else {
		fi->kind = PTBPF_FD_OTHER;
	}
	memcpy(fi->path, link, (size_t)n);
	fi->path[n] = 0;
	fi->path_len = (uint32_t)n + 1;
	return 0;
}

static void store_fd(struct pt_stream *s, pid_t pid, uint64_t ts, struct ptbpf_ev_fd_info *fi)
{
	struct pt_event_hdr h = {
		.id = PTBPF_EV_FD_INFO,
		.pid = pid,
		.tid = pid,
		.ts = ts,
		.data_len = (uint32_t)(FI_FIXED + fi->path_len),
	};

	stream__store(s, &h, fi);
}

/* The fds of pid and its working directory, as fd_info events at ts. */
static int record_fds(struct pt_stream *s, pid_t pid, uint64_t ts)
{
	struct ptbpf_ev_fd_info fi;
	char path[64];
	struct dirent *e;
	DIR *d;

	if (filtered(s, PTBPF_EV_FD_INFO))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
	memset(&fi, 0, FI_FIXED);
	fi.fd = fi.fd_last = AT_FDCWD;
	fi.flags = PTBPF_FD_SNAPSHOT;
	if (!fd_link(pid, path, &fi))
		store_fd(s, pid, ts, &fi);
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (*end || end == e->d_name || fd < 0 || fd > INT_MAX)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%ld", (int)pid, fd);
		memset(&fi, 0, FI_FIXED);
		fi.fd = fi.fd_last = (int32_t)fd;
		fi.flags = PTBPF_FD_SNAPSHOT;
		if (fd_cloexec(pid, (int)fd))
			fi.flags |= PTBPF_FD_CLOEXEC;
		if (!fd_link(pid, path, &fi))
			store_fd(s, pid, ts, &fi);
	}
	closedir(d);
	return 0;
}

void stream__record_fds_all(struct pt_stream *s, uint64_t ts)
{
	record_fds(s, s->pid, ts);
	for (size_t i = 0; i < s->nfd_pids; i++)
		record_fds(s, s->fd_pids[i], ts);
}

int stream__fds_add_pid(struct pt_stream *s, pid_t pid)
{
	pid_t *p;

	if (s->status == POSIX_TRACE_RUNNING)
		return record_fds(s, pid, now_stream(s)) == -ENOMEM ? -ENOMEM : 0;
	p = realloc(s->fd_pids, (s->nfd_pids + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	p[s->nfd_pids++] = pid;
	s->fd_pids = p;
	return 0;
}
