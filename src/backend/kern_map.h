/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The proc_map and fd_info records of the kernel side, made public payloads. */
#ifndef PTBPF_BACKEND_KERN_MAP_H
#define PTBPF_BACKEND_KERN_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <ptbpf/events.h>

/*
 * The kernel side writes a path as its names from the file's up to the
 * root, each ended by '/' (BPF cannot write backwards): the path in order
 * ("/usr/lib/x") of the names in the len bytes at rev, into out (cap
 * bytes, NUL included; cut at the root's side): its length with the NUL.
 * No names: "/" if root, else "".
 */
size_t kern_map__path(const char *rev, size_t len, char *out, size_t cap, int root);

/*
 * Copy the proc_map record of len bytes at rec into *m with the path in
 * order. The payload's length, or 0 for a record that is not one.
 */
uint32_t kern_map__expand(const void *rec, size_t len, struct ptbpf_ev_proc_map *m);

/* The same for an fd_info record (its path in order if a PTBPF_FD_FILE). */
uint32_t kern_map__expand_fd(const void *rec, size_t len, struct ptbpf_ev_fd_info *fi);

#endif
