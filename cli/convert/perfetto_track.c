/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf convert --to perfetto: its packets, each appended to the file as
 * soon as it is made, on one sequence whose incremental state (interned
 * names, packet defaults) is cleared when the name table is full; and its
 * tracks: a process track and a thread track for each, by descriptor.
 */
#include <stdlib.h>
#include <string.h>

#include "convert/perfetto_int.h"

#define PF_SEQ	      1	   /* trusted_packet_sequence_id: the one sequence */
#define PF_INTERN_CAP 4096 /* names interned before the state is cleared */

int pf_init(struct pf *p, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->names = pf_intern_new(PF_INTERN_CAP);
	return p->names ? 0 : -1;
}

static void thread_free(void *v)
{
	struct pf_thread *t = v;

	conv_call_free(&t->call);
	free(t);
}

void pf_fini(struct pf *p)
{
	pidmap_free(&p->threads, thread_free);
	pidmap_free(&p->procs, free);
	pf_intern_free(p->names);
	sb_free(&p->pkt);
	sb_free(&p->idata);
	sb_free(&p->tmp);
	sb_free(&p->esc);
	sb_free(&p->tmp2);
}

/* A packet that clears the sequence's state and sets its defaults: the
 * timestamps' clock, the sequence's incremental one. */
static void pf_clear(struct pf *p)
{
	size_t at;

	sb_reset(&p->pkt);
	sb_reset(&p->idata);
	pb_uint(&p->pkt, PF_PKT_SEQ_ID, PF_SEQ);
	pb_uint(&p->pkt, PF_PKT_SEQ_FLAGS, PF_SEQ_CLEARED);
	at = pb_open(&p->pkt, PF_PKT_DEFAULTS);
	pb_uint(&p->pkt, PF_DEF_CLOCK_ID, PF_CLOCK_SEQ);
	pb_close(&p->pkt, at);
	pf_end(p);
}

/* A clock of the snapshot: id, its value (CLOCK_REALTIME's, the log's). */
static void snapshot_clock(struct pf *p, unsigned int id, int64_t ts, int incremental)
{
	size_t at = pb_open(&p->pkt, PF_CLK_CLOCKS);

	pb_uint(&p->pkt, PF_CLOCK_ID, id);
	pb_uint(&p->pkt, PF_CLOCK_TS, (uint64_t)ts);
	if (incremental)
		pb_uint(&p->pkt, PF_CLOCK_INCREMENTAL, 1);
	pb_close(&p->pkt, at);
}

/*
 * The packet that says how timestamps read: the trace's clock is
 * CLOCK_REALTIME (the log's time base), and the sequence's clock counts
 * from ts in ns, each packet's timestamp the time since the previous one.
 */
static void pf_snapshot(struct pf *p, int64_t ts)
{
	size_t at;

	sb_reset(&p->pkt);
	sb_reset(&p->idata);
	pb_uint(&p->pkt, PF_PKT_SEQ_ID, PF_SEQ);
	at = pb_open(&p->pkt, PF_PKT_CLOCK_SNAPSHOT);
	snapshot_clock(p, PF_CLOCK_REALTIME, ts, 0);
	snapshot_clock(p, PF_CLOCK_SEQ, ts, 1);
	pb_uint(&p->pkt, PF_CLK_PRIMARY, PF_CLOCK_REALTIME);
	pb_close(&p->pkt, at);
	pf_end(p);
	p->inc_ts = ts;
}

/*
 * A timestamp: the time since the packet before on the sequence's clock
 * (a few bytes), or, older than that one (an entry written at its exit, an
 * event that came late), the time itself on CLOCK_REALTIME.
 */
static void pf_timestamp(struct pf *p, int64_t ts)
{
	if (ts >= p->inc_ts) {
		pb_uint(&p->pkt, PF_PKT_TIMESTAMP, (uint64_t)(ts - p->inc_ts));
		p->inc_ts = ts;
	} else {
		pb_uint(&p->pkt, PF_PKT_TIMESTAMP, (uint64_t)ts);
		pb_uint(&p->pkt, PF_PKT_CLOCK_ID, PF_CLOCK_REALTIME);
	}
	if (ts > p->last_ts)
		p->last_ts = ts;
}

void pf_begin(struct pf *p, int64_t ts)
{
	if (pf_intern_full(p->names) || !p->started) {
		pf_intern_reset(p->names);
		pf_clear(p);
		pf_snapshot(p, p->started ? p->inc_ts : ts > 0 ? ts : 0);
		p->started = 1;
	}
	sb_reset(&p->pkt);
	sb_reset(&p->idata);
	if (ts >= 0)
		pf_timestamp(p, ts);
	pb_uint(&p->pkt, PF_PKT_SEQ_ID, PF_SEQ);
	pb_uint(&p->pkt, PF_PKT_SEQ_FLAGS, PF_SEQ_NEEDS);
}

/* Trace.packet: tag, length, then the packet, appended to the file. */
void pf_end(struct pf *p)
{
	uint8_t head[11];
	size_t n;

	if (p->idata.len)
		pb_bytes(&p->pkt, PF_PKT_INTERNED, p->idata.s, p->idata.len);
	if (p->pkt.failed || p->idata.failed) {
		p->failed = 1;
		return;
	}
	head[0] = PF_TRACE_PACKET << 3 | 2;
	n = 1 + pb_varint(head + 1, p->pkt.len);
	fwrite(head, 1, n, p->out);
	fwrite(p->pkt.s, 1, p->pkt.len, p->out);
}

uint64_t pf_name(struct pf *p, int ns, const char *s, size_t n)
{
	uint64_t iid = pf_intern(p->names, ns, s, n, &p->idata);

	if (!iid)
		p->failed = 1;
	return iid;
}

static void describe_proc(struct pf *p, const struct pf_proc *pr, int64_t ts)
{
	size_t td, pd;

	pf_begin(p, ts);
	td = pb_open(&p->pkt, PF_PKT_TRACK_DESC);
	pb_uint(&p->pkt, PF_TD_UUID, pf_uuid(PF_UUID_PROC, pr->pid));
	pd = pb_open(&p->pkt, PF_TD_PROCESS);
	pb_uint(&p->pkt, PF_PD_PID, (uint32_t)pr->pid);
	pb_str(&p->pkt, PF_PD_NAME, pr->name);
	pb_close(&p->pkt, pd);
	pb_close(&p->pkt, td);
	pf_end(p);
}

static void describe_thread(struct pf *p, const struct pf_thread *t, int64_t ts)
{
	size_t td, thd;

	pf_begin(p, ts);
	td = pb_open(&p->pkt, PF_PKT_TRACK_DESC);
	pb_uint(&p->pkt, PF_TD_UUID, pf_uuid(PF_UUID_THREAD, t->tid));
	pb_uint(&p->pkt, PF_TD_PARENT, pf_uuid(PF_UUID_PROC, t->pid));
	thd = pb_open(&p->pkt, PF_TD_THREAD);
	pb_uint(&p->pkt, PF_THD_PID, (uint32_t)t->pid);
	pb_uint(&p->pkt, PF_THD_TID, (uint32_t)t->tid);
	if (t->name[0])
		pb_str(&p->pkt, PF_THD_NAME, t->name);
	pb_close(&p->pkt, thd);
	pb_close(&p->pkt, td);
	pf_end(p);
}

/* name (a path: its last part) into dst; nonzero if it changed */
static int set_name(char *dst, const char *name, size_t n)
{
	const char *slash;

	n = strnlen(name, n);
	slash = memrchr(name, '/', n);
	if (slash) {
		n -= slash + 1 - name;
		name = slash + 1;
	}
	if (n >= PF_NAME_MAX)
		n = PF_NAME_MAX - 1;
	if (!strncmp(dst, name, n) && !dst[n])
		return 0;
	memcpy(dst, name, n);
	dst[n] = '\0';
	return 1;
}

/* pid's process, described if new or renamed (name NULL: none given, its
 * pid for a new one). */
static struct pf_proc *proc_of(struct pf *p, pid_t pid, int64_t ts, const char *name, size_t n)
{
	struct pf_proc *pr = pidmap_get(&p->procs, pid);
	char num[16];

	if (!pr) {
		pr = calloc(1, sizeof(*pr));
		if (!pr || pidmap_put(&p->procs, pid, pr)) {
			free(pr);
			p->failed = 1;
			return NULL;
		}
		pr->pid = pid;
		if (!name) {
			n = (size_t)snprintf(num, sizeof(num), "%d", (int)pid);
			name = num;
		}
		set_name(pr->name, name, n);
		describe_proc(p, pr, ts);
	} else if (name && set_name(pr->name, name, n)) {
		describe_proc(p, pr, ts);
	}
	return pr;
}

struct pf_thread *pf_thread_named(struct pf *p, pid_t pid, pid_t tid, int64_t ts, const char *name,
				  size_t n)
{
	struct pf_thread *t;

	if (!tid)
		tid = pid;
	t = pidmap_get(&p->threads, tid);
	if (t && t->pid == pid) {
		if (name && set_name(t->name, name, n))
			describe_thread(p, t, ts);
		return t;
	}
	if (!proc_of(p, pid, ts, NULL, 0))
		return NULL;
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t || pidmap_put(&p->threads, tid, t)) {
			free(t);
			p->failed = 1;
			return NULL;
		}
	}
	/* a thread id seen in another process: reused, a thread of its own */
	t->tid = tid;
	t->pid = pid;
	t->flow_in = 0;
	t->name[0] = '\0';
	if (name)
		set_name(t->name, name, n);
	describe_thread(p, t, ts);
	return t;
}

struct pf_thread *pf_thread(struct pf *p, pid_t pid, pid_t tid, int64_t ts)
{
	return pf_thread_named(p, pid, tid, ts, NULL, 0);
}

void pf_name_proc(struct pf *p, pid_t pid, const char *name, size_t n, int64_t ts)
{
	proc_of(p, pid, ts, name, n);
}

/* A track of its own, by name; counter: a counter track of counts. */
static void describe_track(struct pf *p, uint64_t uuid, const char *name, int counter, int64_t ts)
{
	size_t td, cd;

	pf_begin(p, ts);
	td = pb_open(&p->pkt, PF_PKT_TRACK_DESC);
	pb_uint(&p->pkt, PF_TD_UUID, uuid);
	pb_str(&p->pkt, PF_TD_NAME, name);
	if (counter) {
		cd = pb_open(&p->pkt, PF_TD_COUNTER);
		pb_uint(&p->pkt, PF_CD_UNIT, PF_UNIT_COUNT);
		pb_close(&p->pkt, cd);
	}
	pb_close(&p->pkt, td);
	pf_end(p);
}

uint64_t pf_global_track(struct pf *p, int64_t ts)
{
	if (!p->have_global_track)
		describe_track(p, pf_uuid(PF_UUID_GLOBAL, 0), "ptbpf (trace stream)", 0, ts);
	p->have_global_track = 1;
	return pf_uuid(PF_UUID_GLOBAL, 0);
}

uint64_t pf_lost_track(struct pf *p, int64_t ts)
{
	if (!p->have_lost_track)
		describe_track(p, pf_uuid(PF_UUID_LOST, 0), "lost events", 1, ts);
	p->have_lost_track = 1;
	return pf_uuid(PF_UUID_LOST, 0);
}
