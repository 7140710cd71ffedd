#!/bin/sh
# ptbpf record -p on running processes, and SIGINT/SIGTERM mid-trace leave a valid log.
# usage: sh cli_pid.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
[ -x "$PROGS/cli_target" ] || fail "no $PROGS/cli_target"
cleanup() {
	for p in ${T1:-} ${T2:-} ${T3:-}; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

# -p PID,PID: live; ptbpf exits (0) when both exit
"$PROGS/cli_target" "$T/p1.tmp" 7 3000 & T1=$!
"$PROGS/cli_target" "$T/p2.tmp" 8 3500 & T2=$!
sleep 0.3
timeout 20 "$P" record --format=ptbpf -p "$T1,$T2" --output-text "$T/p.txt" 2>"$T/p.err"
rc=$?
[ $rc = 0 ] || { cat "$T/p.err"; fail "record -p: exit status $rc"; }
grep -q "^[0-9.]* $T1/$T1 clock_nanosleep(" "$T/p.txt" || fail "no nanosleep of $T1"
grep -q "^[0-9.]* $T2/$T2 clock_nanosleep(" "$T/p.txt" || fail "no nanosleep of $T2"
grep -q "^[0-9.]* $T1/$T1 +++ exited with 7 +++" "$T/p.txt" || fail "no exit of $T1"
grep -q "^[0-9.]* $T2/$T2 +++ exited with 8 +++" "$T/p.txt" || fail "no exit of $T2"
grep -q "events \(printed\|written to\)" "$T/p.err" || fail "no summary"
wait $T1 $T2 2>/dev/null
T1= T2=

# SIGINT mid-trace (-p, -o): ptbpf stops at once, the log is complete, the target runs on
"$PROGS/cli_target" "$T/p3.tmp" 0 20000 & T3=$!
sleep 0.3
"$P" record --format=ptbpf -o "$T/int.log" -p "$T3" 2>"$T/int.err" &
R=$!
sleep 1
kill -INT $R
i=0
while kill -0 $R 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 $R 2>/dev/null && { kill -9 $R; fail "ptbpf did not stop on SIGINT"; }
wait $R
rc=$?
[ $rc = 0 ] || { cat "$T/int.err"; fail "SIGINT: exit status $rc"; }
grep -q "events \(printed\|written to\)" "$T/int.err" || fail "SIGINT: no summary"
kill -0 $T3 || fail "the traced process died with ptbpf"
"$P" show --format=ptbpf "$T/int.log" >"$T/int.txt" || fail "show of the interrupted log failed"
n=$(grep -c "nanosleep(" "$T/int.txt")
[ "$n" -gt 10 ] || fail "interrupted log has $n nanosleep calls"
tail -1 "$T/int.txt" | grep -q "posix_trace_stop" || fail "log does not end with the stop event"
kill $T3
T3=

# SIGTERM on a command: forwarded; ptbpf exits like the command (128+15)
"$P" record --format=ptbpf -o "$T/term.log" -- "$PROGS/cli_target" "$T/p4.tmp" 0 20000 2>"$T/term.err" &
R=$!
sleep 1
kill -TERM $R
wait $R
rc=$?
[ $rc = 143 ] || { cat "$T/term.err"; fail "SIGTERM: exit status $rc, expected 143"; }
"$P" show --format=ptbpf "$T/term.log" >"$T/term.txt" || fail "show of the SIGTERM log failed"
grep -q "nanosleep(" "$T/term.txt" || fail "SIGTERM log has no nanosleep"
echo PASS
