/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A map from a process or thread id to a pointer: what the views keep per
 * thread (the syscall in progress) and per process (its fds), looked up at
 * every syscall. Open addressing, linear probing; a removal shifts the
 * entries after it back, so that no tombstones slow the lookups down.
 */
#include <stdlib.h>

#include "util/util.h"

static size_t slot_of(const struct pidmap *m, pid_t key)
{
	/* Fibonacci hashing: consecutive ids (a fork's children) spread */
	return (size_t)(((uint32_t)key * 2654435769u) & (uint32_t)(m->cap - 1));
}

void *pidmap_get(const struct pidmap *m, pid_t key)
{
	size_t i;

	if (!m->cap || key <= 0)
		return NULL;
	for (i = slot_of(m, key); m->e[i].key; i = (i + 1) & (m->cap - 1))
		if (m->e[i].key == key)
			return m->e[i].val;
	return NULL;
}

static int pidmap_grow(struct pidmap *m)
{
	struct pidmap old = *m;
	size_t cap = m->cap ? 2 * m->cap : 64;

	m->e = calloc(cap, sizeof(*m->e));
	if (!m->e) {
		*m = old;
		return -1;
	}
	m->cap = cap;
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].key)
			pidmap_put(m, old.e[i].key, old.e[i].val);
	free(old.e);
	return 0;
}

int pidmap_put(struct pidmap *m, pid_t key, void *val)
{
	size_t i;

	if (key <= 0)
		return -1;
	/* at most half full: probes stay short */
	if (2 * (m->n + 1) > m->cap && pidmap_grow(m))
		return -1;
	for (i = slot_of(m, key); m->e[i].key; i = (i + 1) & (m->cap - 1)) {
		if (m->e[i].key == key) {
			m->e[i].val = val;
			return 0;
		}
	}
	m->e[i].key = key;
	m->e[i].val = val;
	m->n++;
	return 0;
}

void *pidmap_del(struct pidmap *m, pid_t key)
{
	size_t i, j, k;
	void *val;

	if (!m->cap || key <= 0)
		return NULL;
	for (i = slot_of(m, key); m->e[i].key != key; i = (i + 1) & (m->cap - 1))
		if (!m->e[i].key)
			return NULL;
	val = m->e[i].val;
	/* move back each later entry of the run that may sit in i's place */
	for (j = (i + 1) & (m->cap - 1); m->e[j].key; j = (j + 1) & (m->cap - 1)) {
		k = slot_of(m, m->e[j].key);
		if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
			m->e[i] = m->e[j];
			i = j;
		}
	}
	m->e[i].key = 0;
	m->e[i].val = NULL;
	m->n--;
	return val;
}

void pidmap_free(struct pidmap *m, void (*free_val)(void *))
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->e[i].key && free_val)
			free_val(m->e[i].val);
	free(m->e);
	m->e = NULL;
	m->cap = m->n = 0;
}
