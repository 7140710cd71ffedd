/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The build-id of a proc_map's file, read from its ELF note. */
#ifndef PTBPF_BACKEND_MAP_BUILD_ID_H
#define PTBPF_BACKEND_MAP_BUILD_ID_H

#include <stdint.h>
#include <ptbpf/events.h>

/*
 * Append the GNU build-id of m's file to m->path (after its NUL) and set
 * m->build_id_len, if the file at m->path is still the one mapped (its
 * dev and inode) and has one. The payload's new length (offsetof path +
 * path_len + build_id_len).
 */
uint32_t map__add_build_id(struct ptbpf_ev_proc_map *m);

#endif
