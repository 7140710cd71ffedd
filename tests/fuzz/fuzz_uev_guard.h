/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Guard pages around the consumer's mappings of a user-event region, for
 * the fuzz target: the target is linked with --wrap=mmap,--wrap=munmap,
 * and every mapping of the watched memfd made after guard__watch() is put
 * between two large PROT_NONE areas, so that a read past either end of
 * the control area or of the ring faults instead of landing in whatever
 * mapping happens to be next.
 */
#ifndef PTBPF_FUZZ_UEV_GUARD_H
#define PTBPF_FUZZ_UEV_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Guard the mappings of the file fd refers to, from now on. */
void guard__watch(int fd);
void guard__unwatch(void);

/* The live guarded mapping of a non-zero file offset (the ring): 0, or -ENOENT. */
int guard__ring(uint8_t **base, size_t *len, off_t *off);

/* Guarded mappings not unmapped yet. */
unsigned int guard__live(void);

/*
 * A payload the consumer hands out: false if it starts in a guarded
 * mapping and does not lie within one sub-ring (sub bytes) of the ring,
 * or lies in the control area. Elsewhere (a private copy): true.
 */
bool guard__payload_ok(const void *p, size_t len, size_t sub);

#endif
