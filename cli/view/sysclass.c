/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * strace's syscall classes (-e %file, %desc, ...): which class each
 * syscall is in, as strace's own tables say (schema/syscalls.def), and the
 * class names; the syscalls' names and classes by number on each
 * architecture (a log's may not be the host's).
 */
#include <strings.h>

#include "view/view.h"

static const struct {
	int nr[SC_ARCH_COUNT];
	const char *name;
	uint32_t cls;
} sysclasses[] = {
/* clang-format off */
#define SYSCALL(name, nr, nr_arm64, nargs, printed, ret, form, classes) { { nr, nr_arm64 }, #name, classes },
#define ARG(name, type, ...)
#define CAP(...)
#define END
#define PATHTRACE(fds, paths)
#define FDOP(op, flags_arg)
#include "syscalls.def"
	/* clang-format on */
};

/* strace's class names (src/basic_filters.c), %net an alias of %network */
static const struct {
	const char *name;
	uint32_t cls;
} class_names[] = {
	{ "%desc", SC_DESC },	    { "%file", SC_FILE },
	{ "%memory", SC_MEMORY },   { "%process", SC_PROCESS },
	{ "%creds", SC_CREDS },	    { "%signal", SC_SIGNAL },
	{ "%ipc", SC_IPC },	    { "%net", SC_NETWORK },
	{ "%network", SC_NETWORK }, { "%stat", SC_STAT },
	{ "%lstat", SC_LSTAT },	    { "%fstat", SC_FSTAT },
	{ "%%stat", SC_STAT_LIKE }, { "%statfs", SC_STATFS },
	{ "%fstatfs", SC_FSTATFS }, { "%%statfs", SC_STATFS_LIKE },
	{ "%pure", SC_PURE },	    { "%clock", SC_CLOCK },
};

/* by syscall number, made once: the -P filter asks for every syscall */
static uint32_t by_nr[SC_ARCH_COUNT][PTBPF_SYSCALL_NR_MAX];
static const char *name_by_nr[SC_ARCH_COUNT][PTBPF_SYSCALL_NR_MAX];
static int by_nr_done;

static void sysclass_init(void)
{
	for (size_t i = 0; i < sizeof(sysclasses) / sizeof(sysclasses[0]); i++) {
		for (int a = 0; a < SC_ARCH_COUNT; a++) {
			int nr = sysclasses[i].nr[a];

			if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
				continue; /* not a call of that architecture */
			by_nr[a][nr] = sysclasses[i].cls;
			name_by_nr[a][nr] = sysclasses[i].name;
		}
	}
	by_nr_done = 1;
}

uint32_t sysclass_of_arch(int arch, int nr)
{
	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX || arch < 0 || arch >= SC_ARCH_COUNT)
		return 0;
	if (!by_nr_done)
		sysclass_init();
	return by_nr[arch][nr];
}

uint32_t sysclass_of(int nr)
{
	return sysclass_of_arch(SC_ARCH_NATIVE, nr);
}

const char *sysname_of(int arch, int nr)
{
	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX || arch < 0 || arch >= SC_ARCH_COUNT)
		return NULL;
	if (!by_nr_done)
		sysclass_init();
	return name_by_nr[arch][nr];
}

int sysclass_lookup(const char *name, uint32_t *cls)
{
	for (size_t i = 0; i < sizeof(class_names) / sizeof(class_names[0]); i++) {
		/* strace compares class names without regard to case */
		if (!strcasecmp(name, class_names[i].name)) {
			*cls = class_names[i].cls;
			return 0;
		}
	}
	return -1;
}
