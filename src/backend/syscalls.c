// SPDX-License-Identifier: LGPL-2.1-or-later
#include "backend/syscalls.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscall_types.h"

/* A syscall of schema/syscalls.def: its number, name, argument count, and
 * which arguments are paths. */
struct sc_entry {
	int nr;
	const char *name;
	int nargs;
	unsigned char is_path[6];
};

static const struct sc_entry sc_known[] = {
/* clang-format off */
#define SYSCALL(name, nr, nr_arm64, nargs, printed, ret, form, classes) { SYSCALL_NATIVE_NR(nr, nr_arm64), #name, nargs, {
#define ARG(name, type, ...) (type) == A_PATH,
#define CAP(...)
#define END } },
#define PATHTRACE(fds, paths)
#define FDOP(op, flags_arg)
#include "syscalls.def"
	/* clang-format on */
};

#define SC_COUNT       (sizeof(sc_known) / sizeof(sc_known[0]))
#define SC_UNKNOWN_LEN 16 /* "syscall_511" */

static const char *sc_names[PTBPF_SYSCALL_NR_MAX];
static signed char sc_path_tab[PTBPF_SYSCALL_NR_MAX][2];
static unsigned char sc_nargs[PTBPF_SYSCALL_NR_MAX];
static char sc_unknown[PTBPF_SYSCALL_NR_MAX][SC_UNKNOWN_LEN];
static pthread_once_t sc_once = PTHREAD_ONCE_INIT;

static int sc_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct sc_entry *)e)->name);
}

/* sc_known is sorted by name */
static int syscalls__lookup_known(const char *name)
{
	const struct sc_entry *e = bsearch(name, sc_known, SC_COUNT, sizeof(sc_known[0]), sc_cmp);

	return e ? e->nr : -ENOENT;
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
		const struct sc_entry *e = &sc_known[i];
		int k = 0;

		if (e->nr < 0 || e->nr >= PTBPF_SYSCALL_NR_MAX)
			continue;
		sc_names[e->nr] = e->name;
		if (e->nargs >= 0 && e->nargs < 6)
			sc_nargs[e->nr] = (unsigned char)e->nargs;
		/* BPF reads a call's first two paths */
		for (int a = 0; a < 6 && k < 2; a++)
			if (e->is_path[a])
				sc_path_tab[e->nr][k++] = (signed char)a;
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
