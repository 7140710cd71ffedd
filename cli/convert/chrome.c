/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf convert --to chrome: Chrome trace-event JSON (the Perfetto UI,
 * chrome://tracing); syscalls are complete slices per thread.
 */
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "convert/convert.h"

static char databuf[65536];

struct open_call {
	pid_t tid, pid;
	unsigned int sf; /* its stack's innermost frame, 0: none */
	struct conv_call c;
};

struct name_ent {
	pid_t id; /* pid or tid */
	int is_thread;
	pid_t pid;
	char name[PTBPF_PATH_MAX];
};

struct chrome {
	FILE *out;
	int64_t origin;
	int have_origin, first;
	struct open_call *calls;
	size_t ncalls, capcalls;
	struct name_ent *names;
	size_t nnames, capnames;
	struct frame_tree *frames; /* the user stacks (record -k), NULL: no memory */
	struct sbuf b;
};

static struct open_call *call_of(struct chrome *c, pid_t tid, int create)
{
	size_t i;

	for (i = 0; i < c->ncalls; i++)
		if (c->calls[i].tid == tid)
			return &c->calls[i];
	if (!create)
		return NULL;
	if (c->ncalls == c->capcalls) {
		size_t cap = c->capcalls ? 2 * c->capcalls : 64;
		struct open_call *p = realloc(c->calls, cap * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + c->capcalls, 0, (cap - c->capcalls) * sizeof(*p));
		c->calls = p;
		c->capcalls = cap;
	}
	c->calls[c->ncalls].tid = tid;
	c->calls[c->ncalls].c.id = 0;
	return &c->calls[c->ncalls++];
}

static void set_name(struct chrome *c, pid_t id, int is_thread, pid_t pid, const char *name,
		     size_t n)
{
	size_t i;
	const char *slash;

	for (i = 0; i < c->nnames; i++)
		if (c->names[i].id == id && c->names[i].is_thread == is_thread)
			break;
	if (i == c->nnames) {
		if (c->nnames == c->capnames) {
			size_t cap = c->capnames ? 2 * c->capnames : 64;
			struct name_ent *p = realloc(c->names, cap * sizeof(*p));

			if (!p)
				return;
			c->names = p;
			c->capnames = cap;
		}
		c->nnames++;
	}
	n = strnlen(name, n);
	slash = memrchr(name, '/', n);
	if (slash) {
		n -= slash + 1 - name;
		name = slash + 1;
	}
	if (n >= sizeof(c->names[i].name))
		n = sizeof(c->names[i].name) - 1;
	c->names[i].id = id;
	c->names[i].is_thread = is_thread;
	c->names[i].pid = pid;
	memcpy(c->names[i].name, name, n);
	c->names[i].name[n] = '\0';
}

/* ns in microseconds; below 0 for an event older than the first (one reported late). */
static void chrome_ts(struct sbuf *b, int64_t ns)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	sb_printf(b, "%s%llu.%03llu", ns < 0 ? "-" : "", (unsigned long long)(a / 1000),
		  (unsigned long long)(a % 1000));
}

static void chrome_begin(struct chrome *c)
{
	sb_reset(&c->b);
	sb_puts(&c->b, c->first ? "\n" : ",\n");
	c->first = 0;
}

/* Writes the record made since chrome_begin; once c->b failed, none. */
static void chrome_end(struct chrome *c)
{
	if (!c->b.failed)
		fwrite(c->b.s, 1, c->b.len, c->out);
}

static void chrome_slice(struct chrome *c, struct open_call *oc, const struct cli_ev *exit_ev)
{
	const char *sys = sys_name_of(exit_ev);
	int64_t end = ts_ns(&exit_ev->info.posix_timestamp);
	struct sbuf r = { 0 };

	sb_reset(&r);
	if (exit_ev->len >= sizeof(struct ptbpf_ev_sys_exit))
		decode_sys_ret(&r, exit_ev->desc, oc->c.has_args ? oc->c.args : NULL,
			       ((const struct ptbpf_ev_sys_exit *)exit_ev->data)->ret);
	chrome_begin(c);
	sb_printf(&c->b,
		  "{\"name\":\"%s\",\"cat\":\"syscall\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,"
		  "\"ts\":",
		  sys, (int)oc->pid, (int)oc->tid);
	chrome_ts(&c->b, oc->c.ts - c->origin);
	sb_puts(&c->b, ",\"dur\":");
	/* a slice cannot end before it begins: an exit older than its entry lasts 0 */
	chrome_ts(&c->b, end > oc->c.ts ? end - oc->c.ts : 0);
	sb_puts(&c->b, ",\"args\":{\"call\":");
	sb_json_str(&c->b, oc->c.text.s, oc->c.text.len);
	sb_puts(&c->b, ",\"ret\":");
	sb_json_str(&c->b, r.len > 3 ? r.s + 3 : "?", r.len > 3 ? r.len - 3 : 1);
	/* each argument by its name, what the exit brought included */
	fmt_json_args(&c->b, sys, exit_ev->desc, oc->c.entry.s, oc->c.entry.len, exit_ev->data,
		      exit_ev->len);
	sb_putc(&c->b, '}');
	if (oc->sf)
		sb_printf(&c->b, ",\"sf\":\"%u\"", oc->sf);
	sb_putc(&c->b, '}');
	if (r.failed)
		sb_fail(&c->b);
	chrome_end(c);
	sb_free(&r);
	oc->c.id = 0;
}

static void chrome_instant(struct chrome *c, const struct cli_ev *ev, const char *name,
			   const char *text, size_t tlen)
{
	struct sbuf f = { 0 };
	pid_t pid = ev->info.posix_pid, tid = ev->tid;

	chrome_begin(c);
	sb_puts(&c->b, "{\"name\":");
	sb_json_str(&c->b, name, strlen(name));
	sb_printf(&c->b, ",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":",
		  ev->info.posix_event_id < PTBPF_EV_KERNEL_FIRST ? "posix"
		  : ev->info.posix_event_id >= PTBPF_EV_USER_BASE ? "user"
								  : "kernel",
		  pid ? "t" : "g", (int)pid, (int)(tid ? tid : pid));
	chrome_ts(&c->b, ts_ns(&ev->info.posix_timestamp) - c->origin);
	sb_puts(&c->b, ",\"args\":{\"id\":");
	sb_printf(&c->b, "%lu", (unsigned long)ev->info.posix_event_id);
	if (text) {
		sb_puts(&c->b, ",\"text\":");
		sb_json_str(&c->b, text, tlen);
	}
	sb_reset(&f);
	fmt_json_fields(&f, ev);
	sb_cat(&c->b, &f);
	sb_puts(&c->b, "}}");
	chrome_end(c);
	sb_free(&f);
}

/* A user_stack, proc_map, stack_trace or stack_ref: the slice's stack, not
 * an event of its own; user_stack and stack_ref begin with the id of the
 * event they follow. */
static void chrome_stack(struct chrome *c, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	struct open_call *oc = call_of(c, ev->tid, 0);
	uint32_t of = 0;
	unsigned int sf;

	if (ev->len >= sizeof(of))
		memcpy(&of, ev->data, sizeof(of));
	sf = c->frames ? frame_tree_event(c->frames, ev, oc && oc->c.id == of ? oc->sf : 0) : 0;
	if (sf && oc && (id == PTBPF_EV_USER_STACK || id == PTBPF_EV_STACK_REF) && oc->c.id == of)
		oc->sf = sf;
}

/* A syscall's entry: its call opened (the previous one of the thread, never
 * returned, an instant). */
static void chrome_sys_enter(struct chrome *c, const struct cli_ev *ev, const char *sys)
{
	struct open_call *oc = call_of(c, ev->tid, 1);

	if (!oc)
		return;
	if (oc->c.id) {
		struct cli_ev e = *ev;

		e.info.posix_event_id = oc->c.id;
		e.info.posix_timestamp.tv_sec = oc->c.ts / 1000000000LL;
		e.info.posix_timestamp.tv_nsec = oc->c.ts % 1000000000LL;
		e.len = 0;
		chrome_instant(c, &e, "unfinished syscall", oc->c.text.s, oc->c.text.len);
	}
	oc->pid = ev->info.posix_pid;
	oc->sf = 0;
	if (conv_call_open(&oc->c, ev, sys))
		sb_fail(&c->b); /* c->b says it for the whole output */
	if (sys_noreturn(ev->desc)) {
		chrome_instant(c, ev, sys, oc->c.text.s, oc->c.text.len);
		oc->c.id = 0;
	}
}

/* A syscall's exit: the slice of its call, or an instant. */
static void chrome_sys_exit(struct chrome *c, const struct cli_ev *ev, const char *sys)
{
	struct open_call *oc = call_of(c, ev->tid, 0);

	if (oc && oc->c.id + 1 == ev->info.posix_event_id) {
		fmt_late_redo(&oc->c.text, &oc->c.data, sys, ev);
		chrome_slice(c, oc, ev);
		return;
	}
	chrome_instant(c, ev, ev->name, NULL, 0);
}

/* The names of processes and threads, from forks and execs; every process
 * gets one (its pid at least). */
static void chrome_names(struct chrome *c, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;

	if (id == PTBPF_EV_PROC_FORK && ev->len >= sizeof(struct ptbpf_ev_fork)) {
		const struct ptbpf_ev_fork *f = ev->data;

		if (!f->is_thread)
			set_name(c, f->child_pid, 0, f->child_pid, f->comm, sizeof(f->comm));
		set_name(c, f->child_tid, 1, f->child_pid, f->comm, sizeof(f->comm));
	} else if (id == PTBPF_EV_PROC_EXEC && ev->len > offsetof(struct ptbpf_ev_exec, filename)) {
		const struct ptbpf_ev_exec *e = ev->data;
		size_t n = ev->len - offsetof(struct ptbpf_ev_exec, filename);

		set_name(c, e->pid, 0, e->pid, e->filename, n);
		set_name(c, e->pid, 1, e->pid, e->filename, n);
	} else if (ev->info.posix_pid) {
		char n[32];
		size_t i;

		for (i = 0; i < c->nnames; i++)
			if (c->names[i].id == ev->info.posix_pid && !c->names[i].is_thread)
				return;
		snprintf(n, sizeof(n), "%d", (int)ev->info.posix_pid);
		set_name(c, ev->info.posix_pid, 0, ev->info.posix_pid, n, strlen(n));
	}
}

static void chrome_event(struct chrome *c, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	const char *sys = sys_name_of(ev);

	if (!c->have_origin) {
		c->origin = ts_ns(&ev->info.posix_timestamp);
		c->have_origin = 1;
	}
	if (id == PTBPF_EV_USER_STACK || id == PTBPF_EV_PROC_MAP || id == PTBPF_EV_STACK_TRACE ||
	    id == PTBPF_EV_STACK_REF) {
		chrome_stack(c, ev);
		return;
	}
	if (c->frames && id == PTBPF_EV_PROC_EXIT)
		frame_tree_event(c->frames, ev, 0);
	if (sys && PTBPF_EV_IS_SYSCALL(id)) {
		if (PTBPF_EV_SYSCALL_IS_EXIT(id))
			chrome_sys_exit(c, ev, sys);
		else
			chrome_sys_enter(c, ev, sys);
		return;
	}
	chrome_names(c, ev);
	chrome_instant(c, ev, ev->name, NULL, 0);
}

int convert_chrome(trace_id_t trid, FILE *out)
{
	struct chrome c = { .out = out, .first = 1 };
	struct cli_ev ev;
	int unav = 0, err, ret = CLI_EXIT_OK;
	size_t i;
	char gen[TRACE_NAME_MAX + 1] = "";
	trace_attr_t a;

	c.frames = frame_tree_new();
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
	for (;;) {
		err = cli_ev_next(trid, &ev, databuf, sizeof(databuf), &unav);
		if (err) {
			cli_err("reading the log: %s", strerror(err));
			ret = CLI_EXIT_BADLOG;
			break;
		}
		if (unav)
			break;
		chrome_event(&c, &ev);
		if (c.b.failed)
			break;
	}
	/* calls still open at the end: instants */
	for (i = 0; i < c.ncalls; i++) {
		struct open_call *oc = &c.calls[i];

		if (oc->c.id) {
			chrome_begin(&c);
			sb_printf(&c.b,
				  "{\"name\":\"unfinished syscall\",\"cat\":\"syscall\","
				  "\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":",
				  (int)oc->pid, (int)oc->tid);
			chrome_ts(&c.b, oc->c.ts - c.origin);
			sb_puts(&c.b, ",\"args\":{\"call\":");
			sb_json_str(&c.b, oc->c.text.s, oc->c.text.len);
			sb_puts(&c.b, "}}");
			chrome_end(&c);
		}
		conv_call_free(&oc->c);
	}
	for (i = 0; i < c.nnames; i++) {
		struct name_ent *n = &c.names[i];

		chrome_begin(&c);
		sb_printf(&c.b,
			  "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
			  "\"args\":{\"name\":",
			  n->is_thread ? "thread_name" : "process_name", (int)n->pid, (int)n->id);
		sb_json_str(&c.b, n->name, strlen(n->name));
		sb_puts(&c.b, "}}");
		chrome_end(&c);
	}
	chrome_begin(&c);
	sb_puts(&c.b, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
		      "\"args\":{\"name\":\"ptbpf (trace stream)\"}}");
	chrome_end(&c);
	if (!posix_trace_attr_init(&a)) {
		if (!posix_trace_get_attr(trid, &a))
			posix_trace_attr_getgenversion(&a, gen);
		posix_trace_attr_destroy(&a);
	}
	sb_reset(&c.b);
	sb_puts(&c.b, "\n]");
	if (c.frames)
		frame_tree_json(c.frames, &c.b);
	sb_puts(&c.b, ",\"otherData\":{\"generator\":");
	sb_json_str(&c.b, gen, strlen(gen));
	sb_puts(&c.b, "}}\n");
	chrome_end(&c);
	if (c.b.failed) {
		cli_err("out of memory");
		if (!ret)
			ret = CLI_EXIT_FAIL;
	}
	free(c.calls);
	free(c.names);
	frame_tree_free(c.frames);
	sb_free(&c.b);
	return ret;
}
