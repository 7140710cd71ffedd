#!/bin/sh
# A 'ptbpf record -o' killed with SIGKILL leaves a log that reads, with the
# events of the traced program up to about 100 ms before the kill: the
# program notes the time of each of its getppid calls beside the trace. An
# idle program does not make the tracer flush every 100 ms.
# usage: sh cli_record_kill.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/record_kill_check.py

# a getppid every 10 ms, each noted (its time) in the file $T/calls first
"$P" record --format=ptbpf -o "$T/k.log" -- python3 "$CHECK" getppid_calls "$T/calls" 2>"$T/rec.err" &
rec=$!
# killed once the program has made about 80 calls (0.8 s of them: a
# sanitizer build or a loaded machine starts the tracer slowly), at a time
# that has nothing to do with the tracer's flushes
i=0
while [ $i -lt 100 ] && [ "$(cat "$T/calls" 2>/dev/null | wc -l)" -lt 81 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 $rec
killed=$(date +%s.%N)
wait $rec 2>/dev/null
kill "$(head -1 "$T/calls")" 2>/dev/null
"$P" show --format=ptbpf -t "$T/k.log" >"$T/show.txt" 2>"$T/show.err" ||
	{ cat "$T/show.err"; fail "the log of the killed tracer does not read"; }
got=$(grep -c ' getppid() = ' "$T/show.txt")
# the calls made until 150 ms before the kill must all be in the log
want=$(awk -v k="$killed" 'NR > 1 && $1 <= k - 0.15 { n++ } END { print n + 0 }' "$T/calls")
echo "getppid calls made until 150 ms before the kill: $want, in the log: $got"
[ "$want" -ge 50 ] || fail "the program made only $want calls (too slow to start?)"
[ "$got" -ge "$want" ] || fail "the log lost the calls of the last $(awk -v w="$want" -v g="$got" 'BEGIN { print (w - g) * 0.01 + 0.15 }') s or so"

# flushing that often costs nothing while the program is idle: a flush's
# own FLUSH_STOP marker does not make another one due
"$P" record --format=ptbpf -o "$T/idle.log" -- sleep 1 2>"$T/idle.err" || { cat "$T/idle.err"; fail "record sleep"; }
"$P" show --format=ptbpf "$T/idle.log" >"$T/idle.txt" || fail "show idle.log"
n=$(grep -c '=== posix_trace_flush_start ===' "$T/idle.txt")
[ "$n" -le 2 ] || fail "$n flushes while the program slept 1 s"
echo "PASS"
