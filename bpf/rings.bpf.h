/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * The map of ring buffers the programs write to, one per CPU (or one
 * shared): user space creates the rings, all of one size, and this map,
 * whose max_entries it sets. No __array(values): libbpf 1.1 cannot resize
 * a declared inner map; user space gives a ring of the right size as the
 * template, or the whole map by its fd.
 */
#ifndef PTBPF_BPF_RINGS_BPF_H
#define PTBPF_BPF_RINGS_BPF_H

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} rings SEC(".maps");

#endif
