/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a binary offers probes (read with libelf): its function symbols and
 * the USDT probes of its .note.stapsdt.
 */
#ifndef PTBPF_BACKEND_PROBE_ELF_H
#define PTBPF_BACKEND_PROBE_ELF_H

#include <stddef.h>

/*
 * Call fn(ctx, name) for each defined function symbol of path (.symtab
 * and .dynsym), each name once, sorted; fn's non-zero return stops the
 * walk and is returned. -ENOENT (and other open errors), -ENOEXEC: not an
 * ELF file, -ENOMEM.
 */
int probe_elf__symbols(const char *path, int (*fn)(void *ctx, const char *name), void *ctx);

/* The same for the USDT probes, as fn(ctx, provider, name). */
int probe_elf__usdt(const char *path, int (*fn)(void *ctx, const char *provider, const char *name),
		    void *ctx);

/*
 * The provider and name of one stapsdt note's descriptor (len bytes:
 * three addresses of addr_size bytes, then provider, name and argument
 * strings, each NUL-terminated): 0, or -EINVAL when it is malformed. The
 * strings point into desc.
 */
int probe_elf__parse_stapsdt(const void *desc, size_t len, size_t addr_size, const char **provider,
			     const char **name);

#endif
