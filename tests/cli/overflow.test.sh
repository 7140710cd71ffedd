#!/bin/sh
# Where events are lost, each gap says how many: the text, JSON, CTF (read
# back by babeltrace2) and Chrome outputs; the gaps add up to the lost count
# of the summary, for each way a gap happens.
# usage: sh cli_overflow.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/overflow_check.py
command -v babeltrace2 >/dev/null || skip "babeltrace2 not installed"
FLOOD="dd if=/dev/zero of=/dev/null bs=1 count=100000"

# summary_lost FILE: M of "N events printed|written ..., M lost"
summary_lost() { sed -n 's/^ptbpf: .* events \(printed\|written to .*)\), \([0-9]*\) lost.*/\2/p' "$1"; }
# text_lost FILE: the sum of the "=== posix_trace_overflow: N events lost ===" lines
text_lost() {
	grep -c 'posix_trace_overflow: events lost here' "$1" >/dev/null && fail "a gap without a count"
	sed -n 's/.* === posix_trace_overflow: \([0-9]*\) events\{0,1\} lost ===$/\1/p' "$1" |
		awk '{ s += $1 } END { print s + 0 }'
}

# 1. live text: the stream full (until-full stops and starts again when
# emptied, loop overwrites the oldest), for sure: the lines go into a pipe
# nobody reads for a second
for pol in until-full loop; do
	"$P" record --format=ptbpf --buffer-size 64K --policy $pol --output-text - -- $FLOOD 2>"$T/$pol.err" |
		{ sleep 1; cat >"$T/$pol.txt"; }
	grep -q 'events printed' "$T/$pol.err" || { cat "$T/$pol.err"; fail "record --policy $pol"; }
	s=$(summary_lost "$T/$pol.err")
	g=$(text_lost "$T/$pol.txt")
	[ "${s:-0}" -gt 0 ] || { cat "$T/$pol.err"; fail "$pol: no events lost with a 64K stream"; }
	[ "$g" = "$s" ] || fail "$pol: the gaps hold $g events, the summary says $s lost"
	echo "ok: $pol: $s lost, in $(grep -c posix_trace_overflow "$T/$pol.txt") gaps"
done

# strace's look (the default): each gap a line of ptbpf's, "ptbpf: N events
# lost here", adding up to the summary, which is printed as events were lost
"$P" record --buffer-size 64K --policy loop --output-text - -- $FLOOD 2>"$T/s.err" |
	{ sleep 1; cat >"$T/s.txt"; }
s=$(summary_lost "$T/s.err")
g=$(sed -n 's/^ptbpf: \([0-9]*\) events\{0,1\} lost here$/\1/p' "$T/s.txt" | awk '{ s += $1 } END { print s + 0 }')
[ "${s:-0}" -gt 0 ] || { cat "$T/s.err"; fail "strace's look: no summary line, or nothing lost"; }
[ "$g" = "$s" ] || fail "strace's look: the gaps' lines hold $g events, the summary says $s lost"
grep -q '^[0-9.]* [0-9]*/[0-9]* \|===' "$T/s.txt" && fail "strace's look: a line of ptbpf's look"
echo "ok: strace's look: $s lost, in $(grep -c 'lost here$' "$T/s.txt") lines"

# 2. live JSON: a "lost" field on each gap, summed to the status record's
"$P" record --format=ptbpf --json --buffer-size 64K --policy loop --output-text - -- $FLOOD 2>/dev/null |
	{ sleep 1; cat >"$T/l.jsonl"; }
python3 "$CHECK" live_json_gaps "$T/l.jsonl" || exit 1

# 3. a log (-o; until-full: the stream stops when full), then each export
"$P" record --format=ptbpf -o "$T/u.log" --buffer-size 64K --policy until-full -- $FLOOD 2>"$T/u.err" ||
	fail "record -o"
s=$(summary_lost "$T/u.err")
[ "${s:-0}" -gt 0 ] || { cat "$T/u.err"; fail "-o: no events lost"; }
"$P" show --format=ptbpf "$T/u.log" >"$T/u.txt" || fail "show"
[ "$(text_lost "$T/u.txt")" = "$s" ] || fail "show: the gaps hold $(text_lost "$T/u.txt"), lost $s"
"$P" show --format=ptbpf --json "$T/u.log" | python3 "$CHECK" show_json_gaps "$s" || fail "show --json: the gaps' lost"
"$P" convert "$T/u.log" --to chrome -o "$T/u.json" || fail "convert --to chrome"
python3 "$CHECK" chrome_gaps "$T/u.json" "$s" || exit 1
"$P" convert "$T/u.log" --to ctf -o "$T/u.ctf" || fail "convert --to ctf"
babeltrace2 "$T/u.ctf" >"$T/bt.txt" 2>&1 || fail "babeltrace2"
b=$(sed -n 's/.*Tracer discarded \([0-9]*\) events\{0,1\} between.*/\1/p' "$T/bt.txt" |
	awk '{ s += $1 } END { print s + 0 }')
[ "$b" = "$s" ] || fail "babeltrace2: $b events discarded, the summary says $s lost"
# the CTF discarded counts are those of the gaps, gap by gap
[ "$(sed -n 's/.*Tracer discarded \([0-9]*\) events\{0,1\} between.*/\1/p' "$T/bt.txt")" = \
	"$(sed -n 's/.* === posix_trace_overflow: \([0-9]*\) events\{0,1\} lost ===$/\1/p' "$T/u.txt")" ] ||
	fail "CTF: not the gaps' counts, gap by gap"
echo "ok: log: $s lost, the same in show, show --json, Chrome and CTF (babeltrace2)"

# 4. a flush stream loses nothing itself: what is lost is the kernel rings'
# (when the drainer falls behind), each gap with its count
"$P" record --format=ptbpf -o "$T/f.log" --buffer-size 64K --policy flush -- $FLOOD 2>"$T/f.err" ||
	fail "record -o --policy flush"
s=$(summary_lost "$T/f.err")
"$P" show --format=ptbpf "$T/f.log" >"$T/f.txt" || fail "show f.log"
[ "$(text_lost "$T/f.txt")" = "$s" ] || fail "flush: the gaps hold $(text_lost "$T/f.txt"), lost $s"
echo "ok: flush: $s lost (kernel rings), in $(grep -c posix_trace_overflow "$T/f.txt") gaps"
echo PASS
