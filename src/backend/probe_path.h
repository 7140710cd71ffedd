/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The file a probe's PATH names (see ptbpf_probe_resolve in <ptbpf/ptbpf.h>). */
#ifndef PTBPF_BACKEND_PROBE_PATH_H
#define PTBPF_BACKEND_PROBE_PATH_H

#include <stddef.h>
#include <sys/types.h>

/*
 * path with a '/': itself; else an executable of that name in $PATH, else
 * a shared library NAME.so* or libNAME.so* mapped by pid (pid > 0), else
 * one in the standard library directories. 0, -ENOENT, -ENAMETOOLONG.
 */
int probe_path__resolve(const char *path, pid_t pid, char *buf, size_t size);

#endif
