/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -P PATH: only the syscalls that touch PATH, with strace's semantics
 * (src/pathtrace.c of strace 6.1): a syscall matches when one of its path
 * arguments is PATH (as given, or resolved by realpath), or one of its fd
 * arguments refers to it. strace asks /proc which file an fd is at each
 * syscall; ptbpf reads events later (or from a log), so it follows the
 * fds instead: the fd an open of PATH returned, its copies (dup, dup2,
 * dup3, fcntl F_DUPFD), forgotten at close, close_range and, for
 * close-on-exec ones, at exec; one table per process, copied at fork.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "view/view.h"

#define A(n) (1u << (n))

/*
 * -P's view of each syscall (schema/syscalls.def): strace's special cases
 * of which arguments are fds and paths (the others: a path first for class
 * %file, an fd first for %desc and %network, else none), and what the
 * calls that make, copy or drop fds do.
 */
static const struct pt_rule {
	int nr[SC_ARCH_COUNT];
	uint8_t ruled, fds, paths;
	uint8_t fdop;	  /* enum fdop */
	int8_t flags_arg; /* FDOP_OPEN: the argument with O_CLOEXEC, -1: none */
} pt_rules[] = {
/* clang-format off */
#define SYSCALL(name, num, num_arm64, nargs, printed, ret, form, classes) { .nr = { num, num_arm64 },
#define ARG(name, type, ...)
#define CAP(...)
#define PATHTRACE(f, p) .ruled = 1, .fds = (f), .paths = (p),
#define FDOP(op, arg) .fdop = (op), .flags_arg = (arg),
#define END },
#include "syscalls.def"
	/* clang-format on */
};

#define PT_O_CLOEXEC	       02000000
#define PT_F_DUPFD	       0
#define PT_F_SETFD	       2
#define PT_F_DUPFD_CLOEXEC     1030
#define PT_CLOSE_RANGE_CLOEXEC 4

/* One process's fds that refer to a path of the set. */
struct pt_fd {
	int fd;
	int cloexec;
};
struct pt_proc {
	struct pt_fd *fd;
	size_t n, cap;
};

/* The rules by syscall number of one architecture. */
struct pt_tab {
	uint8_t fd_args[PTBPF_SYSCALL_NR_MAX], path_args[PTBPF_SYSCALL_NR_MAX];
	uint8_t fdop[PTBPF_SYSCALL_NR_MAX];
	int8_t flags_arg[PTBPF_SYSCALL_NR_MAX];
};

struct pathtrace {
	char **paths;
	size_t npaths;
	struct pidmap procs; /* pid -> struct pt_proc */
	struct pt_tab tab[SC_ARCH_COUNT];
	int failed;
};

static void pt_tab_fill(struct pt_tab *t, int arch)
{
	memset(t->flags_arg, -1, sizeof(t->flags_arg));
	for (size_t i = 0; i < sizeof(pt_rules) / sizeof(pt_rules[0]); i++) {
		const struct pt_rule *r = &pt_rules[i];
		int nr = r->nr[arch];
		uint32_t c;

		if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
			continue;
		c = sysclass_of_arch(arch, nr);
		if (r->ruled) {
			t->fd_args[nr] = r->fds;
			t->path_args[nr] = r->paths;
		} else if (c & SC_FILE) {
			t->path_args[nr] = 1u << 0;
		} else if (c & (SC_DESC | SC_NETWORK)) {
			t->fd_args[nr] = 1u << 0;
		}
		t->fdop[nr] = r->fdop;
		t->flags_arg[nr] = r->fdop == FDOP_OPEN ? r->flags_arg : -1;
	}
}

struct pathtrace *pathtrace_new(void)
{
	struct pathtrace *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	for (int a = 0; a < SC_ARCH_COUNT; a++)
		pt_tab_fill(&p->tab[a], a);
	return p;
}

/* the rules of arch (an event's SC_ARCH_*) */
static const struct pt_tab *pt_tab_of(const struct pathtrace *p, int arch)
{
	return &p->tab[arch >= 0 && arch < SC_ARCH_COUNT ? arch : SC_ARCH_NATIVE];
}

static int pt_store(struct pathtrace *p, const char *path)
{
	char **n;

	for (size_t i = 0; i < p->npaths; i++)
		if (!strcmp(p->paths[i], path))
			return 0;
	n = realloc(p->paths, (p->npaths + 1) * sizeof(*n));
	if (!n)
		return -1;
	p->paths = n;
	p->paths[p->npaths] = strdup(path);
	if (!p->paths[p->npaths])
		return -1;
	p->npaths++;
	return 0;
}

int pathtrace_add(struct pathtrace *p, const char *path, int quiet)
{
	char *r;
	int err;

	if (!*path) {
		cli_err("-P: an empty path");
		return -1;
	}
	if (pt_store(p, path)) {
		cli_err("out of memory");
		return -1;
	}
	/* as strace: the path resolved too, and said so */
	r = realpath(path, NULL);
	if (!r || !strcmp(r, path)) {
		free(r);
		return 0;
	}
	{
		struct sbuf a = { 0 }, b = { 0 };

		sb_reset(&a);
		sb_reset(&b);
		sb_quote(&a, path, strlen(path));
		sb_quote(&b, r, strlen(r));
		if (!a.failed && !b.failed && !quiet)
			cli_err("Requested path %s resolved into %s", a.s, b.s);
		sb_free(&a);
		sb_free(&b);
	}
	err = pt_store(p, r);
	free(r);
	if (err)
		cli_err("out of memory");
	return err ? -1 : 0;
}

static int pt_path_match(const struct pathtrace *p, const char *s, size_t len, int truncated)
{
	for (size_t i = 0; i < p->npaths; i++) {
		const char *q = p->paths[i];

		/* a path cut at capture matches the paths it begins */
		if (truncated ? !strncmp(q, s, len) : !strcmp(q, s))
			return 1;
	}
	return 0;
}

static struct pt_fd *pt_fd_find(struct pt_proc *pr, int fd)
{
	if (!pr || fd < 0)
		return NULL;
	for (size_t i = 0; i < pr->n; i++)
		if (pr->fd[i].fd == fd)
			return &pr->fd[i];
	return NULL;
}

static void pt_fd_add(struct pathtrace *p, pid_t pid, int fd, int cloexec)
{
	struct pt_proc *pr = pidmap_get(&p->procs, pid);
	struct pt_fd *f;

	if (fd < 0)
		return;
	if (!pr) {
		pr = calloc(1, sizeof(*pr));
		if (!pr || pidmap_put(&p->procs, pid, pr)) {
			free(pr);
			p->failed = 1;
			return;
		}
	}
	f = pt_fd_find(pr, fd);
	if (!f) {
		if (pr->n == pr->cap) {
			size_t cap = pr->cap ? 2 * pr->cap : 4;
			struct pt_fd *n = realloc(pr->fd, cap * sizeof(*n));

			if (!n) {
				p->failed = 1;
				return;
			}
			pr->fd = n;
			pr->cap = cap;
		}
		f = &pr->fd[pr->n++];
		f->fd = fd;
	}
	f->cloexec = cloexec;
}

static void pt_fd_del(struct pt_proc *pr, int fd)
{
	struct pt_fd *f = pt_fd_find(pr, fd);

	if (f)
		*f = pr->fd[--pr->n];
}

static int arg_fd(uint64_t v)
{
	/* the kernel takes an fd argument as an int */
	return (int)(uint32_t)v;
}

int pathtrace_entry(const struct pathtrace *p, const struct cli_ev *ev, int *by_path)
{
	const struct ptbpf_ev_sys_enter *se = ev->data;
	int nr = (int)PTBPF_EV_SYSCALL_NR(ev->info.posix_event_id), match = 0;
	const struct pt_tab *t = pt_tab_of(p, ev->arch);
	struct pt_proc *pr;
	size_t off = 0;

	*by_path = 0;
	if (ev->len < offsetof(struct ptbpf_ev_sys_enter, paths))
		return 0;
	if (t->path_args[nr]) {
		for (int i = 0; i < 2; i++) {
			size_t pl = se->path_len[i];
			int trunc = se->flags &
				    (i ? PTBPF_SYS_PATH1_TRUNCATED : PTBPF_SYS_PATH0_TRUNCATED);
			const char *s = se->paths + off;

			if (!pl)
				continue;
			if (offsetof(struct ptbpf_ev_sys_enter, paths) + off + pl > ev->len)
				break;
			off += pl;
			if (!(t->path_args[nr] & A(se->path_arg[i] & 7)) || strnlen(s, pl) == pl)
				continue;
			if (pt_path_match(p, s, strnlen(s, pl), trunc))
				*by_path = 1;
		}
	}
	match = *by_path;
	pr = t->fd_args[nr] ? pidmap_get(&p->procs, ev->info.posix_pid) : NULL;
	for (int i = 0; !match && pr && i < 6; i++)
		if ((t->fd_args[nr] & A(i)) && pt_fd_find(pr, arg_fd(se->args[i])))
			match = 1;
	return match;
}

void pathtrace_exit(struct pathtrace *p, int arch, pid_t pid, int nr, const uint64_t *args,
		    int by_path, int64_t ret)
{
	const struct pt_tab *t = pt_tab_of(p, arch);
	struct pt_proc *pr = pidmap_get(&p->procs, pid);
	struct pt_fd *f;
	int fa = nr >= 0 && nr < PTBPF_SYSCALL_NR_MAX ? t->flags_arg[nr] : -1;

	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return;
	switch (t->fdop[nr]) {
	case FDOP_OPEN:
		if (by_path && ret >= 0)
			pt_fd_add(p, pid, (int)ret, fa >= 0 && (args[fa] & PT_O_CLOEXEC));
		break;
	case FDOP_DUP:
		if (ret >= 0 && pt_fd_find(pr, arg_fd(args[0])))
			pt_fd_add(p, pid, (int)ret, 0);
		break;
	case FDOP_DUP2:
	case FDOP_DUP3:
		if (ret < 0 || arg_fd(args[0]) == arg_fd(args[1]))
			break;
		if (pt_fd_find(pr, arg_fd(args[0])))
			pt_fd_add(p, pid, arg_fd(args[1]),
				  t->fdop[nr] == FDOP_DUP3 && (args[2] & PT_O_CLOEXEC));
		else
			pt_fd_del(pr, arg_fd(args[1]));
		break;
	case FDOP_FCNTL:
		if (ret < 0 || !pt_fd_find(pr, arg_fd(args[0])))
			break;
		if (args[1] == PT_F_DUPFD || args[1] == PT_F_DUPFD_CLOEXEC)
			pt_fd_add(p, pid, (int)ret, args[1] == PT_F_DUPFD_CLOEXEC);
		else if (args[1] == PT_F_SETFD && (f = pt_fd_find(pr, arg_fd(args[0]))))
			f->cloexec = args[2] & 1;
		break;
	case FDOP_CLOSE:
		/* the fd is gone whatever close returns (EINTR included) */
		pt_fd_del(pr, arg_fd(args[0]));
		break;
	case FDOP_CLOSE_RANGE:
		if (ret < 0 || !pr)
			break;
		for (size_t i = 0; i < pr->n;) {
			uint32_t fd = (uint32_t)pr->fd[i].fd;

			if (fd < (uint32_t)args[0] || fd > (uint32_t)args[1]) {
				i++;
			} else if (args[2] & PT_CLOSE_RANGE_CLOEXEC) {
				pr->fd[i++].cloexec = 1;
			} else {
				pr->fd[i] = pr->fd[--pr->n];
			}
		}
		break;
	}
}

void pathtrace_fork(struct pathtrace *p, pid_t parent, pid_t child)
{
	struct pt_proc *pr = pidmap_get(&p->procs, parent);

	for (size_t i = 0; pr && i < pr->n; i++)
		pt_fd_add(p, child, pr->fd[i].fd, pr->fd[i].cloexec);
}

void pathtrace_exec(struct pathtrace *p, pid_t pid)
{
	struct pt_proc *pr = pidmap_get(&p->procs, pid);

	for (size_t i = 0; pr && i < pr->n;) {
		if (pr->fd[i].cloexec)
			pr->fd[i] = pr->fd[--pr->n];
		else
			i++;
	}
}

static void pt_proc_free(void *v)
{
	struct pt_proc *pr = v;

	if (pr)
		free(pr->fd);
	free(pr);
}

void pathtrace_gone(struct pathtrace *p, pid_t pid)
{
	pt_proc_free(pidmap_del(&p->procs, pid));
}

/* The close-on-exec flag of pid's fd, from /proc/PID/fdinfo/FD. */
static int proc_fd_cloexec(pid_t pid, int fd)
{
	char path[64], line[128];
	unsigned long flags = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "flags: %lo", &flags) == 1)
			break;
	fclose(f);
	return (flags & PT_O_CLOEXEC) != 0;
}

void pathtrace_scan(struct pathtrace *p, pid_t pid)
{
	char dir[64], link[80], target[PATH_MAX];
	struct dirent *d;
	DIR *dp;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		char *end;
		long fd = strtol(d->d_name, &end, 10);
		ssize_t n;

		if (*end || end == d->d_name || fd < 0 || fd > INT_MAX)
			continue;
		snprintf(link, sizeof(link), "%s/%ld", dir, fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (pt_path_match(p, target, (size_t)n, 0))
			pt_fd_add(p, pid, (int)fd, proc_fd_cloexec(pid, (int)fd));
	}
	closedir(dp);
}

int pathtrace_failed(const struct pathtrace *p)
{
	return p->failed;
}

void pathtrace_need(const struct pathtrace *p, trace_event_set_t *set)
{
	static const trace_event_id_t procs[] = { PTBPF_EV_PROC_FORK, PTBPF_EV_PROC_EXEC,
						  PTBPF_EV_PROC_EXIT };

	/* the build's numbers: what a live stream records */
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		if (!p->tab[SC_ARCH_NATIVE].fdop[nr])
			continue;
		posix_trace_eventset_add(PTBPF_EV_SYS_ENTER(nr), set);
		posix_trace_eventset_add(PTBPF_EV_SYS_EXIT(nr), set);
	}
	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++)
		posix_trace_eventset_add(procs[i], set);
}

void pathtrace_free(struct pathtrace *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->npaths; i++)
		free(p->paths[i]);
	free(p->paths);
	pidmap_free(&p->procs, pt_proc_free);
	free(p);
}
