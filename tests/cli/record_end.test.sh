#!/bin/sh
# ptbpf record ends as soon as the traced command is reaped, as strace does:
# the time from the command's last action to the tracer's exit, beside
# strace's, live and with -o; and no event of the command is lost by it.
# usage: sh cli_record_end.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace not installed"

# The command writes the time it ends; the lag is from then to the
# tracer's exit (the tracer's start-up is not in it).
cmd='date +%s.%N >"$0"; exec true'
lag() { awk -v e="$2" '{ printf "%.3f", e - $1 }' "$1"; }

# the best of 3 runs each: a loaded machine stalls one now and then, a
# fixed wait after the exit delays every one
best() { awk 'NR == 1 || $1 < m { m = $1 } END { print m }' "$1"; }
for i in 1 2 3; do
	strace -f -qq -o /dev/null sh -c "$cmd" "$T/st.t" || fail "strace run"
	lag "$T/st.t" "$(date +%s.%N)" >>"$T/st.lags"; echo >>"$T/st.lags"
	"$P" record --format=ptbpf --output-text "$T/live.txt" -- sh -c "$cmd" "$T/live.t" >/dev/null 2>"$T/live.err" ||
		{ cat "$T/live.err"; fail "ptbpf record (live) failed"; }
	lag "$T/live.t" "$(date +%s.%N)" >>"$T/live.lags"; echo >>"$T/live.lags"
	"$P" record --format=ptbpf -o "$T/l.log" -- sh -c "$cmd" "$T/log.t" 2>"$T/log.err" ||
		{ cat "$T/log.err"; fail "ptbpf record -o failed"; }
	lag "$T/log.t" "$(date +%s.%N)" >>"$T/log.lags"; echo >>"$T/log.lags"
done
st=$(best "$T/st.lags")
live=$(best "$T/live.lags")
logl=$(best "$T/log.lags")
echo "lag after the command's end (best of 3): strace $st s, ptbpf live $live s, ptbpf -o $logl s"
# a fixed wait after the exit took 0.2 s; the margin is for a loaded machine
# and the early-user-event uprobe, whose close waits for the kernel (RCU)
for v in "$live" "$logl"; do
	awk -v v="$v" -v s="$st" 'BEGIN { exit !(v <= s + 0.15) }' ||
		fail "ptbpf took $v s after the command ended (strace: $st s)"
done

# stopping at once loses nothing: the exit of the command is the last of
# its events, live and in the log
grep -q '+++ exited with 0 +++' "$T/live.txt" || fail "live: no exit line"
"$P" show --format=ptbpf "$T/l.log" >"$T/show.txt" || fail "ptbpf show failed"
grep -q '+++ exited with 0 +++' "$T/show.txt" || fail "log: no exit line"
for f in "$T/live.txt" "$T/show.txt"; do
	grep -q ' exit_group(0) *= ?' "$f" || fail "$f: no exit_group"
done
echo "PASS"
