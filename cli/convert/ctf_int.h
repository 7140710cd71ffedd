/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf convert --to ctf: what its files share (the lanes, the writer's state). */
#ifndef PTBPF_CLI_CONVERT_CTF_INT_H
#define PTBPF_CLI_CONVERT_CTF_INT_H

#include <stdint.h>
#include <stdio.h>
#include <ptbpf/ptbpf.h>
#include <ptbpf/evfields.h>

#include "convert/convert.h"
#include "decode/decode.h"

#define CTF_MAGIC      0xC1FC1FC1u
#define CTF_PACKET_MAX (256 * 1024)

enum ctf_layout {
	L_GENERIC, /* uint32 len; uint8 data[len] */
	L_SYS_ENTER,
	L_SYS_EXIT,
	L_FIELDS, /* the event's description (<ptbpf/evfields.h>), walked by ctf_fields_walk */
};

static inline enum ctf_layout layout_of(trace_event_id_t id)
{
	const struct ptbpf_event_desc *d;

	if (PTBPF_EV_IS_SYSCALL(id))
		return PTBPF_EV_SYSCALL_IS_EXIT(id) ? L_SYS_EXIT : L_SYS_ENTER;
	d = ptbpf_event_desc(id);
	return d && d->nfields ? L_FIELDS : L_GENERIC;
}

/* One data stream (file) of stream class 0: its packet being made, its clock. */
struct ctf_lane {
	FILE *stream; /* the first's, open throughout; the others' opened per packet */
	unsigned char *pkt;
	size_t len;
	int64_t ts_begin, ts_end, last_ts;
	uint64_t discarded;
	uint64_t npackets;
};

struct ctf {
	struct ctf_lane *l; /* the one being written */
	struct ctf_lane *lanes;
	unsigned int nlanes;
	const char *dir;
	int werr;		/* the first error writing a packet (errno) */
	unsigned int werr_lane; /* its lane */
	uint64_t nevents;
	/* the event types seen: bitmap and names */
	unsigned char seen[PTBPF_EV_ID_LIMIT];
	char (*names)[TRACE_EVENT_NAME_MAX];
	struct pidmap calls; /* tid -> struct ctf_call: its syscall in progress */
	struct sbuf t;
};

/* A thread's syscall between its entry and its exit: the exit decodes with it. */
struct ctf_call {
	trace_event_id_t id; /* its entry's, 0: none */
	struct sbuf entry;
};

#define CTF_PKT_BUF (CTF_PACKET_MAX + 65536 + 4096)

/* ctf_write.c: the data streams */
void ctf_lane_path(char *path, size_t size, const char *dir, unsigned int i);
/* Closes l's packet, written out; 0 or -1 (c->werr says). */
int ctf_packet_close(struct ctf *c, struct ctf_lane *l);
/* A new lane whose clock starts at ts; 0 or -ENOMEM. */
int ctf_lane_add(struct ctf *c, int64_t ts);
void ctf_call_free(void *p);
/* Writes ev (its own timestamp) into a lane: 0, or -ENOMEM. */
int ctf_event(struct ctf *c, const struct cli_ev *ev, uint64_t lost_here);
/* The fields of description d: their values from data into the packet,
 * or (meta not NULL) their declarations into meta. */
void ctf_fields_walk(struct ctf *c, struct sbuf *meta, const struct ptbpf_event_desc *d,
		     const void *data, size_t len);
const char *ctf_int_type(const struct ptbpf_event_field *f);

/* ctf_meta.c: the metadata file of the trace written; 0 or -errno. */
int ctf_metadata(struct ctf *c, const char *dir, trace_id_t trid);

#endif
