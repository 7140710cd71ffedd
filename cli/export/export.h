/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf export: a log's events as rows of a ClickHouse table, each sent
 * once (the rows, the server's answers, HTTP through libcurl, the loop
 * that ships them, the exporter a record runs beside it).
 */
#ifndef PTBPF_CLI_EXPORT_EXPORT_H
#define PTBPF_CLI_EXPORT_EXPORT_H

#include "fmt/fmt.h"

/*
 * row.c: the rows of a log's events, in the order the log gives them: a
 * syscall's entry and exit are one row (made at its exit), every other
 * event one row (stacks none). Rows are numbered from 0 (seq) and are
 * the same for the same events: a log read again gives them again, a
 * longer log the same ones first.
 */
struct xrow {
	struct fmt f;	    /* the threads' names (fmt_threads_*) */
	struct pidmap held; /* tid -> struct xrow_held: an entry without its exit */
	const char *host;   /* the row's host_name */
	char stream[64];    /* its stream_id */
	uint64_t seq;	    /* the next row's */
	uint64_t skip;	    /* rows below it are counted, not made */
	struct sbuf tmp, tmp2;
};
/* 0, or -1: out of memory. */
int xrow_init(struct xrow *x, const char *host, trace_id_t trid);
/* Rows that ev completes, appended to out as JSONEachRow lines; how many
 * (made or skipped). */
int xrow_event(struct xrow *x, const struct cli_ev *ev, struct sbuf *out);
/* The log ended: its entries without exit, as rows; how many. */
int xrow_end(struct xrow *x, struct sbuf *out);
void xrow_fini(struct xrow *x);
/* The stream id of the log trid: its creation time and name. */
void xrow_stream_id(trace_id_t trid, char *out, size_t size);

/*
 * resp.c: what ClickHouse answers (TabSeparated), parsed; bytes from the
 * network: every parser takes any input (tests/fuzz/fuzz_ch_resp.c).
 */
/* "COUNT\tMAX\n": 0, or -1 if it is not that. */
int ch_parse_state(const char *s, size_t n, uint64_t *count, uint64_t *max);
/* The type of column name in DESCRIBE TABLE's answer, in type (size
 * bytes): 0, or -1 when the table has no such column. */
int ch_describe_type(const char *s, size_t n, const char *name, char *type, size_t size);
/* An error's message ("Code: 60, e.displayText() = DB::Exception: ...") as
 * one printable line in msg (at most size - 1 bytes); its code, or 0. */
int ch_error_text(const char *s, size_t n, char *msg, size_t size);
/* Is ClickHouse's error code one that may pass (too many parts, a timeout)? */
int ch_code_transient(int code);

/* sql.c: the table */
#define CH_TABLE_DEFAULT "ptbpf_events"
/* Is name a table name ([db.]table of letters, digits and _)? */
int ch_table_ok(const char *name);
/* CREATE TABLE IF NOT EXISTS name (...) */
void ch_sql_create(struct sbuf *b, const char *table);
/* The first column of the table that is not ptbpf's (absent, another
 * type) said in msg: 0 if all are, -1 (msg set) otherwise. */
int ch_schema_check(const char *desc, size_t n, const char *table, char *msg, size_t size);
/* A string as a quoted SQL literal. */
void ch_sql_str(struct sbuf *b, const char *s);

/* http.c: a ClickHouse server's HTTP interface, through libcurl */
struct ch_conn;
enum { CH_OK = 0, CH_RETRY = 1, CH_FAIL = 2 };
/* A connection to url (user and password from it, or from
 * CLICKHOUSE_USER / CLICKHOUSE_PASSWORD): NULL with a message said. */
struct ch_conn *ch_open(const char *url);
void ch_close(struct ch_conn *c);
/* The url without user and password, for messages. */
const char *ch_url_shown(const struct ch_conn *c);
/*
 * Runs query (with body: the query in the URL, body its data); the answer
 * in resp. CH_OK; CH_RETRY: the server was not reached or may answer
 * later (said in msg); CH_FAIL: it refused (its message in msg).
 */
int ch_query(struct ch_conn *c, const char *query, const char *body, size_t blen, struct sbuf *resp,
	     char *msg, size_t msize);

/* ship.c: the export of a log */
struct ship_opts {
	const char *log;
	const char *url;
	const char *table;
	const char *host;  /* NULL: this machine's name */
	size_t batch_rows; /* rows a batch at most */
	double batch_secs; /* a batch waits at most this long (following) */
	double retry_secs; /* gives up after retrying this long */
	int follow_fd;	   /* >= 0: the log grows until this fd ends */
};
void ship_opts_init(struct ship_opts *o);
/* Sends what the server lacks of the log; an exit code (said on stderr). */
int ship_log(const struct ship_opts *o);

/* follow.c: ptbpf record --clickhouse: an exporter process beside it */
struct follow;
struct follow_opts {
	const char *url, *table, *host, *retry_for; /* NULL: export's defaults */
};
/* Starts "ptbpf export LOG" following the log being written: NULL on failure (said). */
struct follow *follow_start(const char *log, const struct follow_opts *o);
/* The log is complete: the exporter ships the rest and ends; its exit code. */
int follow_finish(struct follow *fw);

#endif
