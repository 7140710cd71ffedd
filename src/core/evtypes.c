/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/evtypes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/events.h>
#include <ptbpf/evfields.h>

#include "backend/syscalls.h"

#define UNNAMED_NAME "posix_trace_unnamed_userevent"

int evtypes__init(struct evtypes *t)
{
	memset(t, 0, sizeof(*t));
	t->user = calloc(EVTYPES_USER_MAX, sizeof(*t->user));
	if (!t->user)
		return -ENOMEM;
	strcpy(t->user[0], UNNAMED_NAME);
	t->nuser = 1;
	return 0;
}

void evtypes__fini(struct evtypes *t)
{
	free(t->user);
	t->user = NULL;
}

/* the names of the POSIX and kernel events: their table's (<ptbpf/evfields.h>) */
static const char *fixed_name(uint32_t id)
{
	const struct ptbpf_event_desc *d = ptbpf_event_desc(id);

	return d ? d->name : NULL;
}

int evtypes__name(const struct evtypes *t, uint32_t id, char *buf)
{
	const char *n = fixed_name(id);

	if (n) {
		snprintf(buf, TRACE_EVENT_NAME_MAX, "%s", n);
		return 0;
	}
	if (PTBPF_EV_IS_SYSCALL(id)) {
		snprintf(buf, TRACE_EVENT_NAME_MAX, "%s_%s",
			 PTBPF_EV_SYSCALL_IS_EXIT(id) ? "sys_exit" : "sys_enter",
			 syscalls__name(PTBPF_EV_SYSCALL_NR(id)));
		return 0;
	}
	if (id >= PTBPF_EV_USER_BASE && id - PTBPF_EV_USER_BASE < t->nuser) {
		snprintf(buf, TRACE_EVENT_NAME_MAX, "%s", t->user[id - PTBPF_EV_USER_BASE]);
		return 0;
	}
	return -EINVAL;
}

bool evtypes__known(const struct evtypes *t, uint32_t id)
{
	if (fixed_name(id))
		return true;
	if (PTBPF_EV_IS_SYSCALL(id))
		return syscalls__known(PTBPF_EV_SYSCALL_NR(id));
	return id >= PTBPF_EV_USER_BASE && id - PTBPF_EV_USER_BASE < t->nuser;
}

int evtypes__system_id(const char *name, uint32_t *id)
{
	uint32_t i;
	int nr;

	for (i = 0; i < PTBPF_EV_KERNEL_LAST + 1; i++) {
		const char *n = fixed_name(i);

		if (n && !strcmp(n, name)) {
			*id = i;
			return 0;
		}
	}
	if (!strncmp(name, "sys_enter_", 10)) {
		nr = syscalls__lookup(name + 10);
		if (nr >= 0) {
			*id = PTBPF_EV_SYS_ENTER(nr);
			return 0;
		}
	} else if (!strncmp(name, "sys_exit_", 9)) {
		nr = syscalls__lookup(name + 9);
		if (nr >= 0) {
			*id = PTBPF_EV_SYS_EXIT(nr);
			return 0;
		}
	}
	return -ENOENT;
}

int evtypes__lookup(struct evtypes *t, const char *name, bool create, uint32_t *id)
{
	uint32_t i;

	if (strlen(name) >= TRACE_EVENT_NAME_MAX)
		return -ENAMETOOLONG;
	if (!evtypes__system_id(name, id))
		return 0;
	for (i = 0; i < t->nuser; i++) {
		if (!strcmp(t->user[i], name)) {
			*id = PTBPF_EV_USER_BASE + i;
			return 0;
		}
	}
	if (!create)
		return -ENOENT;
	if (t->nuser >= EVTYPES_USER_MAX) {
		*id = POSIX_TRACE_UNNAMED_USEREVENT;
		return 0;
	}
	strcpy(t->user[t->nuser], name);
	*id = PTBPF_EV_USER_BASE + t->nuser++;
	return 0;
}

int evtypes__next(struct evtypes *t, uint32_t *id)
{
	while (t->iter < PTBPF_EV_USER_BASE + t->nuser) {
		uint32_t i = t->iter++;

		if (evtypes__known(t, i)) {
			*id = i;
			return 0;
		}
	}
	return 1;
}

void evtypes__rewind(struct evtypes *t)
{
	t->iter = 0;
}

int evtypes__system_next(uint32_t id, uint32_t *next)
{
	for (uint32_t i = id + 1; i < PTBPF_EV_USER_BASE; i++) {
		if (evtypes__known(NULL, i)) {
			*next = i;
			return 0;
		}
	}
	return -ENOENT;
}
