// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -k: kernel frames named as perf names them, symbol+0xoff of
 * [kernel.kallsyms], from /proc/kallsyms when shown (the running kernel:
 * a log read on another one prints its addresses raw, or names them
 * wrongly if its kernel differs; perf report has the same limit).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stack/stack.h"

#define KSYM_NAME_MAX 128
/* past this from the last symbol below it, an address is not named: the
 * end of the kernel's text, BPF programs kallsyms does not list */
#define KSYM_OFF_MAX 0x10000

struct ksym {
	uint64_t addr;
	char *name;
};

static struct {
	struct ksym *s;
	size_t n;
	int loaded;
} ksyms;

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The text symbols of /proc/kallsyms, by address (none: hidden by
 * kptr_restrict, all zero). */
static void ksyms_load(void)
{
	char line[KSYM_NAME_MAX + 64], name[KSYM_NAME_MAX];
	size_t cap = 0;
	FILE *f;

	ksyms.loaded = 1;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type;

		if (sscanf(line, "%llx %c %127s", &addr, &type, name) != 3 || !addr ||
		    (type != 't' && type != 'T'))
			continue;
		if (ksyms.n == cap) {
			size_t c = cap ? 2 * cap : 65536;
			struct ksym *n = realloc(ksyms.s, c * sizeof(*n));

			if (!n)
				break;
			ksyms.s = n;
			cap = c;
		}
		ksyms.s[ksyms.n].addr = addr;
		ksyms.s[ksyms.n].name = strdup(name);
		if (ksyms.s[ksyms.n].name)
			ksyms.n++;
	}
	fclose(f);
	qsort(ksyms.s, ksyms.n, sizeof(*ksyms.s), ksym_cmp);
}

void stack_kernel_resolve(struct stack_frame *f, uint64_t pc, int activation)
{
	/* a return address points after its call: look up the call */
	uint64_t at = pc - !activation;
	size_t lo = 0, hi;

	f->pc = pc;
	f->modoff = pc;
	f->kernel = 1;
	f->module = strdup("[kernel.kallsyms]");
	if (!ksyms.loaded)
		ksyms_load();
	hi = ksyms.n;
	/* the last symbol at or below at */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ksyms.s[mid].addr <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || pc - ksyms.s[lo - 1].addr >= KSYM_OFF_MAX)
		return;
	f->symbol = strdup(ksyms.s[lo - 1].name);
	f->symoff = pc - ksyms.s[lo - 1].addr;
}

/* A frame of the tracing itself: the BPF program and what called it from
 * the tracepoint (which frames differ between kernels). */
static int tracer_frame(const struct stack_frame *f)
{
	static const char *const prefix[] = { "bpf_prog_",    "bpf_trampoline_", "bpf_trace_run",
					      "__bpf_trace_", "__traceiter_",	 "__bpf_prog_run" };

	for (size_t i = 0; f->symbol && i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(f->symbol, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

size_t stack_kernel_tracer_frames(const struct stack_frame *f, size_t n)
{
	size_t cut = 0;

	/* unnamed ones among them: the BPF program, hidden from kallsyms */
	for (size_t i = 0; i < n && i < 8 && (!f[i].symbol || tracer_frame(&f[i])); i++)
		if (tracer_frame(&f[i]))
			cut = i + 1;
	return cut;
}

void stack_kernel_free(void)
{
	for (size_t i = 0; i < ksyms.n; i++)
		free(ksyms.s[i].name);
	free(ksyms.s);
	memset(&ksyms, 0, sizeof(ksyms));
}
