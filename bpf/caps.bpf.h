/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Captures of the memory syscall arguments point to (struct ptbpf_sys_cap
 * in include/ptbpf/events.h), walking the table of kern_cap_spec that
 * user space sets before load: included by kern.bpf.c, into whose scratch
 * record the captures go after the paths.
 */
#ifndef PTBPF_BPF_CAPS_BPF_H
#define PTBPF_BPF_CAPS_BPF_H

/* bytes of a string or buffer captured, 0: no captures at all */
const volatile __u32 cap_strsize = 0;
const volatile struct kern_cap_spec cap_specs[PTBPF_SYSCALL_NR_MAX][KERN_CAPS];
/* by syscall number: the KERN_CAP_ENTRY / KERN_CAP_EXIT of its specs, and
 * the first argument its exit captures (KERN_CAP_WHEN_EXIT_ARG) */
const volatile __u8 cap_when[PTBPF_SYSCALL_NR_MAX];

/*
 * Where the exit's captures find the call's arguments: at the exit, the
 * registers still hold them (the kernel saved them at entry and a syscall
 * returns only its result), copied there past any capture.
 */
#define CAP_ARGS_AT (CAP_MASK + 1)
/* the state of a walk (bpf_loop's steps): in the scratch map, whose words
 * the verifier does not follow, so that it checks one step, not each */
#define CAP_WALK_AT (CAP_ARGS_AT + 8 * sizeof(__u64))

/* execve's argv: entries captured at most */
#define CAP_VECTOR_MAX 32
/* entries counted at most (envp), by 8 */
#define CAP_COUNT_CHUNKS 64

#define CAP_HDR sizeof(struct ptbpf_sys_cap)

/*
 * at, its bounds forgotten: through memory, where the verifier does not
 * follow a value. At the back edge of a loop, the states of the paths
 * before (at different offsets) become one for the verifier, which would
 * otherwise walk each path's sequel apart. Any at is checked against the
 * end before use.
 */
/*
 * at (checked against the end already) with a bound the verifier keeps:
 * a check's bound may be on a copy that the compiler spilled before it
 * (5.10 does not carry it to the spilled copy).
 */
static __always_inline __u64 cap_mask(__u64 at)
{
	barrier_var(at);
	return at & CAP_MASK;
}

static __always_inline __u64 cap_widen(char *raw, __u64 at)
{
	/* the last word of raw: past CAPS_END, no capture gets there */
	volatile __u64 *slot = (void *)(raw + sizeof(((struct scratch *)0)->raw) - 8);

	*slot = at;
	return *slot;
}

/*
 * The capture header at raw + at, if it and no byte fit before end (a
 * constant: the verifier bounds at with it). NULL: no room.
 */
static __always_inline struct ptbpf_sys_cap *cap_hdr(char *raw, __u64 at, __u64 end, __u8 arg,
						     __u8 type)
{
	struct ptbpf_sys_cap *h;

	if (at > end - CAP_HDR)
		return NULL;
	h = (void *)(raw + cap_mask(at));
	h->arg = arg;
	h->type = type;
	h->len = 0;
	h->full = 0;
	return h;
}

/* The room after a header at at, bounded for the verifier. */
static __always_inline __u64 cap_room(__u64 at, __u64 end, __u64 want)
{
	__u64 room = end - at - CAP_HDR;
	__u64 n = want < room ? want : room;

	barrier_var(n);
	return n & (KERN_CAP_AREA - 1);
}

/*
 * n bytes of user memory at uptr as a capture of full bytes: the new at,
 * or at unchanged when the memory could not be read.
 */
static __always_inline __u64 cap_bytes(char *raw, __u64 at, __u64 end, __u8 arg, __u8 type,
				       __u64 uptr, __u32 want, __u32 full)
{
	struct ptbpf_sys_cap *h = cap_hdr(raw, at, end, arg, type);
	__u64 n;

	if (!h)
		return at;
	n = cap_room(at, end, want);
	if (n && bpf_probe_read_user(raw + cap_mask(at) + CAP_HDR, n, (const void *)uptr))
		return at;
	h->len = n;
	h->full = full;
	return at + CAP_HDR + n;
}

/*
 * A NUL-terminated string at uptr, at most cap_strsize bytes of it: read
 * with two bytes more, to tell one of exactly cap_strsize bytes from a
 * longer one (whose full is then cap_strsize + 1, "more").
 */
static __always_inline __u64 cap_string(char *raw, __u64 at, __u64 end, __u8 arg, __u64 uptr)
{
	struct ptbpf_sys_cap *h = cap_hdr(raw, at, end, arg, PTBPF_CAP_STR);
	__u64 n, len;
	long r;

	if (!h)
		return at;
	n = cap_room(at, end, cap_strsize + 2);
	if (n < 2)
		return at;
	r = bpf_probe_read_user_str(raw + cap_mask(at) + CAP_HDR, n, (const void *)uptr);
	if (r < 0)
		return at;
	/* without the NUL; 0 for "" also where the kernel counts no NUL for it */
	len = r > 0 ? r - 1 : 0;
	h->full = len;
	if (len > cap_strsize)
		len = cap_strsize;
	h->len = len & (KERN_CAP_AREA - 1);
	return at + CAP_HDR + h->len;
}

/*
 * The state of a bpf_loop() walk, words of the scratch map (raw: the
 * scratch record's, if not NULL); NULL: no map value.
 */
static __always_inline __u64 *cap_walk_state(char **raw)
{
	struct scratch *s;
	__u32 zero = 0;

	s = bpf_map_lookup_elem(&scratch_map, &zero);
	if (!s)
		return NULL;
	if (raw)
		*raw = s->raw;
	return (void *)(s->raw + CAP_WALK_AT);
}

/* One chunk of the NULL-terminated array at *ctx: bpf_loop()'s step. */
static long cap_count_step(__u64 c, void *ctx)
{
	__u64 uptr = *(__u64 *)ctx, chunk[8];
	__u64 *st = cap_walk_state(NULL); /* the count */

	if (!st)
		return 1;
	if (bpf_probe_read_user(chunk, sizeof(chunk), (const void *)(uptr + c * sizeof(chunk))))
		return 1;
	for (int i = 0; i < 8; i++) {
		if (!chunk[i])
			return 1;
		st[0]++;
	}
	return 0;
}

/* The entries of the NULL-terminated array at uptr, counted (at most 512). */
static __always_inline __u32 cap_count_loop(char *raw, __u64 uptr)
{
	__u64 *st = (void *)(raw + CAP_WALK_AT);

	st[0] = 0;
	bpf_loop(CAP_COUNT_CHUNKS, cap_count_step, &uptr, 0);
	return st[0];
}

/* The same, in a bounded loop (before 5.17). */
static __always_inline __u32 cap_count_bounded(__u64 uptr)
{
	__u64 chunk[8];
	__u32 n = 0;

	for (int c = 0; c < CAP_COUNT_CHUNKS; c++) {
		if (bpf_probe_read_user(chunk, sizeof(chunk),
					(const void *)(uptr + c * sizeof(chunk))))
			return n;
		for (int i = 0; i < 8; i++) {
			if (!chunk[i])
				return n;
			n++;
		}
	}
	return n;
}

/* getdents64's records in its result's len bytes at uptr, counted; -1 when
 * more than CAP_DIRENTS_MAX (or unreadable): no count rather than a wrong one. */
#define CAP_DIRENTS_MAX 2048

struct dirents_walk {
	__u64 uptr, len;
};

/* One record of the walk: bpf_loop()'s step (1: the walk is over). */
static long cap_dirents_step(__u64 i, void *ctx)
{
	struct dirents_walk *w = ctx;
	__u64 *st = cap_walk_state(NULL); /* the offset, the count */
	__u16 reclen;

	if (!st)
		return 1;
	if (st[0] >= w->len)
		return 1;
	/* struct linux_dirent64: d_reclen after d_ino and d_off */
	if (bpf_probe_read_user(&reclen, sizeof(reclen), (const void *)(w->uptr + st[0] + 16)) ||
	    !reclen) {
		st[1] = ~0ull;
		return 1;
	}
	st[0] += reclen;
	st[1]++;
	return 0;
}

static __always_inline long cap_dirents_loop(char *raw, __u64 uptr, long len)
{
	struct dirents_walk w = { .uptr = uptr, .len = len };
	__u64 *st = (void *)(raw + CAP_WALK_AT);

	st[0] = 0;
	st[1] = 0;
	bpf_loop(CAP_DIRENTS_MAX, cap_dirents_step, &w, 0);
	if (st[1] == ~0ull || st[0] < (__u64)len)
		return -1;
	return st[1];
}

/* The same, in a bounded loop (before 5.17). */
static __always_inline long cap_dirents_bounded(char *raw, __u64 uptr, long len)
{
	__u64 off = 0;
	long n;

	for (n = 0; n < CAP_DIRENTS_MAX; n++, off = cap_widen(raw, off)) {
		__u16 reclen;

		if (off >= (__u64)len)
			return n;
		/* struct linux_dirent64: d_reclen after d_ino and d_off */
		if (bpf_probe_read_user(&reclen, sizeof(reclen), (const void *)(uptr + off + 16)) ||
		    !reclen)
			return -1;
		off += reclen;
	}
	return off >= (__u64)len ? n : -1;
}

/* iovec elements captured at most (the vector's end counts them all) */
#define CAP_IOV_MAX 8

/*
 * Element i of the iovec array at uptr, captured at at: its base, length
 * and first bytes, *left lowered by what its buffer held (left: the bytes
 * the call moved in all, a read's result; ~0 for a write). The new at, 0
 * to stop (no room, or the element unreadable).
 */
static __always_inline __u64 cap_iov_elem(char *raw, __u64 at, __u64 end, __u8 arg, __u64 uptr,
					  __u64 i, __u64 *left)
{
	struct ptbpf_sys_cap *h;
	__u64 iov[2], n, r, m;

	if (bpf_probe_read_user(iov, sizeof(iov), (const void *)(uptr + i * sizeof(iov))))
		return 0;
	h = cap_hdr(raw, at, end, arg, PTBPF_CAP_IOV);
	if (!h)
		return 0;
	n = iov[1] < *left ? iov[1] : *left; /* what the buffer held */
	*left -= n;
	r = cap_room(at, end, sizeof(iov) + (n < cap_strsize ? n : cap_strsize));
	if (r < sizeof(iov))
		return 0;
	__builtin_memcpy(raw + cap_mask(at) + CAP_HDR, iov, sizeof(iov));
	m = (r - sizeof(iov)) & (KERN_CAP_AREA - 1);
	h->full = n > 0xfffffffeull ? 0xfffffffeu : (__u32)n;
	if (m && bpf_probe_read_user(raw + cap_mask(at) + CAP_HDR + sizeof(iov), m,
				     (const void *)iov[0])) {
		m = 0;
		h->full = 0xffffffffu;
	}
	h->len = sizeof(iov) + m;
	return at + CAP_HDR + sizeof(iov) + m;
}

/* What a bpf_loop() walk over an array at uptr is given. */
struct cap_walk {
	__u64 uptr, count;
	__u8 arg;
};

/* One iovec element: bpf_loop()'s step, at and left in the scratch map. */
static long cap_iov_step(__u64 i, void *ctx)
{
	struct cap_walk *w = ctx;
	char *raw;
	__u64 *st = cap_walk_state(&raw), at; /* at, left */

	if (!st || i >= w->count)
		return 1;
	at = cap_iov_elem(raw, st[0], CAPS_END, w->arg, w->uptr, i, &st[1]);
	if (!at)
		return 1;
	st[0] = at;
	return 0;
}

/*
 * An iovec array of count elements at uptr: each element (left: as for
 * cap_iov_elem), then the vector's end.
 */
static __always_inline __u64 cap_iovec(char *raw, __u64 at, __u64 end, __u8 arg, __u64 uptr,
				       __u64 count, __u64 left, const bool loop)
{
	struct ptbpf_sys_cap *h;

	if (loop) {
		struct cap_walk w = { .uptr = uptr, .count = count, .arg = arg };
		__u64 *st = (void *)(raw + CAP_WALK_AT);

		st[0] = at;
		st[1] = left;
		bpf_loop(CAP_IOV_MAX, cap_iov_step, &w, 0);
		at = st[0];
	} else {
		at = cap_widen(raw, at);
		/* left widened too: each element's min() would split the states */
		for (int i = 0; i < CAP_IOV_MAX;
		     i++, at = cap_widen(raw, at), left = cap_widen(raw, left)) {
			__u64 next;

			if (i >= count)
				break;
			next = cap_iov_elem(raw, at, end, arg, uptr, i, &left);
			if (!next)
				break;
			at = next;
		}
	}
	h = cap_hdr(raw, at, end, arg, PTBPF_CAP_VECTOR_END);
	if (!h)
		return at;
	h->full = count > 0xffffffffull ? 0xffffffffu : (__u32)count;
	return at + CAP_HDR;
}

/* One of execve's argv strings: bpf_loop()'s step, at in the scratch map. */
static long cap_vector_step(__u64 i, void *ctx)
{
	struct cap_walk *w = ctx;
	char *raw;
	__u64 *st = cap_walk_state(&raw), p; /* at */

	if (!st || i >= w->count || i >= cap_strsize)
		return 1;
	if (bpf_probe_read_user(&p, sizeof(p), (const void *)(w->uptr + i * sizeof(p))))
		return 1;
	p = cap_string(raw, st[0], CAPS_END, w->arg, p);
	/* a string not read (its page not in memory) ends the walk: the
	 * ones after it must not take its place */
	if (p == st[0])
		return 1;
	st[0] = p;
	return 0;
}

/* execve's argv: its first entries as strings, then the vector's end. */
static __always_inline __u64 cap_vector(char *raw, __u64 at, __u64 end, __u8 arg, __u64 uptr,
					const bool loop)
{
	struct ptbpf_sys_cap *h;
	/* widened: each of cap_count's returns is a constant of its own */
	__u32 count = cap_widen(raw, loop ? cap_count_loop(raw, uptr) : cap_count_bounded(uptr));

	if (loop) {
		struct cap_walk w = { .uptr = uptr, .count = count, .arg = arg };
		__u64 *st = (void *)(raw + CAP_WALK_AT);

		st[0] = at;
		bpf_loop(CAP_VECTOR_MAX, cap_vector_step, &w, 0);
		at = st[0];
	} else {
		at = cap_widen(raw, at);
		for (int i = 0; i < CAP_VECTOR_MAX; i++, at = cap_widen(raw, at)) {
			__u64 p;

			if (i >= count || i >= cap_strsize)
				break;
			if (bpf_probe_read_user(&p, sizeof(p),
						(const void *)(uptr + i * sizeof(p))))
				break;
			p = cap_string(raw, at, end, arg, p);
			if (p == at)
				break;
			at = p;
		}
	}
	h = cap_hdr(raw, at, end, arg, PTBPF_CAP_VECTOR_END);
	if (!h)
		return at;
	h->full = count;
	return at + CAP_HDR;
}

/*
 * Argument i of args, which is in a map value (its size checked at the
 * callers: 8 words there): an index, not a switch of six paths.
 */
static __always_inline __u64 cap_arg(const __u64 *args, __u8 i)
{
	return args[i & 7];
}

/*
 * What caps_take's loop leaves for after it (the vectors, getdents64's
 * records, iovecs, a msghdr): in the scratch map, where the verifier does
 * not follow values, so that the loop's paths meet at its head as one
 * state whatever each row set.
 */
struct cap_pending {
	__u64 vec, cnt, dir, iov, iov_cnt, msg, ctl, ctl_len, fds_bits;
	__u8 vec_arg, cnt_arg, dir_arg, iov_arg, msg_arg, fds_arg, pad[2];
	__u32 ctl_max, fds_max;
};

/* select's three fd_sets, from argument pd->fds_arg on (those not NULL) */
static __always_inline __u64 cap_fdsets(char *raw, __u64 at, __u64 end, const __u64 *args,
					struct cap_pending *pd)
{
	__u64 n = (pd->fds_bits + 63) / 64 * 8;

	if (n > pd->fds_max)
		n = pd->fds_max;
	for (int i = 0; i < 3; i++, at = cap_widen(raw, at)) {
		__u8 arg = pd->fds_arg + i;
		__u64 uptr = cap_arg(args, arg);

		if (uptr)
			at = cap_bytes(raw, at, end, arg, PTBPF_CAP_FDSET, uptr, n, n);
	}
	return at;
}

#define CAP_PEND_AT (CAP_WALK_AT + 2 * sizeof(__u64))

/*
 * A msghdr at pd->msg: the struct, its name, then for after it its
 * iovecs and its control, in pd.
 */
static __always_inline __u64 cap_msghdr(char *raw, __u64 at, __u64 end, struct cap_pending *pd)
{
	/* struct user_msghdr: name, namelen, iov, iovlen, control,
	 * controllen, flags */
	__u64 m[7];
	__u8 arg = pd->msg_arg;
	struct ptbpf_sys_cap *h = cap_hdr(raw, at, end, arg, PTBPF_CAP_MSGHDR);
	__u32 namelen;

	if (!h || bpf_probe_read_user(m, sizeof(m), (const void *)pd->msg) ||
	    cap_room(at, end, sizeof(m)) != sizeof(m))
		return at;
	__builtin_memcpy(raw + cap_mask(at) + CAP_HDR, m, sizeof(m));
	h->len = sizeof(m);
	h->full = sizeof(m);
	at += CAP_HDR + sizeof(m);
	namelen = (__u32)m[1];
	if (m[0] && namelen)
		at = cap_bytes(raw, cap_widen(raw, at), end, arg, PTBPF_CAP_SOCKADDR, m[0],
			       namelen < 128 ? namelen : 128, namelen);
	pd->iov = m[2];
	pd->iov_cnt = m[3];
	pd->iov_arg = arg;
	pd->ctl = m[4];
	pd->ctl_len = m[5];
	return at;
}

/*
 * The captures of syscall nr when (KERN_CAP_ENTRY or KERN_CAP_EXIT, with
 * its result ret) into raw from at on: the new at.
 */
static __always_inline __u64 caps_take(char *raw, __u64 at, __u64 end, __u32 nr, const __u64 *args,
				       long ret, const __u16 when, const bool loop)
{
	struct cap_pending *pd = (void *)(raw + CAP_PEND_AT);

	_Static_assert(CAP_PEND_AT + sizeof(struct cap_pending) <=
			       sizeof(((struct scratch *)0)->raw) - 8,
		       "the pending captures, before cap_widen()'s word");
	__builtin_memset(pd, 0, sizeof(*pd));
	/* at widened before the back edge: the loop head is where the
	 * verifier compares the states */
	at = cap_widen(raw, at);
	for (int k = 0; k < KERN_CAPS; k++, at = cap_widen(raw, at)) {
		const volatile struct kern_cap_spec *sp =
			&cap_specs[nr & (PTBPF_SYSCALL_NR_MAX - 1)][k];
		__u8 type = sp->type, arg = sp->arg, mode = sp->size;
		__u32 max = sp->max, want, full;
		__u64 uptr, n;

		if (!type)
			break;
		if (sp->when != when)
			continue;
		uptr = cap_arg(args, arg);
		/* after a successful exec the registers are the new program's */
		if (!uptr && mode != KERN_CAP_ARGAREA)
			continue;
		switch (mode) {
		case KERN_CAP_FIXED:
			want = full = max;
			break;
		case KERN_CAP_ARG:
		case KERN_CAP_RET:
			n = mode == KERN_CAP_ARG ? cap_arg(args, sp->size_arg) : (__u64)ret;
			full = n > 0xffffffffull ? 0xffffffffu : (__u32)n;
			want = max ? max : cap_strsize;
			if (want > full)
				want = full;
			break;
		case KERN_CAP_ARG_ELEMS:
		case KERN_CAP_RET_ELEMS:
			n = mode == KERN_CAP_ARG_ELEMS ? cap_arg(args, sp->size_arg) : (__u64)ret;
			if (n > KERN_CAP_AREA)
				n = KERN_CAP_AREA;
			want = full = (__u32)n * max;
			break;
		case KERN_CAP_LENPTR: {
			__u32 l = 0;

			if (bpf_probe_read_user(&l, sizeof(l),
						(const void *)cap_arg(args, sp->size_arg)))
				continue;
			full = l;
			want = l < max ? l : max;
			break;
		}
		case KERN_CAP_PTRLEN: {
			__u64 pl[2] = { 0, 0 };

			if (bpf_probe_read_user(pl, sizeof(pl), (const void *)uptr) || !pl[0])
				continue;
			uptr = pl[0];
			full = pl[1] > 0xffffffffull ? 0xffffffffu : (__u32)pl[1];
			want = full < max ? full : max;
			break;
		}
		case KERN_CAP_ARGAREA: {
			/* the new program's strings, where its mm says */
			struct task_struct *t = (struct task_struct *)bpf_get_current_task();
			__u64 a0 = BPF_CORE_READ(t, mm, arg_start),
			      a1 = BPF_CORE_READ(t, mm, arg_end);

			if (ret || !a0 || a1 <= a0)
				continue;
			uptr = a0;
			full = a1 - a0 > 0xffffffffull ? 0xffffffffu : (__u32)(a1 - a0);
			want = full < max ? full : max;
			break;
		}
		case KERN_CAP_STRING:
			at = cap_string(raw, at, end, arg, uptr);
			continue;
		case KERN_CAP_VECTOR:
			pd->vec = uptr;
			pd->vec_arg = arg;
			continue;
		case KERN_CAP_COUNT:
			pd->cnt = uptr;
			pd->cnt_arg = arg;
			continue;
		case KERN_CAP_DIRENTS:
			pd->dir = uptr;
			pd->dir_arg = arg;
			continue;
		case KERN_CAP_MSGHDR:
			pd->msg = uptr;
			pd->msg_arg = arg;
			pd->ctl_max = max;
			continue;
		case KERN_CAP_FDSETS:
			/* arg: the count of bits (nfds, not 0: uptr) */
			pd->fds_bits = uptr;
			pd->fds_arg = arg + 1;
			pd->fds_max = max;
			continue;
		case KERN_CAP_IOVEC:
			pd->iov = uptr;
			pd->iov_arg = arg;
			pd->iov_cnt = cap_arg(args, sp->size_arg);
			continue;
		default:
			continue;
		}
		at = cap_bytes(raw, at, end, arg, type, uptr, want, full);
	}
	if (pd->fds_max)
		at = cap_fdsets(raw, cap_widen(raw, at), end, args, pd);
	if (pd->msg)
		at = cap_widen(raw, cap_msghdr(raw, at, end, pd));
	if (pd->iov)
		at = cap_iovec(raw, at, end, pd->iov_arg, pd->iov, pd->iov_cnt,
			       when == KERN_CAP_EXIT ? (__u64)ret : ~0ull, loop);
	if (pd->ctl && pd->ctl_len) {
		__u64 len = pd->ctl_len;

		at = cap_bytes(raw, cap_widen(raw, at), end, pd->msg_arg, PTBPF_CAP_CMSG, pd->ctl,
			       len < pd->ctl_max ? len : pd->ctl_max,
			       len > 0xffffffffull ? 0xffffffffu : (__u32)len);
	}
	if (when != KERN_CAP_ENTRY) {
		struct ptbpf_sys_cap *h;
		long n;

		if (!pd->dir || ret < 0)
			return at;
		n = loop ? cap_dirents_loop(raw, pd->dir, ret)
			 : cap_dirents_bounded(raw, pd->dir, ret);
		at = cap_widen(raw, at);
		h = n >= 0 ? cap_hdr(raw, at, end, pd->dir_arg, PTBPF_CAP_DIRENTS) : NULL;
		if (!h)
			return at;
		h->full = n;
		return at + CAP_HDR;
	}
	if (pd->vec)
		at = cap_vector(raw, cap_widen(raw, at), end, pd->vec_arg, pd->vec, loop);
	if (pd->cnt) {
		struct ptbpf_sys_cap *h;
		__u64 cnt = pd->cnt;

		at = cap_widen(raw, at);
		h = cap_hdr(raw, at, end, pd->cnt_arg, PTBPF_CAP_VECTOR_END);
		if (h) {
			h->full = cap_widen(raw, loop ? cap_count_loop(raw, cnt)
						      : cap_count_bounded(cnt));
			at += CAP_HDR;
		}
	}
	return at;
}

/*
 * The captures of syscall nr at entry, from the arguments of the scratch's
 * sys_enter, into the per-CPU scratch record from at on: the new at.
 */
static __always_inline int caps_fill_entry_in(__u32 at, __u32 nr, const bool loop)
{
	struct scratch *s;
	__u32 zero = 0;

	_Static_assert(__builtin_offsetof(struct ptbpf_ev_sys_enter, args) + 8 * sizeof(__u64) <=
			       sizeof(((struct scratch *)0)->raw),
		       "cap_arg reads 8 words");
	s = bpf_map_lookup_elem(&scratch_map, &zero);
	if (!s)
		return at;
	return caps_take(s->raw, at, CAPS_END, nr, s->ent.args, 0, KERN_CAP_ENTRY, loop);
}

/* The same at a successful exit (ret), from the arguments at CAP_ARGS_AT. */
static __always_inline int caps_fill_exit_in(__u32 at, __u32 nr, long ret, const bool loop)
{
	struct scratch *s;
	__u32 zero = 0;

	_Static_assert(CAP_WALK_AT + 2 * sizeof(__u64) <= sizeof(((struct scratch *)0)->raw) - 8,
		       "cap_arg's 8 words and a walk's 2, before cap_widen()'s");
	s = bpf_map_lookup_elem(&scratch_map, &zero);
	if (!s)
		return at;
	return caps_take(s->raw, at, CAPS_END, nr, (const __u64 *)(s->raw + CAP_ARGS_AT), ret,
			 KERN_CAP_EXIT, loop);
}

/*
 * Global functions: the verifier walks each once, on its own, not in the
 * context of each of its callers; and each program has only its own (the
 * _bounded ones: the programs for kernels without bpf_loop).
 */
__noinline int caps_fill_entry(__u32 at, __u32 nr)
{
	return caps_fill_entry_in(at, nr, true);
}

__noinline int caps_fill_entry_bounded(__u32 at, __u32 nr)
{
	return caps_fill_entry_in(at, nr, false);
}

__noinline int caps_fill_exit(__u32 at, __u32 nr, long ret)
{
	return caps_fill_exit_in(at, nr, ret, true);
}

__noinline int caps_fill_exit_bounded(__u32 at, __u32 nr, long ret)
{
	return caps_fill_exit_in(at, nr, ret, false);
}

static __always_inline bool caps_at(__u32 nr, __u8 when)
{
	return cap_strsize && (cap_when[nr & (PTBPF_SYSCALL_NR_MAX - 1)] & when);
}

#endif
