/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf export: sends what a ClickHouse table lacks of a log, each row
 * once. The table says how far a stream got (count and max(seq) of its
 * rows); the log is read from its start, the rows before that counted and
 * not made, the others sent in batches, each one INSERT (one block: all
 * or nothing). A failure that may pass is retried with a growing pause,
 * the table asked again first: a batch that did land is not sent twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "export/export.h"

#define BATCH_BYTES (16u << 20)

struct ship {
	const struct ship_opts *o;
	struct ch_conn *c;
	char host[256];
	char stream[64];
	struct sbuf resp, batch, sql;
	uint64_t batch_first, batch_rows; /* the seq of its first row, its rows */
	uint64_t total;			  /* rows of the log, after a whole pass */
	uint64_t sent;			  /* rows the server holds */
	int have_total;
	char msg[512];
};

void ship_opts_init(struct ship_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->table = CH_TABLE_DEFAULT;
	o->batch_rows = 10000;
	o->batch_secs = 1.0;
	o->retry_secs = 60.0;
	o->follow_fd = -1;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* How many rows of the stream the table holds (next: the seq after them). */
static int ask_state(struct ship *s, uint64_t *next)
{
	uint64_t count, max;
	int r;

	sb_reset(&s->sql);
	sb_printf(&s->sql, "SELECT count(), max(seq) FROM %s WHERE host_name = ", s->o->table);
	ch_sql_str(&s->sql, s->host);
	sb_puts(&s->sql, " AND stream_id = ");
	ch_sql_str(&s->sql, s->stream);
	sb_puts(&s->sql, " FORMAT TabSeparated");
	if (s->sql.failed)
		return CH_FAIL;
	r = ch_query(s->c, s->sql.s, NULL, 0, &s->resp, s->msg, sizeof(s->msg));
	if (r)
		return r;
	if (ch_parse_state(s->resp.s, s->resp.len, &count, &max)) {
		snprintf(s->msg, sizeof(s->msg), "%s: an answer that is no count",
			 ch_url_shown(s->c));
		return CH_FAIL;
	}
	*next = count ? max + 1 : 0;
	if (count && count != max + 1)
		cli_err("warning: table %s holds %llu rows of stream %s of %s, seq 0 to %llu",
			s->o->table, (unsigned long long)count, s->stream, s->host,
			(unsigned long long)max);
	s->sent = count;
	return CH_OK;
}

/* Sends the batch: CH_OK (then empty), CH_RETRY or CH_FAIL, s->msg said. */
static int send_batch(struct ship *s)
{
	int r;

	if (!s->batch_rows)
		return CH_OK;
	if (s->batch.failed) {
		snprintf(s->msg, sizeof(s->msg), "out of memory");
		return CH_FAIL;
	}
	sb_reset(&s->sql);
	sb_printf(&s->sql, "INSERT INTO %s FORMAT JSONEachRow", s->o->table);
	r = ch_query(s->c, s->sql.s, s->batch.s, s->batch.len, &s->resp, s->msg, sizeof(s->msg));
	/* CH_RETRY: did it land? the next pass asks, and sends only what is not there */
	if (r == CH_OK) {
		s->sent += s->batch_rows;
		sb_reset(&s->batch);
		s->batch_first += s->batch_rows;
		s->batch_rows = 0;
	}
	return r;
}

static int open_log(const char *path, trace_id_t *trid)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0) {
		cli_err("cannot open log %s: %s", path, strerror(errno));
		return -1;
	}
	err = posix_trace_open(fd, trid);
	if (err) {
		if (err == EINVAL)
			cli_err("%s: not a valid POSIX trace log (or one of another version)",
				path);
		else
			cli_err("%s: cannot read the trace log: %s", path, strerror(err));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A LOOP log overwrites its oldest events: its rows would not be numbered
 * the same from one reading to the next, and exactly once needs that.
 */
static int log_loops(trace_id_t trid, const char *path)
{
	trace_attr_t a;
	int policy = POSIX_TRACE_APPEND;

	if (posix_trace_attr_init(&a))
		return 0;
	if (!posix_trace_get_attr(trid, &a))
		posix_trace_attr_getlogfullpolicy(&a, &policy);
	posix_trace_attr_destroy(&a);
	if (policy != POSIX_TRACE_LOOP)
		return 0;
	cli_err("%s: a log of the LOOP policy overwrites its oldest events, which then cannot "
		"be sent exactly once: record with -o's default (APPEND) or UNTIL_FULL",
		path);
	return 1;
}

/* Reads the log through x, sending batches; CH_OK or the first failure. */
static int pass_events(struct ship *s, trace_id_t trid, struct xrow *x, int final)
{
	static char buf[65536];
	struct cli_ev ev;
	int unav = 0, r = CH_OK, err;

	for (;;) {
		err = cli_ev_next(trid, &ev, buf, sizeof(buf), &unav);
		if (err) {
			/* the events before the damage are the log's */
			cli_err("%s: reading the log: %s", s->o->log, strerror(err));
			break;
		}
		if (unav)
			break;
		if (xrow_event(x, &ev, &s->batch) < 0)
			sb_fail(&s->batch);
		s->batch_rows = x->seq > s->batch_first ? x->seq - s->batch_first : 0;
		if (s->batch_rows >= s->o->batch_rows || s->batch.len >= BATCH_BYTES) {
			r = send_batch(s);
			if (r)
				return r;
		}
	}
	if (final && xrow_end(x, &s->batch) < 0)
		sb_fail(&s->batch);
	s->batch_rows = x->seq > s->batch_first ? x->seq - s->batch_first : 0;
	if (final) {
		s->total = x->seq;
		s->have_total = 1;
	}
	return send_batch(s);
}

/* One pass over the log: CH_OK, CH_RETRY or CH_FAIL (s->msg), -1: the log. */
static int ship_pass(struct ship *s, int final)
{
	trace_id_t trid;
	struct xrow x;
	uint64_t next = 0;
	int fd = open_log(s->o->log, &trid), r;

	if (fd < 0)
		return -1;
	if (log_loops(trid, s->o->log)) {
		posix_trace_close(trid);
		close(fd);
		return -1;
	}
	xrow_init(&x, s->host, trid);
	memcpy(s->stream, x.stream, sizeof(s->stream));
	r = ask_state(s, &next);
	if (!r) {
		x.skip = next;
		sb_reset(&s->batch);
		s->batch_first = next;
		s->batch_rows = 0;
		r = pass_events(s, trid, &x, final);
	}
	xrow_fini(&x);
	posix_trace_close(trid);
	close(fd);
	return r;
}

/* Creates the table if it is missing, and checks its columns. */
static int ship_table(struct ship *s)
{
	int r;

	sb_reset(&s->sql);
	ch_sql_create(&s->sql, s->o->table);
	r = ch_query(s->c, s->sql.s, NULL, 0, &s->resp, s->msg, sizeof(s->msg));
	if (r)
		return r;
	sb_reset(&s->sql);
	sb_printf(&s->sql, "DESCRIBE TABLE %s FORMAT TabSeparated", s->o->table);
	r = ch_query(s->c, s->sql.s, NULL, 0, &s->resp, s->msg, sizeof(s->msg));
	if (r)
		return r;
	if (ch_schema_check(s->resp.s ? s->resp.s : "", s->resp.len, s->o->table, s->msg,
			    sizeof(s->msg)))
		return CH_FAIL;
	return CH_OK;
}

/* Waits up to secs, or until the followed fd ends (then *eof is set). */
static void ship_wait(struct ship *s, double secs, int *eof)
{
	struct pollfd p = { .fd = s->o->follow_fd, .events = POLLIN };
	char c[64];

	if (s->o->follow_fd < 0 || *eof) {
		struct timespec t = { (time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9) };

		nanosleep(&t, NULL);
		return;
	}
	if (poll(&p, 1, (int)(secs * 1000)) > 0 && read(s->o->follow_fd, c, sizeof(c)) <= 0)
		*eof = 1;
}

/* What was not sent, and how to send it; the exit code. */
static int ship_unsent(struct ship *s)
{
	cli_err("%s", s->msg);
	if (s->have_total && s->total >= s->sent)
		cli_err("%llu events of %s not sent to ClickHouse",
			(unsigned long long)(s->total - s->sent), s->o->log);
	else
		cli_err("events of %s not sent to ClickHouse", s->o->log);
	cli_err("send them with: ptbpf export %s --clickhouse=%s%s%s%s%s", s->o->log,
		ch_url_shown(s->c),
		strcmp(s->o->table, CH_TABLE_DEFAULT) ? " --clickhouse-table=" : "",
		strcmp(s->o->table, CH_TABLE_DEFAULT) ? s->o->table : "", " --host=", s->host);
	return CLI_EXIT_UNSENT;
}

/* Passes over the log until all is sent (following: until the fd ends too). */
static int ship_loop(struct ship *s)
{
	int eof = s->o->follow_fd < 0, r, said = 0, table_ok = 0;
	double pause = 0.1, since = 0, took;

	for (;;) {
		int final = eof;

		took = now_s();
		r = table_ok ? CH_OK : ship_table(s);
		table_ok = !r;
		if (!r)
			r = ship_pass(s, final);
		took = now_s() - took;
		if (r < 0)
			return CLI_EXIT_BADLOG;
		if (r == CH_FAIL)
			return ship_unsent(s);
		if (r == CH_OK) {
			if (said)
				cli_err("ClickHouse answers again: sending");
			said = 0;
			since = 0;
			pause = 0.1;
			if (final)
				return CLI_EXIT_OK;
			/* each pass reads the log from its start: a long one's
			 * passes come less often (a fifth of a CPU at most) */
			ship_wait(s, took * 4 > s->o->batch_secs ? took * 4 : s->o->batch_secs,
				  &eof);
			continue;
		}
		if (!said++)
			cli_err("%s: retrying", s->msg);
		if (final && !since)
			since = now_s();
		if (final && now_s() - since > s->o->retry_secs)
			return ship_unsent(s);
		ship_wait(s, pause, &eof);
		pause = pause * 2 > 5 ? 5 : pause * 2;
	}
}

int ship_log(const struct ship_opts *o)
{
	struct ship s = { .o = o };
	int ret;

	if (!ch_table_ok(o->table)) {
		cli_err("--clickhouse-table: '%s' is not a table name ([DB.]NAME)", o->table);
		return CLI_EXIT_USAGE;
	}
	if (o->host)
		snprintf(s.host, sizeof(s.host), "%s", o->host);
	else if (gethostname(s.host, sizeof(s.host) - 1))
		snprintf(s.host, sizeof(s.host), "localhost");
	s.c = ch_open(o->url);
	if (!s.c)
		return CLI_EXIT_USAGE;
	ret = ship_loop(&s);
	ch_close(s.c);
	sb_free(&s.resp);
	sb_free(&s.batch);
	sb_free(&s.sql);
	return ret;
}
