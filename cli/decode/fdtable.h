/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -y and -yy: what each fd of each traced process refers to, kept from the
 * stream's fd_info events (and its fork, exec and exit events), printed
 * after fd arguments and results as strace -y / -yy prints them.
 */
#ifndef PTBPF_CLI_FDTABLE_H
#define PTBPF_CLI_FDTABLE_H

#include <stdint.h>
#include <trace.h>

#include "util/util.h"

struct cli_ev;

/* 0: off (the default), 1: -y (paths), 2: -yy (and socket endpoints, devices) */
void fdtable_enable(int level);
int fdtable_level(void);
/* Adds to set the events the tables are kept from. */
void fdtable_need(trace_event_set_t *set);
/*
 * Every event, before it is printed: keeps the tables, and the process
 * whose fds the decoding of this event names. 1 for an fd_info event,
 * which is no line of its own.
 */
int fdtable_event(const struct cli_ev *ev);
/* After fd argument fd (dirfd: AT_FDCWD is one, the working directory):
 * "<path>" if known. */
void fdtable_arg(struct sbuf *b, int fd, int dirfd);
/* After syscall sys's result " = ret": "<path>" for one that returns an fd
 * (is_fd: sys_result_is_fd(sys), which the decoder knows; fcntl's by its
 * command). */
void fdtable_ret(struct sbuf *b, const char *sys, int64_t ret, int is_fd);
void fdtable_free(void);

#endif
