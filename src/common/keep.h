/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kept programs, what the library and its helper (ptbpf-keep) share. When
 * a stream that asked for it ends, its loaded BPF objects (maps, programs,
 * rings) go to the helper, which holds them for a while on an abstract
 * socket named after their user and settings; the next stream of the same
 * user and settings takes them there and skips the load, the verifier's
 * tens of milliseconds.
 */
#ifndef PTBPF_COMMON_KEEP_H
#define PTBPF_COMMON_KEEP_H

#include <bpf/bpf.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#define KEEP_HELPER  "ptbpf-keep"
#define KEEP_MAGIC   0x6b656570u /* "keep" */
#define KEEP_MAX_FDS 250	 /* one message: under SCM_MAX_FD (253) */
#define KEEP_MAX_MS  600000u	 /* ten minutes */

/* The one message the helper sends, with the fds: maps, programs, rings. */
struct keep_msg {
	uint32_t magic;
	uint32_t nmaps;
	uint32_t nprogs;
	uint32_t nrings;
};

/* The helper's abstract socket address for (uid, key); its length. */
static inline socklen_t keep__addr(struct sockaddr_un *sa, uid_t uid, uint64_t key)
{
	int n;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "ptbpf-keep/%u/%016" PRIx64,
		     (unsigned int)uid, key);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

/*
 * Empty a map fd of a hash type (what the programs keep by pid or tid: a
 * kept set must not carry one stream's processes into the next); other
 * types are left as they are. Bounded, should entries come back.
 */
static inline void keep__clear_map(int fd)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	unsigned char key[64];

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) || info.key_size > sizeof(key))
		return;
	if (info.type != BPF_MAP_TYPE_HASH && info.type != BPF_MAP_TYPE_LRU_HASH &&
	    info.type != BPF_MAP_TYPE_PERCPU_HASH && info.type != BPF_MAP_TYPE_LRU_PERCPU_HASH)
		return;
	for (uint64_t n = 0; n <= 2 * (uint64_t)info.max_entries; n++)
		if (bpf_map_get_next_key(fd, NULL, key) || bpf_map_delete_elem(fd, key))
			break;
}

#endif
