// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The programs a stream loads (backend/kern_progs.c): all by default; with
 * bounded events (ptbpf_trace_attr_setevents) only those the events need,
 * without the captures of other syscalls, and the events recorded are
 * those of the set.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>
#include <trace.h>
#include "backend/kern.h"
#include "backend/probe.h"
#include "itest.h"
#include "itest_read.h"

#define MAX_PROGS 32
#define STRSIZE	  32

/* The loaded programs' names, translated sizes and the verifier's work. */
struct progs {
	int n;
	char name[MAX_PROGS][BPF_OBJ_NAME_LEN];
	uint32_t xlated[MAX_PROGS];
	uint32_t work[MAX_PROGS]; /* verified_insns (5.16 on), else xlated */
};

static void progs_of(const struct kern_opts *o, struct progs *p)
{
	struct kern_backend *kb = NULL;
	uint32_t ids[MAX_PROGS];

	memset(p, 0, sizeof(*p));
	assert_int_equal(kern_backend__open(&kb, o), 0);
	p->n = kern_backend__prog_ids(kb, ids, MAX_PROGS);
	for (int i = 0; i < p->n; i++) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(ids[i]);

		assert_true(fd >= 0);
		memset(&info, 0, sizeof(info));
		assert_int_equal(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
		close(fd);
		memcpy(p->name[i], info.name, sizeof(p->name[i]));
		p->xlated[i] = info.xlated_prog_len;
		p->work[i] = info.verified_insns ? info.verified_insns : info.xlated_prog_len;
	}
	kern_backend__destroy(kb);
}

/* The translated size of the program whose name starts with name (its
 * variant without bpf_loop, ptbpf_sys_exit_bounded, before 5.17; the
 * kernel keeps 15 bytes of a name), 0 if none is loaded. */
static uint32_t prog(const struct progs *p, const char *name)
{
	size_t n = strlen(name) < BPF_OBJ_NAME_LEN - 1 ? strlen(name) : BPF_OBJ_NAME_LEN - 1;

	for (int i = 0; i < p->n; i++)
		if (!strncmp(p->name[i], name, n))
			return p->xlated[i];
	return 0;
}

/* The verifier's work on that program (its translated size before 5.16,
 * where the kernel does not count it), 0 if none is loaded. */
static uint32_t work(const struct progs *p, const char *name)
{
	size_t n = strlen(name) < BPF_OBJ_NAME_LEN - 1 ? strlen(name) : BPF_OBJ_NAME_LEN - 1;

	for (int i = 0; i < p->n; i++)
		if (!strncmp(p->name[i], name, n))
			return p->work[i];
	return 0;
}

static void bound(struct kern_opts *o, int nr, uint64_t kern)
{
	o->ev_bounded = true;
	if (nr >= 0)
		o->ev_sys[nr / 64] |= 1ull << (nr % 64);
	o->ev_kern = kern;
}

/* Every program by default; the scheduler's, the signals' and the
 * probes' only for a set of events that has theirs. */
static void test_bounded_programs(void **state)
{
	struct kern_opts all = { .ring_bytes = 1 << 16 }, few = all, none = all;
	struct progs pa, pf, pn;

	(void)state;
	progs_of(&all, &pa);
	bound(&few, SYS_getppid, 1ull << PTBPF_EV_PROC_EXIT);
	progs_of(&few, &pf);
	bound(&none, -1, 1ull << PTBPF_EV_SCHED_WAKEUP);
	progs_of(&none, &pn);

	assert_true(prog(&pa, "ptbpf_switch") && prog(&pa, "ptbpf_wakeup"));
	assert_true(prog(&pa, "ptbpf_sig_deliver"));
	assert_true(!probe__supported() || prog(&pa, "ptbpf_uprobe"));

	assert_true(prog(&pf, "ptbpf_sys_enter") && prog(&pf, "ptbpf_sys_exit"));
	assert_true(prog(&pf, "ptbpf_sig_gen")); /* says why a process exited */
	assert_int_equal(prog(&pf, "ptbpf_switch"), 0);
	assert_int_equal(prog(&pf, "ptbpf_wakeup"), 0);
	assert_int_equal(prog(&pf, "ptbpf_sig_deliver"), 0);
	assert_int_equal(prog(&pf, "ptbpf_uprobe"), 0);
	assert_int_equal(pf.n, pa.n - 4 - (probe__supported() ? 3 : 0));

	assert_int_equal(prog(&pn, "ptbpf_sys_enter"), 0);
	assert_int_equal(prog(&pn, "ptbpf_sys_exit"), 0);
	assert_int_equal(prog(&pn, "ptbpf_switch"), 0);
	assert_true(prog(&pn, "ptbpf_wakeup") && prog(&pn, "ptbpf_wakeup_new"));
	assert_true(prog(&pn, "ptbpf_fork") && prog(&pn, "ptbpf_exec"));
}

/* With captures, a set of syscalls that capture nothing (getppid) loads
 * syscall programs without the capture walks; one of read keeps them. */
static void test_bounded_captures(void **state)
{
	struct kern_opts all = { .ring_bytes = 1 << 16, .strsize = STRSIZE }, ppid = all, rd = all;
	struct progs pa, pp, pr;

	(void)state;
	progs_of(&all, &pa);
	bound(&ppid, SYS_getppid, 0);
	progs_of(&ppid, &pp);
	bound(&rd, SYS_read, 0);
	progs_of(&rd, &pr);
	/* the exit's captures cost the verifier less when none is wanted:
	 * most of its work on 6.18 (94% less), little before (5.10's
	 * translated size 3% less, 6.1's verified instructions 14%) */
	print_message("sys_exit's verifier work: all %u, getppid %u, read %u\n",
		      work(&pa, "ptbpf_sys_exit"), work(&pp, "ptbpf_sys_exit"),
		      work(&pr, "ptbpf_sys_exit"));
	assert_true(work(&pp, "ptbpf_sys_exit") < work(&pa, "ptbpf_sys_exit"));
	assert_int_equal(work(&pr, "ptbpf_sys_exit"), work(&pa, "ptbpf_sys_exit"));
}

/* A stream without probes among its events refuses one. */
static void test_bounded_no_probes(void **state)
{
	struct kern_opts o = { .ring_bytes = 1 << 16 };
	struct probe_target t = { .id = PTBPF_EV_USER_BASE + 1, .pid = getpid() };
	struct kern_backend *kb = NULL;

	(void)state;
	bound(&o, SYS_getppid, 0);
	assert_int_equal(kern_backend__open(&kb, &o), 0);
	assert_int_equal(kern_backend__add_probe(kb, &t), -ENOTSUP);
	kern_backend__destroy(kb);
}

static void calls(void)
{
	for (int i = 0; i < 3; i++) {
		(void)syscall(SYS_getppid);
		(void)syscall(SYS_getpid);
	}
}

static void check_calls(trace_id_t t, bool log, void *ctx)
{
	static struct itest_ev evs[4096];
	char ppid[TRACE_EVENT_NAME_MAX], pid[TRACE_EVENT_NAME_MAX];
	int n;

	(void)ctx;
	n = log ? itest_read_log((const char *)ctx, NULL, evs, 4096)
		: itest_read_stream(t, evs, 4096);
	assert_int_equal(ptbpf_system_eventid_get_name(PTBPF_EV_SYS_ENTER(SYS_getppid), ppid), 0);
	assert_int_equal(ptbpf_system_eventid_get_name(PTBPF_EV_SYS_ENTER(SYS_getpid), pid), 0);
	assert_int_equal(itest_count(evs, n, ppid), 3);
	assert_int_equal(itest_count(evs, n, pid), 0);
}

/* Through the API: the set's syscalls are recorded, others not. */
static void test_setevents(void **state)
{
	trace_event_set_t set, got;
	trace_attr_t a;
	int m;

	(void)state;
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(ptbpf_trace_attr_getevents(&a, &got), 0);
	assert_int_equal(posix_trace_eventset_ismember(PTBPF_EV_SCHED_WAKEUP, &got, &m), 0);
	assert_int_equal(m, 1);
	posix_trace_eventset_empty(&set);
	posix_trace_eventset_add(PTBPF_EV_SYS_ENTER(SYS_getppid), &set);
	assert_int_equal(ptbpf_trace_attr_setevents(&a, &set), 0);
	assert_int_equal(ptbpf_trace_attr_setstrsize(&a, STRSIZE), 0);
	assert_int_equal(ptbpf_trace_attr_getevents(&a, &got), 0);
	posix_trace_eventset_ismember(PTBPF_EV_SYS_EXIT(SYS_getppid), &got, &m);
	assert_int_equal(m, 1);
	posix_trace_eventset_ismember(PTBPF_EV_SYS_ENTER(SYS_getpid), &got, &m);
	assert_int_equal(m, 0);
	posix_trace_eventset_ismember(PTBPF_EV_SCHED_WAKEUP, &got, &m);
	assert_int_equal(m, 0);
	itest_trace_run(&a, NULL, calls, check_calls, NULL);
	assert_int_equal(ptbpf_trace_attr_setevents(NULL, &set), EINVAL);
	assert_int_equal(ptbpf_trace_attr_getevents(&a, NULL), EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounded_programs),
		cmocka_unit_test(test_bounded_captures),
		cmocka_unit_test(test_bounded_no_probes),
		cmocka_unit_test(test_setevents),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
