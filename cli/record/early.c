/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record: keep the user events a command writes in its first
 * milliseconds, before tracing attaches to it, without a change it can see.
 *
 * libposixtrace's constructor has a USDT probe, ptbpf:early, whose
 * semaphore asks it for a provisional slot (as PTBPF_UEV_PENDING=1 does).
 * Before the held command execs, a uprobe with that semaphore as its
 * reference counter is opened for the command's pid on every file the
 * command may load as libposixtrace: the kernel raises the counter in the
 * command alone, when it maps the file. The candidates are the files the
 * dynamic loader would find (the command's DT_RPATH and DT_RUNPATH,
 * LD_LIBRARY_PATH, the ld.so cache, the default directories) and the one
 * ptbpf itself runs with; a file without the probe (an older library) is
 * passed over. The uprobe is hit once, in the constructor.
 */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "record/elf_file.h"
#include "record/record.h"

/* The library's names: its soname, and the development link dlopen may use. */
static const char *const lib_names[] = { "libposixtrace.so.0", "libposixtrace.so" };

/* Where the loader looks last (Debian's multiarch directories first). */
static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu",
	"/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu",
	"/lib64",
	"/usr/lib64",
	"/lib",
	"/usr/lib",
	"/usr/local/lib",
};

/* The files already tried, by inode: a file is attached once. */
struct seen {
	dev_t dev[EARLY_MAX_FILES];
	ino_t ino[EARLY_MAX_FILES];
	int n;
};

static int uprobe_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/uprobe/type", "re");
	int t = -1;

	if (f) {
		if (fscanf(f, "%d", &t) != 1)
			t = -1;
		fclose(f);
	}
	return t;
}

/* One candidate file: the uprobe for pid, if the file has the probe. */
static void early_try(struct early *e, struct seen *s, pid_t pid, const char *path)
{
	struct perf_event_attr attr;
	struct elf_file f;
	struct stat st;
	uint64_t pc, sem;
	int i, fd;

	if (e->type < 0 || e->n == EARLY_MAX_FILES || s->n == EARLY_MAX_FILES || stat(path, &st))
		return;
	for (i = 0; i < s->n; i++)
		if (s->dev[i] == st.st_dev && s->ino[i] == st.st_ino)
			return;
	s->dev[s->n] = st.st_dev;
	s->ino[s->n++] = st.st_ino;
	if (elf_map(&f, path))
		return;
	i = elf_usdt_probe(&f, "ptbpf", "early", &pc, &sem);
	elf_unmap(&f);
	if (i)
		return;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = e->type;
	attr.config = sem << 32; /* the reference counter's offset (config:32-63) */
	attr.config1 = (uint64_t)(uintptr_t)path;
	attr.config2 = pc;
	fd = syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		e->fds[e->n++] = fd;
}

/*
 * name in the first directory of dirs (a colon-separated list; $ORIGIN is
 * origin, left as it is without one), in path; *ok 0 for an empty entry or
 * a path too long. Returns the rest of the list, NULL after its last.
 */
static const char *dir_path_next(const char *dirs, const char *origin, const char *name, char *path,
				 size_t size, int *ok)
{
	const char *end = strchrnul(dirs, ':'), *od = "";
	int n = (int)(end - dirs), o = 0;

	if (origin && n >= 7 && !strncmp(dirs, "$ORIGIN", 7)) {
		od = origin;
		o = 7;
	}
	*ok = n && snprintf(path, size, "%s%.*s/%s", od, n - o, dirs + o, name) < (int)size;
	return *end ? end + 1 : NULL;
}

/* The library's names in dir (a colon-separated list, $ORIGIN as origin). */
static void early_try_dirs(struct early *e, struct seen *s, pid_t pid, const char *dirs,
			   const char *origin)
{
	char path[4096];

	while (dirs && *dirs) {
		const char *next = NULL;
		int ok;

		for (size_t i = 0; i < sizeof(lib_names) / sizeof(lib_names[0]); i++) {
			next = dir_path_next(dirs, origin, lib_names[i], path, sizeof(path), &ok);
			if (ok)
				early_try(e, s, pid, path);
		}
		dirs = next;
	}
}

/* The command's DT_RPATH and DT_RUNPATH, $ORIGIN its directory. */
static void early_try_runpath(struct early *e, struct seen *s, pid_t pid, const char *cmd)
{
	char *real = realpath(cmd, NULL), *slash;
	struct elf_file f;
	struct elf_dyn d;

	if (!real || elf_map(&f, real)) {
		free(real);
		return;
	}
	slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	if (!elf_dynamic(&f, &d)) {
		const char *rpath = d.rpath ? elf_dynstr(&f, &d, d.rpath) : NULL;
		const char *runpath = d.runpath ? elf_dynstr(&f, &d, d.runpath) : NULL;

		if (rpath)
			early_try_dirs(e, s, pid, rpath, real);
		if (runpath)
			early_try_dirs(e, s, pid, runpath, real);
	}
	elf_unmap(&f);
	free(real);
}

/*
 * The objects the loader maps at the command's start: visited by inode,
 * each named by the DT_NEEDED of one before it.
 */
#define NEEDED_MAX 128
struct needed {
	dev_t dev[NEEDED_MAX];
	ino_t ino[NEEDED_MAX];
	char *path[NEEDED_MAX];
	int n;
};

static void needed_free(struct needed *nd)
{
	for (int i = 0; i < nd->n; i++)
		free(nd->path[i]);
}

/* Queue path (once): 0; 1 if there is no such file, -1 if too many. */
static int needed_add(struct needed *nd, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return 1; /* not this directory's */
	for (int i = 0; i < nd->n; i++)
		if (nd->dev[i] == st.st_dev && nd->ino[i] == st.st_ino)
			return 0;
	if (nd->n == NEEDED_MAX || !(nd->path[nd->n] = strdup(path)))
		return -1;
	nd->dev[nd->n] = st.st_dev;
	nd->ino[nd->n++] = st.st_ino;
	return 0;
}

/* The library name found in one of dirs (colon-separated, $ORIGIN as
 * origin) and queued: 0; 1 if in none; -1 if too many. */
static int needed_find(struct needed *nd, const char *dirs, const char *origin, const char *name)
{
	char path[4096];

	while (dirs && *dirs) {
		int ok, r;
		const char *next = dir_path_next(dirs, origin, name, path, sizeof(path), &ok);

		if (ok) {
			r = needed_add(nd, path);
			if (r <= 0)
				return r;
		}
		dirs = next;
	}
	return 1;
}

/*
 * Whether the loader maps libposixtrace when the command starts: it, or a
 * library it needs, names it in a DT_NEEDED. 1 also when that cannot be
 * told (not an ELF file, a library not found where the loader looks
 * first): the semaphore is raised then, as for a command that needs it.
 */
static int early_needed(const char *cmd)
{
	struct needed nd = { .n = 0 };
	int ret = 0;

	if (needed_add(&nd, cmd)) {
		needed_free(&nd);
		return 1;
	}
	for (int k = 0; k < nd.n && !ret; k++) {
		char origin[4096], *slash;
		const char *dirs[2];
		struct elf_file f;
		struct elf_dyn d;

		if (elf_map(&f, nd.path[k])) {
			ret = 1;
			break;
		}
		/* not an ELF program, or more than we follow */
		if (elf_dynamic(&f, &d) || d.more ||
		    (k == 0 && !d.dynamic && d.type != ET_EXEC && d.type != ET_DYN))
			ret = 1;
		snprintf(origin, sizeof(origin), "%s", nd.path[k]);
		slash = strrchr(origin, '/');
		if (slash)
			*slash = '\0';
		dirs[0] = d.rpath ? elf_dynstr(&f, &d, d.rpath) : NULL;
		dirs[1] = d.runpath ? elf_dynstr(&f, &d, d.runpath) : NULL;
		for (int i = 0; i < d.nneeded && !ret; i++) {
			const char *name = elf_dynstr(&f, &d, d.needed[i]);
			int r = 1;

			/* a name we cannot read, or libposixtrace */
			if (!name ||
			    !strncmp(name, "libposixtrace.so", strlen("libposixtrace.so"))) {
				ret = 1;
				break;
			}
			if (strchr(name, '/'))
				r = needed_add(&nd, name);
			for (int j = 0; r > 0 && j < 2; j++)
				r = needed_find(&nd, dirs[j], origin, name);
			if (r > 0)
				r = needed_find(&nd, getenv("LD_LIBRARY_PATH"), origin, name);
			for (size_t j = 0;
			     r > 0 && j < sizeof(default_dirs) / sizeof(default_dirs[0]); j++)
				r = needed_find(&nd, default_dirs[j], origin, name);
			if (r)
				ret = 1; /* not found where we look, or too many */
		}
		elf_unmap(&f);
	}
	needed_free(&nd);
	return ret;
}

/* ld.so.cache (glibc's format since 2.32): the paths it has for the library. */
static void early_try_cache(struct early *e, struct seen *s, pid_t pid)
{
	static const char magic[] = "glibc-ld.so.cache1.1";
	struct elf_file f;
	uint32_t nlibs, i;
	const unsigned char *hdr;

	if (elf_map(&f, "/etc/ld.so.cache"))
		return;
	hdr = elf_at(&f, 0, 48);
	if (hdr && !memcmp(hdr, magic, sizeof(magic) - 1)) {
		memcpy(&nlibs, hdr + 20, sizeof(nlibs));
		for (i = 0; i < nlibs; i++) {
			const unsigned char *ent = elf_at(&f, 48 + (uint64_t)i * 24, 24);
			uint32_t key, value;
			const char *k, *v;

			if (!ent)
				break;
			memcpy(&key, ent + 4, sizeof(key));
			memcpy(&value, ent + 8, sizeof(value));
			k = elf_at(&f, key, sizeof("libposixtrace.so"));
			v = elf_at(&f, value, 1);
			if (k && v && memchr(v, '\0', f.len - value) &&
			    !strncmp(k, "libposixtrace.so", strlen("libposixtrace.so")))
				early_try(e, s, pid, v);
		}
	}
	elf_unmap(&f);
}

static int own_lib(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char **found = arg;

	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "/libposixtrace.so"))
		*found = info->dlpi_name;
	return *found != NULL;
}

static void *early_attacher(void *arg)
{
	struct early *e = arg;
	const char *own = NULL;
	struct seen s = { .n = 0 };

	e->type = uprobe_type();
	if (e->type < 0)
		return NULL;
	/* the loader's order; each file once */
	early_try_runpath(e, &s, e->pid, e->cmd);
	early_try_dirs(e, &s, e->pid, getenv("LD_LIBRARY_PATH"), NULL);
	early_try_cache(e, &s, e->pid);
	for (size_t i = 0; i < sizeof(default_dirs) / sizeof(default_dirs[0]); i++)
		early_try_dirs(e, &s, e->pid, default_dirs[i], NULL);
	dl_iterate_phdr(own_lib, &own);
	if (own)
		early_try(e, &s, e->pid, own);
	return NULL;
}

/*
 * Closing a uprobe waits for the kernel's RCU grace periods (60-100 ms): the
 * uprobes are closed on a thread, beside the stream's shutdown, which waits
 * for them too; ptbpf's exit joins it (nothing of it outlives ptbpf).
 */
static void *early_closer(void *arg)
{
	struct early *e = arg;

	for (int i = 0; i < e->n; i++)
		close(e->fds[i]);
	e->n = 0;
	return NULL;
}

/*
 * Opening a uprobe waits for the kernel's RCU grace periods: it runs on a
 * thread of its own, beside the stream's creation.
 */
void early_uev_attach(struct early *e, pid_t pid, const char *cmd)
{
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->cmd = cmd;
	/* a uprobe costs the start an RCU grace period or two: none where
	 * there is no libposixtrace to ask */
	if (!early_needed(cmd))
		return;
	if (pthread_create(&e->thread, NULL, early_attacher, e))
		early_attacher(e);
	else
		e->running = 1;
}

void early_uev_wait(struct early *e)
{
	if (e->running)
		pthread_join(e->thread, NULL);
	e->running = 0;
}

void early_uev_release(struct early *e)
{
	early_uev_wait(e);
	if (e->released || !e->pid) /* released, or never attached */
		return;
	e->released = 1;
	if (!e->n)
		return;
	if (pthread_create(&e->thread, NULL, early_closer, e))
		early_closer(e);
	else
		e->running = 1;
}

void early_uev_detach(struct early *e)
{
	early_uev_release(e);
	early_uev_wait(e);
}
