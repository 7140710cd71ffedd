// SPDX-License-Identifier: LGPL-2.1-or-later
/* Guarded mappings of the fuzzed region (see fuzz_uev_guard.h). */
#include "fuzz_uev_guard.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* Larger than any offset a bad length check can add (a sub-ring is 4 MiB at most). */
#define GUARD_BYTES (32ul << 20)
#define GUARD_MAPS  4

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __real_munmap(void *addr, size_t len);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __wrap_munmap(void *addr, size_t len);

struct guard_map {
	uint8_t *base;
	size_t len;
	off_t off;
	bool live;
};

static struct guard_map guard_maps[GUARD_MAPS];
static bool guard_on;
static dev_t guard_dev;
static ino_t guard_ino;

void guard__watch(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return;
	guard_dev = st.st_dev;
	guard_ino = st.st_ino;
	guard_on = true;
}

void guard__unwatch(void)
{
	guard_on = false;
}

static bool guard_watched(int fd)
{
	struct stat st;

	return guard_on && fd >= 0 && !fstat(fd, &st) && st.st_dev == guard_dev &&
	       st.st_ino == guard_ino;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct guard_map *m = NULL;
	uint8_t *res, *p;

	if (addr || (flags & MAP_FIXED) || !guard_watched(fd))
		return __real_mmap(addr, len, prot, flags, fd, off);
	for (unsigned int i = 0; i < GUARD_MAPS && !m; i++)
		if (!guard_maps[i].live)
			m = &guard_maps[i];
	if (!m) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	res = __real_mmap(NULL, len + 2 * GUARD_BYTES, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (res == MAP_FAILED)
		return MAP_FAILED;
	p = __real_mmap(res + GUARD_BYTES, len, prot, flags | MAP_FIXED, fd, off);
	if (p == MAP_FAILED) {
		int err = errno;

		__real_munmap(res, len + 2 * GUARD_BYTES);
		errno = err;
		return MAP_FAILED;
	}
	*m = (struct guard_map){ .base = p, .len = len, .off = off, .live = true };
	return p;
}

int __wrap_munmap(void *addr, size_t len)
{
	for (unsigned int i = 0; i < GUARD_MAPS; i++) {
		struct guard_map *m = &guard_maps[i];

		if (m->live && m->base == addr && m->len == len) {
			m->live = false;
			return __real_munmap(m->base - GUARD_BYTES, len + 2 * GUARD_BYTES);
		}
	}
	return __real_munmap(addr, len);
}

int guard__ring(uint8_t **base, size_t *len, off_t *off)
{
	for (unsigned int i = 0; i < GUARD_MAPS; i++) {
		struct guard_map *m = &guard_maps[i];

		if (m->live && m->off) {
			*base = m->base;
			*len = m->len;
			*off = m->off;
			return 0;
		}
	}
	return -ENOENT;
}

unsigned int guard__live(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < GUARD_MAPS; i++)
		n += guard_maps[i].live;
	return n;
}

bool guard__payload_ok(const void *p, size_t len, size_t sub)
{
	const uint8_t *b = p;

	for (unsigned int i = 0; i < GUARD_MAPS; i++) {
		const struct guard_map *m = &guard_maps[i];
		size_t at, end;

		if (!m->live || b < m->base || b >= m->base + m->len)
			continue;
		if (!m->off || !sub)
			return false;
		at = (size_t)(b - m->base);
		end = (at / sub + 1) * sub;
		return len <= end - at;
	}
	return true;
}
