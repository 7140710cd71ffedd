/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf convert --to perfetto: a Perfetto trace (perfetto.protos.Trace) of
 * TrackEvents: each syscall a slice on its thread's track with its
 * arguments and result as debug annotations, other events instants, lost
 * events a counter, a fork a flow to the child's first slice. Written as
 * the log is read: memory holds the open calls, the processes and threads
 * and the interned names, whatever the log's size.
 */
#include <stdlib.h>
#include <string.h>

#include "convert/perfetto_int.h"

static char databuf[65536];

/* DebugAnnotation {name_iid, value}: a string, a signed or unsigned number, JSON. */
enum { PF_ANN_STR, PF_ANN_INT, PF_ANN_UINT, PF_ANN_JSON };

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t k = s[0] < 0x80		   ? 1
		   : (s[0] & 0xe0) == 0xc0 ? 2
		   : (s[0] & 0xf0) == 0xe0 ? 3
		   : (s[0] & 0xf8) == 0xf0 ? 4
					   : 0;

	if (!k || k > n || s[0] == 0xc0 || s[0] == 0xc1 || s[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* no overlong form, no surrogate, nothing past U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return k;
}

/* A protobuf string must be UTF-8: s, or a copy in p->esc with each byte
 * that is not as \xNN. */
static const char *pf_utf8(struct pf *p, const char *s, size_t *n)
{
	size_t i, k;

	for (i = 0; i < *n; i += k)
		if (!(k = utf8_seq((const unsigned char *)s + i, *n - i)))
			break;
	if (i == *n)
		return s;
	sb_reset(&p->esc);
	for (i = 0; i < *n; i += k) {
		k = utf8_seq((const unsigned char *)s + i, *n - i);
		if (k)
			sb_putn(&p->esc, s + i, k);
		else
			sb_printf(&p->esc, "\\x%02x", (unsigned char)s[i]);
		k = k ? k : 1;
	}
	if (p->esc.failed)
		p->failed = 1;
	*n = p->esc.len;
	return p->esc.s;
}

static void pf_ann(struct pf *p, const char *name, int kind, const char *s, size_t n, uint64_t v)
{
	size_t at = pb_open(&p->pkt, PF_TE_ANNOTATION);

	if (kind == PF_ANN_STR)
		s = pf_utf8(p, s, &n);

	pb_uint(&p->pkt, PF_DA_NAME_IID, pf_name(p, PF_NS_ANNOTATION, name, strlen(name)));
	if (kind == PF_ANN_STR || kind == PF_ANN_JSON)
		pb_bytes(&p->pkt, kind == PF_ANN_STR ? PF_DA_STRING : PF_DA_JSON, s, n);
	else
		pb_uint(&p->pkt, kind == PF_ANN_INT ? PF_DA_INT : PF_DA_UINT, v);
	pb_close(&p->pkt, at);
}

/* A syscall's argument (fmt_sys_args_each): a number as one, else its text. */
static void pf_arg(void *ctx, const char *name, const char *text, size_t n, int is_int)
{
	struct pf *p = ctx;

	if (!text)
		p->failed = 1;
	else if (is_int)
		pf_ann(p, name, PF_ANN_INT, NULL, 0, (uint64_t)strtoll(text, NULL, 10));
	else
		pf_ann(p, name, PF_ANN_STR, text, n, 0);
}

/* Opens the TrackEvent of a packet begun; its offset for pb_close. */
static size_t pf_event(struct pf *p, int type, uint64_t track, const char *name)
{
	size_t at = pb_open(&p->pkt, PF_PKT_TRACK_EVENT);

	pb_uint(&p->pkt, PF_TE_TYPE, (uint64_t)type);
	pb_uint(&p->pkt, PF_TE_TRACK, track);
	if (name)
		pb_uint(&p->pkt, PF_TE_NAME_IID, pf_name(p, PF_NS_EVENT, name, strlen(name)));
	return at;
}

/* The result: "ret" the number, "errno" its name, "result" as strace prints it
 * when that is not the number (a flag set, an address). */
static void pf_result(struct pf *p, const struct conv_call *c, const struct cli_ev *x)
{
	int64_t ret = ((const struct ptbpf_ev_sys_exit *)x->data)->ret;
	char dec[24];

	pf_ann(p, "ret", PF_ANN_INT, NULL, 0, (uint64_t)ret);
	if (ret < 0 && ret >= -4095 && errno_name((int)-ret))
		pf_ann(p, "errno", PF_ANN_STR, errno_name((int)-ret), strlen(errno_name((int)-ret)),
		       0);
	sb_reset(&p->tmp);
	decode_sys_ret(&p->tmp, x->desc, c->has_args ? c->args : NULL, ret);
	snprintf(dec, sizeof(dec), " = %lld", (long long)ret);
	if (p->tmp.failed)
		p->failed = 1;
	else if (p->tmp.len > 3 && strcmp(p->tmp.s, dec))
		pf_ann(p, "result", PF_ANN_STR, p->tmp.s + 3, p->tmp.len - 3, 0);
}

/* A call and its exit x: a slice, begun at the entry, ended at the exit. */
static void pf_slice(struct pf *p, struct pf_thread *t, const struct cli_ev *x, const char *sys)
{
	struct conv_call *c = &t->call;
	int64_t begin = exit_entry_ts(x, c->ts), end = ts_ns(&x->info.posix_timestamp);
	uint64_t track = pf_uuid(PF_UUID_THREAD, t->tid);
	size_t at;

	pf_begin(p, begin);
	at = pf_event(p, PF_TYPE_SLICE_BEGIN, track, sys);
	fmt_sys_args_each(sys, x->desc, c->entry.s, c->entry.len, x->data, x->len, pf_arg, p);
	if (x->len >= sizeof(struct ptbpf_ev_sys_exit))
		pf_result(p, c, x);
	if (t->flow_in)
		pb_fixed64(&p->pkt, PF_TE_FLOW_END, t->flow_in);
	t->flow_in = 0;
	pb_close(&p->pkt, at);
	pf_end(p);
	/* a slice cannot end before it begins: an exit older than its entry lasts 0 */
	pf_begin(p, end > begin ? end : begin);
	pb_close(&p->pkt, pf_event(p, PF_TYPE_SLICE_END, track, NULL));
	pf_end(p);
	c->id = 0;
}

/* The length of the payload as text (UTF-8 without control characters,
 * NULs at its end aside), or -1 when it is not. */
static size_t text_len(const char *s, size_t n)
{
	while (n && !s[n - 1])
		n--;
	for (size_t i = 0, k; i < n; i += k) {
		k = utf8_seq((const unsigned char *)s + i, n - i);
		if (!k || ((unsigned char)s[i] < 0x20 && s[i] != '\n' && s[i] != '\t'))
			return (size_t)-1;
	}
	return n;
}

/* An instant on ev's thread (or the stream's track): its name, the text
 * of a call (or NULL), its fields as JSON; flow: a flow it starts. */
static void pf_instant(struct pf *p, const struct cli_ev *ev, const char *name, const char *text,
		       size_t tlen, uint64_t flow)
{
	int64_t ts = ts_ns(&ev->info.posix_timestamp);
	pid_t pid = ev->info.posix_pid;
	struct pf_thread *t = pid ? pf_thread(p, pid, ev->tid, ts) : NULL;
	uint64_t track = t ? pf_uuid(PF_UUID_THREAD, t->tid) : pf_global_track(p, ts);
	size_t at, n;

	/* the members ",a":1,... as an object: its comma made a brace */
	sb_reset(&p->tmp);
	fmt_json_fields(&p->tmp, ev);
	sb_putc(&p->tmp, '}');
	if (p->tmp.failed)
		p->failed = 1;
	else
		p->tmp.s[0] = '{';
	pf_begin(p, ts);
	at = pf_event(p, PF_TYPE_INSTANT, track, name);
	pf_ann(p, "id", PF_ANN_UINT, NULL, 0, ev->info.posix_event_id);
	if (text)
		pf_ann(p, "call", PF_ANN_STR, text, tlen, 0);
	if (ev->info.posix_event_id >= PTBPF_EV_USER_BASE) {
		n = text_len(ev->data, ev->len);
		if (n != (size_t)-1) {
			pf_ann(p, "payload", PF_ANN_STR, ev->data, n, 0);
		} else { /* bytes: as a C string, like strace's */
			sb_reset(&p->tmp2);
			sb_quote(&p->tmp2, ev->data, ev->len);
			pf_ann(p, "payload", PF_ANN_STR, p->tmp2.s, p->tmp2.len, 0);
		}
	}
	if (p->tmp.len > 1)
		pf_ann(p, "fields", PF_ANN_JSON, p->tmp.s, p->tmp.len, 0);
	if (flow)
		pb_fixed64(&p->pkt, PF_TE_FLOW, flow);
	pb_close(&p->pkt, at);
	pf_end(p);
}

/* A call never returned: an instant at its entry, with its text. */
static void pf_unfinished(struct pf *p, struct pf_thread *t, const struct cli_ev *like)
{
	struct cli_ev e = *like;

	e.info.posix_event_id = t->call.id;
	e.info.posix_pid = t->pid;
	e.tid = t->tid;
	e.info.posix_timestamp.tv_sec = t->call.ts / 1000000000LL;
	e.info.posix_timestamp.tv_nsec = t->call.ts % 1000000000LL;
	e.len = 0;
	pf_instant(p, &e, "unfinished syscall", t->call.text.s, t->call.text.len, 0);
	t->call.id = 0;
}

/* A syscall's entry: its call opened (the thread's previous one, never
 * returned, an instant). */
static void pf_sys_enter(struct pf *p, const struct cli_ev *ev, const char *sys)
{
	int64_t ts = ts_ns(&ev->info.posix_timestamp);
	struct pf_thread *t = pf_thread(p, ev->info.posix_pid, ev->tid, ts);
	struct conv_call *c;

	if (!t)
		return;
	c = &t->call;
	if (c->id)
		pf_unfinished(p, t, ev);
	if (conv_call_open(c, ev, sys))
		p->failed = 1;
	if (sys_noreturn(ev->desc)) {
		pf_instant(p, ev, sys, c->text.s, c->text.len, 0);
		c->id = 0;
	}
}

/* A syscall's exit: the slice of its call, or an instant. */
static void pf_sys_exit(struct pf *p, const struct cli_ev *ev, const char *sys)
{
	int64_t ts = ts_ns(&ev->info.posix_timestamp);
	struct pf_thread *t = pf_thread(p, ev->info.posix_pid, ev->tid, ts);

	if (t && t->call.id && t->call.id + 1 == ev->info.posix_event_id) {
		fmt_late_redo(&t->call.text, &t->call.data, sys, ev);
		pf_slice(p, t, ev, sys);
		return;
	}
	pf_instant(p, ev, ev->name, NULL, 0, 0);
}

/* A fork: the child's tracks named by its command, and a flow from the
 * fork (an instant on the parent's thread) to the child's first slice. */
static void pf_fork(struct pf *p, const struct cli_ev *ev)
{
	const struct ptbpf_ev_fork *f = ev->data;
	int64_t ts = ts_ns(&ev->info.posix_timestamp);
	struct pf_thread *t;

	if (!f->is_thread)
		pf_name_proc(p, f->child_pid, f->comm, sizeof(f->comm), ts);
	t = pf_thread_named(p, f->child_pid, f->child_tid, ts, f->comm, sizeof(f->comm));
	if (!t) {
		pf_instant(p, ev, ev->name, NULL, 0, 0);
		return;
	}
	t->flow_in = ++p->next_flow;
	pf_instant(p, ev, ev->name, NULL, 0, t->flow_in);
}

/* An exec: the process and its main thread named by the program, which
 * takes the call in progress of the thread that exec'ed (its id is the
 * process's now). */
static void pf_exec(struct pf *p, const struct cli_ev *ev)
{
	const struct ptbpf_ev_exec *e = ev->data;
	size_t n = ev->len - offsetof(struct ptbpf_ev_exec, filename);
	int64_t ts = ts_ns(&ev->info.posix_timestamp);
	struct pf_thread *old = e->old_tid != e->pid ? pidmap_get(&p->threads, e->old_tid) : NULL;
	struct pf_thread *t;

	pf_name_proc(p, e->pid, e->filename, n, ts);
	t = pf_thread_named(p, e->pid, e->pid, ts, e->filename, n);
	if (t && old && old->call.id && old->pid == e->pid) {
		struct conv_call c = t->call;

		t->call = old->call;
		old->call = c;
		old->call.id = 0;
	}
	pf_instant(p, ev, ev->name, NULL, 0, 0);
}

/* A thread's end: its calls' buffers freed (a log of many threads stays small). */
static void pf_exit(struct pf *p, const struct cli_ev *ev)
{
	const struct ptbpf_ev_exit *x = ev->data;
	struct pf_thread *t = pidmap_get(&p->threads, x->tid);

	pf_instant(p, ev, ev->name, NULL, 0, 0);
	if (!t || t->pid != x->pid)
		return;
	if (t->call.id)
		pf_unfinished(p, t, ev);
	conv_call_free(&t->call);
}

/* Events lost: the counter of those lost so far, at the gap. */
static void pf_lost_at(struct pf *p, int64_t ts, uint64_t lost)
{
	uint64_t track = pf_lost_track(p, ts);
	size_t at;

	p->lost = lost;
	pf_begin(p, ts);
	at = pf_event(p, PF_TYPE_COUNTER, track, NULL);
	pb_int(&p->pkt, PF_TE_COUNTER, (int64_t)lost);
	pb_close(&p->pkt, at);
	pf_end(p);
}

static void pf_ev(struct pf *p, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	const char *sys = sys_name_of(ev);

	if (id == PTBPF_EV_USER_STACK || id == PTBPF_EV_PROC_MAP || id == PTBPF_EV_STACK_TRACE ||
	    id == PTBPF_EV_STACK_REF)
		return; /* stacks: not in this format (chrome has them) */
	if (sys && PTBPF_EV_IS_SYSCALL(id)) {
		if (PTBPF_EV_SYSCALL_IS_EXIT(id))
			pf_sys_exit(p, ev, sys);
		else
			pf_sys_enter(p, ev, sys);
	} else if (id == POSIX_TRACE_OVERFLOW) {
		pf_lost_at(p, ts_ns(&ev->info.posix_timestamp),
			   p->lost + (ev->len >= sizeof(uint64_t) ? overflow_count(ev->data) : 1));
	} else if (id == PTBPF_EV_PROC_FORK && ev->len >= sizeof(struct ptbpf_ev_fork)) {
		pf_fork(p, ev);
	} else if (id == PTBPF_EV_PROC_EXEC && ev->len > offsetof(struct ptbpf_ev_exec, filename)) {
		pf_exec(p, ev);
	} else if ((id == PTBPF_EV_THREAD_EXIT || id == PTBPF_EV_PROC_EXIT) &&
		   ev->len >= sizeof(struct ptbpf_ev_exit)) {
		pf_exit(p, ev);
	} else {
		pf_instant(p, ev, ev->name, NULL, 0, 0);
	}
}

/* The end: calls still open are instants; losses the markers did not
 * count (the stream's total is larger) on the counter. */
static void pf_finish(struct pf *p, trace_id_t trid, const struct cli_ev *last)
{
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };

	for (size_t i = 0; i < p->threads.cap; i++) {
		struct pf_thread *t = p->threads.e[i].key ? p->threads.e[i].val : NULL;

		if (t && t->call.id)
			pf_unfinished(p, t, last);
	}
	if (!ptbpf_trace_get_counters(trid, &cnt) && cnt.lost > p->lost)
		pf_lost_at(p, p->last_ts, cnt.lost);
}

int convert_perfetto(trace_id_t trid, FILE *out)
{
	struct cli_ev ev, last = { 0 };
	int unav = 0, err, ret = CLI_EXIT_OK;
	struct pf p;

	if (pf_init(&p, out)) {
		cli_err("out of memory");
		return CLI_EXIT_FAIL;
	}
	for (;;) {
		err = cli_ev_next(trid, &ev, databuf, sizeof(databuf), &unav);
		if (err) {
			cli_err("reading the log: %s", strerror(err));
			ret = CLI_EXIT_BADLOG;
			break;
		}
		if (unav || p.failed)
			break;
		pf_ev(&p, &ev);
		last = ev;
	}
	if (!p.failed)
		pf_finish(&p, trid, &last);
	if (p.failed) {
		cli_err("out of memory");
		if (!ret)
			ret = CLI_EXIT_FAIL;
	}
	pf_fini(&p);
	return ret;
}
