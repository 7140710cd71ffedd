/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record: the status line, what the recording loops check each round
 * and the closing summary.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "record/record.h"

/* the signal that ends the record (set by cmd_record.c's handler) */
volatile sig_atomic_t got_signal;

void status_line(struct rec *r, int final)
{
	struct ptbpf_counters c = { .sz = sizeof(c) };
	double t = now_mono();

	if (!r->status_tty)
		return;
	if (final) {
		if (r->last_status > 0)
			fprintf(stderr, "\r\033[K");
		return;
	}
	if (t - (r->last_status > 0 ? r->last_status : r->t0) < 1.0)
		return;
	if (ptbpf_trace_get_counters(r->trid, &c))
		return;
	fprintf(stderr, "\r\033[K%s: %llu events (%.0f/s), %llu lost, log %llu bytes", cli_prog,
		(unsigned long long)c.recorded,
		(c.recorded - r->last_recorded) /
			(t - (r->last_status > 0 ? r->last_status : r->t0)),
		(unsigned long long)c.lost, (unsigned long long)c.log_bytes);
	r->last_recorded = c.recorded;
	r->last_status = t;
}

int targets_done(struct rec *r)
{
	int i, st;

	if (r->have_child) {
		if (!r->child_done) {
			if (child_wait(&r->child, &st, 1) == 1) {
				r->child_done = 1;
				r->child_status = st;
			}
		}
		return r->child_done;
	}
	/* --cgroup alone: processes come and go, until a signal or --duration */
	if (!r->npids)
		return 0;
	for (i = 0; i < r->npids; i++) {
		struct pollfd p = { .fd = r->pidfds[i], .events = POLLIN };

		if (r->pidfds[i] < 0)
			continue;
		if (poll(&p, 1, 0) == 1) {
			close(r->pidfds[i]);
			r->pidfds[i] = -1;
			r->nalive--;
		}
	}
	return r->nalive == 0;
}

/*
 * The events in the log at path, once it is closed: as its trailer says,
 * or, for a log without one (its writing failed), counted.
 */
static uint64_t log_events_of(const char *path)
{
	struct ptbpf_counters c = { .sz = sizeof(c) };
	struct posix_trace_event_info ev;
	uint64_t n = 0;
	trace_id_t t;
	char data[64];
	size_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC), un = 0;

	if (fd < 0)
		return 0;
	if (posix_trace_open(fd, &t)) {
		close(fd);
		return 0;
	}
	if (!ptbpf_trace_get_counters(t, &c) && c.log_events) {
		n = c.log_events;
	} else {
		while (!posix_trace_getnext_event(t, &ev, data, sizeof(data), &len, &un) && !un)
			n++;
	}
	posix_trace_close(t);
	close(fd);
	return n;
}

/* A size as --buffer-size takes it: 4M, 512K, 1G. */
static void size_text(char *buf, size_t len, size_t n)
{
	if (n >= (1u << 30) && !(n & ((1u << 30) - 1)))
		snprintf(buf, len, "%zuG", n >> 30);
	else if (n >= (1u << 20) && !(n & ((1u << 20) - 1)))
		snprintf(buf, len, "%zuM", n >> 20);
	else
		snprintf(buf, len, "%zuK", n >> 10);
}

/*
 * Events lost in the stream or the kernel rings: a rate ptbpf did not drain
 * in time at these sizes (a syscall flood at the defaults, which fit a small
 * container): say so, and what avoids it.
 */
static void print_loss_hint(const struct rec *r, const struct ptbpf_counters *c)
{
	size_t cur = r->a->bufsize ? r->a->bufsize : RECORD_DEFAULT_BUFSIZE;
	size_t more = cur < RECORD_LOSS_BUFSIZE / 8 ? RECORD_LOSS_BUFSIZE : 8 * cur;
	char now[32], big[32];

	if (!c->lost)
		return;
	if (more > RECORD_MAX_BUFSIZE)
		more = RECORD_MAX_BUFSIZE;
	size_text(now, sizeof(now), cur);
	size_text(big, sizeof(big), more);
	fprintf(stderr,
		"%s: events were lost: they came faster than ptbpf drained them at --buffer-size "
		"%s%s; ",
		cli_prog, now, r->a->bufsize_set ? "" : " (the default)");
	if (more > cur)
		fprintf(stderr, "--buffer-size %s (memory: about 4 times the size) or ", big);
	fprintf(stderr, "--nice -10 avoids it\n");
}

/*
 * The text in strace's look gets no summary line unless something is
 * worth saying: it would be in the way of a diff with strace's output.
 */
static bool summary_wanted(const struct rec *r, const struct ptbpf_counters *c)
{
	const struct view_opts *v = &r->a->view;

	return r->a->output || r->a->json || r->a->stats || v->look != FMT_LOOK_STRACE ||
	       v->cflag || v->threads || c->lost || c->late || c->left_out || r->out.err;
}

void print_summary(struct rec *r, const struct ptbpf_counters *c, int logfd)
{
	struct stat st;

	status_line(r, 1);
	if (!summary_wanted(r, c))
		return;
	if (r->a->output)
		fprintf(stderr, "%s: %llu events written to %s (%lld bytes), %llu lost", cli_prog,
			(unsigned long long)log_events_of(r->a->output), r->a->output,
			fstat(logfd, &st) ? 0LL : (long long)st.st_size,
			(unsigned long long)(c->lost + c->log_dropped));
	else if (r->out.err)
		/* the text's lines, as the file has them: events are not lines */
		fprintf(stderr, "%s: %llu lines written to %s (%llu bytes), %llu lost", cli_prog,
			(unsigned long long)r->out.lines, r->out.name,
			(unsigned long long)r->out.bytes, (unsigned long long)c->lost);
	else if (record_counts_only(r->a))
		/* -c alone: no syscall event, the kernel's counts */
		fprintf(stderr, "%s: %llu syscalls counted in the kernel, %llu events lost",
			cli_prog, (unsigned long long)r->kcounted, (unsigned long long)c->lost);
	else
		fprintf(stderr, "%s: %llu events %s, %llu lost", cli_prog,
			(unsigned long long)r->printed,
			view_opts_prints(&r->a->view) ? "printed" : "summarized",
			(unsigned long long)c->lost);
	if (c->late)
		fprintf(stderr, ", %llu late", (unsigned long long)c->late);
	/* --cgroup: processes the caller may not ptrace are not traced */
	if (r->a->ncgroups)
		fprintf(stderr, ", %llu processes left out", (unsigned long long)c->left_out);
	fprintf(stderr, ", %.3f s, CPU %.3f s\n", now_mono() - r->t0, cpu_self() - r->cpu0);
	print_loss_hint(r, c);
	if (getenv("PTBPF_VERBOSE"))
		fprintf(stderr,
			"%s: kernel ring: %llu written, %llu no room; user-event rings: %llu "
			"lost; log: %llu events, %llu refused\n",
			cli_prog, (unsigned long long)c->kernel_emitted,
			(unsigned long long)c->kernel_dropped, (unsigned long long)c->user_dropped,
			(unsigned long long)c->log_events, (unsigned long long)c->log_dropped);
}

/*
 * A signal asks the recording to stop: the command started gets it too
 * (unless it was reaped already), and its end (+++ killed by SIGINT +++)
 * is recorded as any other exit, the loop waiting for the events in flight
 * as after an exit. Without a command (-p), or after SIG_WAIT_S, stop now.
 */
#define SIG_WAIT_S 2.0

static bool signal_stops_now(struct rec *r)
{
	if (!r->have_child)
		return true;
	if (!r->sig_passed_at) {
		if (!r->child_done)
			kill(r->child.pid, got_signal);
		r->sig_passed_at = now_mono();
	}
	return now_mono() - r->sig_passed_at >= SIG_WAIT_S;
}

bool record_tick(struct rec *r)
{
	if (got_signal && signal_stops_now(r))
		return true;
	if (r->a->duration > 0 && now_mono() - r->t0 >= r->a->duration)
		return true;
	status_line(r, 0);
	record_metrics_tick(r);
	/* every event of an exited process is in the rings before it can be
	 * reaped: the stop that follows drains them, nothing to wait for */
	if (!targets_done(r))
		return false;
	if (r->have_child)
		early_uev_release(&r->early);
	return true;
}
