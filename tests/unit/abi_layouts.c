/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cli/decode/abi.h's layouts against the kernel's user headers of the
 * architecture this is compiled for (x86_64 or arm64: abi_layouts.sh
 * compiles it with each compiler it has): it compiles only if they agree.
 */
#include <stddef.h>
#include <asm/fcntl.h>
#include <asm/siginfo.h>
#include <asm/signal.h>
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/eventpoll.h>
#include <linux/resource.h>
#include <linux/sysinfo.h>

#include "decode/abi.h"

#if defined(__aarch64__)
#define PICK(x86, arm64) (arm64)
#else
#define PICK(x86, arm64) (x86)
#endif

#define FIELD_SIZE(s, f) sizeof(((struct s *)0)->f)

#define CHECK_FIELD(name, xo, xs, ao, as)                                                          \
	_Static_assert(offsetof(struct stat, name) == PICK(xo, ao) &&                              \
			       FIELD_SIZE(stat, name) == PICK(xs, as),                             \
		       "struct stat's " #name);
DEC_ABI_STAT(CHECK_FIELD)

#define CHECK_SIZE(name, x, a) _Static_assert(sizeof(struct name) == PICK(x, a), "struct " #name);
DEC_ABI_SIZES(CHECK_SIZE)

#define CHECK_OFF(s, f, x, a) _Static_assert(offsetof(struct s, f) == PICK(x, a), #s "." #f);
DEC_ABI_OFFSETS(CHECK_OFF)

#define CHECK_OFLAG(name, x, a) _Static_assert(name == PICK(x, a), #name);
DEC_ABI_OFLAGS(CHECK_OFLAG)

/* what the decoders read with one layout (cli/decode/proc.c, fcntl.c,
 * stat.c, sigset.c): the same size on both */
_Static_assert(sizeof(struct statfs) == 120, "struct statfs");
_Static_assert(sizeof(struct flock) == 32, "struct flock");
_Static_assert(sizeof(struct rusage) == 144, "struct rusage");
_Static_assert(sizeof(struct sysinfo) == 112, "struct sysinfo");
_Static_assert(sizeof(siginfo_t) == 128, "siginfo_t");
_Static_assert(sizeof(sigevent_t) == 64, "struct sigevent");
_Static_assert(sizeof(stack_t) == 24, "stack_t");
