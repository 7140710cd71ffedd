/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * strace's syscall classes (-e %file, %desc, ...): which class each x86_64
 * syscall is in, as strace's own tables say (schema/syscalls.def), and the
 * class names.
 */
#include <strings.h>

#include "view/view.h"

static const struct {
	int nr;
	const char *name;
	uint32_t cls;
} sysclasses[] = {
/* clang-format off */
#define SYSCALL(name, nr, nargs, printed, ret, form, classes) { nr, #name, classes },
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
static uint32_t by_nr[PTBPF_SYSCALL_NR_MAX];
static int by_nr_done;

uint32_t sysclass_of(int nr)
{
	if (nr < 0 || nr >= PTBPF_SYSCALL_NR_MAX)
		return 0;
	if (!by_nr_done) {
		for (size_t i = 0; i < sizeof(sysclasses) / sizeof(sysclasses[0]); i++)
			if (sysclasses[i].nr >= 0 && sysclasses[i].nr < PTBPF_SYSCALL_NR_MAX)
				by_nr[sysclasses[i].nr] = sysclasses[i].cls;
		by_nr_done = 1;
	}
	return by_nr[nr];
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
