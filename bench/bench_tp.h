/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* LTTng-UST tracepoint of the user-event benchmark: an int and 64 bytes. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER bench
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./bench_tp.h"

#if !defined(PTBPF_BENCH_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define PTBPF_BENCH_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(bench, ev, LTTNG_UST_TP_ARGS(int, v, const char *, buf),
			   LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int, v, v)
						       lttng_ust_field_array(char, buf, buf, 64)))

#endif /* PTBPF_BENCH_TP_H */

#include <lttng/tracepoint-event.h>
