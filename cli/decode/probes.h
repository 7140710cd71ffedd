/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Probes of unmodified programs in the CLI: -e uprobe:/uretprobe:/usdt:,
 * `ptbpf list uprobe:PATH` and `usdt:PATH`, and their events' text.
 */
#ifndef PTBPF_CLI_PROBES_H
#define PTBPF_CLI_PROBES_H

#include <stdbool.h>
#include <sys/types.h>
#include <trace.h>

#include "util/util.h"

/* Does the -e token start a probe spec? */
bool probe_is_spec(const char *tok);
/* Is tok an argument type (a probe spec's TYPES go on past its commas)? */
bool probe_is_type(const char *tok);
/*
 * Before tracing: does the spec name a file and match at most
 * PTBPF_PROBE_MATCH_MAX symbols or probes (pid: the traced process, for
 * library names; 0: none)? 0, or -1 after saying what was not found.
 */
int probe_check(const char *spec, pid_t pid);
/* Add the probe to trid, its types to (add) or from sel; 0 or -1 (said). */
int probe_add(trace_id_t trid, const char *spec, trace_event_set_t *sel, int add);
/* ptbpf list uprobe:PATH[:PATTERN] | usdt:PATH[:...]: an exit code. */
int probe_list(const char *spec, int json);
/*
 * The text (true) or JSON fields (false) of a probe event of type name:
 * 0, or -1 when it is no probe event (or its payload is too short).
 */
int probe_fmt(struct sbuf *b, const char *name, const void *data, size_t len, bool text);

#endif
