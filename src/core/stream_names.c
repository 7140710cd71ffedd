/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The user event names of the traced processes in a stream's event type
 * table. "Each active trace stream shall have a mapping that incorporates
 * [...] all the mappings of trace event names to trace event type
 * identifiers of the processes that are being traced into that trace
 * stream": a name a traced process mapped is taken in when the stream
 * attaches to it and whenever the controller looks at the stream's names,
 * not only when an event of it is first drained.
 */
#include "core/stream_int.h"

void stream__uev_src_names(struct pt_stream *s, struct uev_src *u)
{
	char name[TRACE_EVENT_NAME_MAX];
	int i, n;
	uint32_t id;

	if (!u->c)
		return;
	n = uev_consumer__type_count(u->c);
	/* index 0 is the unnamed event, always in the table */
	for (i = 1; i < n && i < TRACE_USER_EVENT_MAX; i++) {
		if (u->map[i])
			continue;
		/* an entry still being written is taken at the next look */
		if (uev_consumer__type_name(u->c, PTBPF_EV_USER_BASE + i, name, sizeof(name)) ||
		    evtypes__lookup(&s->types, name, true, &id))
			continue;
		u->map[i] = id;
		uev_consumer__set_id_enabled(u->c, PTBPF_EV_USER_BASE + i, !filtered(s, id));
		if (s->log)
			stream_log__type(s->log, &s->types, id);
	}
}

void stream__uev_names(struct pt_stream *s)
{
	int k;

	for (k = 0; k < s->nuev; k++)
		stream__uev_src_names(s, &s->uev[k]);
}
