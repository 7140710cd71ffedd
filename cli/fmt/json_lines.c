/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: the JSON Lines output (show --json): an event's record, with its
 * fields from fmt_json.c, and the stream's attribute and status records.
 */
#include <stdlib.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "fmt/fmt.h"
#include "decode/abi.h"

static void json_entry_free(void *p)
{
	sb_free(p);
	free(p);
}

void fmt_json_entries_free(struct fmt *f)
{
	pidmap_free(&f->json_entries, json_entry_free);
}

/*
 * An ioctl's exit brings bytes that its entry's command says how to print
 * (an exec's, strings its entry counted): its entry is kept by tid until
 * then. NULL: not known.
 */
static struct sbuf *json_entry_of(struct fmt *f, const struct cli_ev *ev)
{
	trace_event_id_t id = ev->info.posix_event_id;
	struct sbuf *e;

	if (ev->tid <= 0 || !PTBPF_EV_IS_SYSCALL(id) || !sys_exit_uses_entry(ev->desc))
		return NULL;
	if (!PTBPF_EV_SYSCALL_IS_EXIT(id)) {
		e = pidmap_get(&f->json_entries, ev->tid);
		if (!e && (e = calloc(1, sizeof(*e))) && pidmap_put(&f->json_entries, ev->tid, e)) {
			free(e);
			e = NULL;
		}
		if (e) {
			if (e->failed)
				sb_free(e);
			sb_reset(e);
			sb_putn(e, (const char *)ev->data, ev->len);
		}
		return NULL;
	}
	/* its entry's, whole, taken out: the next exit of tid is another
	 * call's (and a thread that is gone keeps no memory) */
	e = pidmap_del(&f->json_entries, ev->tid);
	if (e && (e->failed || !e->len)) {
		json_entry_free(e);
		e = NULL;
	}
	return e;
}

void fmt_json_event(struct fmt *f, const struct cli_ev *ev)
{
	struct sbuf *b = &f->line;
	int64_t ts = ts_ns(&ev->info.posix_timestamp);
	struct sbuf *entry = json_entry_of(f, ev);

	fmt_line_begin(f);
	sb_printf(b,
		  "{\"type\":\"event\",\"ts\":%lld.%09lld,\"ts_ns\":%lld,\"rel_ns\":%lld,"
		  "\"pid\":%d,\"tid\":%d,\"id\":%lu,\"name\":",
		  (long long)ev->info.posix_timestamp.tv_sec,
		  (long long)ev->info.posix_timestamp.tv_nsec, (long long)ts,
		  (long long)(ts - f->origin), (int)ev->info.posix_pid, (int)ev->tid,
		  (unsigned long)ev->info.posix_event_id);
	sb_json_str(b, ev->name, strlen(ev->name));
	sb_printf(b, ",\"address\":\"%#lx\",\"thread\":\"%#lx\",\"truncation\":%d,\"len\":%zu",
		  (unsigned long)ev->info.posix_prog_address,
		  (unsigned long)ev->info.posix_thread_id, ev->info.posix_truncation_status,
		  ev->len);
	if (ev->info.posix_event_id == POSIX_TRACE_OVERFLOW)
		sb_puts(b, ",\"lost_events\":true");
	fmt_json_fields_entry(b, ev, entry ? entry->s : NULL, entry ? entry->len : 0);
	sb_putc(b, '}');
	fmt_line_end(f);
	if (entry)
		json_entry_free(entry);
}

static const char *policy_name(int p)
{
	switch (p) {
	case POSIX_TRACE_LOOP:
		return "loop";
	case POSIX_TRACE_UNTIL_FULL:
		return "until-full";
	case POSIX_TRACE_FLUSH:
		return "flush";
	case POSIX_TRACE_APPEND:
		return "append";
	}
	return "?";
}

int fmt_json_attr(FILE *out, trace_id_t trid)
{
	trace_attr_t a;
	struct sbuf b = { 0 };
	char name[TRACE_NAME_MAX + 1] = "";
	char gen[TRACE_NAME_MAX + 1] = "";
	struct timespec ct = { 0 }, res = { 0 };
	size_t ssz = 0, lsz = 0, mds = 0, sys = 0, usr = 0;
	uint64_t pidns = 0;
	unsigned int machine = 0;
	int inh = 0, sfp = 0, lfp = 0;

	if (posix_trace_attr_init(&a))
		return 0;
	if (posix_trace_get_attr(trid, &a)) {
		posix_trace_attr_destroy(&a);
		return 0;
	}
	posix_trace_attr_getname(&a, name);
	posix_trace_attr_getgenversion(&a, gen);
	posix_trace_attr_getcreatetime(&a, &ct);
	posix_trace_attr_getclockres(&a, &res);
	posix_trace_attr_getstreamsize(&a, &ssz);
	posix_trace_attr_getlogsize(&a, &lsz);
	posix_trace_attr_getmaxdatasize(&a, &mds);
	posix_trace_attr_getmaxsystemeventsize(&a, &sys);
	posix_trace_attr_getmaxusereventsize(&a, 0, &usr);
	posix_trace_attr_getinherited(&a, &inh);
	posix_trace_attr_getstreamfullpolicy(&a, &sfp);
	posix_trace_attr_getlogfullpolicy(&a, &lfp);
	ptbpf_trace_attr_getpidns(&a, &pidns);
	ptbpf_trace_attr_getarch(&a, &machine);
	posix_trace_attr_destroy(&a);
	sb_reset(&b);
	sb_puts(&b, "{\"type\":\"stream\",\"name\":");
	sb_json_str(&b, name, strlen(name));
	sb_puts(&b, ",\"version\":");
	sb_json_str(&b, gen, strlen(gen));
	sb_printf(&b,
		  ",\"create_time\":%lld.%09ld,\"clock_res_ns\":%lld,\"stream_size\":%zu,"
		  "\"log_size\":%zu,\"max_data_size\":%zu,\"max_system_event_size\":%zu,"
		  "\"inherited\":%s,\"stream_full_policy\":\"%s\",\"log_full_policy\":\"%s\"",
		  (long long)ct.tv_sec, ct.tv_nsec, (long long)ts_ns(&res), ssz, lsz, mds, sys,
		  inh == POSIX_TRACE_INHERITED ? "true" : "false", policy_name(sfp),
		  policy_name(lfp));
	/* whose syscall numbers and structures the events carry */
	if (dec_abi_arch_of(machine) >= 0)
		sb_printf(&b, ",\"arch\":\"%s\"", dec_abi(dec_abi_arch_of(machine))->name);
	/* whose pids the events carry (absent: a log of an older version) */
	if (pidns)
		sb_printf(&b, ",\"pid_namespace\":%llu", (unsigned long long)pidns);
	sb_puts(&b, "}\n");
	if (b.failed) {
		sb_free(&b);
		return -1;
	}
	fwrite(b.s, 1, b.len, out);
	sb_free(&b);
	return 0;
}

void fmt_json_status(FILE *out, trace_id_t trid, uint64_t nevents, uint64_t noverflow)
{
	struct posix_trace_status_info st;
	struct ptbpf_counters c = { .sz = sizeof(c) };

	fprintf(out, "{\"type\":\"status\",\"events\":%llu,\"overflows\":%llu",
		(unsigned long long)nevents, (unsigned long long)noverflow);
	if (!posix_trace_get_status(trid, &st))
		fprintf(out, ",\"stream_overrun\":%s,\"log_overrun\":%s,\"stream_full\":%s",
			st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN ? "true" : "false",
			st.posix_log_overrun_status == POSIX_TRACE_OVERRUN ? "true" : "false",
			st.posix_stream_full_status == POSIX_TRACE_FULL ? "true" : "false");
	if (!ptbpf_trace_get_counters(trid, &c))
		fprintf(out, ",\"recorded\":%llu,\"lost\":%llu", (unsigned long long)c.recorded,
			(unsigned long long)c.lost);
	fprintf(out, "}\n");
}
