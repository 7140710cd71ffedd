/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fields of each kernel and POSIX system event (<ptbpf/evfields.h>),
 * from the structs of <ptbpf/events.h>: offsets and sizes come from the
 * compiler, so the table cannot drift from the structs.
 */
#include <string.h>
#include <ptbpf/evfields.h>

#define MSIZE(s, m) sizeof(((struct s *)0)->m)
/* a member of struct s: integer or fixed array */
#define F(s, m, k)                                                                                 \
	{                                                                                          \
#m, NULL, offsetof(struct s, m), MSIZE(s, m), PTBPF_FIELD_##k, 0, -1, -1, NULL     \
	}
/* the same with the name a record with its own pid and tid uses */
#define FL(s, m, k, l)                                                                             \
	{                                                                                          \
#m, l, offsetof(struct s, m), MSIZE(s, m), PTBPF_FIELD_##k, 0, -1, -1, NULL        \
	}
/* an ENUM or FLAGS member named by v */
#define FV(s, m, k, v)                                                                             \
	{                                                                                          \
#m, NULL, offsetof(struct s, m), MSIZE(s, m), PTBPF_FIELD_##k, 0, -1, -1, v        \
	}
/* STRING, BYTES or ARRAY member counted by field len, after field after (-1: none) */
#define FN(s, m, k, el, len, after)                                                                \
	{                                                                                          \
#m, NULL, offsetof(struct s, m), MSIZE(s, m), PTBPF_FIELD_##k, el, len, after,     \
			NULL                                                                       \
	}
/* a flexible array member: size 0, its length from field len */
#define FX(s, m, k, el, len)                                                                       \
	{                                                                                          \
#m, NULL, offsetof(struct s, m), 0, PTBPF_FIELD_##k, el, len, -1, NULL             \
	}
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct ptbpf_event_field overflow_fields[] = {
	{ "lost", NULL, 0, sizeof(unsigned long long), PTBPF_FIELD_UINT, 0, -1, -1, NULL },
};

static const struct ptbpf_event_field fork_fields[] = {
	F(ptbpf_ev_fork, parent_pid, PID), F(ptbpf_ev_fork, parent_tid, TID),
	F(ptbpf_ev_fork, child_pid, PID),  F(ptbpf_ev_fork, child_tid, TID),
	F(ptbpf_ev_fork, is_thread, UINT), F(ptbpf_ev_fork, comm, CHARS),
};

static const struct ptbpf_event_field exec_fields[] = {
	FL(ptbpf_ev_exec, pid, PID, "exec_pid"),       F(ptbpf_ev_exec, old_tid, TID),
	F(ptbpf_ev_exec, filename_len, LENGTH),	       F(ptbpf_ev_exec, truncated, BOOL),
	FN(ptbpf_ev_exec, filename, STRING, 0, 2, -1),
};

static const struct ptbpf_event_value untraced_reasons[] = {
	{ 0, "unknown" },
	{ PTBPF_UNTRACED_SECURE_EXEC, "secure_exec" },
	{ PTBPF_UNTRACED_UNREADABLE, "unreadable" },
	{ 0, NULL },
};

static const struct ptbpf_event_field untraced_fields[] = {
	FL(ptbpf_ev_untraced, pid, PID, "untraced_pid"),
	FL(ptbpf_ev_untraced, tid, TID, "untraced_tid"),
	FV(ptbpf_ev_untraced, reason, ENUM, untraced_reasons),
	F(ptbpf_ev_untraced, filename_len, LENGTH),
	FN(ptbpf_ev_untraced, filename, STRING, 0, 3, -1),
};

static const struct ptbpf_event_field exit_fields[] = {
	FL(ptbpf_ev_exit, pid, PID, "exit_pid"),
	FL(ptbpf_ev_exit, tid, TID, "exit_tid"),
	F(ptbpf_ev_exit, exit_code, WSTATUS),
	F(ptbpf_ev_exit, group_dead, UINT),
};

static const struct ptbpf_event_value signal_flags[] = {
	{ PTBPF_SIG_GROUP_KILL, "group_kill" },
	{ PTBPF_SIG_FATAL, "fatal" },
	{ PTBPF_SIG_CHLD, "chld" },
	{ 0, NULL },
};

static const struct ptbpf_event_field signal_fields[] = {
	F(ptbpf_ev_signal, signo, SIGNO),
	F(ptbpf_ev_signal, code, INT),
	F(ptbpf_ev_signal, sender_pid, PID),
	F(ptbpf_ev_signal, sender_uid, INT),
	F(ptbpf_ev_signal, target_pid, PID),
	F(ptbpf_ev_signal, target_tid, TID),
	F(ptbpf_ev_signal, result, INT),
	F(ptbpf_ev_signal, group, UINT),
	FV(ptbpf_ev_signal, flags, FLAGS, signal_flags),
	F(ptbpf_ev_signal, status, INT),
	F(ptbpf_ev_signal, utime, INT),
	F(ptbpf_ev_signal, stime, INT),
};

static const struct ptbpf_event_field switch_fields[] = {
	F(ptbpf_ev_sched_switch, prev_tid, TID),   F(ptbpf_ev_sched_switch, next_tid, TID),
	F(ptbpf_ev_sched_switch, prev_state, INT), F(ptbpf_ev_sched_switch, cpu, UINT),
	F(ptbpf_ev_sched_switch, preempt, UINT),
};

static const struct ptbpf_event_field wakeup_fields[] = {
	FL(ptbpf_ev_sched_wakeup, pid, PID, "wakeup_pid"),
	FL(ptbpf_ev_sched_wakeup, tid, TID, "wakeup_tid"),
	F(ptbpf_ev_sched_wakeup, waker_tid, TID),
	F(ptbpf_ev_sched_wakeup, target_cpu, UINT),
};

static const struct ptbpf_event_value stack_flags[] = {
	{ PTBPF_STACK_SHORT, "short" },
	{ 0, NULL },
};

static const struct ptbpf_event_field user_stack_fields[] = {
	F(ptbpf_ev_user_stack, event_id, UINT),
	FV(ptbpf_ev_user_stack, flags, FLAGS, stack_flags),
	F(ptbpf_ev_user_stack, stack_len, LENGTH),
	FN(ptbpf_ev_user_stack, regs, ARRAY, 8, -1, -1),
	FX(ptbpf_ev_user_stack, stack, BYTES, 0, 2),
};

static const struct ptbpf_event_value map_kinds[] = {
	{ 0, "unknown" },
	{ PTBPF_MAP_MMAP, "mmap" },
	{ PTBPF_MAP_EXEC, "exec" },
	{ PTBPF_MAP_INTERP, "interp" },
	{ 0, NULL },
};

static const struct ptbpf_event_field proc_map_fields[] = {
	F(ptbpf_ev_proc_map, start, HEX),
	F(ptbpf_ev_proc_map, len, UINT),
	F(ptbpf_ev_proc_map, offset, UINT),
	F(ptbpf_ev_proc_map, ino, UINT),
	F(ptbpf_ev_proc_map, size, UINT),
	F(ptbpf_ev_proc_map, dev, UINT),
	FV(ptbpf_ev_proc_map, kind, ENUM, map_kinds),
	F(ptbpf_ev_proc_map, path_len, LENGTH),
	F(ptbpf_ev_proc_map, build_id_len, LENGTH),
	FN(ptbpf_ev_proc_map, path, STRING, 0, 7, -1),
	/* the build-id's bytes follow the path's NUL in the same member */
	{ "build_id", NULL, offsetof(struct ptbpf_ev_proc_map, path),
	  MSIZE(ptbpf_ev_proc_map, path), PTBPF_FIELD_BYTES, 0, 8, 9, NULL },
};

static const struct ptbpf_event_value trace_flags[] = {
	{ PTBPF_STACK_TRACE_KERNEL, "kernel" },
	{ 0, NULL },
};

static const struct ptbpf_event_field stack_trace_fields[] = {
	F(ptbpf_ev_stack_trace, stack_id, UINT),
	FV(ptbpf_ev_stack_trace, flags, FLAGS, trace_flags),
	F(ptbpf_ev_stack_trace, nr, LENGTH),
	FX(ptbpf_ev_stack_trace, ips, ARRAY, 8, 2),
};

static const struct ptbpf_event_field stack_ref_fields[] = {
	F(ptbpf_ev_stack_ref, event_id, UINT),
	F(ptbpf_ev_stack_ref, user_id, UINT),
	F(ptbpf_ev_stack_ref, kernel_id, UINT),
	F(ptbpf_ev_stack_ref, depth, UINT),
};

static const struct ptbpf_event_value fd_kinds[] = {
	{ 0, "unknown" },
	{ PTBPF_FD_FILE, "file" },
	{ PTBPF_FD_PIPE, "pipe" },
	{ PTBPF_FD_SOCKET, "socket" },
	{ PTBPF_FD_ANON, "anon" },
	{ PTBPF_FD_OTHER, "other" },
	{ PTBPF_FD_CLOSED, "closed" },
	{ 0, NULL },
};

static const struct ptbpf_event_value fd_flags[] = {
	{ PTBPF_FD_CLOEXEC, "cloexec" },
	{ PTBPF_FD_DELETED, "deleted" },
	{ PTBPF_FD_SNAPSHOT, "snapshot" },
	{ 0, NULL },
};

static const struct ptbpf_event_field fd_info_fields[] = {
	F(ptbpf_ev_fd_info, fd, INT),
	F(ptbpf_ev_fd_info, fd_last, INT),
	FV(ptbpf_ev_fd_info, kind, ENUM, fd_kinds),
	FV(ptbpf_ev_fd_info, flags, FLAGS, fd_flags),
	F(ptbpf_ev_fd_info, mode, UINT),
	F(ptbpf_ev_fd_info, ino, UINT),
	F(ptbpf_ev_fd_info, dev, UINT),
	F(ptbpf_ev_fd_info, rdev, UINT),
	F(ptbpf_ev_fd_info, family, UINT),
	F(ptbpf_ev_fd_info, type, UINT),
	F(ptbpf_ev_fd_info, protocol, UINT),
	F(ptbpf_ev_fd_info, lport, UINT),
	F(ptbpf_ev_fd_info, rport, UINT),
	F(ptbpf_ev_fd_info, path_len, LENGTH),
	FN(ptbpf_ev_fd_info, laddr, BYTES, 0, -1, -1),
	FN(ptbpf_ev_fd_info, raddr, BYTES, 0, -1, -1),
	F(ptbpf_ev_fd_info, peer_ino, UINT),
	FN(ptbpf_ev_fd_info, path, STRING, 0, 13, -1),
};

#define POSIX_EV(i, n)                                                                             \
	{                                                                                          \
		i, n, "posix", 0, 0, 0, NULL                                                       \
	}
#define EV(i, n, g, s, min, f)                                                                     \
	{                                                                                          \
		i, n, g, sizeof(struct s), min, N(f), f                                            \
	}

static const struct ptbpf_event_desc descs[] = {
	POSIX_EV(POSIX_TRACE_ERROR, "posix_trace_error"),
	POSIX_EV(POSIX_TRACE_START, "posix_trace_start"),
	POSIX_EV(POSIX_TRACE_STOP, "posix_trace_stop"),
	POSIX_EV(POSIX_TRACE_FILTER, "posix_trace_filter"),
	{ POSIX_TRACE_OVERFLOW, "posix_trace_overflow", "posix", sizeof(unsigned long long),
	  sizeof(unsigned long long), N(overflow_fields), overflow_fields },
	POSIX_EV(POSIX_TRACE_RESUME, "posix_trace_resume"),
	POSIX_EV(POSIX_TRACE_FLUSH_START, "posix_trace_flush_start"),
	POSIX_EV(POSIX_TRACE_FLUSH_STOP, "posix_trace_flush_stop"),
	EV(PTBPF_EV_PROC_FORK, "proc_fork", "proc", ptbpf_ev_fork, sizeof(struct ptbpf_ev_fork),
	   fork_fields),
	EV(PTBPF_EV_PROC_EXEC, "proc_exec", "proc", ptbpf_ev_exec,
	   offsetof(struct ptbpf_ev_exec, filename), exec_fields),
	EV(PTBPF_EV_THREAD_EXIT, "thread_exit", "proc", ptbpf_ev_exit, sizeof(struct ptbpf_ev_exit),
	   exit_fields),
	EV(PTBPF_EV_PROC_EXIT, "proc_exit", "proc", ptbpf_ev_exit, sizeof(struct ptbpf_ev_exit),
	   exit_fields),
	EV(PTBPF_EV_SIGNAL_GENERATE, "signal_generate", "signal", ptbpf_ev_signal,
	   offsetof(struct ptbpf_ev_signal, flags), signal_fields),
	EV(PTBPF_EV_SIGNAL_DELIVER, "signal_deliver", "signal", ptbpf_ev_signal,
	   offsetof(struct ptbpf_ev_signal, flags), signal_fields),
	EV(PTBPF_EV_SCHED_SWITCH_OUT, "sched_switch_out", "sched", ptbpf_ev_sched_switch,
	   sizeof(struct ptbpf_ev_sched_switch), switch_fields),
	EV(PTBPF_EV_SCHED_SWITCH_IN, "sched_switch_in", "sched", ptbpf_ev_sched_switch,
	   sizeof(struct ptbpf_ev_sched_switch), switch_fields),
	EV(PTBPF_EV_SCHED_WAKEUP, "sched_wakeup", "sched", ptbpf_ev_sched_wakeup,
	   sizeof(struct ptbpf_ev_sched_wakeup), wakeup_fields),
	EV(PTBPF_EV_PROC_UNTRACED, "proc_untraced", "proc", ptbpf_ev_untraced,
	   offsetof(struct ptbpf_ev_untraced, filename), untraced_fields),
	EV(PTBPF_EV_USER_STACK, "user_stack", "stack", ptbpf_ev_user_stack,
	   sizeof(struct ptbpf_ev_user_stack), user_stack_fields),
	EV(PTBPF_EV_PROC_MAP, "proc_map", "stack", ptbpf_ev_proc_map,
	   offsetof(struct ptbpf_ev_proc_map, path), proc_map_fields),
	EV(PTBPF_EV_STACK_TRACE, "stack_trace", "stack", ptbpf_ev_stack_trace,
	   sizeof(struct ptbpf_ev_stack_trace), stack_trace_fields),
	EV(PTBPF_EV_STACK_REF, "stack_ref", "stack", ptbpf_ev_stack_ref,
	   sizeof(struct ptbpf_ev_stack_ref), stack_ref_fields),
	EV(PTBPF_EV_FD_INFO, "fd_info", "fd", ptbpf_ev_fd_info,
	   offsetof(struct ptbpf_ev_fd_info, path), fd_info_fields),
};

#define NPOSIX 8 /* the POSIX events come first, then the kernel's in id order */
_Static_assert(N(descs) == NPOSIX + PTBPF_EV_KERNEL_LAST - PTBPF_EV_KERNEL_FIRST + 1,
	       "every POSIX and kernel event id has its entry");

const struct ptbpf_event_desc *ptbpf_event_desc(trace_event_id_t id)
{
	size_t i;

	if (id >= PTBPF_EV_KERNEL_FIRST && id <= PTBPF_EV_KERNEL_LAST)
		return &descs[NPOSIX + id - PTBPF_EV_KERNEL_FIRST];
	for (i = 0; i < NPOSIX; i++)
		if (descs[i].id == id)
			return &descs[i];
	return NULL;
}

const struct ptbpf_event_field *ptbpf_event_fields(trace_event_id_t id, size_t *n)
{
	const struct ptbpf_event_desc *d = ptbpf_event_desc(id);

	*n = d ? d->nfields : 0;
	return d && d->nfields ? d->fields : NULL;
}

static int field_uint(const struct ptbpf_event_field *f, const unsigned char *p,
		      unsigned long long *v)
{
	switch (f->size) {
	case 1:
		*v = p[0];
		return 0;
	case 2: {
		unsigned short x;

		memcpy(&x, p, 2);
		*v = x;
		return 0;
	}
	case 4: {
		unsigned int x;

		memcpy(&x, p, 4);
		*v = x;
		return 0;
	}
	case 8:
		memcpy(v, p, 8);
		return 0;
	}
	return -1;
}

static int kind_signed(unsigned int k)
{
	return k == PTBPF_FIELD_INT || k == PTBPF_FIELD_PID || k == PTBPF_FIELD_TID ||
	       k == PTBPF_FIELD_SIGNO || k == PTBPF_FIELD_WSTATUS;
}

int ptbpf_event_field_int(const struct ptbpf_event_desc *d, unsigned int i, const void *data,
			  size_t len, unsigned long long *v)
{
	const struct ptbpf_event_field *f;

	if (!d || i >= d->nfields)
		return -1;
	f = &d->fields[i];
	if (f->kind > PTBPF_FIELD_LENGTH || f->offset + f->size > len)
		return -1;
	if (field_uint(f, (const unsigned char *)data + f->offset, v))
		return -1;
	if (kind_signed(f->kind) && f->size < 8 && (*v >> (f->size * 8 - 1)) & 1)
		*v |= ~0ULL << (f->size * 8);
	return 0;
}

int ptbpf_event_field_span(const struct ptbpf_event_desc *d, unsigned int i, const void *data,
			   size_t len, size_t *at, size_t *n)
{
	const struct ptbpf_event_field *f;
	unsigned long long cnt = ~0ULL;
	size_t start, end, max;

	if (!d || i >= d->nfields)
		return -1;
	f = &d->fields[i];
	start = f->offset;
	/* the end of the member: its size, or the payload's for a flexible one */
	end = f->size ? start + f->size : len;
	if (f->kind <= PTBPF_FIELD_LENGTH || f->kind == PTBPF_FIELD_CHARS) {
		if (start + f->size > len)
			return -1;
		*at = start;
		*n = f->kind == PTBPF_FIELD_CHARS ? strnlen((const char *)data + start, f->size)
						  : f->size;
		return 0;
	}
	if (start > len)
		return -1;
	if (f->len_field >= 0 &&
	    ptbpf_event_field_int(d, (unsigned int)f->len_field, data, len, &cnt))
		return -1;
	if (f->follows >= 0) {
		unsigned long long before = 0;
		const struct ptbpf_event_field *p = &d->fields[f->follows];

		if (p->len_field < 0 ||
		    ptbpf_event_field_int(d, (unsigned int)p->len_field, data, len, &before))
			return -1;
		if (before > end - start)
			before = end - start;
		start += before;
		if (start > len)
			return -1;
	}
	if (end > len)
		end = len;
	max = end > start ? end - start : 0;
	if (f->kind == PTBPF_FIELD_ARRAY) {
		if (f->elem && cnt != ~0ULL && cnt < max / f->elem)
			max = (size_t)cnt * f->elem;
		else if (f->elem)
			max -= max % f->elem;
	} else if (cnt < max) {
		max = (size_t)cnt;
	}
	*at = start;
	*n = f->kind == PTBPF_FIELD_STRING ? strnlen((const char *)data + start, max) : max;
	return 0;
}
