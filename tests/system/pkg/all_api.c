/* Compiled as C89, C99, C11 and C++ against the INSTALLED library through
 * pkg-config: every function and constant of <trace.h> is referenced. */
#include <trace.h>
#include <ptbpf/ptbpf.h>
#include <stdio.h>

typedef void (*fnptr)(void);
#define F(f) (fnptr)(f)

static fnptr const functions[] = {
	F(posix_trace_attr_destroy),
	F(posix_trace_attr_getclockres),
	F(posix_trace_attr_getcreatetime),
	F(posix_trace_attr_getgenversion),
	F(posix_trace_attr_getinherited),
	F(posix_trace_attr_getlogfullpolicy),
	F(posix_trace_attr_getlogsize),
	F(posix_trace_attr_getmaxdatasize),
	F(posix_trace_attr_getmaxsystemeventsize),
	F(posix_trace_attr_getmaxusereventsize),
	F(posix_trace_attr_getname),
	F(posix_trace_attr_getstreamfullpolicy),
	F(posix_trace_attr_getstreamsize),
	F(posix_trace_attr_init),
	F(posix_trace_attr_setinherited),
	F(posix_trace_attr_setlogfullpolicy),
	F(posix_trace_attr_setlogsize),
	F(posix_trace_attr_setmaxdatasize),
	F(posix_trace_attr_setname),
	F(posix_trace_attr_setstreamfullpolicy),
	F(posix_trace_attr_setstreamsize),
	F(posix_trace_clear),
	F(posix_trace_close),
	F(posix_trace_create),
	F(posix_trace_create_withlog),
	F(posix_trace_event),
	F(posix_trace_eventid_equal),
	F(posix_trace_eventid_get_name),
	F(posix_trace_eventid_open),
	F(posix_trace_eventset_add),
	F(posix_trace_eventset_del),
	F(posix_trace_eventset_empty),
	F(posix_trace_eventset_fill),
	F(posix_trace_eventset_ismember),
	F(posix_trace_eventtypelist_getnext_id),
	F(posix_trace_eventtypelist_rewind),
	F(posix_trace_flush),
	F(posix_trace_get_attr),
	F(posix_trace_get_filter),
	F(posix_trace_get_status),
	F(posix_trace_getnext_event),
	F(posix_trace_open),
	F(posix_trace_rewind),
	F(posix_trace_set_filter),
	F(posix_trace_shutdown),
	F(posix_trace_start),
	F(posix_trace_stop),
	F(posix_trace_timedgetnext_event),
	F(posix_trace_trid_eventid_open),
	F(posix_trace_trygetnext_event),
	F(ptbpf_version),
	F(ptbpf_trace_last_tid),
	F(ptbpf_trace_get_counters),
	F(ptbpf_trace_add_pid),
	F(ptbpf_system_eventid),
	F(ptbpf_system_eventid_get_name),
	F(ptbpf_system_eventid_next),
	F(ptbpf_probe_features),
	F(ptbpf_trace_trygetnext_events),
	F(ptbpf_trace_timedgetnext_events),
	F(ptbpf_set_print),
};

static const long constants[] = {
	POSIX_TRACE_ALL_EVENTS,
	POSIX_TRACE_APPEND,
	POSIX_TRACE_CLOSE_FOR_CHILD,
	POSIX_TRACE_FILTER,
	POSIX_TRACE_FLUSH,
	POSIX_TRACE_FLUSH_START,
	POSIX_TRACE_FLUSH_STOP,
	POSIX_TRACE_FLUSHING,
	POSIX_TRACE_FULL,
	POSIX_TRACE_LOOP,
	POSIX_TRACE_NO_OVERRUN,
	POSIX_TRACE_NOT_FLUSHING,
	POSIX_TRACE_NOT_FULL,
	POSIX_TRACE_INHERITED,
	POSIX_TRACE_NOT_TRUNCATED,
	POSIX_TRACE_OVERFLOW,
	POSIX_TRACE_OVERRUN,
	POSIX_TRACE_RESUME,
	POSIX_TRACE_RUNNING,
	POSIX_TRACE_START,
	POSIX_TRACE_STOP,
	POSIX_TRACE_SUSPENDED,
	POSIX_TRACE_SYSTEM_EVENTS,
	POSIX_TRACE_TRUNCATED_READ,
	POSIX_TRACE_TRUNCATED_RECORD,
	POSIX_TRACE_UNNAMED_USER_EVENT,
	POSIX_TRACE_UNNAMED_USEREVENT,
	POSIX_TRACE_UNTIL_FULL,
	POSIX_TRACE_WOPID_EVENTS,
	POSIX_TRACE_ERROR,
	POSIX_TRACE_SET_EVENTSET,
	POSIX_TRACE_ADD_EVENTSET,
	POSIX_TRACE_SUB_EVENTSET,
	TRACE_EVENT_NAME_MAX,
	TRACE_NAME_MAX,
	TRACE_SYS_MAX,
	TRACE_USER_EVENT_MAX,
	_POSIX_TRACE_EVENT_NAME_MAX,
	_POSIX_TRACE_NAME_MAX,
	_POSIX_TRACE_SYS_MAX,
	_POSIX_TRACE_USER_EVENT_MAX,
	PTBPF_WARN,
	PTBPF_INFO,
	PTBPF_DEBUG,
};

int main(void)
{
	trace_attr_t attr;
	trace_id_t trid = 0;
	trace_event_id_t ev = 0;
	trace_event_set_t set;
	struct posix_trace_status_info st;
	struct posix_trace_event_info info;
	char name[TRACE_NAME_MAX];
	size_t sz = 0;
	int rc;

	(void)trid;
	(void)ev;
	(void)st;
	(void)info;
	rc = posix_trace_attr_init(&attr);
	rc |= posix_trace_attr_getgenversion(&attr, name);
	rc |= posix_trace_attr_getstreamsize(&attr, &sz);
	rc |= posix_trace_eventset_fill(&set, POSIX_TRACE_ALL_EVENTS);
	rc |= posix_trace_attr_destroy(&attr);
	printf("%d functions, %d constants, genversion \"%s\", stream size %lu, rc %d\n",
	       (int)(sizeof(functions) / sizeof(functions[0])),
	       (int)(sizeof(constants) / sizeof(constants[0])), name, (unsigned long)sz, rc);
	return rc != 0;
}
