/*
 * The user-event shared memory is the traced process's: a stream believes
 * of it only what the process could honestly have written. A process that
 * writes well-formed records into its own region naming another process's
 * pid, or a drop count it cannot have reached, corrupts its region: the
 * stream records POSIX_TRACE_ERROR (EBADMSG) and attributes nothing to the
 * other process. This test process is the hostile one: it traces itself
 * and writes its region by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"
#include "uevent/uev_producer.h"
#include "uevent/uev_shm.h"

/*
 * A process that is not ours (its parent is gone): it waits until this one
 * exits or kills it (it holds nothing of ours but the end of a pipe).
 */
static pid_t spawn_unrelated(void)
{
	int p[2], life[2];
	pid_t mid, pid = 0;
	char c;

	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(life), 0);
	mid = fork();
	if (mid == 0) {
		pid_t g = fork();

		if (g == 0) {
			for (int fd = 0; fd < 1024; fd++)
				if (fd != life[0])
					close(fd);
			if (read(life[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
		if (write(p[1], &g, sizeof(g)) != sizeof(g))
			_exit(1);
		_exit(0);
	}
	assert_int_equal(read(p[0], &pid, sizeof(pid)), sizeof(pid));
	waitpid(mid, NULL, 0);
	close(p[0]);
	close(p[1]);
	close(life[0]); /* life[1] stays open until we exit */
	return pid;
}

/* The slot a stream of this process claimed in its region. */
static struct uev_slot *my_slot(struct uev_ctl *ctl, unsigned int *sp)
{
	for (unsigned int s = 0; s < UEV_NSLOTS; s++) {
		struct uev_slot *sl = &ctl->slots[s];

		if (UEV_OWN_STATE(sl->own) == UEV_SLOT_READY && sl->target_pid == getpid()) {
			*sp = s;
			return sl;
		}
	}
	fail_msg("no slot of ours");
	return NULL;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Append a well-formed record of user event idx stamped ts to this
 * thread's sub-ring of our slot, with the writer's context saying pid, and
 * drops before it.
 */
static void forge_at(struct uev_ctl *ctl, uint16_t idx, pid_t pid, uint64_t lost, uint64_t ts)
{
	unsigned int s, k = (uint32_t)gettid() & (UEV_NSUB - 1);
	struct uev_slot *sl = my_slot(ctl, &s);
	uint64_t size = UEV_SUB_SIZE(sl->ring_size);
	uint8_t *ring = (uint8_t *)ctl + UEV_RING_OFF(s) + k * size;
	struct uev_sub *sb = &sl->sub[k];
	struct uev_thr th = { .tid = pid, .pid = pid, .thread = 0x1234 };
	struct uev_lost l = { .count = lost, .first_ts = ts };
	uint16_t flags = UEV_REC_THREAD | UEV_REC_TSHI | UEV_REC_PROG | (lost ? UEV_REC_LOST : 0);
	uint32_t dlen = 8, ts_hi = (uint32_t)(ts >> 32);
	uint64_t prog = 0x5678, data = 0xf0f0f0f0f0f0f0f0ull;
	uint64_t rlen = UEV_ALIGN8(sizeof(struct uev_rec) + uev_rec_extra(flags) + dlen);
	uint64_t pos = __atomic_load_n(&sb->head, __ATOMIC_RELAXED);
	struct uev_rec *rec = (struct uev_rec *)(ring + (pos & (size - 1)));
	uint8_t *p = (uint8_t *)(rec + 1);

	assert_true((pos & (size - 1)) + rlen <= size);
	rec->commit = UEV_COMMIT(pos, UEV_KIND_RESV, rlen);
	rec->ts_lo = (uint32_t)ts;
	rec->idx = idx;
	rec->flags = flags;
	memcpy(p, &th, sizeof(th));
	p += sizeof(th);
	if (lost) {
		memcpy(p, &l, sizeof(l));
		p += sizeof(l);
	}
	memcpy(p, &ts_hi, sizeof(ts_hi));
	p += sizeof(ts_hi);
	memcpy(p, &prog, sizeof(prog));
	p += sizeof(prog);
	memcpy(p, &data, dlen);
	__atomic_store_n(&sb->head, pos + rlen, __ATOMIC_RELEASE);
	__atomic_store_n(&rec->commit, UEV_COMMIT(pos, UEV_KIND_DATA, dlen), __ATOMIC_RELEASE);
}

static void forge(struct uev_ctl *ctl, uint16_t idx, pid_t pid, uint64_t lost)
{
	forge_at(ctl, idx, pid, lost, mono_ns());
}

struct seen {
	unsigned int ours, other, errors, bad_errno;
};

/* Stop the stream (it takes in everything) and read it all. */
static void read_all(trace_id_t trid, pid_t other, struct seen *s)
{
	struct posix_trace_event_info ev;
	char data[1024];
	size_t len;
	int un = 0, e;

	memset(s, 0, sizeof(*s));
	assert_int_equal(posix_trace_stop(trid), 0);
	for (;;) {
		assert_int_equal(
			posix_trace_trygetnext_event(trid, &ev, data, sizeof(data), &len, &un), 0);
		if (un)
			break;
		if (ev.posix_event_id == POSIX_TRACE_ERROR) {
			s->errors++;
			memcpy(&e, data, sizeof(e));
			if (len != sizeof(e) || e != EBADMSG || ev.posix_pid != getpid())
				s->bad_errno++;
		} else if (ev.posix_event_id >= PTBPF_EV_USER_BASE) {
			if (ev.posix_pid == other)
				s->other++;
			else if (ev.posix_pid == getpid())
				s->ours++;
		}
	}
}

static trace_id_t trace_self(trace_event_id_t *id)
{
	trace_event_set_t kernel;
	trace_id_t trid;

	assert_int_equal(posix_trace_eventid_open("trust.event", id), 0);
	assert_int_equal(posix_trace_create(0, NULL, &trid), 0);
	/* user events only: the kernel's would be noise here */
	posix_trace_eventset_fill(&kernel, POSIX_TRACE_SYSTEM_EVENTS);
	for (trace_event_id_t i = 1; i < PTBPF_EV_KERNEL_FIRST; i++)
		posix_trace_eventset_del(i, &kernel);
	assert_int_equal(posix_trace_set_filter(trid, &kernel, POSIX_TRACE_SET_EVENTSET), 0);
	assert_int_equal(posix_trace_start(trid), 0);
	return trid;
}

/* Events forged under another traced process's pid are not its events. */
static void test_forged_pid(void **state)
{
	struct uev_ctl *ctl;
	trace_event_id_t id;
	struct seen s;
	trace_id_t trid;
	pid_t other = spawn_unrelated();
	int fd, i;

	assert_int_equal(uev_producer__self(&fd, &ctl), 0);
	trid = trace_self(&id);
	assert_int_equal(ptbpf_trace_add_pid(trid, other), 0);
	posix_trace_event(id, "ok", 2);
	for (i = 0; i < 1000; i++)
		forge(ctl, (uint16_t)(id - PTBPF_EV_USER_BASE), other, 0);
	read_all(trid, other, &s);
	assert_int_equal(s.other, 0);
	assert_int_equal(s.ours, 1);
	assert_int_equal(s.errors, 1);
	assert_int_equal(s.bad_errno, 0);
	assert_int_equal(posix_trace_shutdown(trid), 0);
	kill(other, SIGKILL);
}

/* A drop count that no producer can have reached is no loss of events. */
static void test_forged_lost(void **state)
{
	struct uev_ctl *ctl;
	trace_event_id_t id;
	struct ptbpf_counters c = { .sz = sizeof(c) };
	struct seen s;
	trace_id_t trid;
	int fd;

	assert_int_equal(uev_producer__self(&fd, &ctl), 0);
	trid = trace_self(&id);
	posix_trace_event(id, "ok", 2);
	forge(ctl, (uint16_t)(id - PTBPF_EV_USER_BASE), getpid(), 1ull << 62);
	read_all(trid, 0, &s);
	assert_int_equal(s.errors, 1);
	assert_int_equal(s.bad_errno, 0);
	assert_int_equal(ptbpf_trace_get_counters(trid, &c), 0);
	assert_true(c.lost < 1000);
	assert_int_equal(posix_trace_shutdown(trid), 0);

	/* the same in the sub-ring's own drop counter */
	trid = trace_self(&id);
	{
		unsigned int sn, k = (uint32_t)gettid() & (UEV_NSUB - 1);
		struct uev_slot *sl = my_slot(ctl, &sn);

		__atomic_store_n(&sl->sub[k].dropped, 1ull << 62, __ATOMIC_RELEASE);
	}
	read_all(trid, 0, &s);
	assert_int_equal(s.errors, 1);
	assert_int_equal(ptbpf_trace_get_counters(trid, &c), 0);
	assert_true(c.lost < 1000);
	assert_int_equal(posix_trace_shutdown(trid), 0);
}

static uint64_t ts_of(const struct posix_trace_event_info *e)
{
	return (uint64_t)e->posix_timestamp.tv_sec * 1000000000u +
	       (uint64_t)e->posix_timestamp.tv_nsec;
}

/* The next user event of the stream, now (the stream's own skipped). */
static void next_user(trace_id_t trid, struct posix_trace_event_info *ev, char *data, size_t *len)
{
	int un;

	do {
		assert_int_equal(posix_trace_trygetnext_event(trid, ev, data, 64, len, &un), 0);
		assert_int_equal(un, 0);
	} while (ev->posix_event_id < PTBPF_EV_USER_BASE);
}

/*
 * A record written with a time older than an event already read (as a
 * writer stalled past the stream's hold would) is reported with its own
 * timestamp, not the newest read, and counted late.
 */
static void test_late_keeps_time(void **state)
{
	struct ptbpf_counters c = { .sz = sizeof(c) };
	struct posix_trace_event_info ev;
	uint64_t before, after, old;
	int64_t off_lo, off_hi, off;
	trace_event_id_t id;
	struct uev_ctl *ctl;
	trace_id_t trid;
	char data[64];
	size_t len;
	int fd;

	(void)state;
	assert_int_equal(uev_producer__self(&fd, &ctl), 0);
	trid = trace_self(&id);
	/* after the start (an older event would be one from before it) */
	old = mono_ns();
	usleep(2000);
	before = mono_ns();
	posix_trace_event(id, "a", 1);
	after = mono_ns();
	/* read at once: the event was generated before the call */
	next_user(trid, &ev, data, &len);
	assert_int_equal(ev.posix_event_id, id);
	/* the stream's clock offset, from the brackets of that event */
	off_lo = (int64_t)(ts_of(&ev) - after);
	off_hi = (int64_t)(ts_of(&ev) - before);
	forge_at(ctl, (uint16_t)(id - PTBPF_EV_USER_BASE), getpid(), 0, old);
	posix_trace_event(id, "c", 1);
	next_user(trid, &ev, data, &len);
	assert_int_equal(ev.posix_event_id, id);
	assert_int_equal(len, 8); /* the forged one first: older than "c" */
	off = (int64_t)(ts_of(&ev) - old);
	if (off < off_lo || off > off_hi)
		fail_msg("late event stamped %lld ns away from its own time",
			 (long long)(off - off_lo));
	next_user(trid, &ev, data, &len);
	assert_int_equal(len, 1);
	assert_int_equal(data[0], 'c');
	assert_int_equal(ptbpf_trace_get_counters(trid, &c), 0);
	assert_int_equal(c.late, 1);
	assert_int_equal(posix_trace_shutdown(trid), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forged_pid),
		cmocka_unit_test(test_forged_lost),
		cmocka_unit_test(test_late_keeps_time),
	};

	itest_require_bpf();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
