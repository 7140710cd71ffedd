/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: events as the subcommands read them, from a stream or a log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "decode/decode.h"
#include "decode/abi.h"

/*
 * Event names by id, with the syscall's decoding, for the one stream or
 * log a ptbpf command reads: looked up once per id, not per event.
 */
struct name_entry {
	char name[TRACE_EVENT_NAME_MAX];
	uint8_t sys_off;
	const struct sysdesc *desc;
};
static struct name_entry *name_cache;
static trace_id_t name_cache_trid;
static int name_cache_arch = -1; /* not known yet */

/* The SC_ARCH_* of trid's events (the build's if it cannot be told), and
 * the decoders' ABI set to it. */
static int cli_trace_arch(trace_id_t trid)
{
	unsigned int machine = 0;
	trace_attr_t attr;
	int arch;

	if (!posix_trace_get_attr(trid, &attr)) {
		ptbpf_trace_attr_getarch(&attr, &machine);
		posix_trace_attr_destroy(&attr);
	}
	arch = dec_abi_arch_of(machine);
	if (arch < 0)
		arch = SC_ARCH_NATIVE;
	decode_set_abi(dec_abi(arch));
	return arch;
}

static void cli_ev_name(trace_id_t trid, struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	struct name_entry *e = NULL;
	char *n;

	if (!name_cache)
		name_cache = calloc(PTBPF_EV_ID_LIMIT, sizeof(*name_cache));
	if (name_cache_arch < 0 || name_cache_trid != trid) {
		if (name_cache)
			memset(name_cache, 0, PTBPF_EV_ID_LIMIT * sizeof(*name_cache));
		name_cache_trid = trid;
		name_cache_arch = cli_trace_arch(trid);
	}
	ev->arch = (uint8_t)name_cache_arch;
	if (name_cache && id < PTBPF_EV_ID_LIMIT)
		e = &name_cache[id];
	if (e && e->name[0]) {
		/* a pointer: the cache keeps the names for the whole command */
		ev->name = e->name;
		ev->sys_off = e->sys_off;
		ev->desc = e->desc;
		return;
	}
	n = e ? e->name : ev->name_buf;
	if (posix_trace_eventid_get_name(trid, id, n))
		snprintf(n, TRACE_EVENT_NAME_MAX, "event_%lu", (unsigned long)id);
	ev->name = n;
	ev->sys_off = (uint8_t)sys_name_offset(ev->name);
	ev->desc = ev->sys_off ? sys_desc(ev->name + ev->sys_off) : NULL;
	if (e) {
		e->sys_off = ev->sys_off;
		e->desc = ev->desc;
	}
}

void cli_ev_complete(trace_id_t trid, struct cli_ev *ev)
{
	cli_ev_name(trid, ev);
	ev->tid = 0;
	ptbpf_trace_last_tid(trid, &ev->tid);
}

void cli_ev_from(trace_id_t trid, struct cli_ev *ev, const struct ptbpf_event *e)
{
	ev->info = e->info;
	ev->tid = e->tid;
	ev->data = e->data;
	ev->len = e->data_len;
	cli_ev_name(trid, ev);
}

int cli_ev_next(trace_id_t trid, struct cli_ev *ev, void *buf, size_t bufsz, int *unavail)
{
	size_t len = 0;
	int err;

	err = posix_trace_getnext_event(trid, &ev->info, buf, bufsz, &len, unavail);
	if (err || *unavail)
		return err;
	ev->data = buf;
	ev->len = len;
	cli_ev_complete(trid, ev);
	return 0;
}
