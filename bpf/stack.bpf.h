/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * Stacks whose return addresses the kernel knows at the event, included
 * by kern.bpf.c after user_stack(): the user stack walked along its frame
 * pointers and the kernel stack (bpf_get_stack), as one KERN_ID_STACK
 * record after the syscall entry. User space stores each distinct stack
 * once (stack_trace events) and the event's stack_ref refers to them.
 */
#ifndef PTBPF_BPF_STACK_H
#define PTBPF_BPF_STACK_H

/* KERN_STACK_*: which stacks; stack_depth: frames of each (1 ..
 * PTBPF_STACK_DEPTH_MAX) */
const volatile __u32 stack_ips = 0;
const volatile __u32 stack_depth = PTBPF_STACK_DEPTH_DEFAULT;

#define STACK_AREA_MASK 2047 /* above the bytes of an area (see kern.h) */
#if (PTBPF_STACK_DEPTH_MAX + KERN_STACK_TRACER_FRAMES) * 8 > STACK_AREA_MASK
#error "a stack area does not fit STACK_AREA_MASK"
#endif

static __always_inline void stack_ips_event(void *ctx, __u32 nr, __u32 tgid, __u32 tid,
					    __u64 thread, __u64 ip)
{
	__u32 zero = 0, area = (stack_depth * 8) & STACK_AREA_MASK, koff = 0, size;
	/* the kernel's from here: the tracing's own frames first */
	__u32 karea = ((stack_depth + KERN_STACK_TRACER_FRAMES) * 8) & STACK_AREA_MASK;
	struct kern_stack *ks;
	struct stack_scratch *s;
	long n;

	if (!(stack_nrs[(nr / 64) & (PTBPF_SYSCALL_NR_MAX / 64 - 1)] & (1ULL << (nr % 64))) ||
	    !(filter_bits[PTBPF_EV_STACK_REF / 64] & (1ULL << (PTBPF_EV_STACK_REF % 64))))
		return;
	s = bpf_map_lookup_elem(&stack_map, &zero);
	if (!s)
		return;
	ks = (struct kern_stack *)s->raw;
	ks->event_id = PTBPF_EV_SYS_ENTER(nr);
	ks->nuser = 0;
	ks->nkernel = 0;
	if (stack_ips & KERN_STACK_USER) {
		n = bpf_get_stack(ctx, ks->ips, area, BPF_F_USER_STACK);
		if (n > 0)
			ks->nuser = n / 8;
		koff = area;
	}
	if (stack_ips & KERN_STACK_KERNEL) {
		n = bpf_get_stack(ctx, (__u8 *)ks->ips + (koff & STACK_AREA_MASK), karea, 0);
		if (n > 0)
			ks->nkernel = n / 8;
		koff += karea;
	}
	if (!ks->nuser && !ks->nkernel)
		return;
	size = sizeof(*ks) + (koff & (2 * STACK_AREA_MASK + 1));
	rec_fill_ids(&s->rec, KERN_ID_STACK, size, tgid, tid, thread, ip);
	size += sizeof(s->rec);
	rec_output(s, size);
}

#endif
