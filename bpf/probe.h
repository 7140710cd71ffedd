/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The BPF cookie of a probe attachment (bpf/probe.bpf.h reads it,
 * src/backend/probe.c sets it): the event id in the low 32 bits, the mask
 * of the arguments read as strings above.
 */
#ifndef PTBPF_BPF_PROBE_H
#define PTBPF_BPF_PROBE_H

#define PROBE_COOKIE(id, strs) ((__u64)(__u32)(id) | ((__u64)(strs) << 32))
#define PROBE_COOKIE_ID(c)     ((__u32)(c))
#define PROBE_COOKIE_STRS(c)   ((__u32)((c) >> 32) & 0xfffu)

#endif
