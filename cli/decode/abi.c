/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: the user ABIs the decoders know (abi.h), and the one in use. */
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "decode/abi.h"

#define X86_FIELD(name, xo, xs, ao, as)	  .f_##name = { xo, xs },
#define ARM64_FIELD(name, xo, xs, ao, as) .f_##name = { ao, as },
#define X86_SIZE(name, x, a)		  .name##_size = x,
#define ARM64_SIZE(name, x, a)		  .name##_size = a,
#define X86_OFF(s, f, x, a)		  .s##_##f##_off = x,
#define ARM64_OFF(s, f, x, a)		  .s##_##f##_off = a,

static const struct dec_abi abis[SC_ARCH_COUNT] = {
	[SC_ARCH_X86_64] = { .arch = SC_ARCH_X86_64,
			     .name = "x86_64",
			     DEC_ABI_STAT(X86_FIELD) DEC_ABI_SIZES(X86_SIZE)
				     DEC_ABI_OFFSETS(X86_OFF)
					     .clone_child_tid = 3,
			     .clone_tls = 4 },
	[SC_ARCH_ARM64] = { .arch = SC_ARCH_ARM64,
			    .name = "aarch64",
			    DEC_ABI_STAT(ARM64_FIELD) DEC_ABI_SIZES(ARM64_SIZE)
				    DEC_ABI_OFFSETS(ARM64_OFF)
					    .clone_child_tid = 4,
			    .clone_tls = 3 },
};

static const struct dec_abi *cur = &abis[SC_ARCH_NATIVE];

/* each syscall's numbers, sorted by name (bsearch) */
static const struct sys_nrs {
	const char *name;
	int nr[SC_ARCH_COUNT];
} sys_nrs[] = {
/* clang-format off */
#define SYSCALL(name, nr, nr_arm64, nargs, printed, ret, form, classes) { #name, { nr, nr_arm64 } },
#define ARG(name, type, ...)
#define CAP(...)
#define END
#define PATHTRACE(fds, paths)
#define FDOP(op, flags_arg)
#include "syscalls.def"
	/* clang-format on */
};

static int sys_nrs_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct sys_nrs *)e)->name);
}

int dec_sys_nr(int arch, const char *name)
{
	const struct sys_nrs *s = bsearch(name, sys_nrs, sizeof(sys_nrs) / sizeof(sys_nrs[0]),
					  sizeof(sys_nrs[0]), sys_nrs_cmp);

	return s && arch >= 0 && arch < SC_ARCH_COUNT ? s->nr[arch] : -1;
}

const struct dec_abi *dec_abi(int arch)
{
	return arch >= 0 && arch < SC_ARCH_COUNT ? &abis[arch] : &abis[SC_ARCH_NATIVE];
}

int dec_abi_arch_of(unsigned int machine)
{
	switch (machine) {
	case PTBPF_ARCH_X86_64:
		return SC_ARCH_X86_64;
	case PTBPF_ARCH_AARCH64:
		return SC_ARCH_ARM64;
	}
	return -1;
}

const struct dec_abi *decode_abi(void)
{
	return cur;
}

void decode_set_abi(const struct dec_abi *abi)
{
	cur = abi ? abi : &abis[SC_ARCH_NATIVE];
}

uint64_t dec_ld(const void *p, struct dec_field f)
{
	uint64_t v64 = 0;
	uint32_t v32 = 0;

	if (f.size == 4) {
		memcpy(&v32, (const char *)p + f.off, 4);
		return v32;
	}
	memcpy(&v64, (const char *)p + f.off, 8);
	return v64;
}

unsigned long dec_oflags_native(const struct dec_abi *abi, unsigned long v)
{
	static const unsigned long bits[][SC_ARCH_COUNT] = {
#define OFLAG(name, x, a) { [SC_ARCH_X86_64] = x, [SC_ARCH_ARM64] = a },
		DEC_ABI_OFLAGS(OFLAG)
#undef OFLAG
	};
	unsigned long out = v;

	if (abi->arch == SC_ARCH_NATIVE)
		return v;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		out &= ~bits[i][abi->arch];
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (v & bits[i][abi->arch])
			out |= bits[i][SC_ARCH_NATIVE];
	return out;
}
