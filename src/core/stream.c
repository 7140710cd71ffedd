/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Active trace streams: creation and destruction, start, stop, clear,
 * flush, status, filters and event types. See stream_int.h for the files
 * of a stream.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "core/own_threads.h"
#include "core/stream_int.h"
#include "core/target.h"

/* ------------------------------------------------------------------ */
/* Life cycle                                                          */

static void stream__free(struct pt_stream *s)
{
	int i;

	free(s->fd_pids);
	kern_cgroups__free(s->cg); /* its programs share the backend's maps */
	for (i = 0; i < s->nuev; i++)
		if (s->uev[i].c)
			uev_consumer__detach(s->uev[i].c);
	if (s->kb) {
		own_threads__backend_del(s->kb);
		kern_backend__destroy(s->kb);
	}
	if (s->wake_fd[0] >= 0)
		close(s->wake_fd[0]);
	if (s->wake_fd[1] >= 0)
		close(s->wake_fd[1]);
	batch__fini(&s->batch);
	batch__fini(&s->moved);
	evtypes__fini(&s->types);
	queue__fini(&s->q);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}

/* The pid namespace the events' ids are of: the caller's (see backend/pidns.h). */
static uint64_t stream__pidns_ino(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) ? 0 : (uint64_t)st.st_ino;
}

/*
 * Trace pid, checked after it entered the filter: a check before would
 * leave a window in which an exec of a set-user-ID program gives the
 * process privileges the caller has not (the BPF side ends tracing at
 * such an exec only once the process is in the filter).
 */
static int stream__trace_pid(struct pt_stream *s, pid_t pid)
{
	int err = kern_backend__hold_pid(s->kb, pid);

	if (err == -EEXIST)
		return 0;
	if (!err)
		err = target__check(pid);
	if (!err)
		err = kern_backend__release_pid(s->kb, pid);
	if (err)
		kern_backend__remove_pid(s->kb, pid);
	return err;
}

int stream__create_cgroup(struct pt_stream **out, pid_t pid, const char *cgroup,
			  const struct pt_attr *a, int log_fd)
{
	struct kern_opts ko = { 0 };
	struct pt_stream *s;
	size_t max_rec;
	int err;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->wake_fd[0] = s->wake_fd[1] = -1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	s->attr = *a;
	clock_gettime(CLOCK_REALTIME, &s->attr.create_time);
	s->attr.pidns_ino = stream__pidns_ino();
	s->attr.arch = PT_ARCH_NATIVE; /* whatever attributes it was given */
	s->policy = attr__stream_policy(a, log_fd >= 0);
	s->controller = getpid();
	/* 0: none, a cgroup's stream */
	s->pid = pid < 0 ? 0 : pid ? pid : s->controller;
	s->status = POSIX_TRACE_SUSPENDED;
	s->full = POSIX_TRACE_NOT_FULL;
	s->overrun = POSIX_TRACE_NO_OVERRUN;
	s->mono2real = mono_to_real_offset();

	max_rec = queue__record_size(attr__max_system_data_of(a));
	if (queue__record_size(a->max_data_size) > max_rec)
		max_rec = queue__record_size(a->max_data_size);
	err = queue__init_deferred(&s->q, a->stream_size, max_rec, &s->later);
	if (!err)
		err = evtypes__init(&s->types);
	if (!err)
		err = batch__init(&s->batch);
	if (!err)
		err = batch__prealloc(&s->batch, DRAIN_BATCH_BYTES + max_rec,
				      DRAIN_BATCH_BYTES / sizeof(struct pt_event_hdr), true);
	if (!err)
		err = batch__init(&s->moved);
	/* events taken back are usually few (a ring written by several CPUs
	 * is slightly out of order from one drain to the next) */
	if (!err)
		err = batch__prealloc(&s->moved, 64u << 10, 1024, false);
	if (!err && pipe2(s->wake_fd, O_CLOEXEC))
		err = -errno;
	if (err)
		goto fail;

	err = s->pid ? target__check(s->pid) : 0;
	if (err)
		goto fail;

	/* room for a stream's worth of records while the drainer sleeps */
	ko.ring_bytes = 2 * a->stream_size < KERN_RING_MIN ? KERN_RING_MIN : 2 * a->stream_size;
	ko.inherit = a->inherit == POSIX_TRACE_INHERITED;
	ko.follow_secure_exec = target__may_trace_secure_exec();
	ko.syscall_status = a->syscall_status;
	ko.stack_bytes = a->stack_bytes;
	ko.fdinfo = a->fdinfo;
	ko.strsize = a->strsize;
	ko.aggregate = a->aggregate;
	ko.ev_bounded = a->ev_bounded;
	ko.ev_probes = a->ev_probes;
	ko.ev_kern = a->ev_kern;
	memcpy(ko.ev_sys, a->ev_sys, sizeof(ko.ev_sys));
	memcpy(ko.stack_nrs, a->stack_nrs, sizeof(ko.stack_nrs));
	ko.stack_depth = a->stack_depth;
	ko.stack_fp = a->stack_flags & PTBPF_STACK_FP;
	ko.stack_kernel = a->stack_flags & PTBPF_STACK_KERNEL;
	/* no free slot in the process's user-event region: no more streams
	 * can trace it now. First: its ring's pages are allocated while the
	 * BPF programs load. */
	if (s->pid && stream__uev_add(s, s->pid, true) == -EBUSY) {
		err = -EAGAIN;
		goto fail;
	}
	err = kern_backend__open(&s->kb, &ko);
	if (err)
		goto fail;
	s->later_rings = true;
	err = s->pid ? stream__trace_pid(s, s->pid) : 0;
	if (err)
		goto fail;
	err = stream__apply_filter(s); /* empty: record everything */
	if (err)
		goto fail;
	s->nrefused = 0;
	err = cgroup ? stream__add_cgroup(s, cgroup) : 0;
	if (err)
		goto fail;
	/* the log last: a create that fails leaves its file as it was */
	if (log_fd >= 0) {
		err = stream_log__open(&s->log, log_fd, &s->attr, s->policy, &s->types, &s->q,
				       &s->later);
		if (err)
			goto fail;
	}
	if (s->pid == s->controller)
		own_threads__backend_add(s->kb);
	for (int i = 0; i < s->nuev; i++)
		uev_consumer__prefault_wait(s->uev[i].c);
	err = stream__start_drainer(s);
	if (err)
		goto fail;
	*out = s;
	return 0;
fail:
	if (s->log)
		stream_log__close(s->log, NULL);
	stream__free(s);
	return err;
}

int stream__create(struct pt_stream **out, pid_t pid, const struct pt_attr *a, int log_fd)
{
	return stream__create_cgroup(out, pid, NULL, a, log_fd);
}

void stream__wake_all(struct pt_stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->shutting_down = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

int stream__destroy(struct pt_stream *s)
{
	struct posix_trace_status_info st;
	char c = 1;
	int err = 0;

	stream__stop(s); /* "as if posix_trace_stop() had been invoked" */
	pthread_mutex_lock(&s->lock);
	if (s->status == POSIX_TRACE_RUNNING)
		stream__set_sources_enabled(s, false);
	stream__drain_locked(s);
	s->shutting_down = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->drainer_started) {
		if (write(s->wake_fd[1], &c, 1) < 0) {
			/* the drainer still stops within one period */
		}
		pthread_join(s->drainer, NULL);
		own_threads__reaped(s->drainer_tid);
	}
	if (s->log) {
		/* the last flush's FLUSH_STOP goes in the log too */
		stream_log__wait_idle(s->log);
		pthread_mutex_lock(&s->lock);
		stream__drain_locked(s);
		stream__uev_names(s);
		stream__log_handover(s);
		pthread_mutex_unlock(&s->lock);
		/* the log's status once all is written: this last flush may
		 * fill the log, lose events or fail */
		stream_log__wait_idle(s->log);
		stream__get_status(s, &st);
		err = stream_log__close(s->log, &(struct stream_log_final){ .q = &s->q,
									    .types = &s->types,
									    .status = &st,
									    .cnt = &s->cnt });
		s->log = NULL;
	}
	stream__free(s);
	return err;
}

/* ------------------------------------------------------------------ */
/* Control                                                             */

int stream__start(struct pt_stream *s)
{
	trace_event_set_t set;

	pthread_mutex_lock(&s->lock);
	if (s->status == POSIX_TRACE_RUNNING || s->full == POSIX_TRACE_FULL) {
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	stream__drain_locked(s);
	s->status = POSIX_TRACE_RUNNING;
	s->auto_stopped = false;
	memcpy(&set, s->filter, sizeof(set));
	s->start_ts = now_stream(s);
	s->start_after_gap = false;
	stream__record_system(s, POSIX_TRACE_START, s->start_ts, &set, sizeof(set));
	if (s->attr.stack_bytes)
		stream__record_maps(s, s->pid, s->start_ts);
	if (s->attr.fdinfo)
		stream__record_fds_all(s, s->start_ts);
	stream__set_sources_enabled(s, true);
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int stream__stop(struct pt_stream *s)
{
	int manual = 0;

	pthread_mutex_lock(&s->lock);
	if (s->status == POSIX_TRACE_RUNNING) {
		stream__set_sources_enabled(s, false);
		stream__drain_locked(s);
		stream__release_stored(s);
		if (s->gap_lost)
			stream__store_gap(s, now_stream(s));
		stream__record_system(s, POSIX_TRACE_STOP, now_stream(s), &manual, sizeof(manual));
		s->status = POSIX_TRACE_SUSPENDED;
		pthread_cond_broadcast(&s->cond);
	} else if (s->auto_stopped) {
		/* stopped by hand now: no automatic restart when emptied */
		s->auto_stopped = false;
		stream__set_sources_enabled(s, false);
	}
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int stream__clear(struct pt_stream *s)
{
	pthread_mutex_lock(&s->lock);
	stream__drain_locked(s);
	queue__clear(&s->q);
	s->floor_ts = s->last_ts;
	s->full = POSIX_TRACE_NOT_FULL;
	s->overrun = POSIX_TRACE_NO_OVERRUN; /* as returned from create */
	s->head_overflow = s->head_resume = s->resume_pending = false;
	s->head_overflow_lost = s->gap_lost = 0;
	s->auto_stop_report = false;
	/* emptied: an UNTIL_FULL stream stopped when full runs again, START first */
	stream__auto_restart(s);
	if (s->log) {
		stream_log__clear(s->log);
		/* a flush of the old log ended with it: no FLUSH_STOP in the new */
		(void)stream_log__take_done(s->log);
		s->flushes_open = s->flushes_ended = 0;
		s->flush_stop_ts = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int stream__flush(struct pt_stream *s)
{
	int err;

	if (!s->log)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	stream__drain_locked(s);
	err = stream__flush_locked(s, false);
	pthread_mutex_unlock(&s->lock);
	return err < 0 ? err : 0;
}

int stream__add_pid(struct pt_stream *s, pid_t pid)
{
	int err;

	err = target__check(pid);
	if (err)
		return err;
	pthread_mutex_lock(&s->lock);
	err = stream__trace_pid(s, pid);
	if (!err)
		stream__uev_add(s, pid, false);
	if (!err && s->attr.fdinfo)
		err = stream__fds_add_pid(s, pid);
	pthread_mutex_unlock(&s->lock);
	return err;
}

void stream__get_attr(struct pt_stream *s, struct pt_attr *a)
{
	pthread_mutex_lock(&s->lock);
	*a = s->attr;
	if (a->stream_policy < 0)
		a->stream_policy = s->policy;
	pthread_mutex_unlock(&s->lock);
}

void stream__get_status(struct pt_stream *s, struct posix_trace_status_info *st)
{
	pthread_mutex_lock(&s->lock);
	/*
	 * The status of every event generated until now: a LOOP stream
	 * takes in what its sources hold, overwriting what it must, where
	 * drain_fit would leave it there (the status would say no overrun
	 * for events that can no longer all be read).
	 */
	if (!s->shutting_down && s->policy == POSIX_TRACE_LOOP)
		stream__drain_locked(s);
	else if (!s->shutting_down)
		stream__drain_fit(s, NULL);
	st->posix_stream_status = s->status;
	st->posix_stream_full_status = s->full;
	st->posix_stream_overrun_status = s->overrun;
	s->overrun = POSIX_TRACE_NO_OVERRUN;
	st->posix_stream_flush_status = POSIX_TRACE_NOT_FLUSHING;
	st->posix_stream_flush_error = 0;
	st->posix_log_overrun_status = POSIX_TRACE_NO_OVERRUN;
	st->posix_log_full_status = POSIX_TRACE_NOT_FULL;
	if (s->log)
		stream_log__status(s->log, st);
	pthread_mutex_unlock(&s->lock);
}

void stream__get_filter(struct pt_stream *s, trace_event_set_t *set)
{
	pthread_mutex_lock(&s->lock);
	memcpy(set, s->filter, sizeof(*set));
	pthread_mutex_unlock(&s->lock);
}

/* Push the filter down: the kernel gets the ids to record, each user
 * event source the local ids to record. */
int stream__apply_filter(struct pt_stream *s)
{
	uint64_t keep[FILTER_WORDS], counted[PTBPF_SYSCALL_NR_MAX / 64] = { 0 };
	int i, k;

	for (i = 0; i < FILTER_WORDS; i++)
		keep[i] = ~s->filter[i];
	/* the syscalls counted in the kernel: those whose exits the filter
	 * records, whatever the attributes' events */
	for (i = 0; i < PTBPF_SYSCALL_NR_MAX; i++)
		if (keep[PTBPF_EV_SYS_EXIT(i) / 64] >> (PTBPF_EV_SYS_EXIT(i) % 64) & 1)
			counted[i / 64] |= 1ULL << (i % 64);
	kern_backend__set_counted(s->kb, counted);
	/* nor what the attributes' events leave out (ptbpf_trace_attr_setevents) */
	for (i = PTBPF_EV_KERNEL_FIRST; s->attr.ev_bounded && i <= PTBPF_EV_KERNEL_LAST; i++)
		if (!(s->attr.ev_kern >> i & 1))
			keep[i / 64] &= ~(1ULL << (i % 64));
	for (i = 0; s->attr.ev_bounded && i < PTBPF_SYSCALL_NR_MAX; i++)
		if (!(s->attr.ev_sys[i / 64] >> (i % 64) & 1))
			keep[(PTBPF_EV_SYS_ENTER(i)) / 64] &=
				~(3ULL << (PTBPF_EV_SYS_ENTER(i) % 64));
	/* the core needs exec events to find user events after an exec, and
	 * proc_untraced to stop looking for them; filtered, they are dropped
	 * here, not in the kernel */
	keep[PTBPF_EV_PROC_EXEC / 64] |= 1ULL << (PTBPF_EV_PROC_EXEC % 64);
	keep[PTBPF_EV_PROC_UNTRACED / 64] |= 1ULL << (PTBPF_EV_PROC_UNTRACED % 64);
	for (k = 0; k < s->nuev; k++) {
		struct uev_src *u = &s->uev[k];

		if (!u->c)
			continue;
		for (i = 0; i < TRACE_USER_EVENT_MAX; i++)
			if (u->map[i])
				uev_consumer__set_id_enabled(u->c, PTBPF_EV_USER_BASE + i,
							     !filtered(s, u->map[i]));
	}
	return kern_backend__set_filter(s->kb, keep);
}

int stream__set_filter(struct pt_stream *s, const trace_event_set_t *set, int how)
{
	uint64_t old[FILTER_WORDS], new[FILTER_WORDS];
	const uint64_t *in = (const uint64_t *)(const void *)set;
	int i, err;

	pthread_mutex_lock(&s->lock);
	memcpy(old, s->filter, sizeof(old));
	for (i = 0; i < FILTER_WORDS; i++) {
		switch (how) {
		case POSIX_TRACE_SET_EVENTSET:
			new[i] = in[i];
			break;
		case POSIX_TRACE_ADD_EVENTSET:
			new[i] = old[i] | in[i];
			break;
		default:
			new[i] = old[i] & ~in[i];
			break;
		}
	}
	stream__drain_locked(s);
	memcpy(s->filter, new, sizeof(new));
	err = stream__apply_filter(s);
	if (!err && s->status == POSIX_TRACE_RUNNING) {
		uint64_t both[2 * FILTER_WORDS];

		memcpy(both, old, sizeof(old));
		memcpy(both + FILTER_WORDS, new, sizeof(new));
		stream__record_system(s, POSIX_TRACE_FILTER, now_stream(s), both, sizeof(both));
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return err;
}

void stream__counters(struct pt_stream *s, struct ptbpf_counters *c)
{
	struct kern_counters kc = { 0 };

	pthread_mutex_lock(&s->lock);
	if (!s->shutting_down)
		stream__drain_fit(s, NULL);
	*c = s->cnt;
	if (s->kb)
		kern_backend__counters(s->kb, &kc);
	c->kernel_emitted = kc.emitted;
	c->kernel_dropped = kc.dropped;
	c->kernel_filtered = kc.filtered;
	c->left_out = kern_cgroups__left_out_count(s->cg);
	if (s->log)
		stream_log__counters(s->log, c);
	pthread_mutex_unlock(&s->lock);
}

int stream__syscall_stats(struct pt_stream *s, struct ptbpf_syscall_stats *st, size_t max,
			  size_t *count)
{
	/* the BPF maps are read without the stream's lock, which a drain
	 * holds: a scrape does not wait for it */
	return s->kb ? kern_backend__syscall_stats(s->kb, st, max, count) : -EINVAL;
}

/* ------------------------------------------------------------------ */
/* Event types                                                         */

int stream__eventid_name(struct pt_stream *s, trace_event_id_t id, char *name)
{
	int err;

	pthread_mutex_lock(&s->lock);
	err = evtypes__name(&s->types, id, name);
	if (err) {
		/* a name a traced process mapped since the last look */
		stream__uev_names(s);
		err = evtypes__name(&s->types, id, name);
	}
	pthread_mutex_unlock(&s->lock);
	return err;
}

int stream__eventid_open(struct pt_stream *s, const char *name, trace_event_id_t *id)
{
	uint32_t v;
	int err;

	pthread_mutex_lock(&s->lock);
	stream__uev_names(s); /* a name the traced process mapped keeps its id */
	err = evtypes__lookup(&s->types, name, true, &v);
	if (!err) {
		*id = v;
		if (s->log)
			stream_log__type(s->log, &s->types, v);
	}
	pthread_mutex_unlock(&s->lock);
	return err;
}

int stream__typelist_next(struct pt_stream *s, trace_event_id_t *id, int *unavailable)
{
	uint32_t v;

	pthread_mutex_lock(&s->lock);
	stream__uev_names(s); /* the list holds every name mapped until now */
	*unavailable = evtypes__next(&s->types, &v) != 0;
	if (!*unavailable)
		*id = v;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void stream__typelist_rewind(struct pt_stream *s)
{
	pthread_mutex_lock(&s->lock);
	evtypes__rewind(&s->types);
	pthread_mutex_unlock(&s->lock);
}
