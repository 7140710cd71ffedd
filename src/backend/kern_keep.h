/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kept programs, the library's side (common/keep.h): take a kept set of
 * BPF objects from the helper, or hand one to a new helper.
 */
#ifndef PTBPF_BACKEND_KERN_KEEP_H
#define PTBPF_BACKEND_KERN_KEEP_H

#include <stddef.h>
#include <stdint.h>

#include "common/keep.h"

/* Kernel rings over this in all are not kept, by default. */
#define KEEP_RINGS_MAX ((size_t)256 << 20)

/* FNV-1a of n bytes at p, continuing from h (start: KEEP_HASH_INIT). */
#define KEEP_HASH_INIT 0xcbf29ce484222325ull
uint64_t kern_keep__hash(uint64_t h, const void *p, size_t n);

/*
 * The set kept under key for this user: the number of fds put in fds
 * (maps, programs and rings, as *msg counts them; close-on-exec), or
 * -ENOENT (none kept), -EPERM (the socket's holder is another user),
 * -EPROTO (not a well-formed set).
 */
int kern_keep__take(uint64_t key, struct keep_msg *msg, int *fds, int max);

/*
 * Start a helper that holds these fds (copies) for ms milliseconds under
 * key; returns once it runs on its own. -ENOENT: no helper found.
 */
int kern_keep__give(uint64_t key, const struct keep_msg *msg, const int *fds, unsigned int ms);

#endif
