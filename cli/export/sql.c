/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf export: the ClickHouse table of events (README.md, "The fleet"):
 * its columns, named after OpenTelemetry's attributes where there is one
 * (host.name, process.pid, thread.id, process.command, event.name,
 * error.type), its creation and the check of a table that exists.
 */
#include <stdio.h>
#include <string.h>

#include "export/export.h"

static const struct {
	const char *name, *type;
} columns[] = {
	{ "timestamp", "DateTime" }, { "timestamp_ns", "UInt64" },
	{ "host_name", "String" },   { "stream_id", "String" },
	{ "seq", "UInt64" },	     { "process_pid", "Int32" },
	{ "thread_id", "Int32" },    { "process_command", "String" },
	{ "event_type", "String" },  { "event_name", "String" },
	{ "syscall", "String" },     { "args", "String" },
	{ "attributes", "String" },  { "ret", "Int64" },
	{ "errno", "Int32" },	     { "error_type", "String" },
	{ "duration_ns", "UInt64" }, { "finished", "UInt8" },
	{ "data", "String" },
};

int ch_table_ok(const char *name)
{
	size_t i, part = 0, dots = 0;

	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (c == '.' && part && !dots++) {
			part = 0;
			continue;
		}
		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (part && c >= '0' && c <= '9')))
			return 0;
		part++;
	}
	return part > 0 && i < 128;
}

void ch_sql_create(struct sbuf *b, const char *table)
{
	size_t i;

	sb_printf(b, "CREATE TABLE IF NOT EXISTS %s (", table);
	for (i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		sb_printf(b, "%s%s %s", i ? ", " : "", columns[i].name, columns[i].type);
	/* a host's events in time order, a stream's rows by seq within; one
	 * partition: a batch (one INSERT, one block) is one part, all or
	 * nothing (a partition per month would split a batch across two) */
	sb_puts(b, ") ENGINE = MergeTree() ORDER BY (host_name, timestamp, stream_id, seq)");
}

int ch_schema_check(const char *desc, size_t n, const char *table, char *msg, size_t size)
{
	char type[64];
	size_t i;

	for (i = 0; i < sizeof(columns) / sizeof(columns[0]); i++) {
		if (ch_describe_type(desc, n, columns[i].name, type, sizeof(type))) {
			snprintf(msg, size, "table %s has no column %s (%s): not ptbpf's", table,
				 columns[i].name, columns[i].type);
			return -1;
		}
		if (strcmp(type, columns[i].type)) {
			snprintf(msg, size, "table %s: column %s is %s, ptbpf writes %s", table,
				 columns[i].name, type, columns[i].type);
			return -1;
		}
	}
	return 0;
}

void ch_sql_str(struct sbuf *b, const char *s)
{
	sb_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			sb_putc(b, '\\');
		sb_putc(b, *s);
	}
	sb_putc(b, '\'');
}
