/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf convert --to ctf: a CTF 1.8 trace directory (metadata and
 * stream_0) for babeltrace2 and Trace Compass.
 *
 * An event older than the last one (a starved source's, which the library
 * reports late with its own timestamp) goes into another data stream of the
 * same class, stream_0_1, stream_0_2, ...: a CTF stream's clock never goes
 * backwards, and readers merge the streams by time.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>
#include <ptbpf/evfields.h>

#include "convert/convert.h"
#include "decode/decode.h"

static char databuf[65536];

#define CTF_MAGIC      0xC1FC1FC1u
#define CTF_PACKET_MAX (256 * 1024)

enum ctf_layout {
	L_GENERIC, /* uint32 len; uint8 data[len] */
	L_SYS_ENTER,
	L_SYS_EXIT,
	L_FIELDS, /* the event's description (<ptbpf/evfields.h>), walked by ctf_fields_walk */
};

static enum ctf_layout layout_of(trace_event_id_t id)
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
static const char *ctf_int_type(const struct ptbpf_event_field *f)
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
static void ctf_fields_walk(struct ctf *c, struct sbuf *meta, const struct ptbpf_event_desc *d,
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
static void ctf_lane_path(char *path, size_t size, const char *dir, unsigned int i)
{
	if (i)
		snprintf(path, size, "%s/stream_0_%u", dir, i);
	else
		snprintf(path, size, "%s/stream_0", dir);
}

/* Writes l's packet to its file and starts the next: 0, or -1 (errno, c->werr). */
static int ctf_packet_close(struct ctf *c, struct ctf_lane *l)
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
static int ctf_lane_add(struct ctf *c, int64_t ts)
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

static void ctf_call_free(void *p)
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
static int ctf_event(struct ctf *c, const struct cli_ev *ev, uint64_t lost_here)
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

static const char *ctf_fields(enum ctf_layout l)
{
	switch (l) {
	case L_FIELDS:
		break; /* ctf_fields_walk */
	case L_SYS_ENTER:
		return "\t\tint64_t nr;\n\t\txuint64_t arg0;\n\t\txuint64_t arg1;\n"
		       "\t\txuint64_t arg2;\n\t\txuint64_t arg3;\n\t\txuint64_t arg4;\n"
		       "\t\txuint64_t arg5;\n\t\tint32_t path0_arg;\n\t\tstring path0;\n"
		       "\t\tint32_t path1_arg;\n\t\tstring path1;\n\t\tuint32_t flags;\n";
	case L_SYS_EXIT:
		/* late_path0/1: paths the entry could not read (its
		 * PTBPF_SYS_PATH*_FAULT), "" for none; late_flags: their
		 * _TRUNCATED and _FAULT bits (struct ptbpf_ev_sys_exit_ext) */
		return "\t\tint64_t nr;\n\t\tint64_t ret;\n\t\tuint64_t duration;\n"
		       "\t\tuint32_t late_flags;\n\t\tstring late_path0;\n\t\tstring late_path1;\n";
	case L_GENERIC:
		break;
	}
	return "\t\tuint32_t len;\n\t\tuint8_t data[len];\n";
}

/*
 * The decoded fields of a syscall event (ctf_decoded() writes them): a
 * struct, its fields named after the arguments with a leading underscore,
 * which readers drop (so that "event" or "string" is not a keyword), as
 * LTTng names its syscalls' fields.
 */
static void ctf_decoded_fields(struct sbuf *f, const char *ev_name, int exit)
{
	const char *sys = ev_name + sys_name_offset(ev_name);
	int n = sys_nargs(sys_desc(sys)), i;

	sb_puts(f, "\t\tstruct {\n");
	if (exit)
		sb_puts(f, "\t\t\tstring _ret;\n");
	for (i = 0; i < n; i++) {
		const char *a = sys_arg_name(sys, i);

		sb_puts(f, "\t\t\tstring _");
		if (a)
			for (; *a; a++)
				sb_putc(f, (*a >= 'a' && *a <= 'z') || (*a >= 'A' && *a <= 'Z') ||
							   (*a >= '0' && *a <= '9')
						   ? *a
						   : '_');
		else
			sb_printf(f, "arg%d", i);
		sb_puts(f, ";\n");
	}
	sb_puts(f, "\t\t} decoded;\n");
}

/* s as a CTF string literal, in q (failed: "", and q says so). */
static const char *ctf_quoted(struct sbuf *q, const char *s)
{
	sb_reset(q);
	sb_quote(q, s, strlen(s));
	return q->failed ? "" : q->s;
}

/* Writes dir/metadata; 0 or a negative errno (-ENOMEM: out of memory). */
static int ctf_metadata(struct ctf *c, const char *dir, trace_id_t trid)
{
	char path[4096], gen[TRACE_NAME_MAX + 1] = "", name[TRACE_NAME_MAX + 1] = "";
	struct sbuf q = { 0 }, f = { 0 };
	trace_attr_t a;
	FILE *m;
	int id, err = 0;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	m = fopen(path, "w");
	if (!m)
		return -errno;
	if (!posix_trace_attr_init(&a)) {
		if (!posix_trace_get_attr(trid, &a)) {
			posix_trace_attr_getgenversion(&a, gen);
			posix_trace_attr_getname(&a, name);
		}
		posix_trace_attr_destroy(&a);
	}
	fprintf(m,
		"/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; base = 16; } := "
		"xuint64_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
		"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = %s;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint32_t "
		"stream_id;\n\t};\n};\n\n",
		__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "le" : "be");
	fprintf(m,
		"env {\n\tdomain = \"ptbpf\";\n\ttracer_name = \"ptbpf\";\n"
		"\ttracer_major = %d;\n\ttracer_minor = %d;\n\ttracer_patch = %d;\n",
		PTBPF_VERSION_MAJOR, PTBPF_VERSION_MINOR, PTBPF_VERSION_PATCH);
	fprintf(m, "\tgenerator = %s;\n", ctf_quoted(&q, gen));
	fprintf(m, "\ttrace_name = %s;\n};\n\n", ctf_quoted(&q, name));
	fprintf(m,
		"clock {\n\tname = realtime;\n\tdescription = \"CLOCK_REALTIME\";\n"
		"\tfreq = 1000000000;\n\tprecision = 1;\n\toffset_s = 0;\n\toffset = 0;\n"
		"\tabsolute = true;\n};\n\n"
		"typealias integer { size = 64; align = 8; signed = false; "
		"map = clock.realtime.value; } := ctf_clock_t;\n\n"
		"stream {\n\tid = 0;\n"
		"\tpacket.context := struct {\n\t\tctf_clock_t timestamp_begin;\n"
		"\t\tctf_clock_t timestamp_end;\n\t\tuint64_t content_size;\n"
		"\t\tuint64_t packet_size;\n\t\tuint64_t events_discarded;\n\t};\n"
		"\tevent.header := struct {\n\t\tuint32_t id;\n\t\tctf_clock_t timestamp;\n\t};\n"
		"\tevent.context := struct {\n\t\tint32_t pid;\n\t\tint32_t tid;\n\t};\n};\n");
	for (id = 0; id < PTBPF_EV_ID_LIMIT; id++) {
		if (!c->seen[id])
			continue;
		fprintf(m,
			"\nevent {\n\tname = %s;\n\tid = %d;\n\tstream_id = 0;\n"
			"\tfields := struct {\n",
			ctf_quoted(&q, c->names[id]), id);
		if (layout_of(id) == L_FIELDS) {
			sb_reset(&f);
			ctf_fields_walk(NULL, &f, ptbpf_event_desc((trace_event_id_t)id), NULL, 0);
			fputs(f.failed ? "" : f.s, m);
			err = f.failed ? -ENOMEM : 0;
		} else {
			fputs(ctf_fields(layout_of(id)), m);
			if (layout_of(id) == L_SYS_ENTER || layout_of(id) == L_SYS_EXIT) {
				sb_reset(&f);
				ctf_decoded_fields(&f, c->names[id], layout_of(id) == L_SYS_EXIT);
				fputs(f.failed ? "" : f.s, m);
				err = f.failed ? -ENOMEM : 0;
			}
		}
		fputs("\t};\n};\n", m);
	}
	if (q.failed)
		err = -ENOMEM;
	sb_free(&q);
	sb_free(&f);
	if (fclose(m) && !err)
		err = -errno;
	return err;
}

/* 1 if dir holds an entry besides . and .., 0 if not, -1 (errno) if unreadable */
static int dir_has_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while (!found && (e = readdir(d)))
		found = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return found;
}

/*
 * The output directory, created if need be: another trace (or anything
 * else) already in it is replaced only when asked, as a user who typed an
 * old name by mistake would lose it otherwise.
 */
static int ctf_output_dir(const char *dir, int force)
{
	int has;

	if (!mkdir(dir, 0755))
		return 0;
	if (errno != EEXIST) {
		cli_err("cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	has = dir_has_entries(dir);
	if (has < 0) {
		cli_err("cannot use %s: %s", dir, strerror(errno));
		return -1;
	}
	if (has && !force) {
		cli_err("%s exists and is not empty (--force writes the trace into it)", dir);
		return -1;
	}
	return 0;
}

/* The losses of a log: a marker carries the count of its gap, and the
 * losses of a log written without counts are spread over the markers that
 * have none. */
struct ctf_losses {
	uint64_t noverflow; /* markers */
	uint64_t uncounted; /* markers without a count */
	uint64_t total;	    /* what the markers without a count share */
	uint64_t seen;	    /* markers without a count written so far */
};

/* Pass 1 over the log: its markers; 0 or an exit code (said). */
static int ctf_count_losses(trace_id_t trid, struct ctf_losses *l)
{
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	struct cli_ev ev;
	uint64_t counted = 0;
	int unav = 0, err;

	memset(l, 0, sizeof(*l));
	for (;;) {
		err = cli_ev_next(trid, &ev, databuf, sizeof(databuf), &unav);
		if (err || unav)
			break;
		if (ev.info.posix_event_id != POSIX_TRACE_OVERFLOW)
			continue;
		l->noverflow++;
		if (ev.len < sizeof(uint64_t))
			l->uncounted++;
		else
			counted += overflow_count(ev.data);
	}
	if (err) {
		cli_err("reading the log: %s", strerror(err));
		return CLI_EXIT_BADLOG;
	}
	l->total = l->uncounted;
	if (!ptbpf_trace_get_counters(trid, &cnt) && cnt.lost > counted &&
	    cnt.lost - counted > l->total)
		l->total = cnt.lost - counted;
	err = posix_trace_rewind(trid);
	if (err) {
		cli_err("rewinding the log: %s", strerror(err));
		return CLI_EXIT_BADLOG;
	}
	return 0;
}

/* The events lost in the gap of marker ev. */
static uint64_t ctf_lost_here(struct ctf_losses *l, const struct cli_ev *ev)
{
	if (ev->info.posix_event_id != POSIX_TRACE_OVERFLOW)
		return 0;
	if (ev->len >= sizeof(uint64_t))
		return overflow_count(ev->data);
	l->seen++;
	/* 1 each, the rest of the counted losses on the last marker */
	return l->seen < l->uncounted ? 1 : l->total - (l->uncounted - 1);
}

/* Pass 2: the events into the lanes; 0 or an exit code (said). */
static int ctf_write_events(struct ctf *c, trace_id_t trid, struct ctf_losses *l)
{
	struct cli_ev ev;
	int unav = 0, err;

	for (;;) {
		err = cli_ev_next(trid, &ev, databuf, sizeof(databuf), &unav);
		if (err) {
			cli_err("reading the log: %s", strerror(err));
			return CLI_EXIT_BADLOG;
		}
		if (unav)
			return 0;
		if (ctf_event(c, &ev, ctf_lost_here(l, &ev))) {
			cli_err("out of memory");
			return CLI_EXIT_FAIL;
		}
	}
}

/*
 * Losses without overflow markers in the log (only the overrun status says
 * so): one empty packet at the end carries them, at least 1 when the count
 * is unknown.
 */
static void ctf_unplaced_losses(struct ctf *c, trace_id_t trid, const struct ctf_losses *l)
{
	struct posix_trace_status_info st;
	uint64_t unplaced = l->noverflow ? 0 : l->total;

	if (!unplaced && !l->noverflow && !posix_trace_get_status(trid, &st) &&
	    (st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN ||
	     st.posix_log_overrun_status == POSIX_TRACE_OVERRUN))
		unplaced = 1;
	if (unplaced) {
		ctf_packet_close(c, &c->lanes[0]);
		c->lanes[0].discarded += unplaced;
	}
}

/* The lanes closed, stale ones removed, the metadata written; ret or an
 * exit code (said). */
static int ctf_finish(struct ctf *c, trace_id_t trid, const char *dir, int ret)
{
	char path[4096];
	unsigned int i;
	int err;

	for (i = 0; i < c->nlanes; i++)
		ctf_packet_close(c, &c->lanes[i]);
	if (!c->werr && fflush(c->lanes[0].stream))
		c->werr = errno;
	if (c->werr) {
		ctf_lane_path(path, sizeof(path), dir, c->werr_lane);
		cli_err("writing %s: %s", path, strerror(c->werr));
		ret = CLI_EXIT_FAIL;
	}
	/* late streams of a trace this one replaces (--force) would join it */
	for (i = c->nlanes;; i++) {
		ctf_lane_path(path, sizeof(path), dir, i);
		if (unlink(path))
			break;
	}
	err = ret ? 0 : ctf_metadata(c, dir, trid);
	if (err == -ENOMEM)
		cli_err("out of memory");
	else if (err)
		cli_err("writing %s/metadata: %s", dir, strerror(-err));
	return err ? CLI_EXIT_FAIL : ret;
}

int convert_ctf(trace_id_t trid, const char *dir, int force)
{
	struct ctf c;
	struct ctf_losses l;
	char path[4096];
	int ret;
	unsigned int i;

	if (ctf_output_dir(dir, force))
		return CLI_EXIT_FAIL;
	ret = ctf_count_losses(trid, &l);
	if (ret)
		return ret;
	memset(&c, 0, sizeof(c));
	c.dir = dir;
	c.names = calloc(PTBPF_EV_ID_LIMIT, sizeof(*c.names));
	ctf_lane_path(path, sizeof(path), dir, 0);
	if (!c.names || ctf_lane_add(&c, 0) || !(c.lanes[0].stream = fopen(path, "w"))) {
		cli_err("cannot create %s: %s", path, strerror(errno));
		ret = CLI_EXIT_FAIL;
		goto out;
	}
	ret = ctf_write_events(&c, trid, &l);
	if (!ret)
		ctf_unplaced_losses(&c, trid, &l);
	ret = ctf_finish(&c, trid, dir, ret);
out:
	if (c.nlanes && c.lanes[0].stream && fclose(c.lanes[0].stream) && !ret) {
		ctf_lane_path(path, sizeof(path), dir, 0);
		cli_err("writing %s: %s", path, strerror(errno));
		ret = CLI_EXIT_FAIL;
	}
	for (i = 0; i < c.nlanes; i++)
		free(c.lanes[i].pkt);
	free(c.lanes);
	free(c.names);
	pidmap_free(&c.calls, ctf_call_free);
	sb_free(&c.t);
	return ret;
}
