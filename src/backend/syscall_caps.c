// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What BPF captures of each syscall's arguments (bpf/caps.bpf.h walks it):
 * the CAP rows of schema/syscalls.def, by syscall number, written with the
 * shorthands below. Sizes are the user ABI's of the architecture built
 * for: the structs of the system's headers where they differ (struct stat,
 * struct epoll_event).
 */
#include "backend/syscall_caps.h"

#include "syscall_types.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>

struct cap_row {
	int nr;
	struct kern_cap_spec spec[KERN_CAPS]; /* type 0: none */
};

#define E KERN_CAP_ENTRY
#define X KERN_CAP_EXIT

/* { type, arg, size, size_arg, max, when } */
#define BUF_ARG(a, n)                                                                              \
	{                                                                                          \
		PTBPF_CAP_BYTES, a, KERN_CAP_ARG, n, 0, E                                          \
	}
#define BUF_RET(a)                                                                                 \
	{                                                                                          \
		PTBPF_CAP_BYTES, a, KERN_CAP_RET, 0, 0, X                                          \
	}
#define FIXED(t, a, n, w)                                                                          \
	{                                                                                          \
		t, a, KERN_CAP_FIXED, 0, n, w                                                      \
	}
#define SA_ARG(a, n)                                                                               \
	{                                                                                          \
		PTBPF_CAP_SOCKADDR, a, KERN_CAP_ARG, n, 128, E                                     \
	}
#define SA_LENPTR(a, n)                                                                            \
	{                                                                                          \
		PTBPF_CAP_SOCKADDR, a, KERN_CAP_LENPTR, n, 128, X                                  \
	}

#define STRING(a)                                                                                  \
	{                                                                                          \
		PTBPF_CAP_STR, a, KERN_CAP_STRING, 0, 0, E                                         \
	}

/* 144 and 12 (packed) bytes on x86_64, 128 and 16 on arm64 */
#define STAT_SIZE	 sizeof(struct stat)
#define EPOLL_EVENT_SIZE sizeof(struct epoll_event)

/* a socklen_t the call reads and writes */
#define LEN_IN(a)  FIXED(PTBPF_CAP_INT, a, 4, E)
#define LEN_OUT(a) FIXED(PTBPF_CAP_INT, a, 4, X)

/* each syscall's CAP rows in schema/syscalls.def, in order */
static const struct cap_row cap_rows[] = {
/* clang-format off */
#define SYSCALL(name, nr, nr_arm64, nargs, printed, ret, form, classes) { SYSCALL_NATIVE_NR(nr, nr_arm64), {
#define ARG(name, type, ...)
#define CAP(...) __VA_ARGS__,
#define END } },
#define PATHTRACE(fds, paths)
#define FDOP(op, flags_arg)
#include "syscalls.def"
	/* clang-format on */
};

int syscall_caps__table(struct kern_cap_spec specs[PTBPF_SYSCALL_NR_MAX][KERN_CAPS],
			uint8_t when[PTBPF_SYSCALL_NR_MAX])
{
	int rows = 0;

	memset(specs, 0, sizeof(struct kern_cap_spec) * PTBPF_SYSCALL_NR_MAX * KERN_CAPS);
	memset(when, 0, PTBPF_SYSCALL_NR_MAX);
	for (size_t i = 0; i < sizeof(cap_rows) / sizeof(cap_rows[0]); i++) {
		int nr = cap_rows[i].nr;

		if (nr < 0)
			continue; /* not a call of this architecture */
		if (nr >= PTBPF_SYSCALL_NR_MAX)
			return -E2BIG;
		for (int k = 0; k < KERN_CAPS && cap_rows[i].spec[k].type; k++) {
			const struct kern_cap_spec *c = &cap_rows[i].spec[k];

			specs[nr][k] = *c;
			if (c->when == KERN_CAP_EXIT && (!(when[nr] & KERN_CAP_EXIT) ||
							 c->arg < KERN_CAP_WHEN_EXIT_ARG(when[nr])))
				when[nr] = (uint8_t)((when[nr] & 0xf) |
						     (c->arg << KERN_CAP_WHEN_ARG_SHIFT));
			when[nr] |= (uint8_t)c->when;
			rows++;
		}
	}
	return rows;
}
