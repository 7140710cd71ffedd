// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for what probes parse: a spec (also a probe event
 * type's name read from a log), a stapsdt note descriptor, and a whole
 * file as a binary to list the symbols and USDT probes of. The first byte
 * picks which.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/probe_elf.h"
#include "core/probe_spec.h"

static volatile size_t sink;

static int on_name(void *ctx, const char *name)
{
	(void)ctx;
	sink += strlen(name);
	return 0;
}

static int on_usdt(void *ctx, const char *prov, const char *name)
{
	(void)ctx;
	sink += strlen(prov) + strlen(name);
	return 0;
}

static void spec(const uint8_t *d, size_t n)
{
	struct ptbpf_probe_spec p;
	char name[TRACE_EVENT_NAME_MAX], *s = malloc(n + 1);

	if (!s)
		return;
	memcpy(s, d, n);
	s[n] = 0;
	if (!probe_spec__parse(s, &p) && !probe_spec__type_name(&p, p.provider, p.name, name))
		sink += strlen(name) + probe_spec__str_mask(&p);
	free(s);
}

static void file(const uint8_t *d, size_t n)
{
	int fd = memfd_create("fuzz_probe", MFD_CLOEXEC);
	char path[64];

	if (fd < 0)
		return;
	if (write(fd, d, n) == (ssize_t)n) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		probe_elf__symbols(path, on_name, NULL);
		probe_elf__usdt(path, on_usdt, NULL);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *prov, *name;

	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		spec(data + 1, size - 1);
		break;
	case 1:
		if (!probe_elf__parse_stapsdt(data + 1, size - 1, 8, &prov, &name))
			sink += strlen(prov) + strlen(name);
		break;
	default:
		file(data + 1, size - 1);
		break;
	}
	return 0;
}
