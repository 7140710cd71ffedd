/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared helpers for the integration tests (real BPF, real processes). */
#ifndef PTBPF_ITEST_H
#define PTBPF_ITEST_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Exit status of a test that cannot run here (no BPF, not root). ctest
 * shows it as skipped. With CI=true in the environment, itest_require_bpf()
 * fails instead: CI has BPF and a skip there would hide breakage.
 */
#define ITEST_SKIP 77

/* Skip (or fail in CI) unless this process can load and attach BPF. */
void itest_require_bpf(void);

/* Path of a helper program built from tests/progs/NAME.c (in the build
 * tree, or in $PTBPF_PROGS_DIR when set). */
const char *itest_prog(const char *name);

/* The id of this process's thread named name (the library names its
 * threads ptbpf-drainer and ptbpf-flusher), 0 if none; waits up to 2 s
 * for it to appear. */
pid_t itest_thread(const char *name);

#endif
