/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The BPF cookie of a probe attachment (bpf/probe.bpf.h reads it,
 * src/backend/probe.c sets it): the event id in the low 32 bits, then the
 * number of arguments read as strings (0-4, 3 bits) and from bit 36 their
 * indexes, 4 bits each (a list, not a mask: the program's loop then has 4
 * turns for the verifier, not 12).
 */
#ifndef PTBPF_BPF_PROBE_H
#define PTBPF_BPF_PROBE_H

#define PROBE_COOKIE_ID(c)	   ((__u32)(c))
#define PROBE_COOKIE_NSTRS(c)	   ((__u32)((c) >> 32) & 0x7u)
#define PROBE_COOKIE_STR_ARG(c, i) ((__u32)((c) >> (36 + 4 * (i))) & 0xfu)

#endif
