// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fd tables of -y / -yy: per process, sorted by fd, what each fd
 * refers to, as its last fd_info event said (untrusted: from a log, or
 * written by the kernel about a hostile process's files; every field is
 * bounded before use). fork copies a table, a thread shares its
 * process's, exec drops the close-on-exec fds, exit drops the table.
 */
#include "decode/decode.h"
#include "decode/abi.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <ptbpf/events.h>

struct fdent {
	int fd;
	uint16_t kind, flags;
	uint32_t mode, rdev;
	uint64_t ino, peer_ino;
	uint16_t family, type, protocol, lport, rport;
	uint8_t laddr[16], raddr[16];
	char *path; /* NUL-terminated */
};

struct fdproc {
	struct fdent *e; /* sorted by fd */
	size_t n, cap;
};

/* fcntl's command per thread, from its entry to its result (F_DUPFD's is an fd) */
#define FCNTL_SLOTS 64

static struct {
	int level;
	struct pidmap procs; /* pid -> struct fdproc */
	pid_t cur, cur_tid;  /* the process and thread of the event being decoded */
	struct {
		pid_t tid;
		int cmd;
	} fcntl[FCNTL_SLOTS];
} T;

void fdtable_enable(int level)
{
	T.level = level < 0 ? 0 : level > 2 ? 2 : level;
}

int fdtable_level(void)
{
	return T.level;
}

void fdtable_need(trace_event_set_t *set)
{
	if (!T.level)
		return;
	posix_trace_eventset_add(PTBPF_EV_FD_INFO, set);
	posix_trace_eventset_add(PTBPF_EV_PROC_FORK, set);
	posix_trace_eventset_add(PTBPF_EV_PROC_EXEC, set);
	posix_trace_eventset_add(PTBPF_EV_PROC_EXIT, set);
	/* fcntl's command (a live stream's: the build's number) */
	posix_trace_eventset_add(PTBPF_EV_SYS_ENTER((unsigned)dec_sys_nr(SC_ARCH_NATIVE, "fcntl")),
				 set);
}

static void proc_free(void *p)
{
	struct fdproc *fp = p;

	for (size_t i = 0; fp && i < fp->n; i++)
		free(fp->e[i].path);
	if (fp)
		free(fp->e);
	free(fp);
}

/* The slot of fd in p, or where it goes (*found 0). */
static size_t slot(const struct fdproc *p, int fd, int *found)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->e[mid].fd < fd)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < p->n && p->e[lo].fd == fd;
	return lo;
}

static struct fdproc *proc_get(pid_t pid, int create)
{
	struct fdproc *p = pidmap_get(&T.procs, pid);

	if (p || !create)
		return p;
	p = calloc(1, sizeof(*p));
	if (p && pidmap_put(&T.procs, pid, p)) {
		free(p);
		p = NULL;
	}
	return p;
}

static const struct fdent *lookup(pid_t pid, int fd)
{
	const struct fdproc *p = proc_get(pid, 0);
	int found;
	size_t i;

	if (!p)
		return NULL;
	i = slot(p, fd, &found);
	return found ? &p->e[i] : NULL;
}

static void drop_range(struct fdproc *p, int first, int last, int cloexec_only)
{
	size_t o = 0;

	for (size_t i = 0; i < p->n; i++) {
		struct fdent *e = &p->e[i];

		if (e->fd >= first && e->fd <= last && e->fd >= 0) {
			if (cloexec_only) {
				e->flags |= PTBPF_FD_CLOEXEC;
			} else {
				free(e->path);
				continue;
			}
		}
		p->e[o++] = *e;
	}
	p->n = o;
}

/* An AF_UNIX socket and its peer: the peer's entry, made before it had
 * one (connect() before the other side's accept()), learns it now. */
static void unix_pair(uint64_t ino, uint64_t peer)
{
	for (size_t i = 0; i < T.procs.cap; i++) {
		struct fdproc *p = T.procs.e[i].key ? T.procs.e[i].val : NULL;

		for (size_t j = 0; p && j < p->n; j++)
			if (p->e[j].kind == PTBPF_FD_SOCKET && p->e[j].family == AF_UNIX &&
			    p->e[j].ino == peer && !p->e[j].peer_ino)
				p->e[j].peer_ino = ino;
	}
}

static void fd_info(pid_t pid, const void *data, size_t len)
{
	const size_t fixed = offsetof(struct ptbpf_ev_fd_info, path);
	struct ptbpf_ev_fd_info fi;
	struct fdproc *p;
	struct fdent *e;
	size_t i, n;
	int found;

	if (len < fixed || len > sizeof(fi))
		return;
	memcpy(&fi, data, len);
	n = strnlen(fi.path, len - fixed);
	p = proc_get(pid, 1);
	if (!p)
		return;
	if (fi.kind == PTBPF_FD_CLOSED) {
		drop_range(p, fi.fd, fi.fd_last, fi.flags & PTBPF_FD_CLOEXEC);
		return;
	}
	i = slot(p, fi.fd, &found);
	if (!found) {
		if (p->n == p->cap) {
			size_t cap = p->cap ? 2 * p->cap : 16;
			struct fdent *ne = realloc(p->e, cap * sizeof(*ne));

			if (!ne)
				return;
			p->e = ne;
			p->cap = cap;
		}
		memmove(&p->e[i + 1], &p->e[i], (p->n - i) * sizeof(*p->e));
		p->n++;
		p->e[i].path = NULL;
	}
	e = &p->e[i];
	free(e->path);
	e->path = malloc(n + 1);
	if (e->path) {
		memcpy(e->path, fi.path, n);
		e->path[n] = 0;
	}
	e->fd = fi.fd;
	e->kind = fi.kind;
	e->flags = fi.flags;
	e->mode = fi.mode;
	e->rdev = fi.rdev;
	e->ino = fi.ino;
	e->peer_ino = fi.peer_ino;
	e->family = fi.family;
	e->type = fi.type;
	e->protocol = fi.protocol;
	e->lport = fi.lport;
	e->rport = fi.rport;
	memcpy(e->laddr, fi.laddr, sizeof(e->laddr));
	memcpy(e->raddr, fi.raddr, sizeof(e->raddr));
	if (fi.kind == PTBPF_FD_SOCKET && fi.family == AF_UNIX && fi.peer_ino)
		unix_pair(fi.ino, fi.peer_ino);
}

static void forked(const void *data, size_t len)
{
	const struct ptbpf_ev_fork *f = data;
	struct fdproc *from, *to;

	if (len < sizeof(*f) || f->is_thread || f->child_pid <= 0)
		return;
	from = proc_get(f->parent_pid, 0);
	if (!from || !(to = proc_get(f->child_pid, 1)))
		return;
	for (size_t i = 0; i < to->n; i++)
		free(to->e[i].path);
	to->n = 0;
	if (to->cap < from->n) {
		struct fdent *ne = realloc(to->e, from->n * sizeof(*ne));

		if (!ne)
			return;
		to->e = ne;
		to->cap = from->n;
	}
	for (size_t i = 0; i < from->n; i++) {
		to->e[to->n] = from->e[i];
		to->e[to->n].path = from->e[i].path ? strdup(from->e[i].path) : NULL;
		to->n++;
	}
}

static void exec_closes(pid_t pid)
{
	struct fdproc *p = proc_get(pid, 0);
	size_t o = 0;

	for (size_t i = 0; p && i < p->n; i++) {
		if (p->e[i].fd >= 0 && (p->e[i].flags & PTBPF_FD_CLOEXEC)) {
			free(p->e[i].path);
			continue;
		}
		p->e[o++] = p->e[i];
	}
	if (p)
		p->n = o;
}

/* fcntl's command, kept from its entry for its result (by the events' numbers) */
static void fcntl_event(const struct cli_ev *ev)
{
	static int fcntl_nr[SC_ARCH_COUNT] = { -2, -2 }; /* -2: not looked up */
	trace_event_id_t id = ev->info.posix_event_id;
	int arch = ev->arch < SC_ARCH_COUNT ? ev->arch : SC_ARCH_NATIVE;
	int nr = (int)PTBPF_EV_SYSCALL_NR(id);

	if (fcntl_nr[arch] == -2)
		fcntl_nr[arch] = dec_sys_nr(arch, "fcntl");
	if (nr == fcntl_nr[arch] && !PTBPF_EV_SYSCALL_IS_EXIT(id)) {
		if (ev->len >= offsetof(struct ptbpf_ev_sys_enter, paths)) {
			const struct ptbpf_ev_sys_enter *se = ev->data;

			T.fcntl[(unsigned int)ev->tid % FCNTL_SLOTS].tid = ev->tid;
			T.fcntl[(unsigned int)ev->tid % FCNTL_SLOTS].cmd = (int)se->args[1];
		}
	} else if (nr != fcntl_nr[arch] && PTBPF_EV_SYSCALL_IS_EXIT(id)) {
		T.fcntl[(unsigned int)ev->tid % FCNTL_SLOTS].tid = 0;
	}
}

int fdtable_event(const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;

	if (!T.level)
		return id == PTBPF_EV_FD_INFO;
	T.cur = ev->info.posix_pid;
	T.cur_tid = ev->tid;
	if (PTBPF_EV_IS_SYSCALL(id)) {
		fcntl_event(ev);
		return 0;
	}
	switch (id) {
	case PTBPF_EV_FD_INFO:
		fd_info(ev->info.posix_pid, ev->data, ev->len);
		return 1;
	case PTBPF_EV_PROC_FORK:
		forked(ev->data, ev->len);
		break;
	case PTBPF_EV_PROC_EXEC:
		exec_closes(ev->info.posix_pid);
		break;
	case PTBPF_EV_PROC_EXIT:
		proc_free(pidmap_del(&T.procs, ev->info.posix_pid));
		break;
	}
	return 0;
}

/* strace's quoting of a path inside <...>: octal escapes, < and > too */
static void quote_path(struct sbuf *b, const char *s)
{
	for (size_t i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i], next = (unsigned char)s[i + 1];

		if (c >= 0x20 && c < 0x7f && !strchr("\"\\<>", c)) {
			sb_putc(b, (char)c);
			continue;
		}
		sb_putc(b, '\\');
		switch (c) {
		case '"':
		case '\\':
			sb_putc(b, (char)c);
			break;
		case '\n':
			sb_putc(b, 'n');
			break;
		case '\t':
			sb_putc(b, 't');
			break;
		case '\r':
			sb_putc(b, 'r');
			break;
		case '\v':
			sb_putc(b, 'v');
			break;
		case '\f':
			sb_putc(b, 'f');
			break;
		default:
			/* three digits when a digit follows, as strace */
			if (next >= '0' && next <= '7')
				sb_printf(b, "%03o", c);
			else
				sb_printf(b, "%o", c);
		}
	}
}

static void inet_addr_str(struct sbuf *b, int family, const uint8_t *a, unsigned int port)
{
	char s[INET6_ADDRSTRLEN];

	if (!inet_ntop(family, a, s, sizeof(s)))
		s[0] = 0;
	if (family == AF_INET6)
		sb_printf(b, "[%s]:%u", s, port);
	else
		sb_printf(b, "%s:%u", s, port);
}

/* -yy: a socket as strace names it from sock_diag; 0: not one it names */
static int socket_yy(struct sbuf *b, const struct fdent *e)
{
	static const uint8_t zero[16];
	const char *proto = NULL;

	if (e->family == AF_UNIX) {
		static const char *const types[] = {
			[SOCK_STREAM] = "STREAM",
			[SOCK_DGRAM] = "DGRAM",
			[SOCK_SEQPACKET] = "SEQPACKET",
		};
		const char *t = e->type < sizeof(types) / sizeof(types[0]) ? types[e->type] : NULL;

		if (!t)
			return 0;
		sb_printf(b, "UNIX-%s:[%llu", t, (unsigned long long)e->ino);
		if (e->peer_ino)
			sb_printf(b, "->%llu", (unsigned long long)e->peer_ino);
		if (e->path && e->path[0]) {
			sb_puts(b, ",\"");
			quote_path(b, e->path);
			sb_putc(b, '"');
		}
		sb_putc(b, ']');
		return 1;
	}
	if (e->family != AF_INET && e->family != AF_INET6)
		return 0;
	if (e->protocol == IPPROTO_TCP)
		proto = "TCP";
	else if (e->protocol == IPPROTO_UDP)
		proto = "UDP";
	else if (e->protocol == IPPROTO_UDPLITE)
		proto = "UDPLITE";
	else
		return 0;
	sb_puts(b, proto);
	if (e->family == AF_INET6)
		sb_puts(b, "v6");
	if (!e->lport) {
		/* not bound: sock_diag does not know it */
		sb_printf(b, ":[%llu]", (unsigned long long)e->ino);
		return 1;
	}
	sb_puts(b, ":[");
	inet_addr_str(b, e->family, e->laddr, e->lport);
	if (e->rport || memcmp(e->raddr, zero, e->family == AF_INET ? 4 : 16)) {
		sb_puts(b, "->");
		inet_addr_str(b, e->family, e->raddr, e->rport);
	}
	sb_putc(b, ']');
	return 1;
}

static void print_ent(struct sbuf *b, const struct fdent *e)
{
	const char *path = e->path ? e->path : "";

	switch (e->kind) {
	case PTBPF_FD_FILE:
		sb_putc(b, '<');
		quote_path(b, path);
		if (T.level > 1 && (S_ISCHR(e->mode) || S_ISBLK(e->mode)))
			sb_printf(b, "<%s %u:%u>", S_ISCHR(e->mode) ? "char" : "block",
				  e->rdev >> 20, e->rdev & 0xfffff);
		sb_putc(b, '>');
		if (e->flags & PTBPF_FD_DELETED)
			sb_puts(b, "(deleted)");
		break;
	case PTBPF_FD_PIPE:
		sb_printf(b, "<pipe:[%llu]>", (unsigned long long)e->ino);
		break;
	case PTBPF_FD_SOCKET:
		sb_putc(b, '<');
		if (T.level < 2 || !socket_yy(b, e))
			sb_printf(b, "socket:[%llu]", (unsigned long long)e->ino);
		sb_putc(b, '>');
		break;
	case PTBPF_FD_ANON:
		sb_puts(b, "<anon_inode:");
		quote_path(b, path);
		sb_putc(b, '>');
		break;
	case PTBPF_FD_OTHER:
		if (path[0]) {
			sb_putc(b, '<');
			quote_path(b, path);
			sb_putc(b, '>');
		}
		break;
	}
}

void fdtable_arg(struct sbuf *b, int fd, int dirfd)
{
	const struct fdent *e;

	if (!T.level || (fd == AT_FDCWD && !dirfd))
		return;
	e = lookup(T.cur, fd);
	if (e)
		print_ent(b, e);
}

void fdtable_ret(struct sbuf *b, const char *sys, int64_t ret, int is_fd)
{
	if (!T.level || ret < 0 || ret > INT32_MAX || !sys)
		return;
	if (!strcmp(sys, "fcntl")) {
		/* this thread's call: an F_DUPFD? */
		unsigned int i = (unsigned int)T.cur_tid % FCNTL_SLOTS;

		if (T.fcntl[i].tid != T.cur_tid ||
		    (T.fcntl[i].cmd != F_DUPFD && T.fcntl[i].cmd != F_DUPFD_CLOEXEC))
			return;
	} else if (!is_fd) {
		return;
	}
	fdtable_arg(b, (int)ret, 0);
}

void fdtable_free(void)
{
	pidmap_free(&T.procs, proc_free);
	memset(&T, 0, sizeof(T));
}
