/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf convert --to ctf: a CTF 1.8 trace directory (metadata and
 * stream_0) for babeltrace2 and Trace Compass.
 *
 * An event older than the last one (a starved source's, which the library
 * reports late with its own timestamp) goes into another data stream of the
 * same class, stream_0_1, stream_0_2, ...: a CTF stream's clock never goes
 * backwards, and readers merge the streams by time.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>
#include <ptbpf/evfields.h>

#include "convert/ctf_int.h"

static char databuf[65536];

/* 1 if dir holds an entry besides . and .., 0 if not, -1 (errno) if unreadable */
static int dir_has_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while (!found && (e = readdir(d)))
		found = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return found;
}

/*
 * The output directory, created if need be: another trace (or anything
 * else) already in it is replaced only when asked, as a user who typed an
 * old name by mistake would lose it otherwise.
 */
static int ctf_output_dir(const char *dir, int force)
{
	int has;

	if (!mkdir(dir, 0755))
		return 0;
	if (errno != EEXIST) {
		cli_err("cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	has = dir_has_entries(dir);
	if (has < 0) {
		cli_err("cannot use %s: %s", dir, strerror(errno));
		return -1;
	}
	if (has && !force) {
		cli_err("%s exists and is not empty (--force writes the trace into it)", dir);
		return -1;
	}
	return 0;
}

/* The losses of a log: a marker carries the count of its gap, and the
 * losses of a log written without counts are spread over the markers that
 * have none. */
struct ctf_losses {
	uint64_t noverflow; /* markers */
	uint64_t uncounted; /* markers without a count */
	uint64_t total;	    /* what the markers without a count share */
	uint64_t seen;	    /* markers without a count written so far */
};

/* Pass 1 over the log: its markers; 0 or an exit code (said). */
static int ctf_count_losses(trace_id_t trid, struct ctf_losses *l)
{
	struct ptbpf_counters cnt = { .sz = sizeof(cnt) };
	struct cli_ev ev;
	uint64_t counted = 0;
	int unav = 0, err;

	memset(l, 0, sizeof(*l));
	for (;;) {
		err = cli_ev_next(trid, &ev, databuf, sizeof(databuf), &unav);
		if (err || unav)
			break;
		if (ev.info.posix_event_id != POSIX_TRACE_OVERFLOW)
			continue;
		l->noverflow++;
		if (ev.len < sizeof(uint64_t))
			l->uncounted++;
		else
			counted += overflow_count(ev.data);
	}
	if (err) {
		cli_err("reading the log: %s", strerror(err));
		return CLI_EXIT_BADLOG;
	}
	l->total = l->uncounted;
	if (!ptbpf_trace_get_counters(trid, &cnt) && cnt.lost > counted &&
	    cnt.lost - counted > l->total)
		l->total = cnt.lost - counted;
	err = posix_trace_rewind(trid);
	if (err) {
		cli_err("rewinding the log: %s", strerror(err));
		return CLI_EXIT_BADLOG;
	}
	return 0;
}

/* The events lost in the gap of marker ev. */
static uint64_t ctf_lost_here(struct ctf_losses *l, const struct cli_ev *ev)
{
	if (ev->info.posix_event_id != POSIX_TRACE_OVERFLOW)
		return 0;
	if (ev->len >= sizeof(uint64_t))
		return overflow_count(ev->data);
	l->seen++;
	/* 1 each, the rest of the counted losses on the last marker */
	return l->seen < l->uncounted ? 1 : l->total - (l->uncounted - 1);
}

/* Pass 2: the events into the lanes; 0 or an exit code (said). */
static int ctf_write_events(struct ctf *c, trace_id_t trid, struct ctf_losses *l)
{
	struct cli_ev ev;
	int unav = 0, err;

	for (;;) {
		err = cli_ev_next(trid, &ev, databuf, sizeof(databuf), &unav);
		if (err) {
			cli_err("reading the log: %s", strerror(err));
			return CLI_EXIT_BADLOG;
		}
		if (unav)
			return 0;
		if (ctf_event(c, &ev, ctf_lost_here(l, &ev))) {
			cli_err("out of memory");
			return CLI_EXIT_FAIL;
		}
	}
}

/*
 * Losses without overflow markers in the log (only the overrun status says
 * so): one empty packet at the end carries them, at least 1 when the count
 * is unknown.
 */
static void ctf_unplaced_losses(struct ctf *c, trace_id_t trid, const struct ctf_losses *l)
{
	struct posix_trace_status_info st;
	uint64_t unplaced = l->noverflow ? 0 : l->total;

	if (!unplaced && !l->noverflow && !posix_trace_get_status(trid, &st) &&
	    (st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN ||
	     st.posix_log_overrun_status == POSIX_TRACE_OVERRUN))
		unplaced = 1;
	if (unplaced) {
		ctf_packet_close(c, &c->lanes[0]);
		c->lanes[0].discarded += unplaced;
	}
}

/* The lanes closed, stale ones removed, the metadata written; ret or an
 * exit code (said). */
static int ctf_finish(struct ctf *c, trace_id_t trid, const char *dir, int ret)
{
	char path[4096];
	unsigned int i;
	int err;

	for (i = 0; i < c->nlanes; i++)
		ctf_packet_close(c, &c->lanes[i]);
	if (!c->werr && fflush(c->lanes[0].stream))
		c->werr = errno;
	if (c->werr) {
		ctf_lane_path(path, sizeof(path), dir, c->werr_lane);
		cli_err("writing %s: %s", path, strerror(c->werr));
		ret = CLI_EXIT_FAIL;
	}
	/* late streams of a trace this one replaces (--force) would join it */
	for (i = c->nlanes;; i++) {
		ctf_lane_path(path, sizeof(path), dir, i);
		if (unlink(path))
			break;
	}
	err = ret ? 0 : ctf_metadata(c, dir, trid);
	if (err == -ENOMEM)
		cli_err("out of memory");
	else if (err)
		cli_err("writing %s/metadata: %s", dir, strerror(-err));
	return err ? CLI_EXIT_FAIL : ret;
}

int convert_ctf(trace_id_t trid, const char *dir, int force)
{
	struct ctf c;
	struct ctf_losses l;
	char path[4096];
	int ret;
	unsigned int i;

	if (ctf_output_dir(dir, force))
		return CLI_EXIT_FAIL;
	ret = ctf_count_losses(trid, &l);
	if (ret)
		return ret;
	memset(&c, 0, sizeof(c));
	c.dir = dir;
	c.names = calloc(PTBPF_EV_ID_LIMIT, sizeof(*c.names));
	ctf_lane_path(path, sizeof(path), dir, 0);
	if (!c.names || ctf_lane_add(&c, 0) || !(c.lanes[0].stream = fopen(path, "w"))) {
		cli_err("cannot create %s: %s", path, strerror(errno));
		ret = CLI_EXIT_FAIL;
		goto out;
	}
	ret = ctf_write_events(&c, trid, &l);
	if (!ret)
		ctf_unplaced_losses(&c, trid, &l);
	ret = ctf_finish(&c, trid, dir, ret);
out:
	if (c.nlanes && c.lanes[0].stream && fclose(c.lanes[0].stream) && !ret) {
		ctf_lane_path(path, sizeof(path), dir, 0);
		cli_err("writing %s: %s", path, strerror(errno));
		ret = CLI_EXIT_FAIL;
	}
	for (i = 0; i < c.nlanes; i++)
		free(c.lanes[i].pkt);
	free(c.lanes);
	free(c.names);
	pidmap_free(&c.calls, ctf_call_free);
	sb_free(&c.t);
	return ret;
}
