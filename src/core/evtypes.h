/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The event type table of one stream: the fixed system event types (POSIX,
 * kernel, one entry and one exit type per syscall) and the user event
 * types, numbered per stream in the order their names are first seen.
 */
#ifndef PTBPF_CORE_EVTYPES_H
#define PTBPF_CORE_EVTYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <trace.h>

struct evtypes {
	char (*user)[TRACE_EVENT_NAME_MAX]; /* user[i]: name of id USER_BASE + i */
	uint32_t nuser;			    /* user[0] is the unnamed event */
	uint32_t iter;			    /* eventtypelist cursor */
};

int evtypes__init(struct evtypes *t);
void evtypes__fini(struct evtypes *t);

/* Name of id into buf (TRACE_EVENT_NAME_MAX bytes); -EINVAL if unknown. */
int evtypes__name(const struct evtypes *t, uint32_t id, char *buf);
/* Id of a name; with create, an unknown name becomes a new user event
 * type (POSIX_TRACE_UNNAMED_USEREVENT once the table is full). */
int evtypes__lookup(struct evtypes *t, const char *name, bool create, uint32_t *id);
/* True if id names an existing event type. */
bool evtypes__known(const struct evtypes *t, uint32_t id);
/* The system event types, the same for every stream: the id of a name
 * (-ENOENT), and the type after id (0: the first; -ENOENT after the last). */
int evtypes__system_id(const char *name, uint32_t *id);
int evtypes__system_next(uint32_t id, uint32_t *next);
/* Iterate over every id: 0 and *id set, or 1 at the end. */
int evtypes__next(struct evtypes *t, uint32_t *id);
void evtypes__rewind(struct evtypes *t);
/* Max user event types a stream holds (ids USER_BASE .. limit-1). */
#define EVTYPES_USER_MAX 2048

#endif
