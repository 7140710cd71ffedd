// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * posix_trace_eventid_open() and posix_trace_event(): the traced-process
 * API. The transport is in src/uevent (a shared-memory ring per consumer).
 *
 * USDT probe: posix_trace_event() contains a <sys/sdt.h> probe
 * "ptbpf:event" with arguments (arg0 = event_id (unsigned int),
 * arg1 = data_ptr, arg2 = data_len (size_t)); it costs one nop. It has a
 * semaphore (ptbpf_event_semaphore) that a tracer attaching to the probe
 * raises, so that the inline test of <trace.h>'s posix_trace_event macro
 * then calls the function. Example:
 *   bpftrace -e 'usdt:/usr/lib/x86_64-linux-gnu/libposixtrace.so.0:ptbpf:event
 *                { printf("%d %u\n", pid, arg0); }'
 *
 * USDT probe ptbpf:early, in the constructor, hit once: its semaphore
 * (ptbpf_early_semaphore, not exported) asks for a provisional slot, as
 * PTBPF_UEV_PENDING=1 does, without a change a traced program can see.
 * ptbpf record raises it in its command alone, before the exec: a uprobe
 * with a reference counter on this probe, for the command's pid (the
 * kernel raises the counter when the command maps this file).
 */
#include <errno.h>
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <trace.h>

#include "uevent/uev_producer.h"

__attribute__((visibility("default"),
	       section(".probes"))) volatile unsigned short ptbpf_event_semaphore;
/* in .probes, file-backed data: the kernel raises only such a counter */
__attribute__((visibility("hidden"),
	       section(".probes"))) volatile unsigned short ptbpf_early_semaphore;

static const uint64_t zero_word;
/* The word the inline test of <trace.h>'s posix_trace_event macro reads:
 * non-zero while some stream records this process's user events. */
__attribute__((visibility("default"))) const volatile unsigned long long *ptbpf_uev_gate =
	(const volatile unsigned long long *)&zero_word;

static void user_events__init(void)
{
	const uint64_t *w = uev_producer__init();

	if (w)
		__atomic_store_n(&ptbpf_uev_gate, (const volatile unsigned long long *)w,
				 __ATOMIC_RELEASE);
}

/* At load: a controller finds the region of a process that has not called
 * posix_trace_event yet. */
__attribute__((constructor)) static void user_events__load(void)
{
	STAP_PROBE(ptbpf, early);
	if (ptbpf_early_semaphore)
		uev_producer__want_provisional();
	user_events__init();
}

int posix_trace_eventid_open(const char *__restrict event_name,
			     trace_event_id_t *__restrict event_id)
{
	uint32_t id;
	int err;

	if (!event_name || !event_id)
		return EINVAL;
	/* from another constructor that ran before ours, perhaps */
	user_events__init();
	err = uev_producer__eventid_open(event_name, &id);
	if (err)
		return -err;
	*event_id = id;
	return 0;
}

void posix_trace_event(trace_event_id_t event_id, const void *__restrict data_ptr, size_t data_len)
{
	STAP_PROBE3(ptbpf, event, event_id, data_ptr, data_len);
	if (__builtin_expect(!uev_producer__active(), 1))
		return;
	if (!data_ptr)
		data_len = 0;
	uev_producer__emit(event_id, data_ptr, data_len, __builtin_return_address(0));
}
