// SPDX-License-Identifier: LGPL-2.1-or-later
#include "backend/syscalls.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sc_entry {
	int nr;
	const char *name;
	int nargs;
};

static const struct sc_entry sc_known[] = {
#define PTBPF_SYSCALL(nr, name, nargs) { nr, name, nargs },
#include "syscall_table.h"
#undef PTBPF_SYSCALL
};

#define SC_COUNT       (sizeof(sc_known) / sizeof(sc_known[0]))
#define SC_UNKNOWN_LEN 16 /* "syscall_511" */

/* Path arguments by syscall name: resolved to numbers once. */
struct sc_path {
	const char *name;
	signed char a0, a1;
};

static const struct sc_path sc_paths[] = {
	{ "open", 0, -1 },
	{ "openat", 1, -1 },
	{ "openat2", 1, -1 },
	{ "creat", 0, -1 },
	{ "execve", 0, -1 },
	{ "execveat", 1, -1 },
	{ "stat", 0, -1 },
	{ "lstat", 0, -1 },
	{ "newfstatat", 1, -1 },
	{ "fstatat64", 1, -1 },
	{ "statx", 1, -1 },
	{ "access", 0, -1 },
	{ "faccessat", 1, -1 },
	{ "faccessat2", 1, -1 },
	{ "unlink", 0, -1 },
	{ "unlinkat", 1, -1 },
	{ "mkdir", 0, -1 },
	{ "mkdirat", 1, -1 },
	{ "rmdir", 0, -1 },
	{ "rename", 0, 1 },
	{ "renameat", 1, 3 },
	{ "renameat2", 1, 3 },
	{ "link", 0, 1 },
	{ "linkat", 1, 3 },
	{ "symlink", 0, 1 },
	{ "symlinkat", 0, 2 },
	{ "chdir", 0, -1 },
	{ "chroot", 0, -1 },
	{ "readlink", 0, -1 },
	{ "readlinkat", 1, -1 },
	{ "truncate", 0, -1 },
	{ "chmod", 0, -1 },
	{ "fchmodat", 1, -1 },
	{ "fchmodat2", 1, -1 },
	{ "chown", 0, -1 },
	{ "lchown", 0, -1 },
	{ "fchownat", 1, -1 },
	{ "utime", 0, -1 },
	{ "utimes", 0, -1 },
	{ "futimesat", 1, -1 },
	{ "utimensat", 1, -1 },
	{ "mknod", 0, -1 },
	{ "mknodat", 1, -1 },
	{ "mount", 0, 1 },
	{ "umount2", 0, -1 },
	{ "swapon", 0, -1 },
	{ "swapoff", 0, -1 },
	{ "statfs", 0, -1 },
	{ "getxattr", 0, -1 },
	{ "lgetxattr", 0, -1 },
	{ "setxattr", 0, -1 },
	{ "lsetxattr", 0, -1 },
	{ "listxattr", 0, -1 },
	{ "llistxattr", 0, -1 },
	{ "removexattr", 0, -1 },
	{ "lremovexattr", 0, -1 },
	{ "getxattrat", 1, -1 },
	{ "setxattrat", 1, -1 },
	{ "listxattrat", 1, -1 },
	{ "removexattrat", 1, -1 },
	{ "inotify_add_watch", 1, -1 },
	{ "fanotify_mark", 4, -1 },
	{ "name_to_handle_at", 1, -1 },
	{ "open_tree", 1, -1 },
	{ "open_tree_attr", 1, -1 },
	{ "move_mount", 1, 3 },
	{ "fspick", 1, -1 },
	{ "mount_setattr", 1, -1 },
	{ "acct", 0, -1 },
	{ "pivot_root", 0, 1 },
	{ "uselib", 0, -1 },
	{ "quotactl", 1, -1 },
};

static const char *sc_names[PTBPF_SYSCALL_NR_MAX];
static signed char sc_path_tab[PTBPF_SYSCALL_NR_MAX][2];
static unsigned char sc_nargs[PTBPF_SYSCALL_NR_MAX];
static char sc_unknown[PTBPF_SYSCALL_NR_MAX][SC_UNKNOWN_LEN];
static pthread_once_t sc_once = PTHREAD_ONCE_INIT;

static int syscalls__lookup_known(const char *name)
{
	for (size_t i = 0; i < SC_COUNT; i++)
		if (!strcmp(sc_known[i].name, name))
			return sc_known[i].nr;
	return -ENOENT;
}

static void syscalls__init(void)
{
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		snprintf(sc_unknown[nr], SC_UNKNOWN_LEN, "syscall_%d", nr);
		sc_names[nr] = sc_unknown[nr];
		sc_path_tab[nr][0] = -1;
		sc_path_tab[nr][1] = -1;
		sc_nargs[nr] = 6;
	}
	for (size_t i = 0; i < SC_COUNT; i++) {
		if (sc_known[i].nr < 0 || sc_known[i].nr >= PTBPF_SYSCALL_NR_MAX)
			continue;
		sc_names[sc_known[i].nr] = sc_known[i].name;
		if (sc_known[i].nargs >= 0 && sc_known[i].nargs < 6)
			sc_nargs[sc_known[i].nr] = (unsigned char)sc_known[i].nargs;
	}
	for (size_t i = 0; i < sizeof(sc_paths) / sizeof(sc_paths[0]); i++) {
		int nr = syscalls__lookup_known(sc_paths[i].name);

		if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
			continue;
		sc_path_tab[nr][0] = sc_paths[i].a0;
		sc_path_tab[nr][1] = sc_paths[i].a1;
	}
}

const char *syscalls__name(int nr)
{
	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return NULL;
	pthread_once(&sc_once, syscalls__init);
	return sc_names[nr];
}

bool syscalls__known(int nr)
{
	const char *name = syscalls__name(nr);

	return name && name != sc_unknown[nr];
}

static int syscalls__parse_unknown(const char *name)
{
	const char *p = name + strlen("syscall_");
	char *end;
	long nr;

	if (strncmp(name, "syscall_", strlen("syscall_")) || *p < '0' || *p > '9')
		return -ENOENT;
	errno = 0;
	nr = strtol(p, &end, 10);
	if (errno || *end || nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return -ENOENT;
	return nr;
}

int syscalls__lookup(const char *name)
{
	int nr;

	if (!name)
		return -ENOENT;
	nr = syscalls__lookup_known(name);
	if (nr >= 0)
		return nr;
	return syscalls__parse_unknown(name);
}

int syscalls__path_args(int nr, int args[2])
{
	args[0] = -1;
	args[1] = -1;
	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return 0;
	pthread_once(&sc_once, syscalls__init);
	args[0] = sc_path_tab[nr][0];
	args[1] = sc_path_tab[nr][1];
	return (args[0] >= 0) + (args[1] >= 0);
}

int syscalls__nargs(int nr)
{
	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return 6;
	pthread_once(&sc_once, syscalls__init);
	return sc_nargs[nr];
}
