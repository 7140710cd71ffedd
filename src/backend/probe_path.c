// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The file of a probe's PATH: a name without '/' is looked up as bpftrace
 * does, a program in $PATH first, then a library in the process's maps,
 * then in the standard directories (the ld.so cache's binary format is not
 * read: the directories hold what it lists on Debian).
 */
#include "backend/probe_path.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const lib_dirs[] = {
#if defined(__x86_64__)
	"/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
	"/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu",
#endif
	"/lib64",
	"/usr/lib64",
	"/lib",
	"/usr/lib",
	"/usr/local/lib",
};

static int copy_out(const char *s, char *buf, size_t size)
{
	if (strlen(s) >= size)
		return -ENAMETOOLONG;
	strcpy(buf, s);
	return 0;
}

/* An ELF file (libc.so is often a linker script). */
static bool is_elf(const char *path)
{
	char m[4];
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fread(m, 1, 4, f) == 4 && !memcmp(m, "\177ELF", 4);
	fclose(f);
	return ok;
}

/* Is file name base the library name (NAME.so, NAME.so.6, NAME-2.36.so)? */
static bool lib_match(const char *base, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(base, name, n))
		return false;
	base += n;
	return !strncmp(base, ".so", 3) || (*base == '-' && strstr(base, ".so"));
}

static bool lib_match_any(const char *base, const char *name)
{
	char lib[256];

	if (lib_match(base, name))
		return true;
	if (!strncmp(name, "lib", 3) ||
	    snprintf(lib, sizeof(lib), "lib%s", name) >= (int)sizeof(lib))
		return false;
	return lib_match(base, lib);
}

static int in_path(const char *name, char *buf, size_t size)
{
	const char *p = getenv("PATH");
	char f[4096];

	if (!p)
		p = "/usr/local/bin:/usr/bin:/bin";
	while (*p) {
		size_t n = strcspn(p, ":");

		if (n && snprintf(f, sizeof(f), "%.*s/%s", (int)n, p, name) < (int)sizeof(f) &&
		    !access(f, X_OK) && is_elf(f))
			return copy_out(f, buf, size);
		p += n;
		if (*p)
			p++;
	}
	return -ENOENT;
}

static int in_maps(const char *name, pid_t pid, char *buf, size_t size)
{
	char f[64], line[4608];
	FILE *m;
	int err = -ENOENT;

	snprintf(f, sizeof(f), "/proc/%d/maps", (int)pid);
	m = fopen(f, "re");
	if (!m)
		return -ENOENT;
	while (err == -ENOENT && fgets(line, sizeof(line), m)) {
		char *path = strchr(line, '/'), *base;

		if (!path)
			continue;
		path[strcspn(path, "\n")] = 0;
		base = strrchr(path, '/') + 1;
		if (lib_match_any(base, name))
			err = copy_out(path, buf, size);
	}
	fclose(m);
	return err;
}

/* The first ELF library of that name in dir, versioned names first. */
static int in_dir(const char *dir, const char *name, char *buf, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char f[4096], best[4096] = "";

	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		if (!lib_match_any(e->d_name, name))
			continue;
		if (snprintf(f, sizeof(f), "%s/%s", dir, e->d_name) >= (int)sizeof(f) || !is_elf(f))
			continue;
		/* NAME.so.6 before NAME.so (a link for the linker, or a script) */
		if (!*best || strlen(f) > strlen(best) ||
		    (strlen(f) == strlen(best) && strcmp(f, best) < 0))
			strcpy(best, f);
	}
	closedir(d);
	return *best ? copy_out(best, buf, size) : -ENOENT;
}

int probe_path__resolve(const char *path, pid_t pid, char *buf, size_t size)
{
	int err;

	if (!*path)
		return -ENOENT;
	if (strchr(path, '/')) {
		if (access(path, F_OK))
			return -ENOENT;
		return copy_out(path, buf, size);
	}
	err = in_path(path, buf, size);
	if (err == -ENOENT && pid > 0)
		err = in_maps(path, pid, buf, size);
	for (size_t i = 0; err == -ENOENT && i < sizeof(lib_dirs) / sizeof(lib_dirs[0]); i++)
		err = in_dir(lib_dirs[i], path, buf, size);
	return err;
}
