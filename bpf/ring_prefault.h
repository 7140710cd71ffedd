/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ring prefault programs (bpf/ring_prefault.bpf.c, run by
 * src/backend/ring_prefault.c): the sizes of their records, each with its
 * 8-byte header, and how many one run reserves at most.
 */
#ifndef PTBPF_BPF_RING_PREFAULT_H
#define PTBPF_BPF_RING_PREFAULT_H

#define RING_PREFAULT_PAGE  4096       /* a record a page: each page written */
#define RING_PREFAULT_SKIP  (1u << 20) /* a record a MiB: the lap ends sooner */
#define RING_PREFAULT_BATCH 64

#endif
