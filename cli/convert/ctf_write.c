/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf convert --to ctf: the data streams, in packets: each event's fields
 * as the metadata declares them, and the lanes that keep each stream's
 * clock from going backwards.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "convert/ctf_int.h"

static void put(struct ctf *c, const void *p, size_t n)
{
	struct ctf_lane *l = c->l;

	if (l->len + n > CTF_PKT_BUF)
		return; /* cannot happen: packets are closed before */
	memcpy(l->pkt + l->len, p, n);
	l->len += n;
}

static void put_u32(struct ctf *c, uint32_t v)
{
	put(c, &v, 4);
}
static void put_u64(struct ctf *c, uint64_t v)
{
	put(c, &v, 8);
}
static void put_s32(struct ctf *c, int32_t v)
{
	put(c, &v, 4);
}
static void put_s64(struct ctf *c, int64_t v)
{
	put(c, &v, 8);
}

static void put_str(struct ctf *c, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	put(c, s, n);
	put(c, "", 1);
}

/* The CTF integer type of an integer field. */
const char *ctf_int_type(const struct ptbpf_event_field *f)
{
	int sgn = f->kind == PTBPF_FIELD_INT || f->kind == PTBPF_FIELD_PID ||
		  f->kind == PTBPF_FIELD_TID || f->kind == PTBPF_FIELD_SIGNO ||
		  f->kind == PTBPF_FIELD_WSTATUS;

	if (f->size == 8)
		return sgn ? "int64_t" : f->kind == PTBPF_FIELD_HEX ? "xuint64_t" : "uint64_t";
	return sgn ? "int32_t" : "uint32_t"; /* 2-byte ones widened */
}

/*
 * An event's fields by its description: with meta, their CTF declarations;
 * with c, the payload's values packed in the same order (absent ones: 0,
 * "" or zeros). Length fields are not written: a string ends in its NUL,
 * a sequence has its count NAME_len (what the payload holds) before it.
 */
void ctf_fields_walk(struct ctf *c, struct sbuf *meta, const struct ptbpf_event_desc *d,
		     const void *data, size_t len)
{
	static const unsigned char zeros[256];
	const unsigned char *p = data;
	unsigned int i;

	for (i = 0; i < d->nfields; i++) {
		const struct ptbpf_event_field *f = &d->fields[i];
		const char *et = f->kind == PTBPF_FIELD_ARRAY ? "xuint64_t" : "uint8_t";
		unsigned long long v = 0;
		size_t at = 0, n = 0;
		int have = c && !ptbpf_event_field_span(d, i, p, len, &at, &n);

		switch (f->kind) {
		case PTBPF_FIELD_LENGTH:
			break;
		case PTBPF_FIELD_CHARS:
		case PTBPF_FIELD_STRING:
			if (meta)
				sb_printf(meta, "\t\tstring %s;\n", f->name);
			if (c) {
				put(c, have ? p + at : zeros, have ? n : 0);
				put(c, "", 1);
			}
			break;
		case PTBPF_FIELD_BYTES:
		case PTBPF_FIELD_ARRAY:
			if (f->len_field < 0 && f->size) {
				/* a fixed array: all of it */
				if (meta)
					sb_printf(meta, "\t\t%s %s[%u];\n", et, f->name,
						  f->size / (f->elem ? f->elem : 1));
				if (c) {
					put(c, p + at, have ? n : 0);
					for (n = have ? n : 0; n < f->size; n += sizeof(zeros))
						put(c, zeros,
						    f->size - n < sizeof(zeros) ? f->size - n
										: sizeof(zeros));
				}
				break;
			}
			if (meta)
				sb_printf(meta, "\t\tuint32_t %s_len;\n\t\t%s %s[%s_len];\n",
					  f->name, et, f->name, f->name);
			if (c) {
				put_u32(c, have ? n / (f->elem ? f->elem : 1) : 0);
				put(c, p + at, have ? n : 0);
			}
			break;
		default:
			if (meta)
				sb_printf(meta, "\t\t%s %s;\n", ctf_int_type(f), f->name);
			if (c) {
				ptbpf_event_field_int(d, i, p, len, &v);
				if (f->size == 8)
					put_u64(c, v);
				else
					put_u32(c, (uint32_t)v);
			}
		}
	}
}

/* header (8) + context (40) */
#define CTF_PKT_HDR 48

static void ctf_packet_open(struct ctf_lane *l)
{
	l->len = CTF_PKT_HDR;
	l->ts_begin = -1;
}

/* The file of lane i in path: stream_0, then stream_0_1, stream_0_2, ... */
void ctf_lane_path(char *path, size_t size, const char *dir, unsigned int i)
{
	if (i)
		snprintf(path, size, "%s/stream_0_%u", dir, i);
	else
		snprintf(path, size, "%s/stream_0", dir);
}

/* Writes l's packet to its file and starts the next: 0, or -1 (errno, c->werr). */
int ctf_packet_close(struct ctf *c, struct ctf_lane *l)
{
	uint64_t bits = (uint64_t)l->len * 8;
	unsigned char *p = l->pkt;
	FILE *f = l->stream;
	uint32_t u32;
	uint64_t u64;
	int err = 0;

	if (l->ts_begin < 0)
		l->ts_begin = l->ts_end = l->last_ts;
	u32 = CTF_MAGIC;
	memcpy(p, &u32, 4);
	u32 = 0;
	memcpy(p + 4, &u32, 4);
	u64 = l->ts_begin;
	memcpy(p + 8, &u64, 8);
	u64 = l->ts_end;
	memcpy(p + 16, &u64, 8);
	memcpy(p + 24, &bits, 8); /* content_size */
	memcpy(p + 32, &bits, 8); /* packet_size */
	memcpy(p + 40, &l->discarded, 8);
	if (!f) {
		char path[4096];

		/* opened for each packet: as many late streams as needed, not as many fds */
		ctf_lane_path(path, sizeof(path), c->dir, (unsigned int)(l - c->lanes));
		f = fopen(path, l->npackets ? "a" : "w");
	}
	if (!f || fwrite(p, 1, l->len, f) != l->len)
		err = errno ? errno : EIO;
	if (f && f != l->stream && fclose(f) && !err)
		err = errno ? errno : EIO;
	if (err) {
		if (!c->werr) {
			c->werr = err;
			c->werr_lane = (unsigned int)(l - c->lanes);
		}
		errno = err;
		return -1;
	}
	l->npackets++;
	ctf_packet_open(l);
	return 0;
}

/* A new lane for an event at ts, which the others are past: 0 or -ENOMEM. */
int ctf_lane_add(struct ctf *c, int64_t ts)
{
	struct ctf_lane *n = realloc(c->lanes, (c->nlanes + 1) * sizeof(*n)), *l;

	if (!n)
		return -ENOMEM;
	c->lanes = n;
	l = &n[c->nlanes];
	memset(l, 0, sizeof(*l));
	l->pkt = malloc(CTF_PKT_BUF);
	if (!l->pkt)
		return -ENOMEM;
	/* an overflow marker first closes an empty packet: at ts, not at 0 */
	l->last_ts = ts;
	ctf_packet_open(l);
	c->nlanes++;
	return 0;
}

void ctf_call_free(void *p)
{
	struct ctf_call *k = p;

	sb_free(&k->entry);
	free(k);
}

/* The most of one decoded argument's text a CTF event keeps. */
#define CTF_DECODED_MAX 4096

/* c->t's text from off on, at most CTF_DECODED_MAX bytes ("" if none). */
static void put_text(struct ctf *c, size_t off)
{
	size_t n = c->t.failed || c->t.len < off ? 0 : c->t.len - off;

	put_str(c, n ? c->t.s + off : "", n < CTF_DECODED_MAX ? n : CTF_DECODED_MAX);
}

/*
 * The decoded arguments after a syscall's raw fields, one string each, as
 * ctf_decoded_fields() declares them ("" for one not printed there): at
 * its entry strace's text of each argument the entry prints; at its exit
 * the result, then the arguments the exit brought (a read's buffer, a
 * stat's struct), decoded with the entry's (an ioctl's command).
 */
static void ctf_decoded(struct ctf *c, const struct cli_ev *ev, int exit, int64_t ret)
{
	const struct sysdesc *d = ev->desc;
	int n = sys_nargs(d), i;
	struct ctf_call *k = ev->tid > 0 ? pidmap_get(&c->calls, ev->tid) : NULL;
	const void *data = ev->data, *xdata = NULL;
	size_t len = ev->len, xlen = 0;
	unsigned mask;

	if (!exit) {
		if (!k && ev->tid > 0 && (k = calloc(1, sizeof(*k))) &&
		    pidmap_put(&c->calls, ev->tid, k)) {
			free(k);
			k = NULL;
		}
		if (k) {
			k->id = ev->info.posix_event_id;
			sb_reset(&k->entry);
			sb_putn(&k->entry, data, len);
			if (k->entry.failed)
				k->id = 0;
		}
	} else if (k && k->id + 1 == ev->info.posix_event_id) {
		int has_args = k->entry.len >= offsetof(struct ptbpf_ev_sys_enter, paths);
		uint64_t args[6];

		data = k->entry.s;
		len = k->entry.len;
		xdata = ev->data;
		xlen = ev->len;
		if (has_args)
			memcpy(args, ((const struct ptbpf_ev_sys_enter *)data)->args, sizeof(args));
		sb_reset(&c->t);
		decode_sys_ret(&c->t, d, has_args ? args : NULL, ret);
		put_text(c, 3); /* without its " = " */
		k->id = 0;
	} else {
		/* an exit without its entry: its result alone */
		sb_reset(&c->t);
		decode_sys_ret(&c->t, d, NULL, ret);
		put_text(c, 3);
		data = NULL;
		len = 0;
	}
	mask = data ? decode_sys_argmask(d, data, len) : 0;
	if (exit) {
		struct cap_set x;
		unsigned brought = 0;

		caps_of_exit(&x, xdata, xlen);
		for (i = 0; i < x.n; i++)
			brought |= 1U << (x.c[i].h.arg & 7);
		mask &= brought;
	}
	for (i = 0; i < n; i++) {
		sb_reset(&c->t);
		if (mask & (1U << i))
			decode_sys_arg(&c->t, d, data, len, xdata, xlen, i);
		put_text(c, 0);
	}
}

/* A syscall entry's fields: its number, arguments and paths. */
static void ctf_sys_enter(struct ctf *c, const struct cli_ev *ev)
{
	static const struct ptbpf_ev_sys_enter zero;
	const struct ptbpf_ev_sys_enter *se =
		ev->len >= offsetof(struct ptbpf_ev_sys_enter, paths) ? ev->data : &zero;
	const char *paths[2] = { "", "" };
	size_t plen[2] = { 0, 0 }, off = 0;
	int i;

	for (i = 0; se != &zero && i < 2; i++) {
		size_t pl = se->path_len[i];

		if (pl && offsetof(struct ptbpf_ev_sys_enter, paths) + off + pl <= ev->len) {
			paths[i] = se->paths + off;
			plen[i] = pl;
		}
		off += pl;
	}
	put_s64(c, se->nr);
	for (i = 0; i < 6; i++)
		put_u64(c, se->args[i]);
	put_s32(c, plen[0] ? se->path_arg[0] : -1);
	put_str(c, paths[0], plen[0]);
	put_s32(c, plen[1] ? se->path_arg[1] : -1);
	put_str(c, paths[1], plen[1]);
	put_u32(c, se->flags);
	ctf_decoded(c, ev, 0, 0);
}

/* A syscall exit's fields: its result, duration and late paths. */
static void ctf_sys_exit(struct ctf *c, const struct cli_ev *ev)
{
	struct ptbpf_ev_sys_exit_ext x = { 0 };
	const size_t fixed = offsetof(struct ptbpf_ev_sys_exit_ext, paths);
	const char *late[2] = { "", "" };
	size_t llen[2] = { 0, 0 }, len = ev->len;

	memcpy(&x, ev->data, len < fixed ? len : fixed);
	if (len < fixed)
		/* an older log's 16 bytes: no duration, no late path */
		memset(&x.duration, 0, fixed - offsetof(struct ptbpf_ev_sys_exit_ext, duration));
	if ((size_t)x.path_len[0] + x.path_len[1] <= len - (len < fixed ? len : fixed)) {
		const char *p = (const char *)ev->data + fixed;

		/* each bounded by its length: a path need not end in a NUL */
		late[0] = p;
		llen[0] = x.path_len[0];
		late[1] = p + x.path_len[0];
		llen[1] = x.path_len[1];
	}
	put_s64(c, x.nr);
	put_s64(c, x.ret);
	put_u64(c, x.duration);
	put_u32(c, x.flags);
	put_str(c, late[0], llen[0]);
	put_str(c, late[1], llen[1]);
	ctf_decoded(c, ev, 1, x.ret);
}

/*
 * The lane of an event at ts, its packet opened: the first lane whose clock
 * is not past ts (their last timestamps decrease from the first on, so it
 * is the one nearest below, and as many lanes are made as the longest run
 * of ever older events); NULL: no memory.
 */
static struct ctf_lane *ctf_lane_at(struct ctf *c, int64_t ts, int overflow, uint64_t lost_here)
{
	struct ctf_lane *l;
	unsigned int i;

	for (i = 0; i < c->nlanes && ts < c->lanes[i].last_ts; i++)
		;
	if (i == c->nlanes && ctf_lane_add(c, ts))
		return NULL;
	l = &c->lanes[i];
	if (overflow) {
		/* events were lost here: a new packet with a larger discarded count */
		ctf_packet_close(c, l);
		l->discarded += lost_here;
	} else if (l->len >= CTF_PACKET_MAX) {
		ctf_packet_close(c, l);
	}
	l->last_ts = ts;
	if (l->ts_begin < 0)
		l->ts_begin = ts;
	l->ts_end = ts;
	return l;
}

/* Writes ev (its own timestamp) into a lane: 0, or -ENOMEM. */
int ctf_event(struct ctf *c, const struct cli_ev *ev, uint64_t lost_here)
{
	trace_event_id_t id = ev->info.posix_event_id;
	int64_t ts = ts_ns(&ev->info.posix_timestamp);
	size_t len = ev->len;

	if (id >= PTBPF_EV_ID_LIMIT)
		return 0;
	c->l = ctf_lane_at(c, ts, id == POSIX_TRACE_OVERFLOW, lost_here);
	if (!c->l)
		return -ENOMEM;
	if (!c->seen[id]) {
		c->seen[id] = 1;
		snprintf(c->names[id], TRACE_EVENT_NAME_MAX, "%s", ev->name);
	}
	put_u32(c, id);
	put_u64(c, ts);
	put_s32(c, ev->info.posix_pid);
	put_s32(c, ev->tid);
	switch (layout_of(id)) {
	case L_SYS_ENTER:
		ctf_sys_enter(c, ev);
		break;
	case L_SYS_EXIT:
		ctf_sys_exit(c, ev);
		break;
	case L_FIELDS:
		ctf_fields_walk(c, NULL, ptbpf_event_desc(id), ev->data, len);
		break;
	case L_GENERIC:
		if (len > 65536)
			len = 65536;
		put_u32(c, len);
		put(c, ev->data, len);
		break;
	}
	c->nevents++;
	return 0;
}
