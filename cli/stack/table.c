// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -k: the stacks a stream stored once (stack_trace, by id) and the
 * stack_ref events that refer to them: frame-pointer user stacks and
 * kernel stacks, whose addresses the kernel walked at the event.
 */
#include <stdlib.h>
#include <string.h>
#include <ptbpf/events.h>

#include "stack/stack_int.h"

/* user addresses: above the first page, below the canonical hole (x86_64)
 * or the largest user address space (arm64's 52 bits) */
#define USER_ADDR_MIN 0x1000ull
#if defined(__aarch64__)
#define USER_ADDR_END 0x10000000000000ull
#else
#define USER_ADDR_END 0x800000000000ull
#endif

void stack_view_table(struct stack_view *s, const void *data, size_t len)
{
	const size_t fixed = offsetof(struct ptbpf_ev_stack_trace, ips);
	struct ptbpf_ev_stack_trace t, *copy;
	void *old;

	if (len < fixed)
		return;
	memcpy(&t, data, fixed);
	/* untrusted: as many addresses as the event holds, no more */
	if (!t.nr || t.nr > PTBPF_STACK_TRACE_MAX || (len - fixed) / sizeof(uint64_t) < t.nr ||
	    !t.stack_id || t.stack_id > INT32_MAX)
		return;
	copy = malloc(fixed + t.nr * sizeof(uint64_t));
	if (!copy)
		return;
	memcpy(copy, data, fixed + t.nr * sizeof(uint64_t));
	old = pidmap_del(&s->tables, (pid_t)t.stack_id);
	free(old);
	if (pidmap_put(&s->tables, (pid_t)t.stack_id, copy))
		free(copy);
}

/* The frames of stack id (kernel ones or not) appended to fr. */
static int ref_frames(struct stack_view *s, pid_t pid, uint32_t id, int kernel, size_t depth,
		      struct stack_frames *fr)
{
	const struct ptbpf_ev_stack_trace *t;
	size_t start = fr->n, cut;
	int n = 0;

	if (!id || id > INT32_MAX)
		return 0;
	t = pidmap_get(&s->tables, (pid_t)id);
	if (!t || !(t->flags & PTBPF_STACK_TRACE_KERNEL) != !kernel)
		return 0; /* lost, filtered, or not what the ref says: none */
	for (unsigned int i = 0; i < t->nr; i++, n++) {
		/* the first address is where the thread was, the others
		 * return addresses */
		if (!kernel) {
			/* frame pointers that lead out of user space: no
			 * stack from here on (a function without them used
			 * the register) */
			if (t->ips[i] < USER_ADDR_MIN || t->ips[i] >= USER_ADDR_END)
				break;
			if (stack_view_add_frame(s, pid, fr, t->ips[i], !i))
				return -1;
			continue;
		}
		if (stack_view_add_frame(s, 0, fr, 0, 1))
			return -1;
		stack_kernel_resolve(&fr->f[fr->n - 1], t->ips[i], !i);
	}
	if (!kernel)
		return n;
	/* as perf leaves its own frames out */
	cut = stack_kernel_tracer_frames(fr->f + start, fr->n - start);
	for (size_t i = start; i < start + cut; i++) {
		free(fr->f[i].module);
		free(fr->f[i].symbol);
		free(fr->f[i].file);
	}
	memmove(fr->f + start, fr->f + start + cut, (fr->n - start - cut) * sizeof(*fr->f));
	fr->n -= cut;
	n -= (int)cut;
	/* the frames taken past the depth for the tracing's own */
	while (depth && (size_t)n > depth) {
		n--;
		fr->n--;
		free(fr->f[fr->n].module);
		free(fr->f[fr->n].symbol);
		free(fr->f[fr->n].file);
	}
	return n;
}

int stack_view_ref(struct stack_view *s, pid_t pid, const void *data, size_t len,
		   struct stack_frames **fr)
{
	struct ptbpf_ev_stack_ref r;
	int nu, nk;

	if (len < sizeof(r))
		return 0;
	memcpy(&r, data, sizeof(r));
	if (!*fr && !(*fr = calloc(1, sizeof(**fr))))
		return -1;
	nu = ref_frames(s, pid, r.user_id, 0, r.depth, *fr);
	nk = nu < 0 ? -1 : ref_frames(s, pid, r.kernel_id, 1, r.depth, *fr);
	return nk < 0 ? -1 : nu + nk;
}
