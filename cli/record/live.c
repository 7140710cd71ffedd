/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf record without -o: the events printed live as they come. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <ptbpf/ptbpf.h>

#include "record/record.h"

/* Live output reads this many events (and bytes of their data) per call. */
#define LIVE_BATCH 1024
/* Live output to a pipe or a file: written out at least this often (s). */
#define LIVE_OUT_S	 0.2
#define LIVE_BATCH_BYTES (1u << 20)
/*
 * A wait for events lasts this long (ms): the targets' exit is seen within
 * it (a short command is not kept waiting); nothing for LIVE_IDLE_S: the
 * pending lines are flushed.
 */
#define LIVE_WAIT_MS 10
#define LIVE_IDLE_S  0.05
/*
 * A call that has not returned this long (ns of trace time) with the
 * stream emptied shows <unfinished ...>, as strace prints an entry when it
 * is made: a process blocked in read, futex or sleep shows where. More
 * than the library holds events back (the rings' order): a call's exit
 * read within it merges with its entry in one line.
 */
#define LIVE_STALE_NS 200000000LL

/* Print a batch of what the stream holds, or of what comes until *until
 * (NULL: no wait); the events read. */
static size_t print_batch(struct rec *r, void *buf, size_t bufsz, const struct timespec *until,
			  int *err)
{
	static struct ptbpf_event batch[LIVE_BATCH];
	struct cli_ev ev;
	size_t got = 0, i;

	if (until)
		*err = ptbpf_trace_timedgetnext_events(r->trid, batch, LIVE_BATCH, buf, bufsz, &got,
						       until);
	else
		*err = ptbpf_trace_trygetnext_events(r->trid, batch, LIVE_BATCH, buf, bufsz, &got);
	for (i = 0; !*err && i < got; i++) {
		cli_ev_from(r->trid, &ev, &batch[i]);
		record_metrics_event(r, ev.info.posix_event_id);
		view_event(r->view, &ev);
	}
	return *err ? 0 : got;
}

/* What is there, or what comes within LIVE_WAIT_MS; the events read. */
static size_t print_next(struct rec *r, void *buf, size_t bufsz, int *err)
{
	struct timespec ab;
	size_t got;

	/* what is there first, without a deadline to compute */
	got = print_batch(r, buf, bufsz, NULL, err);
	if (*err || got)
		return got;
	clock_gettime(CLOCK_REALTIME, &ab);
	ab.tv_nsec += LIVE_WAIT_MS * 1000000L;
	if (ab.tv_nsec >= 1000000000L) {
		ab.tv_sec++;
		ab.tv_nsec -= 1000000000L;
	}
	return print_batch(r, buf, bufsz, &ab, err);
}

/* When the loop last saw events, checks the targets next and writes out;
 * the stream's clock (its timestamps') less CLOCK_MONOTONIC. */
struct live_clock {
	double last_ev, next_tick, next_out;
	int64_t mono2real;
};

static int64_t clock_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The stream's clock, now. */
static int64_t trace_now(const struct live_clock *c)
{
	return clock_ns(CLOCK_MONOTONIC) + c->mono2real;
}

/*
 * After a batch of got events: nonzero to read on at once. The exit and
 * status checks (a wait4 each) come every 10 ms while full batches flow,
 * not every 1024 events; after a batch that emptied the stream at once
 * (the command may have exited: no 10 ms wait for the next tick). A pipe
 * or a file gets its lines within LIVE_OUT_S while events keep coming: a
 * steady trickle never pauses the 50 ms that flush them (live_idle).
 */
static int live_pace(struct rec *r, struct fmt *f, struct live_clock *c, size_t got)
{
	double t = now_mono();

	c->last_ev = t;
	if (t < c->next_tick && got == LIVE_BATCH)
		return 1;
	c->next_tick = t + 0.01;
	if (!f->tty && t >= c->next_out) {
		fmt_out(f);
		fflush(r->out.f);
		c->next_out = t + LIVE_OUT_S;
	}
	return 0;
}

/* Nothing for LIVE_IDLE_S: on a terminal, show a blocked call now
 * (<unfinished ...>); in a pipe or file keep the lines as 'ptbpf show'
 * prints them, just flush. */
static void live_idle(struct rec *r, struct fmt *f, const struct live_clock *c)
{
	if (now_mono() - c->last_ev < LIVE_IDLE_S)
		return;
	if (f->tty) {
		fmt_flush(f);
	} else {
		fmt_out(f);
		fflush(r->out.f);
	}
}

/* The stream emptied: the calls blocked for LIVE_STALE_NS show now. */
static void live_stale(struct rec *r, struct fmt *f, const struct live_clock *c)
{
	if (!fmt_stale(f, trace_now(c), LIVE_STALE_NS))
		return;
	fmt_out(f);
	fflush(r->out.f);
}

/* The rings drained, the calls in progress ended (detached: the processes
 * go on untraced, as strace's on detach), the JSON status; 0 or -1 (out
 * of memory, said). */
static int live_end(struct rec *r, struct fmt *f, const struct live_clock *c, void *buf,
		    size_t bufsz)
{
	int err, ret = 0, detached;

	posix_trace_stop(r->trid);
	while (!fmt_failed(f) && !view_failed(r->view) && !r->out.err &&
	       print_batch(r, buf, bufsz, NULL, &err))
		;
	/* the syscalls still in progress: the command's if it ended, else
	 * of processes that go on untraced */
	detached = !targets_done(r);
	view_end(r->view, detached);
	if (detached)
		fmt_detach(f, trace_now(c));
	fmt_flush(f);
	if (fmt_failed(f) || view_failed(r->view)) {
		cli_err("out of memory");
		ret = -1;
	} else if (r->a->json && view_opts_prints(&r->a->view) && !r->out.err) {
		fmt_json_status(r->out.f, r->trid, f->nevents, f->noverflow);
	}
	r->printed = view_opts_prints(&r->a->view) ? f->nevents : view_nevents(r->view);
	return ret;
}

int record_live(struct rec *r)
{
	static char buf[LIVE_BATCH_BYTES];
	struct fmt f;
	struct live_clock c = { .last_ev = now_mono() };
	struct fmt_look look;
	int err, ret, inflight = 0;
	size_t got;

	c.next_out = c.last_ev + LIVE_OUT_S;
	c.mono2real = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
	view_look(&r->a->view, &look, r->a->text_out != NULL,
		  r->a->follow || strchr(r->a->pids ? r->a->pids : "", ','), 1);
	look.forks = r->a->follow; /* several -p: their children are not traced */
	fmt_init(&f, r->out.f, r->a->json, &look);
	/* they run, traced, before their first event (strace's attached) */
	for (int i = 0; i < r->npids; i++)
		fmt_thread_known(&f, r->pids[i]);
	if (r->have_child)
		fmt_thread_known(&f, r->child.pid);
	f.tty = r->out.tty; /* fmt_init cannot tell: the stream has no fd */
	view_attach(r->view, &f);
	/* out of memory: nothing more is printed, the loops below stop */
	if (r->a->json && view_opts_prints(&r->a->view) && fmt_json_attr(r->out.f, r->trid))
		sb_fail(&f.line);
	/* a write error stops the recording, as -o's does */
	while (!fmt_failed(&f) && !view_failed(r->view) && !r->out.err) {
		got = print_next(r, buf, sizeof(buf), &err);
		/* after what came first (the start), the -p calls in progress */
		if (!inflight) {
			record_inflight(r, trace_now(&c));
			inflight = 1;
		}
		if (got) {
			if (live_pace(r, &f, &c, got))
				continue;
		} else if (err && err != ETIMEDOUT && err != EINTR) {
			cli_err("reading events: %s", strerror(err));
			break;
		} else {
			live_idle(r, &f, &c);
		}
		if (got < LIVE_BATCH)
			live_stale(r, &f, &c);
		if (record_tick(r))
			break;
	}
	ret = live_end(r, &f, &c, buf, sizeof(buf));
	view_attach(r->view, NULL);
	fmt_fini(&f);
	live_out_flush(&r->out);
	return ret;
}
