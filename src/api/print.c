/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf_set_print(): where the library's messages go. They are libbpf's
 * (verifier logs, load and attach failures), forwarded with our levels.
 * libbpf's print function is the whole process's: it is set only once an
 * application asks, so that one which set its own keeps it until then.
 */
#include <stdarg.h>
#include <bpf/libbpf.h>
#include <ptbpf/ptbpf.h>

static ptbpf_print_fn_t print_fn;

static const enum ptbpf_print_level print_levels[] = {
	[LIBBPF_WARN] = PTBPF_WARN,
	[LIBBPF_INFO] = PTBPF_INFO,
	[LIBBPF_DEBUG] = PTBPF_DEBUG,
};

static int print_forward(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	ptbpf_print_fn_t fn = __atomic_load_n(&print_fn, __ATOMIC_ACQUIRE);

	if (!fn || (unsigned int)level >= sizeof(print_levels) / sizeof(print_levels[0]))
		return 0;
	return fn(print_levels[level], fmt, ap);
}

ptbpf_print_fn_t ptbpf_set_print(ptbpf_print_fn_t fn)
{
	ptbpf_print_fn_t old = __atomic_exchange_n(&print_fn, fn, __ATOMIC_ACQ_REL);

	libbpf_set_print(print_forward);
	return old;
}
