/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The proc_map records of the kernel side, made public payloads. */
#ifndef PTBPF_BACKEND_KERN_MAP_H
#define PTBPF_BACKEND_KERN_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <ptbpf/events.h>

/*
 * The kernel side writes a proc_map's path as its names from the file's
 * up to the root, each ended by '/' (BPF cannot write backwards): copy
 * the len bytes at rec into *m with the path in order ("/usr/lib/x").
 * The payload's length, or 0 for a record that is not one.
 */
uint32_t kern_map__expand(const void *rec, size_t len, struct ptbpf_ev_proc_map *m);

#endif
