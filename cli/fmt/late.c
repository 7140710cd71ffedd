/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: paths a syscall's entry could not read (their page was not mapped
 * yet), which its exit brings (struct ptbpf_ev_sys_exit_ext): the entry's
 * line gets them in place of the pointer, as strace shows it.
 */
#include <stddef.h>
#include <string.h>
#include <ptbpf/ptbpf.h>

#include "fmt/fmt.h"
#include "decode/caps.h"

#define ENT_FIXED  offsetof(struct ptbpf_ev_sys_enter, paths)
#define EXIT_FIXED offsetof(struct ptbpf_ev_sys_exit_ext, paths)
#define FAULTS	   (PTBPF_SYS_PATH0_FAULT | PTBPF_SYS_PATH1_FAULT)

static const uint16_t path_fault[2] = { PTBPF_SYS_PATH0_FAULT, PTBPF_SYS_PATH1_FAULT };
static const uint16_t path_trunc[2] = { PTBPF_SYS_PATH0_TRUNCATED, PTBPF_SYS_PATH1_TRUNCATED };

/* The late paths of an exit payload, or NULL (none, or a short payload). */
static const struct ptbpf_ev_sys_exit_ext *late_of(const void *data, size_t len)
{
	const struct ptbpf_ev_sys_exit_ext *x = data;

	if (len < EXIT_FIXED || (size_t)x->path_len[0] + x->path_len[1] > len - EXIT_FIXED)
		return NULL;
	return x->path_len[0] || x->path_len[1] ? x : NULL;
}

void fmt_late_keep(struct sbuf *keep, const struct cli_ev *ev)
{
	const struct ptbpf_ev_sys_enter *se = ev->data;

	sb_truncate(keep, 0);
	if (ev->len >= ENT_FIXED && (se->flags & (FAULTS | PTBPF_SYS_CAPS_AT_EXIT)))
		sb_putn(keep, ev->data, ev->len);
}

int fmt_late_faults(const struct sbuf *keep)
{
	struct ptbpf_ev_sys_enter h;

	if (keep->len < ENT_FIXED)
		return 0;
	memcpy(&h, keep->s, ENT_FIXED);
	return (h.flags & FAULTS) != 0;
}

/*
 * The entry payload ent with the paths of x in place of those it lacked:
 * into out (a struct ptbpf_ev_sys_enter); 0, or -1 when ent is malformed.
 */
static int late_merge(struct sbuf *out, const struct ptbpf_ev_sys_enter *ent, size_t elen,
		      const struct ptbpf_ev_sys_exit_ext *x)
{
	struct ptbpf_ev_sys_enter h;
	const char *from[2];
	size_t off = 0, xoff = 0;
	int i;

	if (elen < ENT_FIXED || (size_t)ent->path_len[0] + ent->path_len[1] > elen - ENT_FIXED)
		return -1;
	memcpy(&h, ent, ENT_FIXED);
	for (i = 0; i < 2; i++) {
		from[i] = ent->paths + off;
		off += ent->path_len[i];
		if (x->path_len[i] && (ent->flags & path_fault[i])) {
			from[i] = x->paths + xoff;
			h.path_len[i] = x->path_len[i];
			h.flags &= ~(path_fault[i] | path_trunc[i]);
			h.flags |= x->flags & path_trunc[i];
		}
		xoff += x->path_len[i];
	}
	sb_truncate(out, 0);
	sb_putn(out, (const char *)&h, ENT_FIXED);
	for (i = 0; i < 2; i++)
		sb_putn(out, from[i], h.path_len[i]);
	/* the entry's captures follow its paths */
	sb_putn(out, ent->paths + off, elen - ENT_FIXED - off);
	return out->failed ? -1 : 0;
}

void fmt_late_redo(struct sbuf *text, const struct sbuf *keep, const char *sys,
		   const struct cli_ev *exit_ev)
{
	const struct ptbpf_ev_sys_exit_ext *x = late_of(exit_ev->data, exit_ev->len);
	struct sbuf merged = { 0 };
	struct cap_set caps;

	caps_of_exit(&caps, exit_ev->data, exit_ev->len);
	if (!keep->len || (!x && !caps.n))
		return;
	if (!x) {
		sb_truncate(text, 0);
		decode_sys_call(text, sys, exit_ev->desc, keep->s, keep->len, exit_ev->data,
				exit_ev->len);
		return;
	}
	if (!late_merge(&merged, (const void *)keep->s, keep->len, x)) {
		sb_truncate(text, 0);
		decode_sys_call(text, sys, exit_ev->desc, merged.s, merged.len, exit_ev->data,
				exit_ev->len);
	}
	sb_free(&merged);
}

void fmt_late_json(struct sbuf *b, const void *data, size_t len)
{
	const struct ptbpf_ev_sys_exit_ext *x = late_of(data, len);
	size_t off = 0;
	int i, first = 1;

	if (!x)
		return;
	sb_puts(b, ",\"late_paths\":[");
	for (i = 0; i < 2; i++) {
		size_t pl = x->path_len[i];

		if (!pl && !(x->flags & path_fault[i]))
			continue;
		sb_printf(b, "%s{\"path_index\":%d,\"path\":", first ? "" : ",", i);
		first = 0;
		if (pl)
			sb_json_str(b, x->paths + off, strnlen(x->paths + off, pl));
		else
			sb_puts(b, "null");
		sb_printf(b, ",\"truncated\":%s}", (x->flags & path_trunc[i]) ? "true" : "false");
		off += pl;
	}
	sb_putc(b, ']');
}
