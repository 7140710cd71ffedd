/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf export: the rows of a log's events (JSONEachRow), with the same
 * decoding as show and show --json: a syscall's entry and exit merged into
 * one row, made when its exit is read, so that rows come in the log's
 * order and are numbered the same each time the log is read.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ptbpf/ptbpf.h>
#include <ptbpf/evfields.h>

#include "export/export.h"

/* A syscall's entry waiting for its exit. */
struct xrow_held {
	struct sbuf data; /* the entry's payload */
	struct posix_trace_event_info info;
	trace_event_id_t id;
	pid_t tid;
	char name[TRACE_EVENT_NAME_MAX];
};

void xrow_stream_id(trace_id_t trid, char *out, size_t size)
{
	trace_attr_t a;
	char name[TRACE_NAME_MAX + 1] = "";
	struct timespec ct = { 0 };

	if (!posix_trace_attr_init(&a)) {
		if (!posix_trace_get_attr(trid, &a)) {
			posix_trace_attr_getname(&a, name);
			posix_trace_attr_getcreatetime(&a, &ct);
		}
		posix_trace_attr_destroy(&a);
	}
	/* the creation time (ns) says which record, the name whose */
	snprintf(out, size, "%lld.%09ld%s%.*s", (long long)ct.tv_sec, ct.tv_nsec,
		 name[0] ? "-" : "", (int)(size > 32 ? size - 32 : 0), name);
	for (char *p = out; *p; p++)
		if (*p < 0x21 || *p > 0x7e || *p == '\'' || *p == '\\' || *p == '"')
			*p = '_';
}

int xrow_init(struct xrow *x, const char *host, trace_id_t trid)
{
	struct fmt_look look;

	memset(x, 0, sizeof(*x));
	fmt_look_init(&look);
	look.comm = 1; /* the names of the threads, from their forks and execs */
	fmt_init(&x->f, stderr, 0, &look);
	x->host = host;
	xrow_stream_id(trid, x->stream, sizeof(x->stream));
	return 0;
}

static void held_free(void *p)
{
	struct xrow_held *h = p;

	sb_free(&h->data);
	free(h);
}

void xrow_fini(struct xrow *x)
{
	pidmap_free(&x->held, held_free);
	fmt_fini(&x->f);
	sb_free(&x->tmp);
	sb_free(&x->tmp2);
}

/* The row's columns up to the event's own: time, ids, names. */
static void row_begin(struct xrow *x, struct sbuf *o, const struct posix_trace_event_info *info,
		      pid_t tid, const char *type, const char *name)
{
	const char *comm = fmt_comm(&x->f, tid);

	/* seconds since the epoch: no time zone (the server's would apply to a text) */
	sb_printf(o, "{\"timestamp\":%lld", (long long)info->posix_timestamp.tv_sec);
	sb_printf(o, ",\"timestamp_ns\":%lld,\"host_name\":",
		  (long long)ts_ns(&info->posix_timestamp));
	sb_json_str(o, x->host, strlen(x->host));
	sb_printf(o, ",\"stream_id\":\"%s\",\"seq\":%llu,\"process_pid\":%d,\"thread_id\":%d,",
		  x->stream, (unsigned long long)x->seq, (int)info->posix_pid, (int)tid);
	sb_puts(o, "\"process_command\":");
	sb_json_str(o, comm, strlen(comm));
	sb_printf(o, ",\"event_type\":\"%s\",\"event_name\":", type);
	sb_json_str(o, name, strlen(name));
}

/* The JSON fields of an event as an object (the --json fields). */
static void fields_obj(struct sbuf *o, const struct sbuf *fields)
{
	sb_putc(o, '{');
	if (fields->len)
		sb_putn(o, fields->s + 1, fields->len - 1);
	sb_putc(o, '}');
}

static void row_end(struct sbuf *o, const char *sys, const struct sbuf *args, const char *attrs,
		    int64_t ret, int err, int64_t dur, int finished)
{
	sb_puts(o, ",\"syscall\":");
	sb_json_str(o, sys, strlen(sys));
	sb_puts(o, ",\"args\":");
	sb_json_str(o, args->s ? args->s : "", args->len);
	sb_puts(o, ",\"attributes\":");
	sb_json_str(o, attrs, strlen(attrs));
	sb_printf(o, ",\"ret\":%lld,\"errno\":%d,\"error_type\":\"%s\",\"duration_ns\":%lld",
		  (long long)ret, err, err && errno_name(err) ? errno_name(err) : "",
		  (long long)dur);
	sb_printf(o, ",\"finished\":%d", finished);
}

/* A syscall's row: its entry h (NULL: not seen) and its exit ev (NULL: none). */
static void row_syscall(struct xrow *x, struct sbuf *o, const struct xrow_held *h,
			const struct cli_ev *ev)
{
	const char *sys = ev ? sys_name_of(ev) : h->name + sys_name_offset(h->name);
	const struct sysdesc *d = ev ? ev->desc : sys_desc(sys);
	const struct ptbpf_ev_sys_exit *xe = ev && ev->len >= sizeof(*xe) ? ev->data : NULL;
	struct sbuf *a = &x->tmp, *j = &x->tmp2;
	struct cli_ev entry;
	int64_t ret = xe ? xe->ret : 0, dur = 0;
	int err = ret < 0 && ret >= -4095 ? (int)-ret : 0;

	row_begin(x, o, h ? &h->info : &ev->info, ev ? ev->tid : h->tid, "syscall", sys);
	sb_reset(a);
	sb_reset(j);
	sb_puts(j, "{\"entry\":");
	if (h) {
		memset(&entry, 0, sizeof(entry));
		entry.info = h->info;
		entry.info.posix_event_id = h->id;
		entry.name = h->name;
		entry.sys_off = (uint8_t)sys_name_offset(h->name);
		entry.desc = d;
		entry.data = h->data.s;
		entry.len = h->data.len;
		decode_sys_call(a, sys, d, h->data.s, h->data.len, xe ? ev->data : NULL,
				xe ? ev->len : 0);
		sb_reset(&x->f.tmp);
		fmt_json_fields(&x->f.tmp, &entry);
		fields_obj(j, &x->f.tmp);
	} else {
		sb_puts(j, "null");
	}
	sb_puts(j, ",\"exit\":");
	if (ev) {
		sb_reset(&x->f.tmp);
		fmt_json_fields_entry(&x->f.tmp, ev, h ? h->data.s : NULL, h ? h->data.len : 0);
		fields_obj(j, &x->f.tmp);
		dur = ts_ns(&ev->info.posix_timestamp) -
		      exit_entry_ts(ev, h ? ts_ns(&h->info.posix_timestamp)
					  : ts_ns(&ev->info.posix_timestamp));
	} else {
		sb_puts(j, "null");
	}
	sb_putc(j, '}');
	if (x->f.tmp.failed)
		sb_fail(j);
	row_end(o, sys, a, j->failed ? "{}" : j->s, ret, err, dur < 0 ? 0 : dur, ev != NULL);
	sb_puts(o, ",\"data\":\"\"}\n");
}

/* The group of an event that is no syscall: "user", "proc", "signal", ... */
static const char *event_type(trace_event_id_t id)
{
	const struct ptbpf_event_desc *d = ptbpf_event_desc(id);

	if (id >= PTBPF_EV_USER_BASE || id == POSIX_TRACE_UNNAMED_USEREVENT)
		return "user";
	if (d && !strcmp(d->group, "proc"))
		return "process";
	return d ? d->group : "other";
}

static void row_other(struct xrow *x, struct sbuf *o, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	const char *type = event_type(id);
	int user = !strcmp(type, "user");

	row_begin(x, o, &ev->info, ev->tid, type, ev->name);
	sb_reset(&x->tmp);
	if (user)
		decode_user_data(&x->tmp, ev->data, ev->len, ev->info.posix_truncation_status);
	else
		fmt_other_text(&x->tmp, ev, FMT_LOOK_PTBPF);
	sb_reset(&x->f.tmp);
	fmt_json_fields(&x->f.tmp, ev);
	sb_reset(&x->tmp2);
	fields_obj(&x->tmp2, &x->f.tmp);
	if (x->f.tmp.failed)
		sb_fail(&x->tmp2);
	row_end(o, "", &x->tmp, x->tmp2.failed ? "{}" : x->tmp2.s, 0, 0, 0, 1);
	sb_puts(o, ",\"data\":");
	sb_json_str(o, user ? ev->data : "", user ? ev->len : 0);
	sb_puts(o, "}\n");
}

/* Is the next row one to make (not one the server has)? */
static int row_next(const struct xrow *x)
{
	return x->seq >= x->skip;
}

static int held_row(struct xrow *x, struct sbuf *out, struct xrow_held *h)
{
	if (row_next(x))
		row_syscall(x, out, h, NULL);
	x->seq++;
	held_free(h);
	return 1;
}

static int hold_entry(struct xrow *x, const struct cli_ev *ev, struct sbuf *out)
{
	struct xrow_held *h = pidmap_del(&x->held, ev->tid);
	int n = h ? held_row(x, out, h) : 0; /* its exit was lost */

	h = calloc(1, sizeof(*h));
	if (!h)
		return -1;
	h->info = ev->info;
	h->tid = ev->tid;
	h->id = ev->info.posix_event_id;
	snprintf(h->name, sizeof(h->name), "%s", ev->name);
	sb_reset(&h->data);
	sb_putn(&h->data, ev->data, ev->len);
	if (h->data.failed || pidmap_put(&x->held, ev->tid, h)) {
		held_free(h);
		return -1;
	}
	if (sys_noreturn(ev->desc)) /* exit_group: no exit comes */
		n += held_row(x, out, pidmap_del(&x->held, ev->tid));
	return n;
}

int xrow_event(struct xrow *x, const struct cli_ev *ev, struct sbuf *out)
{
	trace_event_id_t id = ev->info.posix_event_id;
	const struct ptbpf_event_desc *d = ptbpf_event_desc(id);
	struct xrow_held *h;
	int n = 0;

	fmt_threads_event(&x->f, ev);
	if (sys_name_of(ev) && PTBPF_EV_IS_SYSCALL(id)) {
		if (!PTBPF_EV_SYSCALL_IS_EXIT(id))
			return hold_entry(x, ev, out);
		h = ev->tid > 0 ? pidmap_del(&x->held, ev->tid) : NULL;
		if (row_next(x))
			row_syscall(x, out, h, ev);
		x->seq++;
		if (h)
			held_free(h);
		return 1;
	}
	if (d && !strcmp(d->group, "stack"))
		return 0;
	/* a thread that ends leaves its call without exit */
	if ((id == PTBPF_EV_THREAD_EXIT || id == PTBPF_EV_PROC_EXIT) && ev->tid > 0 &&
	    (h = pidmap_del(&x->held, ev->tid)))
		n += held_row(x, out, h);
	if (row_next(x))
		row_other(x, out, ev);
	x->seq++;
	fmt_threads_after(&x->f, ev);
	return n + 1;
}

static int held_cmp(const void *a, const void *b)
{
	const struct xrow_held *x = *(struct xrow_held *const *)a,
			       *y = *(struct xrow_held *const *)b;
	int64_t tx = ts_ns(&x->info.posix_timestamp), ty = ts_ns(&y->info.posix_timestamp);

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

int xrow_end(struct xrow *x, struct sbuf *out)
{
	struct xrow_held **all = calloc(x->held.n + 1, sizeof(*all));
	size_t n = 0;

	if (!all)
		return -1;
	for (size_t i = 0; i < x->held.cap; i++)
		if (x->held.e[i].key > 0)
			all[n++] = x->held.e[i].val;
	pidmap_free(&x->held, NULL);
	memset(&x->held, 0, sizeof(x->held));
	/* in the order they began, whatever the map's */
	qsort(all, n, sizeof(*all), held_cmp);
	for (size_t i = 0; i < n; i++)
		held_row(x, out, all[i]);
	free(all);
	return (int)n;
}
