// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for ptbpf record's ELF reader (cli/elf_file.c), which
 * reads the command's file and its libraries before the command starts:
 * the dynamic section's names and paths, and the USDT probe ptbpf:early.
 */
#include <stdint.h>
#include <string.h>

#include "record/elf_file.h"

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_file f = { data, size };
	uint64_t pc, sem;
	struct elf_dyn d;
	const char *s;

	if (!elf_dynamic(&f, &d)) {
		for (int i = 0; i < d.nneeded; i++)
			if ((s = elf_dynstr(&f, &d, d.needed[i])))
				sink += strlen(s);
		if ((s = elf_dynstr(&f, &d, d.rpath)))
			sink += strlen(s);
		if ((s = elf_dynstr(&f, &d, d.runpath)))
			sink += strlen(s);
	}
	if (!elf_usdt_probe(&f, "ptbpf", "early", &pc, &sem))
		sink += pc + sem;
	return 0;
}
