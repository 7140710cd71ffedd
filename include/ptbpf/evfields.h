/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fields of ptbpf's kernel and POSIX system events, as data: one
 * table, built from the structs of <ptbpf/events.h> with offsetof and
 * sizeof, that every reader walks (the ptbpf command's JSON, CTF and
 * Chrome writers and its -e groups, and API readers). Syscall events
 * (sys_enter_*, sys_exit_*) are not described here.
 *
 * Adding an event type: its id and struct in <ptbpf/events.h> and one
 * entry (its name, group and fields) in src/core/evfields.c: the event
 * names (posix_trace_eventid_get_name) come from it, and the JSON, CTF and
 * Chrome writers and the -e groups need nothing more. (The strace-like
 * text of an event is still written by hand in cli/fmt_other.c; without
 * it, a new event prints as the other unknown ones.)
 */
#ifndef PTBPF_EVFIELDS_H
#define PTBPF_EVFIELDS_H

#include <stddef.h>
#include <trace.h>
#include <ptbpf/events.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What a field holds. Integers (PTBPF_FIELD_UINT .. PTBPF_FIELD_LENGTH)
 * are size bytes (2, 4 or 8) in the host's byte order.
 */
enum ptbpf_field_kind {
	PTBPF_FIELD_UINT = 1,
	PTBPF_FIELD_INT,
	PTBPF_FIELD_HEX,     /* unsigned, an address or an id best read in hex */
	PTBPF_FIELD_BOOL,    /* 0 or 1 */
	PTBPF_FIELD_PID,     /* signed: a process id */
	PTBPF_FIELD_TID,     /* signed: a kernel thread id */
	PTBPF_FIELD_SIGNO,   /* signed: a signal number */
	PTBPF_FIELD_WSTATUS, /* signed: a wait(2) status, (code << 8) | signal */
	PTBPF_FIELD_ENUM,    /* unsigned: one of values (values[0]: unknown) */
	PTBPF_FIELD_FLAGS,   /* unsigned: bits named by values */
	PTBPF_FIELD_LENGTH,  /* unsigned: the length of another field (len_field) */
	PTBPF_FIELD_CHARS,   /* char[size]: a string ending at its NUL or at size */
	PTBPF_FIELD_STRING,  /* a string of the length in len_field (NUL included) */
	PTBPF_FIELD_BYTES,   /* bytes: len_field of them, or size when len_field < 0 */
	PTBPF_FIELD_ARRAY, /* unsigned integers of elem bytes: len_field of them, or size / elem */
};

/* A name of an ENUM value or a FLAGS bit; a table ends with name NULL. */
struct ptbpf_event_value {
	unsigned long long value;
	const char *name;
};

struct ptbpf_event_field {
	const char *name;  /* the struct member's */
	const char *label; /* NULL, or the name a record with its own pid and tid (JSON) uses */
	unsigned int offset;
	unsigned int size; /* of the member: the most a STRING, BYTES or ARRAY holds */
	unsigned short kind;
	unsigned short elem; /* ARRAY: bytes of each element */
	/* STRING, BYTES, ARRAY: the index of the LENGTH field that counts it
	 * (bytes; ARRAY: elements), -1 for none */
	short len_field;
	/* STRING, BYTES: the index of the field whose bytes it follows in the
	 * same member (proc_map's build-id after its path), -1: at offset */
	short follows;
	const struct ptbpf_event_value *values; /* ENUM, FLAGS */
};

struct ptbpf_event_desc {
	trace_event_id_t id;
	const char *name;  /* as posix_trace_eventid_get_name() */
	const char *group; /* "posix", "proc", "signal", "sched", "stack", "fd" */
	unsigned int size; /* of its struct */
	/* the shortest payload readers take fields from (an older log's
	 * shorter struct); a field past the payload's end is absent */
	unsigned int min_size;
	unsigned int nfields;
	const struct ptbpf_event_field *fields;
};

/* The description of system event id, NULL for a syscall, user or unknown id. */
__PTBPF_API const struct ptbpf_event_desc *ptbpf_event_desc(trace_event_id_t id);

/* The fields of system event id, *n of them; NULL (and *n 0) when not described. */
__PTBPF_API const struct ptbpf_event_field *ptbpf_event_fields(trace_event_id_t id, size_t *n);

/*
 * Where field i of an event with this payload (len bytes) lies: *at its
 * offset in data, *n its bytes (STRING: up to its NUL or length; CHARS:
 * up to its NUL; BYTES: its length; ARRAY: whole elements), bounded by
 * len, whatever a length field says. 0, or -1 when the field is not in
 * the payload (a payload shorter than the field's fixed part).
 */
__PTBPF_API int ptbpf_event_field_span(const struct ptbpf_event_desc *d, unsigned int i,
				       const void *data, size_t len, size_t *at, size_t *n);

/*
 * The value of integer field i (sign-extended for PTBPF_FIELD_INT, PID,
 * TID, SIGNO, WSTATUS) in *v: 0, or -1 when it is not in the payload.
 */
__PTBPF_API int ptbpf_event_field_int(const struct ptbpf_event_desc *d, unsigned int i,
				      const void *data, size_t len, unsigned long long *v);

#ifdef __cplusplus
}
#endif

#endif /* PTBPF_EVFIELDS_H */
