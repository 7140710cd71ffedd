/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf extensions to the POSIX tracing API. Everything here is named
 * ptbpf_* and is not part of POSIX.
 */
#ifndef PTBPF_PTBPF_H
#define PTBPF_PTBPF_H

#include <trace.h>
#include <stdarg.h>
#include <stdint.h>
#include <ptbpf/events.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTBPF_VERSION_MAJOR  0
#define PTBPF_VERSION_MINOR  1
#define PTBPF_VERSION_PATCH  0
#define PTBPF_VERSION_STRING "0.1.0"

/* The library's version string ("0.1.0"). */
__PTBPF_API const char *ptbpf_version(void);

/*
 * Kernel thread id (gettid()) of the event most recently returned by a
 * getnext function on trid; 0 when that event had no thread.
 */
__PTBPF_API int ptbpf_trace_last_tid(trace_id_t trid, pid_t *tid);

/* One event read by ptbpf_trace_trygetnext_events(). */
struct ptbpf_event {
	struct posix_trace_event_info info;
	pid_t tid;	  /* kernel thread id (gettid()) of its thread, 0: none */
	size_t data_len;  /* bytes of data, as data_len of the getnext functions */
	const void *data; /* in the caller's buffer */
};

/*
 * Read up to max events of an active stream without a log at once, without
 * waiting: what max calls of posix_trace_trygetnext_event() and
 * ptbpf_trace_last_tid() would return, for one look-up and one lock (for
 * readers of a busy stream). The events' data go one after the other into
 * buf, each at an 8-byte boundary; the batch ends before an event whose
 * data does not fit in what is left of buf, unless it is the first, whose
 * data is then cut as posix_trace_trygetnext_event() cuts it
 * (POSIX_TRACE_TRUNCATED_READ). *count: the events read, 0 when none is
 * there. EINVAL: trid is no active stream, or has a log; evs or count NULL;
 * max 0; buf NULL with bufsz not 0.
 */
__PTBPF_API int ptbpf_trace_trygetnext_events(trace_id_t trid, struct ptbpf_event *evs, size_t max,
					      void *buf, size_t bufsz, size_t *count);

/*
 * As ptbpf_trace_trygetnext_events(), but when no event is there, wait for
 * one until abstime (CLOCK_REALTIME, as posix_trace_timedgetnext_event()).
 * ETIMEDOUT: none came (*count 0). EINVAL also: abstime invalid (checked
 * only when the call would wait), or the stream shut down while waiting.
 * A reader that calls one of these two at least every few milliseconds,
 * or waits in this one, takes the events from the kernel straight into
 * its arrays, with less CPU than the library's drainer storing them first.
 */
__PTBPF_API int ptbpf_trace_timedgetnext_events(trace_id_t trid, struct ptbpf_event *evs,
						size_t max, void *buf, size_t bufsz, size_t *count,
						const struct timespec *abstime);

/*
 * Per-stream counters, for summaries and tests. Every event that reaches
 * the stream is either recorded or lost: recorded + lost is what was
 * generated. On a log opened with posix_trace_open(): recorded and lost as
 * the log's trailer says (zeros for a log without trailer, whose writer
 * died), log_events the events the log holds.
 *
 * The struct may grow: set sz to sizeof(struct ptbpf_counters) before the
 * call (fields past sz are not written; sz 0 is EINVAL).
 */
struct ptbpf_counters {
	size_t sz;
	uint64_t recorded;	  /* events stored in the stream and not lost since */
	uint64_t lost;		  /* events lost (stream full, a kernel or user-event ring full) */
	uint64_t kernel_emitted;  /* records written to the kernel ring buffer */
	uint64_t kernel_dropped;  /* records the kernel ring buffer had no room for */
	uint64_t kernel_filtered; /* events of traced tasks dropped by the filter in the kernel */
	uint64_t user_dropped;	  /* user events lost in a shared ring (no room, or writer died) */
	uint64_t log_bytes;	  /* bytes written to the trace log */
	uint64_t log_events;	  /* events written to the trace log's file */
	uint64_t log_dropped;	  /* events the log could not take (UNTIL_FULL: full) */
	int log_error;		  /* the first error writing the log (an errno value), 0: none */
	uint64_t late;	   /* events reported after younger ones, with their own timestamps (a
			      source lagged past the hold window: docs/implementation.md) */
	uint64_t left_out; /* processes of the stream's cgroups the caller may not ptrace,
			      not traced (see ptbpf_trace_add_cgroup) */
};
__PTBPF_API int ptbpf_trace_get_counters(trace_id_t trid, struct ptbpf_counters *c);

/*
 * The system event types (the POSIX events, the kernel's, one entry and
 * one exit type per syscall of the running kernel) have the same ids in
 * every trace: their names and ids without one, and without privileges
 * (user event types are numbered per trace: see posix_trace_trid_eventid_open).
 * name: TRACE_EVENT_NAME_MAX bytes. EINVAL: no such system event type (or
 * NULL pointers).
 */
__PTBPF_API int ptbpf_system_eventid(const char *name, trace_event_id_t *id);
__PTBPF_API int ptbpf_system_eventid_get_name(trace_event_id_t id, char *name);
/*
 * The system event type after id, in id order (id 0: the first): 0 and
 * *next set, or ENOENT after the last.
 */
__PTBPF_API int ptbpf_system_eventid_next(trace_event_id_t id, trace_event_id_t *next);

/*
 * Syscalls by their result: a stream created with these attributes
 * records a syscall's entry and exit events only if its result is in
 * statuses: PTBPF_SYSCALL_SUCCESSFUL (no error), PTBPF_SYSCALL_FAILED (an
 * error: -4095..-1 in the kernel), or both, the default (0 means both
 * too). The other calls are dropped in the kernel, which holds each entry
 * until the call returns: an entry event comes with its exit (struct
 * ptbpf_ev_sys_exit_ext in <ptbpf/events.h> has the call's duration), and a call
 * that does not return (exit_group, one in progress at the stop) is not
 * recorded. EINVAL: other bits, or no attributes object.
 */
#define PTBPF_SYSCALL_SUCCESSFUL 0x1u
#define PTBPF_SYSCALL_FAILED	 0x2u
__PTBPF_API int ptbpf_trace_attr_setsyscallstatus(trace_attr_t *attr, unsigned int statuses);
__PTBPF_API int ptbpf_trace_attr_getsyscallstatus(const trace_attr_t *attr, unsigned int *statuses);

/*
 * User stacks: a stream created with these attributes writes a
 * "user_stack" event (struct ptbpf_ev_user_stack in <ptbpf/events.h>)
 * right after the entry event of each syscall of events (sys_enter_NAME
 * ids only), with the thread's user registers and bytes of its stack (0:
 * PTBPF_USER_STACK_DEFAULT), enough to unwind it later with the DWARF call
 * frame information of its modules. events NULL or empty: no stacks (the
 * default). EINVAL: another id in events, bytes above
 * PTBPF_USER_STACK_MAX, or no attributes object.
 */
__PTBPF_API int ptbpf_trace_attr_setstacks(trace_attr_t *attr, const trace_event_set_t *events,
					   size_t bytes);
__PTBPF_API int ptbpf_trace_attr_getstacks(const trace_attr_t *attr, trace_event_set_t *events,
					   size_t *bytes);

/*
 * How the stacks of ptbpf_trace_attr_setstacks() are taken: at most depth
 * frames each (0: PTBPF_STACK_DEPTH_DEFAULT, 32; at most
 * PTBPF_STACK_DEPTH_MAX), and flags:
 *   PTBPF_STACK_FP      the user stack is walked by the kernel along the
 *                       frame pointers (bpf_get_stack) instead of copied
 *                       for a DWARF unwinder: nothing copied, but right
 *                       only for code built with -fno-omit-frame-pointer
 *                       (not Debian's libc); written as stack_trace and
 *                       stack_ref events (<ptbpf/events.h>), each
 *                       distinct stack once
 *   PTBPF_STACK_KERNEL  the kernel stack too, the same way
 * EINVAL: depth above the most, another flag, or no attributes object.
 */
#define PTBPF_STACK_FP	   0x1u
#define PTBPF_STACK_KERNEL 0x2u

__PTBPF_API int ptbpf_trace_attr_setstackopts(trace_attr_t *attr, unsigned int depth,
					      unsigned int flags);
__PTBPF_API int ptbpf_trace_attr_getstackopts(const trace_attr_t *attr, unsigned int *depth,
					      unsigned int *flags);

/*
 * File descriptors: a stream created with these attributes (on non-zero)
 * writes "fd_info" events (struct ptbpf_ev_fd_info in <ptbpf/events.h>)
 * that say what each fd of a traced process refers to: one per fd open
 * when tracing starts, then one as each new fd is made, its socket's
 * addresses become known or fds are closed. Off by default (it costs the
 * fd-making syscalls a walk of the file's path). EINVAL: no attributes
 * object.
 */
__PTBPF_API int ptbpf_trace_attr_setfdinfo(trace_attr_t *attr, int on);
__PTBPF_API int ptbpf_trace_attr_getfdinfo(const trace_attr_t *attr, int *on);

/*
 * Captures: a stream created with these attributes and strsize > 0 has
 * its syscall events carry the memory their arguments point to (struct
 * ptbpf_sys_cap in <ptbpf/events.h>): what a write writes, what a read
 * read, a struct stat, a socket address, execve's argv. Strings and
 * buffers are cut at strsize bytes (the real length is kept), structures
 * are whole. 0 (the default): no captures. EINVAL: no attributes object,
 * or strsize above PTBPF_STRSIZE_MAX.
 */
#define PTBPF_STRSIZE_MAX 4000
__PTBPF_API int ptbpf_trace_attr_setstrsize(trace_attr_t *attr, unsigned int strsize);
__PTBPF_API int ptbpf_trace_attr_getstrsize(const trace_attr_t *attr, unsigned int *strsize);

/*
 * Syscalls counted in the kernel: a stream created with these attributes
 * and PTBPF_AGG_SYSCALLS counts and times, in BPF maps, each syscall its
 * filter records the exit of (per syscall and errno, and per process or
 * thread with PTBPF_AGG_BY_PROCESS or PTBPF_AGG_BY_THREAD), read with
 * ptbpf_trace_get_syscall_stats(). No event crosses the kernel's ring for
 * it: a stream whose ptbpf_trace_attr_setevents() leaves the syscalls out
 * counts them without recording them. A call is counted when it returns,
 * with the time since its entry; a new thread's return from the fork that
 * made it is not counted (it made no call), nor are exit and exit_group,
 * which do not return. 0 (the default): none.
 * EINVAL: no attributes object, or unknown flags, or both BY_ flags.
 */
#define PTBPF_AGG_SYSCALLS   0x1u
#define PTBPF_AGG_BY_PROCESS 0x2u
#define PTBPF_AGG_BY_THREAD  0x4u
__PTBPF_API int ptbpf_trace_attr_setaggregate(trace_attr_t *attr, unsigned int flags);
__PTBPF_API int ptbpf_trace_attr_getaggregate(const trace_attr_t *attr, unsigned int *flags);

/*
 * A count of ptbpf_trace_get_syscall_stats(): the calls of syscall nr that
 * failed with errno err (0: did not fail; the caller decides which
 * syscalls never fail), of process pid and thread tid (0 unless counted
 * by process or thread; the stream's pid namespace's ids), comm the name
 * of the task that made one of them. hist[0] counts the calls of no
 * measurable time, hist[k] those of 2^(k-1) to 2^k - 1 ns, the last
 * bucket also all longer ones; calls is their sum, so the counts of a
 * stream read again never go backwards and always equal the histogram's.
 * min_ns and max_ns: the shortest and the longest call (0: no calls).
 */
#define PTBPF_HIST_BUCKETS 40
struct ptbpf_syscall_stats {
	pid_t pid;
	pid_t tid;
	unsigned int nr;
	int err;
	char comm[16];
	uint64_t calls;
	uint64_t total_ns;
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t hist[PTBPF_HIST_BUCKETS];
};

/*
 * The syscalls counted so far by active stream trid (see
 * ptbpf_trace_attr_setaggregate), up to max of them into st; *count: how
 * many there are (more than max: call again with room for them). Safe
 * from any thread while the stream exists. EINVAL: trid is not an active
 * stream that counts, or st is NULL with max > 0, or count is NULL.
 */
__PTBPF_API int ptbpf_trace_get_syscall_stats(trace_id_t trid, struct ptbpf_syscall_stats *st,
					      size_t max, size_t *count);

/*
 * The events a stream created with these attributes may record, at most:
 * the BPF programs that only other system events need are not loaded (the
 * kernel's verifier checking them is most of a creation's time: a stream
 * of a few syscalls starts sooner), nor the captures of other syscalls,
 * and its filter cannot let those events through later. A user event id
 * in the set (PTBPF_EV_USER_BASE and up) lets probes be added
 * (ptbpf_trace_add_probe; without one, ENOTSUP); the events processes
 * trace themselves are recorded either way. NULL, the default: every
 * event. EINVAL: no attributes object.
 */
__PTBPF_API int ptbpf_trace_attr_setevents(trace_attr_t *attr, const trace_event_set_t *events);
/* The set of setevents (all user event ids; every id by default). EINVAL: a NULL argument. */
__PTBPF_API int ptbpf_trace_attr_getevents(const trace_attr_t *attr, trace_event_set_t *events);

/*
 * The pid namespace whose pids and tids a stream's events carry, of the
 * attributes posix_trace_get_attr() gave for a stream or a log: the inode
 * number of its creator's /proc/self/ns/pid (PTBPF_PIDNS_INITIAL: the
 * host's), so that a log read elsewhere says whose ids these are; 0:
 * unknown (a log of an older version, attributes of no stream). EINVAL:
 * no attributes object or no ino.
 */
#define PTBPF_PIDNS_INITIAL 0xEFFFFFFCu
__PTBPF_API int ptbpf_trace_attr_getpidns(const trace_attr_t *attr, uint64_t *ino);

/*
 * The architecture whose syscall numbers (the ids of the sys_enter_NAME
 * and sys_exit_NAME events) and user structures (the bytes captured of
 * what a syscall's arguments point to) a stream's events carry, of the
 * attributes posix_trace_get_attr() gave: its ELF machine, the build's
 * for an active stream (and for any other attributes object), the
 * writer's for a log (PTBPF_ARCH_X86_64 for a log of a version that did
 * not record it). EINVAL: no attributes object or no arch.
 */
#define PTBPF_ARCH_X86_64  62u	/* EM_X86_64 */
#define PTBPF_ARCH_AARCH64 183u /* EM_AARCH64 */
__PTBPF_API int ptbpf_trace_attr_getarch(const trace_attr_t *attr, unsigned int *arch);

/*
 * Add one more process (all its threads) to an active stream created by
 * posix_trace_create(): the same access checks and errors apply.
 */
__PTBPF_API int ptbpf_trace_add_pid(trace_id_t trid, pid_t pid);

/*
 * Cgroups: trace every process of the cgroup v2 directory path (a
 * container's, a systemd unit's: /sys/fs/cgroup/..., in a hybrid layout
 * /sys/fs/cgroup/unified/...) and of the cgroups below it, those in it
 * when the call is made and those that join it later (moved in, or
 * created in it), in the kernel, each while it is there. A process the
 * caller could not ptrace (see posix_trace_create) is left out, not
 * traced, and counted (ptbpf_counters.left_out): the one that joins later
 * is checked in the kernel against the caller's credentials, capabilities
 * and Yama's ptrace_scope, not against other security modules. The
 * calling process is not taken in (pid 0 traces it). A process that moves
 * out of them is traced no more, unless it was traced for another reason
 * (a pid of the stream, or a traced parent's child with
 * POSIX_TRACE_INHERITED): processes add up. The threads of a process are
 * in its leader's cgroup.
 *
 * ptbpf_trace_add_cgroup() adds a cgroup (at most 64) to an active stream
 * created by posix_trace_create(); ptbpf_trace_create_cgroup() creates
 * one that traces the cgroup's processes only, as posix_trace_create()
 * (fd -1) or posix_trace_create_withlog() (fd: the log) would, its own
 * process excluded. ptbpf_cgroup_id() gives the id of the cgroup, which
 * is bpf_get_current_cgroup_id()'s for its processes.
 * Errors: ENOENT, no such path; EINVAL, not a directory of a cgroup v2 file
 * system (a cgroup v1 hierarchy's, a plain one), or bad arguments; E2BIG,
 * too many cgroups; the other errors of posix_trace_create().
 */
__PTBPF_API int ptbpf_cgroup_id(const char *path, uint64_t *id);
__PTBPF_API int ptbpf_trace_create_cgroup(const char *path, const trace_attr_t *attr, int fd,
					  trace_id_t *trid);
__PTBPF_API int ptbpf_trace_add_cgroup(trace_id_t trid, const char *path);

/*
 * What the running kernel and the caller offer (see `ptbpf info`). The
 * struct may grow: set sz to sizeof(struct ptbpf_features) before the call
 * (fields past sz are not written; sz 0 is EINVAL).
 */
struct ptbpf_features {
	size_t sz;
	int btf;	  /* /sys/kernel/btf/vmlinux present */
	int ringbuf;	  /* BPF_MAP_TYPE_RINGBUF */
	int tp_btf;	  /* BTF-enabled raw tracepoints */
	int uprobes;	  /* uprobe PMU */
	int task_pt_regs; /* bpf_task_pt_regs() helper */
	int cap_bpf;	  /* the caller's effective capabilities */
	int cap_perfmon;
	int cap_sys_admin;
	int cap_sys_ptrace;
	int cap_sys_resource;
	int bpf_load_ok; /* a BPF program could be loaded */
	char kernel_release[65];
};
__PTBPF_API int ptbpf_probe_features(struct ptbpf_features *f);

/*
 * Where the library's messages go: libbpf's (verifier logs, why a BPF
 * program did not load or attach), handed to fn with their level and a
 * printf format. Every failure is reported by a return value as well; the
 * messages only say more. Returns the previous fn. fn NULL, the default:
 * the messages go nowhere.
 *
 * libbpf has one print function for the whole process: until the first
 * call of ptbpf_set_print() the library never calls libbpf_set_print(),
 * and libbpf's messages go where the application had them go (libbpf's
 * own default prints its warnings to stderr). From the first call on,
 * libbpf's messages are the library's, sent to fn.
 */
enum ptbpf_print_level { PTBPF_WARN, PTBPF_INFO, PTBPF_DEBUG };
typedef int (*ptbpf_print_fn_t)(enum ptbpf_print_level level, const char *fmt, va_list ap);
__PTBPF_API ptbpf_print_fn_t ptbpf_set_print(ptbpf_print_fn_t fn);

/*
 * Probes of programs not built for tracing, as event types of a stream:
 *
 *   uprobe:PATH:SYMBOL[+OFFSET][:TYPES]   a function's entry
 *   uretprobe:PATH:SYMBOL[:TYPE]          its return
 *   usdt:PATH:[PROVIDER:]NAME[:TYPES]     a USDT probe (.note.stapsdt)
 *
 * PATH is a file, or a name without '/' (libc, python3): an executable in
 * $PATH, else a shared library mapped by process pid (pid > 0), else one
 * in the standard library directories. SYMBOL and NAME may hold
 * fnmatch(3) wildcards (*, ?, [...]). TYPES, comma-separated, one per
 * argument (the return value of a uretprobe) to show: int, uint, hex or
 * str (a string read from the traced process when the event happens);
 * without them a uprobe shows its six arguments and a uretprobe its value
 * in hex, a USDT probe its arguments as int. A USDT spec with TYPES
 * names its PROVIDER.
 */
#define PTBPF_PROBE_ARG_INT  1
#define PTBPF_PROBE_ARG_UINT 2
#define PTBPF_PROBE_ARG_HEX  3
#define PTBPF_PROBE_ARG_STR  4
/* Matches of a wildcard a probe spec may have. */
#define PTBPF_PROBE_MATCH_MAX 64

struct ptbpf_probe_spec {
	int kind;	   /* PTBPF_PROBE_* of <ptbpf/events.h> */
	char path[4096];   /* as written */
	char provider[64]; /* usdt */
	char name[256];	   /* symbol or USDT name, maybe a pattern */
	unsigned long offset;
	unsigned int ntypes; /* 0: the kind's default */
	unsigned char types[PTBPF_PROBE_ARGS_MAX];
};

/*
 * Parse a probe spec (also a probe event type's name). EINVAL: not a
 * probe spec, or a part too long (p is then undefined).
 */
__PTBPF_API int ptbpf_probe_parse(const char *spec, struct ptbpf_probe_spec *p);

/*
 * The file PATH of a spec names (see above) into buf. ENOENT: none;
 * ENAMETOOLONG: buf too small.
 */
__PTBPF_API int ptbpf_probe_resolve(const char *path, pid_t pid, char *buf, size_t size);

/*
 * Call fn for each function symbol ("uprobe:PATH[:PATTERN]") or USDT
 * probe ("usdt:PATH[:[PROVIDER:]PATTERN]", any provider when left out) of
 * a file that matches, with its name (a USDT probe's: "PROVIDER:NAME"),
 * each name once, sorted; a non-zero return of fn stops the walk and is
 * returned. ENOENT: no such file; ENOEXEC: not an ELF file; EINVAL: a bad
 * spec.
 */
typedef int (*ptbpf_probe_list_fn)(void *ctx, const char *name);
__PTBPF_API int ptbpf_probe_list(const char *spec, pid_t pid, ptbpf_probe_list_fn fn, void *ctx);

/*
 * Add the probe of spec to an active stream: one event type per symbol or
 * USDT probe it matches, named by the spec with the match in place of the
 * pattern and PATH's last component for PATH; their ids go to ids (up to
 * max), their number to *count. They record the events of the stream's
 * traced processes (with inheritance, their children's too), across
 * execs of the same binary; without inheritance they are attached in
 * those processes only (and in those ptbpf_trace_add_pid() adds), with it
 * in every process that maps the file. A spec added again gives the same ids. A match that fails to
 * attach stops there: those before it stay attached, in ids and *count.
 * Errors: EINVAL (bad
 * spec or trid, max 0), ENOENT (no such file), ENOEXEC (not an ELF file),
 * ESRCH (no symbol or probe matches), E2BIG (more than PTBPF_PROBE_MATCH_MAX or max matches),
 * ENAMETOOLONG (a type name of TRACE_EVENT_NAME_MAX bytes or more),
 * EAGAIN (the stream's event types are all used), EOPNOTSUPP (the kernel
 * lacks BPF cookies: Linux before 5.15).
 */
__PTBPF_API int ptbpf_trace_add_probe(trace_id_t trid, const char *spec, trace_event_id_t *ids,
				      size_t max, size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* PTBPF_PTBPF_H */
