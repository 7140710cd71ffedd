#!/bin/sh
# ptbpf convert --to perfetto: protoc decodes every trace written with the
# vendored schema (third_party/perfetto), whose field numbers are the
# encoder's; the trace holds the log (a slice per syscall, named, per
# thread; instants; names; user events; flows; the lost-events counter); a
# damaged or truncated log gives the events before the damage; a large log
# converts in bounded memory.
# usage: sh cli_perfetto.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/perfetto_check.py
src=${2:?source dir}
PROTO=$src/third_party/perfetto
command -v protoc >/dev/null || skip "protoc not installed (protobuf-compiler)"
for p in fork_uev flood2; do [ -x "$PROGS/$p" ] || fail "no $PROGS/$p"; done

# decode NAME: protoc reads T/NAME.pftrace into T/NAME.txt, saying nothing
decode() {
	protoc -I "$PROTO" --decode=perfetto.protos.Trace perfetto_trace.proto \
		<"$T/$1.pftrace" >"$T/$1.txt" 2>"$T/$1.perr" || { cat "$T/$1.perr"; fail "$1: protoc cannot decode"; }
	! grep -q . "$T/$1.perr" || { cat "$T/$1.perr"; fail "$1: protoc complains"; }
}
# conv LOG NAME [STATUS]: show --json and convert --to perfetto of LOG,
# which exits with STATUS (chrome's too), then decoded
conv() {
	want=${3:-0}
	st=0
	"$P" show --json "$1" >"$T/$2.jsonl" 2>/dev/null || true
	"$P" convert "$1" --to perfetto -o "$T/$2.pftrace" 2>"$T/$2.err" || st=$?
	[ $st = "$want" ] || { cat "$T/$2.err"; fail "$2: convert --to perfetto exit status $st, not $want"; }
	st=0
	"$P" convert "$1" --to chrome -o "$T/$2.json" 2>/dev/null || st=$?
	[ $st = "$want" ] || fail "$2: chrome's exit status $st, perfetto's $want"
	decode "$2"
}

# the field numbers and enum values the encoder writes are the schema's
python3 "$CHECK" fields "$src/cli/convert/perfetto_fields.def" "$PROTO/perfetto_trace.proto" || exit 1

# a real program: a process that forks (user events in both), then one of two threads
"$P" record -f -o "$T/t.log" -- sh -c "'$PROGS/fork_uev' 5 50 && exec '$PROGS/flood2' 200" \
	>"$T/rec.out" 2>&1 || { cat "$T/rec.out"; fail "record failed"; }
conv "$T/t.log" t
python3 "$CHECK" trace "$T/t.jsonl" "$T/t.txt" fork_uev flood2 || exit 1
echo "sizes: log $(wc -c <"$T/t.log"), perfetto $(wc -c <"$T/t.pftrace"), chrome $(wc -c <"$T/t.json")"

# lost events: the counter ends at the count of the summary
"$P" record -o "$T/lost.log" --buffer-size 64K --policy until-full -- \
	dd if=/dev/zero of=/dev/null bs=1 count=20000 2>"$T/lost.err" || fail "record (lost)"
lost=$(sed -n 's/.* events written to .* bytes), \([0-9]*\) lost.*/\1/p' "$T/lost.err")
[ "${lost:-0}" -gt 0 ] || { cat "$T/lost.err"; fail "no events lost with a 64K stream"; }
conv "$T/lost.log" lost
python3 "$CHECK" trace "$T/lost.jsonl" "$T/lost.txt" dd "lost=$lost" || exit 1

# damaged logs (an event at 2^63 ns or later: tests/cli/log_ts.test.sh):
# the five events before it
for log in "$src"/tests/fuzz/corpus/log/v[13]-ts-*.log; do
	conv "$log" dmg
	[ "$(grep -c '"type":"event"' "$T/dmg.jsonl")" = 5 ] || fail "$log: show: not 5 events"
	python3 "$CHECK" trace "$T/dmg.jsonl" "$T/dmg.txt" || exit 1
done

# events that go back in time (tests/cli/log_ts.test.sh): each keeps its own
# timestamp (the older ones absolute, the others on the sequence's clock)
[ -x "$PROGS/late_log" ] || fail "no $PROGS/late_log"
"$PROGS/late_log" "$T/late.log" 5000010001 5000030003 5000020002 5000005005 || fail "late_log"
conv "$T/late.log" late
python3 "$CHECK" trace "$T/late.jsonl" "$T/late.txt" || exit 1
grep -q "timestamp_clock_id: 1$" "$T/late.txt" || fail "late: no timestamp on CLOCK_REALTIME"

# a truncated log: what show gives, from the events before the cut
"$P" record -o "$T/f.log" --buffer-size 16M -- "$PROGS/flood2" 100000 >/dev/null 2>&1 ||
	fail "record (flood)"
head -c $(($(wc -c <"$T/f.log") / 2)) "$T/f.log" >"$T/cut.log"
conv "$T/cut.log" cut
[ "$(grep -c '"type":"event"' "$T/cut.jsonl")" -gt 1000 ] || fail "the truncated log shows too few events"
python3 "$CHECK" trace "$T/cut.jsonl" "$T/cut.txt" || exit 1

# a large log in bounded memory: 64 MiB at most for 200 MB and more; in the
# normal build only: a sanitizer's runtime (its quarantine of freed memory)
# is not the converter's memory, and it records too slowly to fill the log
if grep -q "PTBPF_SANITIZE:BOOL=ON" "$B/CMakeCache.txt" 2>/dev/null; then
	echo "large log: checked in the normal build (a sanitizer build)"
	echo PASS
	exit 0
fi
n=5000000
"$P" record -o "$T/big.log" --buffer-size 64M --nice=-10 -- "$PROGS/flood2" $n >/dev/null 2>"$T/big.err" ||
	{ cat "$T/big.err"; fail "record (large)"; }
size=$(wc -c <"$T/big.log")
[ "$size" -gt 200000000 ] || { cat "$T/big.err"; fail "the large log has $size bytes only"; }
rss=$(python3 "$CHECK" maxrss "$P" convert "$T/big.log" --to perfetto -o "$T/big.pftrace") ||
	fail "convert (large)"
echo "large: log $size bytes, perfetto $(wc -c <"$T/big.pftrace") bytes, max RSS $rss KiB"
[ "$rss" -lt 65536 ] || fail "converting a $size-byte log took $rss KiB"
python3 "$CHECK" framing "$T/big.pftrace" || exit 1
echo PASS
