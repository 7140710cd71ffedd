#!/bin/sh
# ptbpf export --clickhouse and record --clickhouse against a real
# ClickHouse server (Debian's clickhouse-server, started here on 127.0.0.1
# with its own config and data directory): the rows per syscall are
# show --json's, with durations; exporting twice adds nothing; two hosts
# in one table; the faults (no server, a refused password, a table of
# another schema, a malformed URL, a log that is none) are each a clear
# error and exit status, never a crash or a silent loss.
# usage: sh clickhouse.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/clickhouse_check.py
command -v clickhouse-server >/dev/null || skip "clickhouse-server not installed (tools/install-deps.sh)"
command -v clickhouse-client >/dev/null || skip "clickhouse-client not installed (tools/install-deps.sh)"
[ -x "$PROGS/cli_uev" ] || fail "no $PROGS/cli_uev"

# two free ports of 127.0.0.1
set -- $(python3 -c 'import socket
s=[socket.socket() for _ in range(3)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
HTTP=$1 TCP=$2 DEAD=$3
URL=http://127.0.0.1:$HTTP/
CH=$T/ch
mkdir -p "$CH/data"
cat >"$CH/users.xml" <<EOX
<?xml version="1.0"?>
<yandex>
    <profiles><default></default><readonly><readonly>1</readonly></readonly></profiles>
    <users>
        <default><password></password><networks><ip>127.0.0.1</ip></networks>
            <profile>default</profile><quota>default</quota></default>
        <ptbpf><password>s3cret-pw</password><networks><ip>127.0.0.1</ip></networks>
            <profile>default</profile><quota>default</quota></ptbpf>
        <reader><password></password><networks><ip>127.0.0.1</ip></networks>
            <profile>readonly</profile><quota>default</quota></reader>
    </users>
    <quotas><default></default></quotas>
</yandex>
EOX
cat >"$CH/config.xml" <<EOX
<?xml version="1.0"?>
<yandex>
    <logger><level>warning</level><log>$CH/server.log</log>
        <errorlog>$CH/server.err.log</errorlog><console>0</console></logger>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$HTTP</http_port>
    <tcp_port>$TCP</tcp_port>
    <path>$CH/data/</path>
    <tmp_path>$CH/data/tmp/</tmp_path>
    <user_files_path>$CH/data/user_files/</user_files_path>
    <format_schema_path>$CH/data/format_schemas/</format_schema_path>
    <mark_cache_size>5368709</mark_cache_size>
    <users_config>$CH/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>Asia/Tokyo</timezone>
</yandex>
EOX
SERVER=
ch_start() {
	clickhouse-server --config-file="$CH/config.xml" >"$CH/server.out" 2>&1 &
	SERVER=$!
	for _ in $(seq 100); do
		q "SELECT 1" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	cat "$CH/server.out" "$CH/server.err.log" 2>/dev/null
	fail "clickhouse-server did not start"
}
# ch_stop [SIGNAL]: -KILL: as a crash, at once
ch_stop() {
	[ -n "$SERVER" ] || return 0
	kill ${1:-} "$SERVER" 2>/dev/null
	wait "$SERVER" 2>/dev/null
	SERVER=
}
trap 'ch_stop; rm -rf "$T"' EXIT
q() { clickhouse-client --port "$TCP" --query "$1"; }
ch_start

# a log of a few processes, user events among them
"$P" record -f -o "$T/a.log" -- sh -c "cat /etc/hostname; ls /nonexistent; $PROGS/cli_uev 3 200; true" \
	>/dev/null 2>"$T/rec.err" || { cat "$T/rec.err"; fail "record"; }
"$P" show --json "$T/a.log" >"$T/a.json" || fail "show --json"

# export: the rows per syscall are show --json's, the user events are there
"$P" export "$T/a.log" --clickhouse="$URL" 2>"$T/e1.err" || { cat "$T/e1.err"; fail "export"; }
[ -s "$T/e1.err" ] && { cat "$T/e1.err"; fail "export said something"; }
q "SELECT syscall, count(), countIf(finished AND duration_ns > 0), countIf(finished)
   FROM ptbpf_events WHERE event_type = 'syscall' GROUP BY syscall FORMAT TSV" >"$T/rows.tsv"
q "SELECT count(), max(seq) + 1, uniqExact(seq) FROM ptbpf_events FORMAT TSV" >"$T/count1"
q "SELECT event_name, data, args FROM ptbpf_events WHERE event_type = 'user' ORDER BY seq FORMAT TSV" >"$T/user.tsv"
python3 "$CHECK" rows "$T/a.json" "$T/rows.tsv" "$T/count1" "$T/user.tsv" || fail "rows"
# the DateTime is the event's second whatever the server's time zone (Tokyo's here)
[ "$(q "SELECT countIf(toUInt32(timestamp) != intDiv(timestamp_ns, 1000000000)) FROM ptbpf_events")" = 0 ] ||
	fail "timestamp and timestamp_ns differ"

# exporting twice adds nothing; the password in the URL works and is not printed
"$P" export "$T/a.log" --clickhouse="http://ptbpf:s3cret-pw@127.0.0.1:$HTTP/" 2>"$T/e2.err" ||
	{ cat "$T/e2.err"; fail "export again"; }
q "SELECT count(), max(seq) + 1, uniqExact(seq) FROM ptbpf_events FORMAT TSV" >"$T/count2"
cmp -s "$T/count1" "$T/count2" || fail "exported twice: $(cat "$T/count1") then $(cat "$T/count2")"

# two hosts, one query across both
"$P" export "$T/a.log" --clickhouse="$URL" --host=alpha 2>&1 || fail "export --host=alpha"
"$P" export "$T/a.log" --clickhouse="$URL" --host=beta 2>&1 || fail "export --host=beta"
q "SELECT host_name, count() FROM ptbpf_events WHERE host_name IN ('alpha', 'beta')
   AND syscall = 'openat' AND errno != 0 GROUP BY host_name ORDER BY host_name FORMAT TSV" >"$T/hosts"
n=$(head -1 "$T/count1" | cut -f1)
[ "$(q "SELECT uniqExact(host_name) FROM ptbpf_events FORMAT TSV")" = 3 ] || fail "hosts"
[ "$(q "SELECT count() FROM ptbpf_events WHERE host_name = 'beta' FORMAT TSV")" = "$n" ] || fail "beta's rows"
[ "$(cut -f1 "$T/hosts" | tr '\n' ' ')" = "alpha beta " ] || { cat "$T/hosts"; fail "a failed openat on each host"; }

# faults: a wrong password (the server's message, no password printed) ...
"$P" export "$T/a.log" --clickhouse="http://ptbpf:wrong-pw@127.0.0.1:$HTTP/" 2>"$T/f1.err"
st=$?
[ $st = 8 ] || { cat "$T/f1.err"; fail "wrong password: exit $st"; }
grep -q "Code: 193" "$T/f1.err" || { cat "$T/f1.err"; fail "wrong password: no server message"; }
grep -q "wrong-pw" "$T/f1.err" && fail "the password was printed"
grep -q "send them with: ptbpf export $T/a.log --clickhouse=http://127.0.0.1:$HTTP/" "$T/f1.err" ||
	{ cat "$T/f1.err"; fail "wrong password: no command to finish"; }
# ... a user who may not write: the server's error, said ...
"$P" export "$T/a.log" --clickhouse="http://reader@127.0.0.1:$HTTP/" 2>"$T/f9.err"
st=$?
[ $st = 8 ] && grep -q "Code: 164" "$T/f9.err" || { cat "$T/f9.err"; fail "read-only user: exit $st"; }
# ... the password from the environment ...
CLICKHOUSE_USER=ptbpf CLICKHOUSE_PASSWORD=s3cret-pw "$P" export "$T/a.log" --clickhouse="$URL" --host=env ||
	fail "password from the environment"
# ... no server there (retried, then given up with the command to finish) ...
"$P" export "$T/a.log" --clickhouse="http://127.0.0.1:$DEAD/" --retry-for=1 2>"$T/f2.err"
st=$?
[ $st = 8 ] || { cat "$T/f2.err"; fail "no server: exit $st"; }
grep -q "retrying" "$T/f2.err" && grep -q "events of $T/a.log not sent" "$T/f2.err" &&
	grep -q "send them with: ptbpf export" "$T/f2.err" || { cat "$T/f2.err"; fail "no server: message"; }
# ... a table of another schema: the column named ...
q "CREATE TABLE other (timestamp DateTime, timestamp_ns UInt64, host_name UInt32) ENGINE = MergeTree() ORDER BY timestamp"
"$P" export "$T/a.log" --clickhouse="$URL" --clickhouse-table=other 2>"$T/f3.err"
st=$?
[ $st = 8 ] || { cat "$T/f3.err"; fail "other schema: exit $st"; }
grep -q "table other: column host_name is UInt32, ptbpf writes String" "$T/f3.err" ||
	{ cat "$T/f3.err"; fail "other schema: message"; }
q "CREATE TABLE other2 (timestamp DateTime) ENGINE = MergeTree() ORDER BY timestamp"
"$P" export "$T/a.log" --clickhouse="$URL" --clickhouse-table=default.other2 2>"$T/f3.err"
[ $? = 8 ] && grep -q "table default.other2 has no column timestamp_ns" "$T/f3.err" ||
	{ cat "$T/f3.err"; fail "a column missing: message"; }
# ... a malformed URL, a bad table name, a log that is none
"$P" export "$T/a.log" --clickhouse="http://[::1" 2>"$T/f4.err"
st=$?
[ $st = 2 ] && grep -q "not a URL" "$T/f4.err" || { cat "$T/f4.err"; fail "malformed URL: exit $st"; }
"$P" export "$T/a.log" --clickhouse="ftp://127.0.0.1/" 2>"$T/f5.err"
[ $? = 2 ] && grep -q "http or https" "$T/f5.err" || { cat "$T/f5.err"; fail "ftp URL"; }
"$P" export "$T/a.log" --clickhouse="$URL" --clickhouse-table="x; DROP TABLE y" 2>"$T/f6.err"
[ $? = 2 ] || { cat "$T/f6.err"; fail "bad table name"; }
head -c 5000 /dev/urandom >"$T/junk.log"
"$P" export "$T/junk.log" --clickhouse="$URL" 2>"$T/f7.err"
st=$?
[ $st = 7 ] && grep -q "not a valid POSIX trace log" "$T/f7.err" || { cat "$T/f7.err"; fail "junk log: exit $st"; }
# a LOOP log (its oldest events overwritten: no numbering that holds)
"$P" record --log-policy loop --log-size 1M -o "$T/loop.log" -- true 2>/dev/null || fail "record a loop log"
"$P" export "$T/loop.log" --clickhouse="$URL" 2>"$T/f8.err"
[ $? = 7 ] && grep -q "LOOP policy" "$T/f8.err" || { cat "$T/f8.err"; fail "a loop log"; }
# nothing of these reached the table
[ "$(q "SELECT count() FROM ptbpf_events WHERE host_name NOT IN ('alpha', 'beta', 'env') FORMAT TSV")" = "$n" ] ||
	fail "the faults changed the table"

# count TABLE: "rows max(seq)+1 distinct-seqs" of its only stream
count() { q "SELECT count(), max(seq) + 1, uniqExact(seq) FROM $1 FORMAT TSV" | tr '\t' ' '; }
same3() { set -- $1; [ "$1" = "$2" ] && [ "$2" = "$3" ]; }
LOOP='for i in $(seq 60); do cat /etc/hostname >/dev/null; sleep 0.1; done'

# record --clickhouse, the server stopped for a few seconds on the way:
# rows sent while recording, every event once in the end
"$P" record --clickhouse="$URL" --clickhouse-table=live -o "$T/live.log" -f -- sh -c "$LOOP" \
	2>"$T/live.err" &
rec=$!
sleep 2
early=$(count live)
ch_stop -KILL
sleep 3
ch_start
wait $rec
st=$?
[ $st = 0 ] || { cat "$T/live.err"; fail "record --clickhouse with an outage: exit $st"; }
grep -q "retrying" "$T/live.err" || { cat "$T/live.err"; fail "the outage was not seen"; }
[ "${early%% *}" -gt 0 ] || fail "nothing sent while recording ($early)"
live=$(count live)
same3 "$live" || fail "after the outage: $live (rows, max(seq)+1, distinct)"
"$P" export "$T/live.log" --clickhouse="$URL" --clickhouse-table=live || fail "export after record"
[ "$(count live)" = "$live" ] || fail "export after record added rows: $live then $(count live)"
"$P" export "$T/live.log" --clickhouse="$URL" --clickhouse-table=fresh || fail "export to fresh"
[ "$(count fresh)" = "$live" ] || fail "record sent $live, the log has $(count fresh)"

# a record killed: its exporter goes with it, and export completes the stream
"$P" record --clickhouse="$URL" --clickhouse-table=killed -o "$T/k.log" -- sh -c "$LOOP" \
	2>"$T/k.err" &
rec=$!
sleep 1.5
kill -9 $rec
wait $rec 2>/dev/null
sleep 0.3
pgrep -f "export $T/k.log" >/dev/null && fail "the exporter outlived the record"
partial=$(count killed)
"$P" export "$T/k.log" --clickhouse="$URL" --clickhouse-table=killed || fail "export of a killed record's log"
"$P" export "$T/k.log" --clickhouse="$URL" --clickhouse-table=killed2 || fail "export to killed2"
same3 "$(count killed)" && [ "$(count killed)" = "$(count killed2)" ] ||
	fail "killed record: $partial sent, then $(count killed); the log has $(count killed2)"

# two records at once as two hosts, one query across both
recs=
for h in north south; do
	"$P" record -f --clickhouse="$URL" --clickhouse-table=fleet --clickhouse-host=$h -o "$T/$h.log" \
		-- sh -c 'cat /nonexistent-$0 2>/dev/null; exit 0' $h 2>"$T/$h.err" &
	recs="$recs $!"
done
for rec in $recs; do wait "$rec" || { cat "$T"/north.err "$T"/south.err; fail "two records"; }; done
q "SELECT host_name, count() FROM fleet WHERE syscall = 'openat' AND error_type = 'ENOENT'
   AND args LIKE '%nonexistent-%' GROUP BY host_name ORDER BY host_name FORMAT TSV" >"$T/fleet"
[ "$(cut -f1 "$T/fleet" | tr '\n' ' ')" = "north south " ] || { cat "$T/fleet" "$T"/north.err; fail "fleet"; }
[ "$(q "SELECT uniqExact(stream_id) FROM fleet FORMAT TSV")" = 2 ] || fail "fleet: two streams"

# without -o: a log of its own, gone once all is sent
mkdir "$T/tmp"
TMPDIR=$T/tmp "$P" record --clickhouse="$URL" --clickhouse-table=own -- sh -c 'cat /etc/hostname' \
	>/dev/null 2>"$T/own.err" || { cat "$T/own.err"; fail "record --clickhouse without -o"; }
same3 "$(count own)" && [ "$(count own | cut -d' ' -f1)" -gt 10 ] || fail "own log: $(count own)"
[ -z "$(ls "$T/tmp")" ] || fail "left in TMPDIR: $(ls "$T/tmp")"

# the server never there: the record says what was not sent and how to send
# it (exit 8), its log kept; that command, given the server, completes it
mkdir "$T/tmp2"
TMPDIR=$T/tmp2 "$P" record --clickhouse="http://127.0.0.1:$DEAD/" --clickhouse-retry-for=1 \
	--clickhouse-table=late -- sh -c 'cat /etc/hostname' >/dev/null 2>"$T/late.err"
st=$?
[ $st = 8 ] || { cat "$T/late.err"; fail "record with no server: exit $st"; }
kept=$(ls "$T"/tmp2/ptbpf-*.log) || fail "record with no server: no log kept"
grep -q "send them with: ptbpf export $kept --clickhouse=http://127.0.0.1:$DEAD/ --clickhouse-table=late" \
	"$T/late.err" || { cat "$T/late.err"; fail "record with no server: no command to finish"; }
"$P" export "$kept" --clickhouse="$URL" --clickhouse-table=late || fail "finishing a record's log"
same3 "$(count late)" && [ "$(count late | cut -d' ' -f1)" -gt 10 ] || fail "late: $(count late)"
echo "PASS"
