/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Probe specs: their parser, and the names of their event types. */
#ifndef PTBPF_CORE_PROBE_SPEC_H
#define PTBPF_CORE_PROBE_SPEC_H

#include <stdint.h>
#include <ptbpf/ptbpf.h>

/* See ptbpf_probe_parse(): 0 or -EINVAL. */
int probe_spec__parse(const char *spec, struct ptbpf_probe_spec *p);
/*
 * The event type name of p's match (a symbol, or a USDT probe of provider
 * prov and name match) into buf (TRACE_EVENT_NAME_MAX bytes): 0 or
 * -ENAMETOOLONG.
 */
int probe_spec__type_name(const struct ptbpf_probe_spec *p, const char *prov, const char *match,
			  char *buf);
/* The arguments p reads as strings: bit i for argument i. */
uint32_t probe_spec__str_mask(const struct ptbpf_probe_spec *p);

#endif
