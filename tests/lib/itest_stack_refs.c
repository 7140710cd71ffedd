/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf_trace_attr_setstackopts(): stacks the kernel walks (frame pointers,
 * the kernel stack) are stored once per stream, as stack_trace events, and
 * each selected syscall entry is followed by a stack_ref to them: a loop
 * of identical calls gives one stored stack of each kind and a reference
 * per call, in the stream and in its log. Also: the depth bounds them,
 * and the proc_map of a file carries its build-id.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"
#include "itest_read.h"

/* where user and kernel addresses lie (arm64: 48-bit or 52-bit spaces) */
#if defined(__aarch64__)
#define USER_ADDR_END	0x10000000000000ull
#define KERNEL_ADDR_MIN 0xfff0000000000000ull
#else
#define USER_ADDR_END	0x800000000000ull
#define KERNEL_ADDR_MIN 0xffff800000000000ull
#endif

#define NCALLS 50

static void test_opts(void **state)
{
	unsigned int depth = 0, flags = 1;
	trace_event_id_t getppid_enter;
	trace_event_set_t set;
	trace_attr_t a;
	size_t max = 0;

	(void)state;
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(ptbpf_trace_attr_getstackopts(&a, &depth, &flags), 0);
	assert_int_equal(depth, PTBPF_STACK_DEPTH_DEFAULT);
	assert_int_equal(flags, 0);
	assert_int_equal(ptbpf_trace_attr_setstackopts(&a, PTBPF_STACK_DEPTH_MAX + 1, 0), EINVAL);
	assert_int_equal(ptbpf_trace_attr_setstackopts(&a, 8, 0x80), EINVAL);
	assert_int_equal(ptbpf_trace_attr_setstackopts(NULL, 8, 0), EINVAL);
	assert_int_equal(ptbpf_trace_attr_getstackopts(&a, NULL, &flags), EINVAL);
	assert_int_equal(ptbpf_trace_attr_setstackopts(&a, 8, PTBPF_STACK_FP | PTBPF_STACK_KERNEL),
			 0);
	assert_int_equal(ptbpf_trace_attr_getstackopts(&a, &depth, &flags), 0);
	assert_int_equal(depth, 8);
	assert_int_equal(flags, PTBPF_STACK_FP | PTBPF_STACK_KERNEL);
	/* with a small copy, room still for the deepest stack walked */
	assert_int_equal(posix_trace_eventset_empty(&set), 0);
	assert_int_equal(ptbpf_system_eventid("sys_enter_getppid", &getppid_enter), 0);
	assert_int_equal(posix_trace_eventset_add(getppid_enter, &set), 0);
	assert_int_equal(ptbpf_trace_attr_setstacks(&a, &set, 64), 0);
	assert_int_equal(posix_trace_attr_getmaxsystemeventsize(&a, &max), 0);
	assert_true(max >= sizeof(struct ptbpf_ev_stack_trace) + 8 * PTBPF_STACK_TRACE_MAX);
}

static __attribute__((noinline)) void calls(void)
{
	for (int i = 0; i < NCALLS; i++)
		(void)syscall(SYS_getppid);
}

struct trace_seen {
	uint32_t id;
	bool kernel;
	uint16_t nr;
	uint64_t ip0;
};

struct refs_seen {
	int entries, refs;
	uint32_t user_id, kernel_id;
	struct trace_seen traces[1024];
	size_t ntraces;
};

/* A stored stack: checked, kept. */
static void on_trace(const struct ptbpf_ev_stack_trace *tr, size_t len, struct refs_seen *n)
{
	bool kernel = tr->flags & PTBPF_STACK_TRACE_KERNEL;

	assert_int_equal(len, offsetof(struct ptbpf_ev_stack_trace, ips) + tr->nr * 8);
	assert_true(tr->nr > 0 && tr->nr <= PTBPF_STACK_TRACE_MAX);
	assert_int_not_equal(tr->stack_id, 0);
	for (unsigned int i = 0; i < tr->nr; i++)
		assert_true(kernel ? tr->ips[i] >= KERNEL_ADDR_MIN : tr->ips[i] < USER_ADDR_END);
	/* never the same id twice */
	for (size_t i = 0; i < n->ntraces; i++)
		assert_int_not_equal(n->traces[i].id, tr->stack_id);
	if (n->ntraces < sizeof(n->traces) / sizeof(n->traces[0]))
		n->traces[n->ntraces++] =
			(struct trace_seen){ tr->stack_id, kernel, tr->nr, tr->ips[0] };
}

static void check_refs(trace_id_t t, bool log, struct refs_seen *n, unsigned int depth)
{
	static unsigned char buf[4096];
	struct posix_trace_event_info ev;
	trace_event_id_t getppid_enter, prev = 0;
	char name[TRACE_EVENT_NAME_MAX];
	uint64_t prev_addr = 0;
	size_t len;

	assert_int_equal(ptbpf_system_eventid("sys_enter_getppid", &getppid_enter), 0);
	memset(n, 0, sizeof(*n));
	while (itest_next_event(t, log,
				(struct itest_ev_ref){ &ev, name, buf, sizeof(buf), &len })) {
		const struct ptbpf_ev_stack_ref *r = (const void *)buf;

		if (ev.posix_event_id == PTBPF_EV_STACK_TRACE) {
			assert_string_equal(name, "stack_trace");
			on_trace((const void *)buf, len, n);
			continue;
		}
		if (ev.posix_pid != getpid() || !pthread_equal(ev.posix_thread_id, pthread_self()))
			continue;
		if (ev.posix_event_id == getppid_enter)
			n->entries++;
		if (ev.posix_event_id != PTBPF_EV_STACK_REF) {
			prev = ev.posix_event_id;
			prev_addr = (uint64_t)(uintptr_t)ev.posix_prog_address;
			continue;
		}
		assert_string_equal(name, "stack_ref");
		assert_int_equal(len, sizeof(*r));
		assert_int_equal(r->event_id, getppid_enter);
		assert_int_equal(prev, getppid_enter);
		assert_int_equal(r->depth, depth);
		assert_int_not_equal(r->user_id, 0);
		assert_int_not_equal(r->kernel_id, 0);
		/* every call of the loop: the same two stacks, stored before */
		if (n->refs++) {
			assert_int_equal(r->user_id, n->user_id);
			assert_int_equal(r->kernel_id, n->kernel_id);
		}
		n->user_id = r->user_id;
		n->kernel_id = r->kernel_id;
		for (size_t i = 0; i < n->ntraces; i++)
			if (n->traces[i].id == r->user_id)
				/* the user stack starts where the thread entered */
				assert_int_equal(n->traces[i].ip0, prev_addr);
		prev = 0;
	}
}

struct refs_run {
	unsigned int depth;
	struct refs_seen *n;
};

static void check_refs_run(trace_id_t t, bool log, void *ctx)
{
	const struct refs_run *r = ctx;

	check_refs(t, log, r->n, r->depth);
}

static void trace_loop(unsigned int depth, const char *logpath)
{
	static struct refs_seen n;
	unsigned int want_depth = depth ? depth : PTBPF_STACK_DEPTH_DEFAULT;
	trace_event_id_t getppid_enter;
	trace_event_set_t set;
	int user = 0, kernel = 0;
	trace_attr_t a;

	itest_require_bpf();
	assert_int_equal(ptbpf_system_eventid("sys_enter_getppid", &getppid_enter), 0);
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(posix_trace_eventset_empty(&set), 0);
	assert_int_equal(posix_trace_eventset_add(getppid_enter, &set), 0);
	assert_int_equal(ptbpf_trace_attr_setstacks(&a, &set, 0), 0);
	assert_int_equal(
		ptbpf_trace_attr_setstackopts(&a, depth, PTBPF_STACK_FP | PTBPF_STACK_KERNEL), 0);
	itest_trace_run(&a, logpath, calls, check_refs_run, &(struct refs_run){ want_depth, &n });
	assert_true(n.entries >= NCALLS);
	/* a reference per call, one stored stack of each kind for all */
	assert_int_equal(n.refs, n.entries);
	for (size_t i = 0; i < n.ntraces; i++) {
		if (!n.traces[i].kernel && n.traces[i].id == n.user_id) {
			user++;
			assert_true(n.traces[i].nr <= want_depth);
		}
		if (n.traces[i].kernel && n.traces[i].id == n.kernel_id) {
			kernel++;
			/* the tracing's own frames come on top of the depth */
			assert_true(n.traces[i].nr <= want_depth + 8);
		}
	}
	assert_int_equal(user, 1);
	assert_int_equal(kernel, 1);
}

static void test_stream(void **state)
{
	(void)state;
	trace_loop(0, NULL);
}

static void test_log(void **state)
{
	char path[] = "/tmp/ptbpf-itest-stackrefs.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	trace_loop(2, path);
}

/* The build-id of the program, from its own notes in memory. */
static int own_build_id(struct dl_phdr_info *info, size_t size, void *arg)
{
	uint8_t *out = arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		size_t off = 0;

		if (ph->p_type != PT_NOTE)
			continue;
		while (off + sizeof(ElfW(Nhdr)) <= ph->p_memsz) {
			const ElfW(Nhdr) *nh = (const void *)(p + off);
			size_t name = (nh->n_namesz + 3) & ~3u, desc = (nh->n_descsz + 3) & ~3u;

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    nh->n_descsz <= PTBPF_BUILD_ID_MAX && !memcmp(nh + 1, "GNU", 4)) {
				out[0] = (uint8_t)nh->n_descsz;
				memcpy(out + 1, (const char *)(nh + 1) + name, nh->n_descsz);
				return 1;
			}
			off += sizeof(*nh) + name + desc;
		}
	}
	return 1; /* the first object is the program */
}

/* The mapping of this program at start (from /proc/PID/maps) and one
 * mmap'ed later carry the program's build-id after their path. */
static void test_build_id(void **state)
{
	static struct ptbpf_ev_proc_map e;
	uint8_t want[1 + PTBPF_BUILD_ID_MAX] = { 0 };
	struct posix_trace_event_info ev;
	char name[TRACE_EVENT_NAME_MAX], self[4096];
	trace_event_id_t getppid_enter;
	trace_event_set_t set;
	int at_start = 0, mmapped = 0, fd;
	trace_attr_t a;
	trace_id_t t;
	size_t len;
	ssize_t n;
	void *at;

	(void)state;
	itest_require_bpf();
	dl_iterate_phdr(own_build_id, want);
	assert_true(want[0] > 0);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = 0;
	assert_int_equal(ptbpf_system_eventid("sys_enter_getppid", &getppid_enter), 0);
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(posix_trace_eventset_empty(&set), 0);
	assert_int_equal(posix_trace_eventset_add(getppid_enter, &set), 0);
	assert_int_equal(ptbpf_trace_attr_setstacks(&a, &set, 0), 0);
	assert_int_equal(posix_trace_create(0, &a, &t), 0);
	assert_int_equal(posix_trace_start(t), 0);
	fd = open(self, O_RDONLY);
	assert_true(fd >= 0);
	at = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	assert_true(at != MAP_FAILED);
	close(fd);
	assert_int_equal(posix_trace_stop(t), 0);
	while (itest_next_event(t, false,
				(struct itest_ev_ref){ &ev, name, &e, sizeof(e), &len })) {
		if (ev.posix_event_id != PTBPF_EV_PROC_MAP || ev.posix_pid != getpid() ||
		    strcmp(e.path, self))
			continue;
		assert_int_equal(len, offsetof(struct ptbpf_ev_proc_map, path) + e.path_len +
					      e.build_id_len);
		assert_int_equal(e.build_id_len, want[0]);
		assert_memory_equal(e.path + e.path_len, want + 1, want[0]);
		if (e.start == (uint64_t)(uintptr_t)at)
			mmapped++;
		else
			at_start++;
	}
	munmap(at, 4096);
	assert_int_equal(posix_trace_shutdown(t), 0);
	assert_true(at_start > 0);
	assert_int_equal(mmapped, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_build_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
