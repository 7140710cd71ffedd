#!/bin/sh
# Logs with an event at 2^63 ns and one at 2^64 - 1 ns (the fuzz seeds
# tests/fuzz/corpus/log/v[13]-ts-*.log, written by test_log with
# LOG_CORPUS_OUT; in each, events 0-4 are at 5 s + i ns and event 5 carries
# the far timestamp): ptbpf show and every convert format give the five
# events before it, no negative time, and nothing trips UBSan (the sanitizer
# build aborts on it). Then a log written by tests/progs/late_log whose events
# go back in time: every output keeps each event's own timestamp.
# usage: sh cli_log_ts.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/log_ts_check.py
src=${2:?source dir}

run() { # NAME COMMAND...: runs it, fails on an exit status or a sanitizer report
	what=$1
	shift
	st=0
	"$@" >"$T/out" 2>"$T/err" || st=$?
	[ $st = 0 ] || { cat "$T/err"; fail "$what: exit status $st"; }
	! grep -q 'runtime error\|Sanitizer' "$T/err" || { cat "$T/err"; fail "$what: sanitizer report"; }
}

n=0
for log in "$src"/tests/fuzz/corpus/log/v[13]-ts-*.log; do
	name=$(basename "$log")
	n=$((n + 1))

	run "$name: show" "$P" show --format=ptbpf "$log"
	[ "$(wc -l <"$T/out")" = 5 ] || { cat "$T/out"; fail "$name: show: not the 5 events before the damage"; }
	! grep -q '^-' "$T/out" || { cat "$T/out"; fail "$name: show: a negative time"; }
	cp "$T/out" "$T/show.txt"
	run "$name: show -t" "$P" show --format=ptbpf -t "$log"
	! grep -q '^-' "$T/out" || { cat "$T/out"; fail "$name: show -t: a negative time"; }

	run "$name: show --json" "$P" show --format=ptbpf --json "$log"
	cp "$T/out" "$T/show.jsonl"
	run "$name: convert --to jsonl" "$P" convert "$log" --to jsonl -o "$T/conv.jsonl"
	cmp -s "$T/show.jsonl" "$T/conv.jsonl" || fail "$name: convert --to jsonl differs from show --json"
	run "$name: convert --to chrome" "$P" convert "$log" --to chrome -o "$T/t.json"
	rm -rf "$T/ctf"
	run "$name: convert --to ctf" "$P" convert "$log" --to ctf -o "$T/ctf"

	python3 "$CHECK" far_ts_outputs "$name" "$T/show.jsonl" "$T/t.json" "$T/ctf/stream_0" || exit 1
	if command -v babeltrace2 >/dev/null; then
		babeltrace2 "$T/ctf" >"$T/bt.txt" 2>"$T/bt.err" || { cat "$T/bt.err"; fail "$name: babeltrace2"; }
		[ "$(grep -c '^\[' "$T/bt.txt")" = 5 ] || { cat "$T/bt.txt"; fail "$name: CTF: not 5 events"; }
	fi
done
[ $n = 4 ] || fail "expected 4 seed logs, found $n"

# A log whose events go back in time (a starved source's late events keep
# their own timestamps): 5 s + 10001 ns, + 30003 (the newest), + 20002 (older
# than the one before), + 5005 (older than all). Every output gives each
# event its own timestamp: show and JSON in the log's order, CTF in data
# streams each going forward, which babeltrace2 merges in time order.
[ -x "$PROGS/late_log" ] || fail "no $PROGS/late_log"
late="5000010001 5000030003 5000020002 5000005005"
# shellcheck disable=SC2086 # one argument per timestamp
"$PROGS/late_log" "$T/late.log" $late || fail "late_log"
run "late: show" "$P" show --format=ptbpf "$T/late.log"
cp "$T/out" "$T/late.txt"
run "late: show -t" "$P" show --format=ptbpf -t "$T/late.log"
cp "$T/out" "$T/late_t.txt"
run "late: show --json" "$P" show --format=ptbpf --json "$T/late.log"
cp "$T/out" "$T/late.jsonl"
run "late: convert --to chrome" "$P" convert "$T/late.log" --to chrome -o "$T/late.json"
rm -rf "$T/latectf"
run "late: convert --to ctf" "$P" convert "$T/late.log" --to ctf -o "$T/latectf"
bt=
if command -v babeltrace2 >/dev/null; then
	babeltrace2 --clock-cycles "$T/latectf" >"$T/late_bt.txt" 2>"$T/bt.err" ||
		{ cat "$T/bt.err"; fail "late: babeltrace2"; }
	bt=$T/late_bt.txt
fi
python3 "$CHECK" late_outputs "$late" "$T/late.txt" "$T/late_t.txt" "$T/late.jsonl" "$T/late.json" "$T/latectf" "$bt" || exit 1
# --force over that trace with a log in order (one stream): the late
# streams of the old one do not join it
"$PROGS/late_log" "$T/inorder.log" 5000010001 5000030003 || fail "late_log (in order)"
run "in order: convert --to ctf --force" "$P" convert "$T/inorder.log" --to ctf -o "$T/latectf" --force
[ "$(ls "$T/latectf")" = "metadata
stream_0" ] || { ls "$T/latectf"; fail "--force: the late streams of the old trace remain"; }
echo PASS
