/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Probes of unmodified programs attached to the kernel backend's programs
 * of bpf/probe.bpf.h: each attachment's BPF cookie carries its event id.
 */
#ifndef PTBPF_BACKEND_PROBE_H
#define PTBPF_BACKEND_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kern_bpf;
struct bpf_link;

/* One probe to attach. */
struct probe_target {
	int kind;	       /* PTBPF_PROBE_* */
	const char *path;      /* the file */
	const char *symbol;    /* uprobe, uretprobe */
	unsigned long offset;  /* into the symbol */
	const char *provider;  /* usdt */
	const char *usdt_name; /* usdt */
	uint32_t id;	       /* its event id */
	uint32_t str_mask;     /* arguments read as strings */
	pid_t pid;	       /* the process it fires in, -1: every one that maps path */
};

/* The links of a backend's probes, and the targets to attach to a process added later. */
struct probe_links {
	struct bpf_link **links;
	uint32_t *ids;
	size_t n, cap;
	struct probe_target *saved; /* strings owned */
	size_t nsaved;
};

/* Does the kernel give BPF cookies to uprobes (5.15+)? */
bool probe__supported(void);
/* Before the skeleton loads: the probe programs only where they can be. */
void probe__set_autoload(struct kern_bpf *skel);
/* Attach t: 0, -EOPNOTSUPP (no cookies), or what libbpf gave. */
int probe__attach(struct kern_bpf *skel, struct probe_links *pl, const struct probe_target *t);
/* Keep a copy of t, to attach to the processes added later (probe__attach_pid). */
int probe__save(struct probe_links *pl, const struct probe_target *t);
/* Attach every saved target in process pid. */
int probe__attach_pid(struct kern_bpf *skel, struct probe_links *pl, pid_t pid);
/* Is a probe of event id attached? */
bool probe__has(const struct probe_links *pl, uint32_t id);
/* Detach every probe. */
void probe__detach_all(struct probe_links *pl);

#endif
