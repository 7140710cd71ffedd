/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * Probes of unmodified programs: uprobes, uretprobes and USDT probes,
 * attached by src/backend/probe.c. Included at the end of kern.bpf.c:
 * they write into its rings, through its filter (want()) and pids map, so
 * that their events merge with the others by timestamp. One program per
 * kind serves every probe: the BPF cookie of each attachment (bpf/probe.h)
 * says which event type it is and which arguments are strings. Loaded
 * only on kernels with BPF cookies (5.15+: src/backend/probe.c).
 */
#ifndef PTBPF_BPF_PROBE_BPF_H
#define PTBPF_BPF_PROBE_BPF_H

#include <bpf/usdt.bpf.h>
#include "probe.h"

#define PROBE_FIXED __builtin_offsetof(struct ptbpf_ev_probe, strs)

struct probe_scratch {
	struct kern_rec rec;
	union {
		struct ptbpf_ev_probe ev;
		/* one string more than used: every read may take PTBPF_PROBE_STR_MAX */
		char raw[PROBE_FIXED + (PTBPF_PROBE_STRS_MAX + 1) * PTBPF_PROBE_STR_MAX];
	};
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct probe_scratch);
} probe_scratch_map SEC(".maps");

/* The string arguments of s's event the cookie lists: their bytes. */
static __always_inline __u32 probe_strings(struct probe_scratch *s, __u64 cookie)
{
	__u32 n = PROBE_COOKIE_NSTRS(cookie), off = 0, i;

	for (i = 0; i < PTBPF_PROBE_STRS_MAX; i++) {
		__u32 a = PROBE_COOKIE_STR_ARG(cookie, i);
		long len;

		if (i >= n || a >= PTBPF_PROBE_ARGS_MAX)
			break;
		off &= PTBPF_PROBE_STRS_MAX * PTBPF_PROBE_STR_MAX - 1;
		len = bpf_probe_read_user_str(s->raw + PROBE_FIXED + off, PTBPF_PROBE_STR_MAX,
					      (const void *)s->ev.args[a]);
		if (len < 0) {
			s->ev.flags |= PTBPF_PROBE_STR_FAULT;
			len = 0;
		} else if (len == PTBPF_PROBE_STR_MAX) {
			s->ev.flags |= PTBPF_PROBE_STR_TRUNCATED;
		}
		s->ev.str_arg[i] = a;
		s->ev.str_len[i] = len;
		off += len;
	}
	s->ev.nstrs = i;
	return off;
}

/* Write the event of a probe whose arguments are in s->ev.args. */
static __always_inline int probe_emit(struct probe_scratch *s, struct pt_regs *ctx, __u64 cookie,
				      __u32 kind, __u32 nargs)
{
	__u64 pt = bpf_get_current_pid_tgid();
	__u32 id = PROBE_COOKIE_ID(cookie), size;

	s->ev.kind = kind;
	s->ev.nargs = nargs;
	s->ev.flags = 0;
	size = PROBE_FIXED + probe_strings(s, cookie);
	rec_fill_ids(&s->rec, id, size, pt >> 32, (__u32)pt,
		     task_thread((struct task_struct *)bpf_get_current_task()), PT_REGS_IP(ctx));
	if (s->ev.flags & PTBPF_PROBE_STR_TRUNCATED)
		s->rec.flags |= KERN_REC_TRUNCATED;
	size += sizeof(s->rec);
	if (size > sizeof(*s))
		return 0;
	rec_output(s, size);
	return 0;
}

/*
 * The scratch record of this CPU if the current task's event is wanted:
 * want() without its filter, since probe ids are user event ids, which the
 * core filters.
 */
static __always_inline struct probe_scratch *probe_begin(void)
{
	__u64 pt = bpf_get_current_pid_tgid();
	__u32 zero = 0, tid = (__u32)pt;

	if (!pid_traced(pt >> 32) || !enabled)
		return NULL;
	if (nr_excluded && bpf_map_lookup_elem(&excluded, &tid))
		return NULL;
	return bpf_map_lookup_elem(&probe_scratch_map, &zero);
}

SEC("uprobe")
int BPF_KPROBE(ptbpf_uprobe)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	struct probe_scratch *s = probe_begin();

	if (!s)
		return 0;
	__builtin_memset(s->ev.args, 0, sizeof(s->ev.args));
	s->ev.args[0] = PT_REGS_PARM1(ctx);
	s->ev.args[1] = PT_REGS_PARM2(ctx);
	s->ev.args[2] = PT_REGS_PARM3(ctx);
	s->ev.args[3] = PT_REGS_PARM4(ctx);
	s->ev.args[4] = PT_REGS_PARM5(ctx);
#if defined(__TARGET_ARCH_x86)
	s->ev.args[5] = ctx->r9;
#elif defined(__TARGET_ARCH_arm64)
	/* libbpf 1.1 has no PT_REGS_PARM6: x5 */
	s->ev.args[5] = __PT_REGS_CAST(ctx)->regs[5];
#else
	s->ev.args[5] = PT_REGS_PARM6(ctx);
#endif
	return probe_emit(s, ctx, cookie, PTBPF_PROBE_UPROBE, 6);
}

SEC("uretprobe")
int BPF_KRETPROBE(ptbpf_uretprobe)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	struct probe_scratch *s = probe_begin();

	if (!s)
		return 0;
	__builtin_memset(s->ev.args, 0, sizeof(s->ev.args));
	s->ev.args[0] = PT_REGS_RC(ctx);
	return probe_emit(s, ctx, cookie, PTBPF_PROBE_URETPROBE, 1);
}

SEC("usdt")
int ptbpf_usdt(struct pt_regs *ctx)
{
	__u64 cookie = bpf_usdt_cookie(ctx);
	struct probe_scratch *s = probe_begin();
	int n;

	if (!s)
		return 0;
	n = bpf_usdt_arg_cnt(ctx);
	if (n < 0)
		n = 0;
	for (int i = 0; i < PTBPF_PROBE_ARGS_MAX; i++) {
		long v = 0;

		if (i < n)
			bpf_usdt_arg(ctx, i, &v);
		s->ev.args[i] = v;
	}
	return probe_emit(s, ctx, cookie, PTBPF_PROBE_USDT, n > PTBPF_PROBE_ARGS_MAX ? 0 : n);
}

#endif
