#!/bin/sh
# Logs with an event at 2^63 ns and one at 2^64 - 1 ns (the fuzz seeds
# tests/fuzz/corpus/log/v[13]-ts-*.log, written by test_log with
# LOG_CORPUS_OUT; in each, events 0-4 are at 5 s + i ns and event 5 carries
# the far timestamp): ptbpf show and every convert format give the five
# events before it, no negative time, and nothing trips UBSan (the sanitizer
# build aborts on it).
# usage: sh cli_log_ts.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/cli_common.sh"
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

	run "$name: show" "$P" show "$log"
	[ "$(wc -l <"$T/out")" = 5 ] || { cat "$T/out"; fail "$name: show: not the 5 events before the damage"; }
	! grep -q '^-' "$T/out" || { cat "$T/out"; fail "$name: show: a negative time"; }
	cp "$T/out" "$T/show.txt"
	run "$name: show -t" "$P" show -t "$log"
	! grep -q '^-' "$T/out" || { cat "$T/out"; fail "$name: show -t: a negative time"; }

	run "$name: show --json" "$P" show --json "$log"
	cp "$T/out" "$T/show.jsonl"
	run "$name: convert --to jsonl" "$P" convert "$log" --to jsonl -o "$T/conv.jsonl"
	cmp -s "$T/show.jsonl" "$T/conv.jsonl" || fail "$name: convert --to jsonl differs from show --json"
	run "$name: convert --to chrome" "$P" convert "$log" --to chrome -o "$T/t.json"
	rm -rf "$T/ctf"
	run "$name: convert --to ctf" "$P" convert "$log" --to ctf -o "$T/ctf"

	python3 - "$name" "$T/show.jsonl" "$T/t.json" "$T/ctf/stream_0" <<'PY' || exit 1
import json, struct, sys
name, jsonl, chrome, ctf = sys.argv[1:]
ev = [r for r in map(json.loads, open(jsonl)) if r["type"] == "event"]
assert [e["ts_ns"] for e in ev] == [5000000000 + i for i in range(5)], (name, ev)
assert [e["rel_ns"] for e in ev] == list(range(5)), (name, ev)
c = [e for e in json.load(open(chrome))["traceEvents"] if e["ph"] == "i"]
assert [e["ts"] for e in c] == [i / 1000 for i in range(5)], (name, c)
# CTF packet headers: magic, stream id, timestamp_begin, timestamp_end, ...
b = open(ctf, "rb").read()
off, ends = 0, []
while off < len(b):
    magic, _, t0, t1, content, size, _ = struct.unpack_from("<IIQQQQQ", b, off)
    assert magic == 0xC1FC1FC1 and size % 8 == 0 and size > 0, (name, off, magic, size)
    assert t0 <= t1 < 1 << 63, (name, off, t0, t1)
    ends.append(t1)
    off += size // 8
assert max(ends) == 5000000004, (name, ends)
print("ok: %s: 5 events in show, jsonl, chrome and ctf" % name)
PY
	if command -v babeltrace2 >/dev/null; then
		babeltrace2 "$T/ctf" >"$T/bt.txt" 2>"$T/bt.err" || { cat "$T/bt.err"; fail "$name: babeltrace2"; }
		[ "$(grep -c '^\[' "$T/bt.txt")" = 5 ] || { cat "$T/bt.txt"; fail "$name: CTF: not 5 events"; }
	fi
done
[ $n = 4 ] || fail "expected 4 seed logs, found $n"
echo PASS
