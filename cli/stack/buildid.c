// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -k: files by build-id, for the modules of a trace whose file moved, was
 * deleted or replaced since: DIR/.build-id/xx/yyyy (the ELF, as
 * debuginfod caches lay it out) or DIR/.build-id/xx/yyyy.debug (Debian's
 * -dbgsym packages), DIR the debug directory (--debug-dir), then
 * /usr/lib/debug. A file is taken only if its own note has the build-id.
 */
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stack/stack_int.h"

#define DEBUG_DIR_DEFAULT "/usr/lib/debug"

static const char *debug_dir; /* --debug-dir, NULL: none */
char *stack_dwfl_debuginfo_path;
static char *dwfl_path_buf;

void stack_set_debug_dir(const char *dir)
{
	free(dwfl_path_buf);
	dwfl_path_buf = NULL;
	stack_dwfl_debuginfo_path = NULL;
	debug_dir = dir;
	/* libdwfl's form: next to the file, in .debug/ there, dir, then its
	 * default */
	if (dir && asprintf(&dwfl_path_buf, ":.debug:%s:" DEBUG_DIR_DEFAULT, dir) > 0)
		stack_dwfl_debuginfo_path = dwfl_path_buf;
}

/* Does the ELF file at path carry build-id id? */
static int has_build_id(const char *path, const unsigned char *id, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok = 0;
	const void *bits;
	Elf *e;

	if (fd < 0)
		return 0;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && dwelf_elf_gnu_build_id(e, &bits) == (ssize_t)len && !memcmp(bits, id, len))
		ok = 1;
	elf_end(e);
	close(fd);
	return ok;
}

char *stack_find_build_id(const unsigned char *id, size_t len)
{
	static const char *const suffix[] = { "", ".debug" };
	char hex[2 * PTBPF_BUILD_ID_MAX + 1], *path;

	if (len < 2 || len > PTBPF_BUILD_ID_MAX)
		return NULL;
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	for (int d = debug_dir ? 0 : 1; d < 2; d++)
		for (size_t k = 0; k < sizeof(suffix) / sizeof(suffix[0]); k++) {
			if (asprintf(&path, "%s/.build-id/%.2s/%s%s",
				     d ? DEBUG_DIR_DEFAULT : debug_dir, hex, hex + 2,
				     suffix[k]) < 0)
				return NULL;
			if (has_build_id(path, id, len))
				return path;
			free(path);
		}
	return NULL;
}
