/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fields of an event in JSON (ptbpf show --json, the Chrome export's
 * args): syscalls by their own writers, every other system event by a
 * walk of its description (<ptbpf/evfields.h>), the same one the CTF
 * export walks.
 */
#include <string.h>
#include <ptbpf/ptbpf.h>
#include <ptbpf/evfields.h>

#include "fmt/fmt.h"
#include "decode/caps.h"
#include "decode/probes.h"

/* Is s[0..n) a decimal integer JSON takes as a number? */
static int json_is_int(const char *s, size_t n)
{
	size_t i = n && s[0] == '-';

	if (i == n || n - i > 18 || (s[i] == '0' && n - i > 1))
		return 0;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

void fmt_sys_args_each(const char *sys, const struct sysdesc *d, const void *data, size_t len,
		       const void *xdata, size_t xlen, fmt_arg_fn *fn, void *ctx)
{
	unsigned mask = decode_sys_argmask(d, data, len);
	struct sbuf t = { 0 };
	char nb[8];

	for (int i = 0; i < 6; i++) {
		const char *n = sys_arg_name(sys, i);

		if (!(mask & (1U << i)))
			continue;
		if (!n) {
			snprintf(nb, sizeof(nb), "arg%d", i);
			n = nb;
		}
		sb_reset(&t);
		decode_sys_arg(&t, d, data, len, xdata, xlen, i);
		if (t.failed)
			fn(ctx, n, NULL, 0, 0);
		else
			fn(ctx, n, t.s ? t.s : "", t.len, json_is_int(t.s, t.len));
	}
	sb_free(&t);
}

static void json_arg(void *ctx, const char *name, const char *text, size_t n, int is_int)
{
	struct sbuf *b = ctx;

	sb_putc(b, ',');
	sb_json_str(b, name, strlen(name));
	sb_putc(b, ':');
	if (!text)
		sb_fail(b);
	else if (is_int)
		sb_putn(b, text, n);
	else
		sb_json_str(b, text, n);
}

void fmt_json_args(struct sbuf *b, const char *sys, const struct sysdesc *d, const void *data,
		   size_t len, const void *xdata, size_t xlen)
{
	fmt_sys_args_each(sys, d, data, len, xdata, xlen, json_arg, b);
}

static void json_sys_enter(struct sbuf *b, const struct cli_ev *ev, const char *sys)
{
	const struct ptbpf_ev_sys_enter *se = ev->data;
	size_t off = 0;
	int i;

	if (ev->len < offsetof(struct ptbpf_ev_sys_enter, paths))
		return;
	sb_printf(b, ",\"syscall\":\"%s\",\"nr\":%lld,\"args\":[", sys, (long long)se->nr);
	for (i = 0; i < 6; i++)
		sb_printf(b, "%s%llu", i ? "," : "", (unsigned long long)se->args[i]);
	sb_puts(b, "],\"paths\":[");
	for (i = 0; i < 2; i++) {
		size_t pl = se->path_len[i];
		int trunc = se->flags & (i ? PTBPF_SYS_PATH1_TRUNCATED : PTBPF_SYS_PATH0_TRUNCATED);
		int fault = se->flags & (i ? PTBPF_SYS_PATH1_FAULT : PTBPF_SYS_PATH0_FAULT);

		if (!pl && !fault)
			continue;
		if (offsetof(struct ptbpf_ev_sys_enter, paths) + off + pl > ev->len)
			break;
		sb_printf(b,
			  "%s{\"arg\":%d,\"path\":", b->len && b->s[b->len - 1] == '[' ? "" : ",",
			  se->path_arg[i]);
		if (fault)
			sb_puts(b, "null");
		else
			sb_json_str(b, se->paths + off, strnlen(se->paths + off, pl));
		sb_printf(b, ",\"truncated\":%s}", trunc ? "true" : "false");
		off += pl;
	}
	sb_puts(b, "],\"text\":");
	{
		struct sbuf t = { 0 };

		sb_reset(&t);
		decode_sys_args(&t, sys, ev->desc, ev->data, ev->len);
		if (t.failed)
			sb_fail(b);
		else
			sb_json_str(b, t.s, t.len);
		sb_reset(&t);
		fmt_json_args(&t, sys, ev->desc, ev->data, ev->len, NULL, 0);
		if (t.failed) {
			sb_fail(b);
		} else if (t.len) {
			/* the pairs without the first one's comma */
			sb_puts(b, ",\"decoded\":{");
			sb_putn(b, t.s + 1, t.len - 1);
			sb_putc(b, '}');
		}
		sb_free(&t);
	}
}

/* The value names of an ENUM field: v's, else the table's first (unknown). */
static const char *value_name(const struct ptbpf_event_field *f, unsigned long long v)
{
	const struct ptbpf_event_value *e;

	for (e = f->values; e && e->name; e++)
		if (e->value == v)
			return e->name;
	return f->values ? f->values[0].name : "";
}

static void json_int(struct sbuf *b, const struct ptbpf_event_field *f, unsigned long long v)
{
	switch (f->kind) {
	case PTBPF_FIELD_BOOL:
		sb_puts(b, v ? "true" : "false");
		return;
	case PTBPF_FIELD_ENUM:
		sb_putc(b, '"');
		sb_puts(b, value_name(f, v));
		sb_putc(b, '"');
		return;
	case PTBPF_FIELD_INT:
	case PTBPF_FIELD_PID:
	case PTBPF_FIELD_TID:
	case PTBPF_FIELD_SIGNO:
	case PTBPF_FIELD_WSTATUS:
		sb_dec(b, (int64_t)v);
		return;
	}
	sb_udec(b, v, 0);
}

/* What a field adds after its value: a signal's name, a wait status's parts. */
static void json_decoded(struct sbuf *b, const struct ptbpf_event_field *f, unsigned long long v)
{
	if (f->kind == PTBPF_FIELD_SIGNO) {
		struct sbuf s = { 0 };

		sb_reset(&s);
		decode_signal(&s, (int)v);
		if (s.failed)
			sb_fail(b); /* and the appends below do nothing */
		sb_puts(b, ",\"signal\":\"");
		sb_puts(b, s.failed ? "" : s.s);
		sb_putc(b, '"');
		sb_free(&s);
	} else if (f->kind == PTBPF_FIELD_WSTATUS) {
		sb_printf(b, ",\"status\":%d,\"signal\":%d", ((int)v >> 8) & 0xff, (int)v & 0x7f);
	}
}

/* The JSON fields of a described event: 0, or -1 when it has no description. */
static int json_walk(struct sbuf *b, const struct cli_ev *ev)
{
	const struct ptbpf_event_desc *d = ptbpf_event_desc(ev->info.posix_event_id);
	const unsigned char *p = ev->data;
	unsigned int i;

	if (!d || !d->nfields)
		return -1;
	if (ev->len < d->min_size)
		return 0;
	for (i = 0; i < d->nfields; i++) {
		const struct ptbpf_event_field *f = &d->fields[i];
		unsigned long long v;
		size_t at, n, k;

		if (f->kind == PTBPF_FIELD_LENGTH ||
		    ptbpf_event_field_span(d, i, p, ev->len, &at, &n))
			continue;
		sb_printf(b, ",\"%s\":", f->label ? f->label : f->name);
		switch (f->kind) {
		case PTBPF_FIELD_CHARS:
		case PTBPF_FIELD_STRING:
			sb_json_str(b, (const char *)p + at, n);
			break;
		case PTBPF_FIELD_BYTES:
			sb_putc(b, '"');
			sb_hex(b, p + at, n);
			sb_putc(b, '"');
			break;
		case PTBPF_FIELD_ARRAY:
			sb_putc(b, '[');
			for (k = 0; f->elem == 8 && k < n; k += 8) {
				uint64_t e;

				memcpy(&e, p + at + k, 8);
				if (k)
					sb_putc(b, ',');
				sb_udec(b, e, 0);
			}
			sb_putc(b, ']');
			break;
		default:
			ptbpf_event_field_int(d, i, p, ev->len, &v);
			json_int(b, f, v);
			json_decoded(b, f, v);
		}
	}
	return 0;
}

void fmt_json_fields(struct sbuf *b, const struct cli_ev *ev)
{
	fmt_json_fields_entry(b, ev, NULL, 0);
}

void fmt_json_fields_entry(struct sbuf *b, const struct cli_ev *ev, const void *entry, size_t elen)
{
	trace_event_id_t id = ev->info.posix_event_id;
	const char *sys = sys_name_of(ev);
	const void *d = ev->data;
	size_t len = ev->len;

	if (sys && PTBPF_EV_IS_SYSCALL(id)) {
		if (!PTBPF_EV_SYSCALL_IS_EXIT(id)) {
			json_sys_enter(b, ev, sys);
		} else if (len >= sizeof(struct ptbpf_ev_sys_exit)) {
			const struct ptbpf_ev_sys_exit *x = d;

			sb_printf(b, ",\"syscall\":\"%s\",\"nr\":%lld,\"ret\":%lld", sys,
				  (long long)x->nr, (long long)x->ret);
			if (x->ret < 0 && x->ret >= -4095 && errno_name((int)-x->ret))
				sb_printf(b, ",\"errno\":\"%s\"", errno_name((int)-x->ret));
			fmt_late_json(b, d, len);
			decode_json_exit(b, sys, ev->desc, d, len, entry, elen);
		}
		return;
	}
	if (!json_walk(b, ev))
		return;
	if (id >= PTBPF_EV_USER_BASE && !probe_fmt(b, ev->name, d, len, false))
		return;
	if (len || id >= PTBPF_EV_USER_BASE) {
		sb_puts(b, ",\"data_hex\":\"");
		sb_hex(b, d, len);
		sb_puts(b, "\",\"data_str\":");
		sb_json_str(b, d, len);
	}
}
