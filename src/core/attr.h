/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Trace stream attributes: the object behind trace_attr_t, its defaults
 * and the size arithmetic of the stream (what one event costs).
 */
#ifndef PTBPF_CORE_ATTR_H
#define PTBPF_CORE_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <trace.h>

#define PT_ATTR_MAGIC 0x70746174u /* "ptat" */

/* Implementation-defined defaults and bounds (documented in README.md). */
#define PT_GENVERSION		 "ptbpf 0.1.0 (POSIX.1-2017 TRC TEF TRI TRL, eBPF)"
#define PT_DEFAULT_STREAM_SIZE	 (4u << 20)
#define PT_MIN_STREAM_SIZE	 4096u
#define PT_MAX_STREAM_SIZE	 (1u << 30)
#define PT_DEFAULT_MAX_DATA_SIZE 1024u
#define PT_MAX_MAX_DATA_SIZE	 65536u
#define PT_DEFAULT_LOG_SIZE	 (64u << 20)
#define PT_MIN_LOG_SIZE		 4096u

#define PT_STACK_NR_WORDS 8 /* PTBPF_SYSCALL_NR_MAX bits */

struct pt_attr {
	uint32_t magic;
	char name[TRACE_NAME_MAX];
	struct timespec create_time;
	int inherit;
	int stream_policy; /* -1: the default (LOOP without log, FLUSH with) */
	int log_policy;
	size_t stream_size;
	size_t max_data_size;
	size_t log_size;
	/* PTBPF_SYSCALL_* of the syscalls recorded, 0: all */
	unsigned int syscall_status;
	/* bytes of user stack after the entry of each syscall set in
	 * stack_nrs (by number), 0: no stacks */
	uint32_t stack_bytes;
	uint64_t stack_nrs[PT_STACK_NR_WORDS];
	uint16_t stack_depth; /* frames, 0: PTBPF_STACK_DEPTH_DEFAULT */
	uint16_t stack_flags; /* PTBPF_STACK_FP, PTBPF_STACK_KERNEL */
	/* 1: fd_info events (what each fd of a traced process is) */
	uint32_t fdinfo;
	/* bytes of each string or buffer a syscall argument points to that
	 * is captured, 0: none */
	uint32_t strsize;
	/* the events a stream may record (ptbpf_trace_attr_setevents), when
	 * ev_bounded: syscalls by number (entry or exit), the kernel events by
	 * id (below 64), probes if ev_probes; else all */
	uint32_t ev_bounded;
	uint32_t ev_probes;
	uint64_t ev_kern;
	uint64_t ev_sys[PT_STACK_NR_WORDS];
	/* the pid namespace whose ids the stream's events carry (the inode
	 * of /proc/self/ns/pid of its creator), 0: unknown */
	uint64_t pidns_ino;
	/* the ELF machine whose syscall numbers and struct layouts the events
	 * carry (PT_ARCH_NATIVE; a log's: its writer's) */
	uint32_t arch;
	/* PTBPF_AGG_*: syscalls counted in the kernel, 0: not */
	uint32_t aggregate;
};

/* The ELF machine of the build (EM_AARCH64, EM_X86_64 of <elf.h>). */
#if defined(__aarch64__)
#define PT_ARCH_NATIVE 183
#else
#define PT_ARCH_NATIVE 62
#endif

_Static_assert(sizeof(struct pt_attr) <= sizeof(trace_attr_t), "trace_attr_t too small");

static inline struct pt_attr *attr__from(trace_attr_t *a)
{
	return (struct pt_attr *)(void *)a;
}

static inline const struct pt_attr *attr__from_const(const trace_attr_t *a)
{
	return (const struct pt_attr *)(const void *)a;
}

void attr__init(struct pt_attr *a);
bool attr__valid(const struct pt_attr *a);
/* The stream full policy in force for a stream with or without a log. */
int attr__stream_policy(const struct pt_attr *a, bool with_log);

/* Bytes one stored event costs in the stream for data_len bytes of data. */
size_t attr__event_cost(size_t data_len);
/* Largest payload of a system event (kernel or POSIX). */
size_t attr__max_system_data(void);
/* The same for a stream of these attributes (its user stacks too). */
size_t attr__max_system_data_of(const struct pt_attr *a);

/* Clock resolution of event timestamps, in nanoseconds. */
long attr__clockres_ns(void);

#endif
