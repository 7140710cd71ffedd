/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_trace_attr_getarch(): the architecture of a stream's events. */
#include <elf.h>
#include <errno.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>

#include "core/attr.h"

_Static_assert(PTBPF_ARCH_X86_64 == EM_X86_64 && PTBPF_ARCH_AARCH64 == EM_AARCH64,
	       "PTBPF_ARCH_* are ELF machines");
_Static_assert(PT_ARCH_NATIVE == PTBPF_ARCH_X86_64 || PT_ARCH_NATIVE == PTBPF_ARCH_AARCH64,
	       "PT_ARCH_NATIVE");

int ptbpf_trace_attr_getarch(const trace_attr_t *attr, unsigned int *arch)
{
	const struct pt_attr *a = attr ? attr__from_const(attr) : NULL;

	if (!a || !attr__valid(a) || !arch)
		return EINVAL;
	*arch = a->arch;
	return 0;
}
