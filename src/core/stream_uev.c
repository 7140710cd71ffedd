/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A stream's user-event sources: the regions of the traced processes,
 * attached, looked for again after an exec (for a while, less and less
 * often), given up. Drains (stream_merge.c) take their events.
 */
#include <errno.h>
#include <string.h>

#include "core/stream_int.h"

/*
 * A process the tracer may no longer see (a secure exec): its new image's
 * region is never looked for. The old region stays attached: the children
 * that share it may still write into it, the process itself no more.
 */
void stream__uev_untraced(struct pt_stream *s, pid_t pid)
{
	int i;

	for (i = 0; i < s->nuev; i++)
		if (s->uev[i].pid == pid)
			s->uev[i].retry_until = 0;
}

/*
 * Attach to u's region; 0, or the consumer's error: -EBUSY when the region
 * has no free slot (a process traced by UEV_NSLOTS streams at once), which
 * is not worth trying again: the drain says so with POSIX_TRACE_ERROR
 * (EBUSY), since none of u's user events can reach the stream.
 */
static int stream__uev_attach(struct pt_stream *s, struct uev_src *u, bool creating)
{
	struct uev_opts o = {
		/* like the kernel ring: twice the stream (the transport clamps it) */
		.ring_bytes =
			2 * s->attr.stream_size < (1u << 20) ? (1u << 20) : 2 * s->attr.stream_size,
		.max_data_size = s->attr.max_data_size,
		.inherit = s->attr.inherit == POSIX_TRACE_INHERITED,
		.prefault_async = creating,
	};
	int err;

	err = uev_consumer__attach(&u->c, u->pid, &o);
	if (err) {
		u->c = NULL;
		if (err == -EBUSY) {
			u->retry_until = 0;
			if (s->nrefused < MAX_UEV_SOURCES)
				s->refused[s->nrefused++] = u->pid;
		}
		return err;
	}
	memset(u->map, 0, sizeof(u->map));
	u->retry_until = 0;
	uev_consumer__set_enabled(u->c, s->status == POSIX_TRACE_RUNNING);
	stream__uev_src_names(s, u);
	return 0;
}

uint64_t uev_src__retry_gap(struct uev_src *u, uint64_t now)
{
	uint64_t since = now - (u->retry_until - UEV_RETRY_NS);

	if (since < UEV_RETRY_FAST_NS)
		return UEV_RETRY_EVERY_NS;
	if (u->retry_gap < UEV_RETRY_GAP_MAX_NS)
		u->retry_gap *= 2;
	return u->retry_gap;
}

int stream__uev_add(struct pt_stream *s, pid_t pid, bool creating)
{
	struct uev_src *u = NULL;
	int i;

	for (i = 0; i < s->nuev; i++) {
		if (s->uev[i].pid == pid) {
			u = &s->uev[i];
			break;
		}
	}
	/* reuse the entry of a process that never had a region */
	for (i = 0; !u && i < s->nuev; i++)
		if (!s->uev[i].c && !s->uev[i].retry_until)
			u = &s->uev[i];
	if (!u) {
		if (s->nuev == MAX_UEV_SOURCES)
			return 0;
		u = &s->uev[s->nuev++];
	}
	if (u->pid != pid) {
		memset(u, 0, sizeof(*u));
		u->pid = pid;
	}
	if (u->c) {
		uev_consumer__detach(u->c);
		u->c = NULL;
	}
	u->retry_until = clock__mono_ns() + UEV_RETRY_NS;
	u->next_try = 0;
	u->retry_gap = UEV_RETRY_EVERY_NS;
	u->hold_until = 0;
	return stream__uev_attach(s, u, creating);
}

void stream__uev_exec(struct pt_stream *s, pid_t pid)
{
	int i;

	if (!stream__uev_add(s, pid, false))
		return;
	/* its first user events may be written before its region is found */
	for (i = 0; i < s->nuev; i++) {
		struct uev_src *u = &s->uev[i];

		if (u->pid == pid && !u->c && u->retry_until) {
			u->hold_until = u->retry_until - UEV_RETRY_NS + UEV_ATTACH_HOLD_NS;
			u->hold_ts = s->release_ts;
		}
	}
}

bool stream__uev_retry(struct pt_stream *s, struct uev_src *u, uint64_t *now)
{
	if (!u->retry_until)
		return false;
	if (!*now)
		*now = clock__mono_ns();
	if (*now > u->retry_until) {
		u->retry_until = 0;
		return false;
	}
	if (*now < u->next_try)
		return false;
	u->next_try = *now + uev_src__retry_gap(u, *now);
	stream__uev_attach(s, u, false);
	return u->c != NULL;
}
