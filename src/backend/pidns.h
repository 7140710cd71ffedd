/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracer's pid namespace. BPF programs see the host's ids; a caller in
 * a pid namespace gives and reads its own. In the initial namespace there
 * is nothing to translate (pidns__open gives NULL); in another, the kernel
 * backend's programs write the namespace's ids (pidns__level/inum for
 * their settings) and the ids a caller gives are made the host's here,
 * from a BPF task iterator created in the namespace, which sees only its
 * tasks: a process without an id there can never be named.
 */
#ifndef PTBPF_BACKEND_PIDNS_H
#define PTBPF_BACKEND_PIDNS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct pidns;

/* *out: NULL in the initial pid namespace. -errno (-ENOENT: no /proc). */
int pidns__open(struct pidns **out);
void pidns__free(struct pidns *ns);

uint32_t pidns__level(const struct pidns *ns);
uint32_t pidns__inum(const struct pidns *ns);
uint64_t pidns__dev(const struct pidns *ns);

/*
 * The host's id of the process (thread false) or thread id of the
 * namespace: 0, or -ESRCH when it has none (gone, or not in it).
 */
int pidns__to_host(struct pidns *ns, pid_t id, bool thread, pid_t *host);

/* The namespace's id of the host's process id host (as last seen). */
int pidns__from_host(struct pidns *ns, pid_t host, pid_t *id);

#endif
