/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf convert --to perfetto: the protobuf wire encoder and the interning table. */
#ifndef PTBPF_CLI_CONVERT_PERFETTO_INT_H
#define PTBPF_CLI_CONVERT_PERFETTO_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <ptbpf/ptbpf.h>

#include "convert/convert.h"

/* the field numbers and enum values written, from the one table */
/* the sequence's own clock (ids 64-127 are sequence-scoped), incremental */
#define PF_CLOCK_SEQ 64

enum pf_field {
#define PF(id, msg, name, num, wire) id = num,
#define PE(id, en, name, val)	     id = val,
#include "convert/perfetto_fields.def"
#undef PF
#undef PE
};

/* perfetto_pb.c: fields appended to b (nothing once b failed) */
void pb_uint(struct sbuf *b, unsigned int field, uint64_t v);
/* an int64 as protobuf's varint, two's complement (10 bytes when below 0) */
static inline void pb_int(struct sbuf *b, unsigned int field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}
void pb_fixed64(struct sbuf *b, unsigned int field, uint64_t v);
void pb_bytes(struct sbuf *b, unsigned int field, const void *p, size_t n);
void pb_str(struct sbuf *b, unsigned int field, const char *s);
/* A message field: opened (its length to come), the offset pb_close needs. */
size_t pb_open(struct sbuf *b, unsigned int field);
void pb_close(struct sbuf *b, size_t at);
/* The varint of v at p (10 bytes at most); how many bytes. */
size_t pb_varint(uint8_t *p, uint64_t v);

/*
 * perfetto_intern.c: the names interned on the packet sequence, event
 * names and debug annotation names each numbered from 1. At most cap
 * names: past it, the caller clears the sequence's incremental state and
 * the table (pf_intern_reset).
 */
enum { PF_NS_EVENT, PF_NS_ANNOTATION };
struct pf_intern;
struct pf_intern *pf_intern_new(size_t cap);
void pf_intern_free(struct pf_intern *t);
int pf_intern_full(const struct pf_intern *t);
void pf_intern_reset(struct pf_intern *t);
/* The iid of name in namespace ns; a name new to the table is added to
 * the InternedData being built in idata (its entry written there). 0: out
 * of memory. */
uint64_t pf_intern(struct pf_intern *t, int ns, const char *name, size_t n, struct sbuf *idata);

#endif

/*
 * perfetto_track.c: the writer's state, its packets and its tracks. A
 * packet is built in pkt (with the names it interns in idata) between
 * pf_begin and pf_end, which appends it to the file.
 */
#define PF_NAME_MAX 128

struct pf_thread {
	pid_t tid, pid;
	uint64_t flow_in; /* the flow of its fork, ending at its first slice; 0: none */
	struct conv_call call;
	char name[PF_NAME_MAX];
};

struct pf_proc {
	pid_t pid;
	char name[PF_NAME_MAX];
};

struct pf {
	FILE *out;
	struct sbuf pkt, idata, tmp, tmp2, esc;
	struct pf_intern *names;
	struct pidmap threads, procs;
	uint64_t next_flow, lost;
	int64_t last_ts; /* the newest packet's */
	int64_t inc_ts;	 /* the sequence's clock: the time of the last packet on it */
	int started, have_lost_track, have_global_track;
	int failed; /* out of memory: the output is incomplete */
};

/* Track uuids: a thread's is its tid (the most used: the shortest varint),
 * the others above any tid. */
enum { PF_UUID_THREAD, PF_UUID_PROC, PF_UUID_LOST, PF_UUID_GLOBAL };
static inline uint64_t pf_uuid(int kind, pid_t id)
{
	return (uint64_t)kind << 32 | (uint32_t)id;
}

int pf_init(struct pf *p, FILE *out);
void pf_fini(struct pf *p);
/* A packet at ts (below 0: none) on the sequence, using its interned names. */
void pf_begin(struct pf *p, int64_t ts);
void pf_end(struct pf *p);
/* The iid of a name interned in the packet being built. */
uint64_t pf_name(struct pf *p, int ns, const char *s, size_t n);
/* tid's thread (tid 0: pid's main thread), its tracks described if new;
 * NULL: no memory. named: with its name (a path: its last part),
 * described again if it changed. */
struct pf_thread *pf_thread(struct pf *p, pid_t pid, pid_t tid, int64_t ts);
struct pf_thread *pf_thread_named(struct pf *p, pid_t pid, pid_t tid, int64_t ts, const char *name,
				  size_t n);
/* The name of a process, as a thread's. */
void pf_name_proc(struct pf *p, pid_t pid, const char *name, size_t n, int64_t ts);
/* The track of the events of no process; the counter track of lost events. */
uint64_t pf_global_track(struct pf *p, int64_t ts);
uint64_t pf_lost_track(struct pf *p, int64_t ts);
