/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What BPF captures of each syscall's arguments (bpf/caps.bpf.h). */
#ifndef PTBPF_BACKEND_SYSCALL_CAPS_H
#define PTBPF_BACKEND_SYSCALL_CAPS_H

#include <stdint.h>
#include <linux/types.h>
#include <ptbpf/events.h>

#include "../../bpf/kern.h"

/*
 * Fill the capture table by syscall number, and when[nr] with the
 * KERN_CAP_ENTRY / KERN_CAP_EXIT of its rows and the first argument its
 * exit captures (KERN_CAP_WHEN_EXIT_ARG). Returns the rows set, or
 * -E2BIG for a syscall number past the table. (More than KERN_CAPS rows
 * for one syscall does not compile.)
 */
int syscall_caps__table(struct kern_cap_spec specs[PTBPF_SYSCALL_NR_MAX][KERN_CAPS],
			uint8_t when[PTBPF_SYSCALL_NR_MAX]);

#endif
