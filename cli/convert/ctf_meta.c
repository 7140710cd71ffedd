/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf convert --to ctf: the trace's metadata (CTF 1.8's TSDL). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "convert/ctf_int.h"

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
int ctf_metadata(struct ctf *c, const char *dir, trace_id_t trid)
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
