/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel backend: one BPF skeleton (bpf/kern.bpf.c) per trace stream that
 * records syscalls, process life cycle, signals and scheduling of the
 * traced processes into its own BPF ring buffer.
 */
#ifndef PTBPF_BACKEND_KERN_H
#define PTBPF_BACKEND_KERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "common/event.h"

struct kern_backend;

#define KERN_SYS_WORDS 8 /* PTBPF_SYSCALL_NR_MAX bits */

struct kern_opts {
	/* kernel ring size: one ring per possible CPU, each this divided by
	 * the CPUs but at least min(this, 1 MiB), rounded up to a power of
	 * two >= one page */
	size_t ring_bytes;
	bool inherit; /* children of traced processes are traced from their fork on */
	/* a process that execs a program changing its credentials stays
	 * traced (the tracer has CAP_SYS_PTRACE); else it leaves the traced
	 * set at that exec, with a PTBPF_EV_PROC_UNTRACED event */
	bool follow_secure_exec;
	/* PTBPF_SYSCALL_*: only the syscalls with these results are
	 * written, each entry held in the kernel until the call returns; 0:
	 * all, each entry written at once */
	unsigned int syscall_status;
	/* bytes of user stack written after the entry of each syscall set
	 * in stack_nrs (by number), 0: none */
	unsigned int stack_bytes;
	uint64_t stack_nrs[8];
	unsigned int stack_depth; /* frames, 0: PTBPF_STACK_DEPTH_DEFAULT */
	bool stack_fp;		  /* the user stack walked by frame pointers, not copied */
	bool stack_kernel;	  /* the kernel stack too */
	bool fdinfo;		  /* fd_info events at the syscalls that make fds */
	/* bytes of each string or buffer a syscall argument points to that
	 * its events capture (struct ptbpf_sys_cap), 0: no captures */
	unsigned int strsize;
	/* the events the stream may record, bounded: the programs that only
	 * other events need are not loaded (kern_progs.c); else all */
	bool ev_bounded;
	uint64_t ev_sys[KERN_SYS_WORDS]; /* syscalls by number: entry or exit */
	uint64_t ev_kern;		 /* the kernel events, bit id (ids below 64) */
	bool ev_probes;			 /* probes (kern_backend__add_probe) */
	/* PTBPF_AGG_*: syscalls counted in the kernel (bpf/count.bpf.h) */
	unsigned int aggregate;
};

/* Callbacks used while draining. ts are CLOCK_MONOTONIC nanoseconds. */
struct kern_cbs {
	/*
	 * One event: hdr->id is an event id of include/ptbpf/events.h,
	 * hdr->data_len bytes of payload at data. *hdr is the caller's copy,
	 * which the callee may change. Non-zero stops draining.
	 */
	int (*event)(void *ctx, struct pt_event_hdr *hdr, const void *data);
	/*
	 * count records were dropped by the kernel (ring full) before the
	 * next event given to event(), the first of them at first_ts. Also
	 * called at the end of a drain for drops after the last record.
	 */
	void (*lost)(void *ctx, uint64_t count, uint64_t first_ts);
	/*
	 * Optional: called before the first event of a consume; the events
	 * that follow are a run in time order (the CPUs' rings merged; see
	 * batch__sort).
	 */
	void (*run)(void *ctx);
	void *ctx;
};

struct kern_counters {
	uint64_t emitted, dropped, filtered;
};

/*
 * Load and attach everything; nothing is recorded until set_enabled(true).
 * Negative errno: -EPERM when not privileged, -ENOSYS or -EOPNOTSUPP when
 * the kernel lacks BPF features.
 */
int kern_backend__open(struct kern_backend **out, const struct kern_opts *o);
struct probe_target;
/*
 * Attach a probe (backend/probe.h) whose events are written as the
 * others; a probe of an id attached already is left as it is.
 */
int kern_backend__add_probe(struct kern_backend *kb, const struct probe_target *t);
bool kern_backend__has_probe(struct kern_backend *kb, uint32_t id);
/*
 * Trace all threads of process tgid (the caller's namespace's id: -ESRCH
 * if it has none there).
 */
int kern_backend__add_pid(struct kern_backend *kb, pid_t tgid);
/*
 * The same in two steps, for a caller that checks it may trace tgid in
 * between: held, nothing of it is written, but an exec changing its
 * credentials ends it, so a check made after hold_pid holds for what
 * release_pid then traces (-EPERM: such an exec came; -EEXIST from hold:
 * traced already).
 */
int kern_backend__hold_pid(struct kern_backend *kb, pid_t tgid);
int kern_backend__release_pid(struct kern_backend *kb, pid_t tgid);
/*
 * Of the processes forked from ancestor (or from those forked from it), the
 * one whose pid in its own pid namespace, below the caller's, is inner: its
 * pid in the caller's (-ESRCH: none known).
 */
int kern_backend__child_by_inner(struct kern_backend *kb, pid_t ancestor, pid_t inner,
				 pid_t *outer);
/* Trace tgid no more (not traced: 0). */
int kern_backend__remove_pid(struct kern_backend *kb, pid_t tgid);
/*
 * The traced process that forked process tgid: 0 and *parent set, or
 * -ENOENT. Kept after tgid exits (while some thousand forks since have not
 * pushed it out).
 */
int kern_backend__parent(struct kern_backend *kb, pid_t tgid, pid_t *parent);
/* Never record events of thread tid. */
int kern_backend__exclude_tid(struct kern_backend *kb, pid_t tid);
/* Record thread tid again (it exited: the number may come back). */
int kern_backend__include_tid(struct kern_backend *kb, pid_t tid);
/* When off, nothing is written to the ring. */
int kern_backend__set_enabled(struct kern_backend *kb, bool on);
/*
 * PTBPF_EV_ID_LIMIT bits, bit id set: event id is recorded (only ids below
 * 2048 are kernel events); NULL records all. Filtered events are counted
 * in `filtered`. All events are recorded until the first call.
 */
int kern_backend__set_filter(struct kern_backend *kb, const uint64_t *bits);
/* The syscalls counted (kern_opts.aggregate): PTBPF_SYSCALL_NR_MAX bits,
 * bit nr set: syscall nr is; none until the first call. */
void kern_backend__set_counted(struct kern_backend *kb, const uint64_t *nrs);
/*
 * Drain what is there without blocking: the number of events (poll():
 * or -errno when the wait fails).
 * consume() and poll() of one backend must not run at the same time (the
 * caller serializes them); different backends are independent.
 */
int kern_backend__consume(struct kern_backend *kb, const struct kern_cbs *cbs);
/*
 * After the last kern_backend__consume(): every record a later consume
 * delivers has a timestamp (CLOCK_MONOTONIC ns, the BPF clock, as in
 * kern_rec.ts) >= this, except held syscall entries (a syscall-status
 * filter writes an entry at its exit) and a writer stalled past the
 * bounded waits. Never decreases; 0 before the first consume.
 */
uint64_t kern_backend__watermark(const struct kern_backend *kb);
/* True when some ring holds records a consume would take (or skip). */
bool kern_backend__pending(struct kern_backend *kb);
/* Thousandths of the fullest CPU ring not consumed yet. */
unsigned int kern_backend__fill(struct kern_backend *kb);
/* Wait up to timeout_ms for data (-1: forever), then drain. */
int kern_backend__poll(struct kern_backend *kb, int timeout_ms, const struct kern_cbs *cbs);
int kern_backend__epoll_fd(struct kern_backend *kb);
/*
 * Fault in up to bytes more of the rings' data that kring__open() left,
 * by the thread that drains them: true once all is.
 */
bool kern_backend__populate(struct kern_backend *kb, size_t bytes);
void kern_backend__counters(struct kern_backend *kb, struct kern_counters *c);
struct ptbpf_syscall_stats;
/*
 * The syscalls counted so far (kern_opts.aggregate), up to max into st;
 * *count: how many there are. -EINVAL: the backend does not count.
 */
int kern_backend__syscall_stats(struct kern_backend *kb, struct ptbpf_syscall_stats *st, size_t max,
				size_t *count);
/* Detach and free every program, link and map. */
void kern_backend__destroy(struct kern_backend *kb);

/* For tests: ids of the loaded BPF programs (up to max); returns the count. */
int kern_backend__prog_ids(struct kern_backend *kb, uint32_t *ids, int max);

#endif
