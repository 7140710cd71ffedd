/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * <trace.h> - POSIX.1-2017 tracing (options TRC, TEF, TRI, TRL), ptbpf.
 *
 * Usable from C89, C99, C11 and C++. Every function returns 0 or a
 * positive error number, as the standard says (never -1 and errno).
 * Implementation-defined values are documented in README.md
 * ("Implementation-defined behaviour").
 */
#ifndef _TRACE_H
#define _TRACE_H 1

#include <sys/types.h>
#include <stddef.h>
#include <time.h>
#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(__GNUC__) && !defined(__restrict)
#define __restrict
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define __PTBPF_API __attribute__((visibility("default")))
#else
#define __PTBPF_API
#endif

/* Limits (<limits.h> values of the trace options). */
#ifndef _POSIX_TRACE_EVENT_NAME_MAX
#define _POSIX_TRACE_EVENT_NAME_MAX 30
#endif
#ifndef _POSIX_TRACE_NAME_MAX
#define _POSIX_TRACE_NAME_MAX 8
#endif
#ifndef _POSIX_TRACE_SYS_MAX
#define _POSIX_TRACE_SYS_MAX 8
#endif
#ifndef _POSIX_TRACE_USER_EVENT_MAX
#define _POSIX_TRACE_USER_EVENT_MAX 32
#endif
/* Longest event type name, including the terminating NUL. */
#define TRACE_EVENT_NAME_MAX 64
/* Longest trace stream name, including the terminating NUL. */
#define TRACE_NAME_MAX 64
/* Trace streams that may exist at once in one controller process. */
#define TRACE_SYS_MAX 32
/* User event types per process, POSIX_TRACE_UNNAMED_USEREVENT included. */
#define TRACE_USER_EVENT_MAX 256

/* Types (<sys/types.h> in the standard; glibc does not define them). */
typedef unsigned int trace_id_t;
typedef unsigned int trace_event_id_t;

/* Event ids are below this bound; a set is a bitmap over them. */
#define __PTBPF_EVENTSET_BITS 4096
typedef struct {
	unsigned long __bits[__PTBPF_EVENTSET_BITS / (8 * sizeof(unsigned long))];
} trace_event_set_t;

typedef struct {
	/* Opaque storage; see posix_trace_attr_init(). */
	union {
		unsigned char __bytes[384];
		double __dalign;
		long __lalign;
		void *__palign;
	} __u;
} trace_attr_t;

struct posix_trace_status_info {
	int posix_stream_status;
	int posix_stream_full_status;
	int posix_stream_overrun_status;
	int posix_stream_flush_status;
	int posix_stream_flush_error;
	int posix_log_overrun_status;
	int posix_log_full_status;
};

struct posix_trace_event_info {
	trace_event_id_t posix_event_id;
	pid_t posix_pid;
	void *posix_prog_address;
	int posix_truncation_status;
	struct timespec posix_timestamp;
	pthread_t posix_thread_id;
};

/* Stream status. */
#define POSIX_TRACE_RUNNING   0
#define POSIX_TRACE_SUSPENDED 1
/* Full status (stream and log). */
#define POSIX_TRACE_FULL     0
#define POSIX_TRACE_NOT_FULL 1
/* Overrun status. */
#define POSIX_TRACE_OVERRUN    0
#define POSIX_TRACE_NO_OVERRUN 1
/* Flush status. */
#define POSIX_TRACE_FLUSHING	 0
#define POSIX_TRACE_NOT_FLUSHING 1
/* Truncation status. */
#define POSIX_TRACE_NOT_TRUNCATED    0
#define POSIX_TRACE_TRUNCATED_RECORD 1
#define POSIX_TRACE_TRUNCATED_READ   2
/* Stream full policies (and log full policies). */
#define POSIX_TRACE_LOOP       0
#define POSIX_TRACE_UNTIL_FULL 1
#define POSIX_TRACE_FLUSH      2
#define POSIX_TRACE_APPEND     3
/* Inheritance. */
#define POSIX_TRACE_CLOSE_FOR_CHILD 0
#define POSIX_TRACE_INHERITED	    1
/* posix_trace_eventset_fill() what. */
#define POSIX_TRACE_WOPID_EVENTS  0
#define POSIX_TRACE_SYSTEM_EVENTS 1
#define POSIX_TRACE_ALL_EVENTS	  2
/* posix_trace_set_filter() how. */
#define POSIX_TRACE_SET_EVENTSET 0
#define POSIX_TRACE_ADD_EVENTSET 1
#define POSIX_TRACE_SUB_EVENTSET 2

/* Predefined system event types (names: posix_trace_start, ...). */
#define POSIX_TRACE_ERROR	((trace_event_id_t)1)
#define POSIX_TRACE_START	((trace_event_id_t)2)
#define POSIX_TRACE_STOP	((trace_event_id_t)3)
#define POSIX_TRACE_FILTER	((trace_event_id_t)4)
#define POSIX_TRACE_OVERFLOW	((trace_event_id_t)5)
#define POSIX_TRACE_RESUME	((trace_event_id_t)6)
#define POSIX_TRACE_FLUSH_START ((trace_event_id_t)7)
#define POSIX_TRACE_FLUSH_STOP	((trace_event_id_t)8)
/* The predefined user event type (name: posix_trace_unnamed_userevent). */
#define POSIX_TRACE_UNNAMED_USEREVENT  ((trace_event_id_t)2048)
#define POSIX_TRACE_UNNAMED_USER_EVENT POSIX_TRACE_UNNAMED_USEREVENT

/* Attributes. */
__PTBPF_API int posix_trace_attr_destroy(trace_attr_t *attr);
__PTBPF_API int posix_trace_attr_init(trace_attr_t *attr);
__PTBPF_API int posix_trace_attr_getclockres(const trace_attr_t *attr, struct timespec *resolution);
__PTBPF_API int posix_trace_attr_getcreatetime(const trace_attr_t *attr,
					       struct timespec *createtime);
__PTBPF_API int posix_trace_attr_getgenversion(const trace_attr_t *attr, char *genversion);
__PTBPF_API int posix_trace_attr_getname(const trace_attr_t *attr, char *tracename);
__PTBPF_API int posix_trace_attr_setname(trace_attr_t *attr, const char *tracename);
__PTBPF_API int posix_trace_attr_getinherited(const trace_attr_t *__restrict attr,
					      int *__restrict inheritancepolicy);
__PTBPF_API int posix_trace_attr_setinherited(trace_attr_t *attr, int inheritancepolicy);
__PTBPF_API int posix_trace_attr_getlogfullpolicy(const trace_attr_t *__restrict attr,
						  int *__restrict logpolicy);
__PTBPF_API int posix_trace_attr_setlogfullpolicy(trace_attr_t *attr, int logpolicy);
__PTBPF_API int posix_trace_attr_getstreamfullpolicy(const trace_attr_t *__restrict attr,
						     int *__restrict streampolicy);
__PTBPF_API int posix_trace_attr_setstreamfullpolicy(trace_attr_t *attr, int streampolicy);
__PTBPF_API int posix_trace_attr_getlogsize(const trace_attr_t *__restrict attr,
					    size_t *__restrict logsize);
__PTBPF_API int posix_trace_attr_setlogsize(trace_attr_t *attr, size_t logsize);
__PTBPF_API int posix_trace_attr_getmaxdatasize(const trace_attr_t *__restrict attr,
						size_t *__restrict maxdatasize);
__PTBPF_API int posix_trace_attr_setmaxdatasize(trace_attr_t *attr, size_t maxdatasize);
__PTBPF_API int posix_trace_attr_getmaxsystemeventsize(const trace_attr_t *__restrict attr,
						       size_t *__restrict eventsize);
__PTBPF_API int posix_trace_attr_getmaxusereventsize(const trace_attr_t *__restrict attr,
						     size_t data_len, size_t *__restrict eventsize);
__PTBPF_API int posix_trace_attr_getstreamsize(const trace_attr_t *__restrict attr,
					       size_t *__restrict streamsize);
__PTBPF_API int posix_trace_attr_setstreamsize(trace_attr_t *attr, size_t streamsize);

/* Trace controller. */
__PTBPF_API int posix_trace_create(pid_t pid, const trace_attr_t *__restrict attr,
				   trace_id_t *__restrict trid);
__PTBPF_API int posix_trace_create_withlog(pid_t pid, const trace_attr_t *__restrict attr,
					   int file_desc, trace_id_t *__restrict trid);
__PTBPF_API int posix_trace_flush(trace_id_t trid);
__PTBPF_API int posix_trace_shutdown(trace_id_t trid);
__PTBPF_API int posix_trace_start(trace_id_t trid);
__PTBPF_API int posix_trace_stop(trace_id_t trid);
__PTBPF_API int posix_trace_clear(trace_id_t trid);
__PTBPF_API int posix_trace_get_attr(trace_id_t trid, trace_attr_t *attr);
__PTBPF_API int posix_trace_get_status(trace_id_t trid, struct posix_trace_status_info *statusinfo);
__PTBPF_API int posix_trace_get_filter(trace_id_t trid, trace_event_set_t *set);
__PTBPF_API int posix_trace_set_filter(trace_id_t trid, const trace_event_set_t *set, int how);

/* Event types and event sets. */
__PTBPF_API int posix_trace_eventid_equal(trace_id_t trid, trace_event_id_t event1,
					  trace_event_id_t event2);
__PTBPF_API int posix_trace_eventid_get_name(trace_id_t trid, trace_event_id_t event,
					     char *event_name);
__PTBPF_API int posix_trace_eventid_open(const char *__restrict event_name,
					 trace_event_id_t *__restrict event_id);
__PTBPF_API int posix_trace_trid_eventid_open(trace_id_t trid, const char *__restrict event_name,
					      trace_event_id_t *__restrict event);
__PTBPF_API int posix_trace_eventtypelist_getnext_id(trace_id_t trid,
						     trace_event_id_t *__restrict event,
						     int *__restrict unavailable);
__PTBPF_API int posix_trace_eventtypelist_rewind(trace_id_t trid);
__PTBPF_API int posix_trace_eventset_add(trace_event_id_t event_id, trace_event_set_t *set);
__PTBPF_API int posix_trace_eventset_del(trace_event_id_t event_id, trace_event_set_t *set);
__PTBPF_API int posix_trace_eventset_empty(trace_event_set_t *set);
__PTBPF_API int posix_trace_eventset_fill(trace_event_set_t *set, int what);
__PTBPF_API int posix_trace_eventset_ismember(trace_event_id_t event_id,
					      const trace_event_set_t *__restrict set,
					      int *__restrict ismember);

/* Traced process. */
__PTBPF_API void posix_trace_event(trace_event_id_t event_id, const void *__restrict data_ptr,
				   size_t data_len);

#if defined(__GNUC__) && !defined(PTBPF_BUILDING_LIB) && !defined(PTBPF_NO_INLINE_EVENT)
/*
 * posix_trace_event() is also a macro (as the standard allows): when no
 * stream records this process's user events and no USDT tracer watches,
 * the call costs one load and a predictable branch at the call site. The
 * arguments are evaluated once, as for a call. Define PTBPF_NO_INLINE_EVENT
 * to always call the function. (&posix_trace_event is the function.)
 */
extern __PTBPF_API const volatile unsigned long long *ptbpf_uev_gate;
extern __PTBPF_API volatile unsigned short ptbpf_event_semaphore;
#define posix_trace_event(event_id, data_ptr, data_len)                                            \
	__extension__({                                                                            \
		trace_event_id_t __pt_id = (event_id);                                             \
		const void *__pt_data = (data_ptr);                                                \
		size_t __pt_len = (data_len);                                                      \
		if (__builtin_expect(*ptbpf_uev_gate != 0 || ptbpf_event_semaphore != 0, 0))       \
			(posix_trace_event)(__pt_id, __pt_data, __pt_len);                         \
	})
#endif

/* Trace analyzer. */
__PTBPF_API int posix_trace_getnext_event(trace_id_t trid,
					  struct posix_trace_event_info *__restrict event,
					  void *__restrict data, size_t num_bytes,
					  size_t *__restrict data_len, int *__restrict unavailable);
__PTBPF_API int posix_trace_timedgetnext_event(trace_id_t trid,
					       struct posix_trace_event_info *__restrict event,
					       void *__restrict data, size_t num_bytes,
					       size_t *__restrict data_len,
					       int *__restrict unavailable,
					       const struct timespec *__restrict abstime);
__PTBPF_API int posix_trace_trygetnext_event(trace_id_t trid,
					     struct posix_trace_event_info *__restrict event,
					     void *__restrict data, size_t num_bytes,
					     size_t *__restrict data_len,
					     int *__restrict unavailable);
__PTBPF_API int posix_trace_open(int file_desc, trace_id_t *trid);
__PTBPF_API int posix_trace_rewind(trace_id_t trid);
__PTBPF_API int posix_trace_close(trace_id_t trid);

#ifdef __cplusplus
}
#endif

#endif /* _TRACE_H */
