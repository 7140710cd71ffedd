/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Probes of unmodified programs: what a spec matches, and adding them to a stream. */
#ifndef PTBPF_CORE_PROBES_H
#define PTBPF_CORE_PROBES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <ptbpf/ptbpf.h>

struct pt_stream;

/* See ptbpf_probe_resolve(). */
int probes__resolve(const char *path, pid_t pid, char *buf, size_t size);
/* See ptbpf_probe_list(): 0, what fn returned, or a negative errno. */
int probes__list(const char *spec, pid_t pid, ptbpf_probe_list_fn fn, void *ctx);
/* See ptbpf_trace_add_probe(): 0 or a negative errno. */
int stream__add_probe(struct pt_stream *s, const char *spec, uint32_t *ids, size_t max,
		      size_t *count);

#endif
