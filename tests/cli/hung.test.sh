#!/bin/sh
# A hung process shows where it hangs (#54): live, a call that has not
# returned within a short delay is printed <unfinished ...> (strace prints
# an entry the moment it is made), its exit later <... NAME resumed>; on
# Ctrl-C the calls still pending are printed: ended by the SIGINT the
# command gets, or "<... NAME resumed> <detached ...>" when the process
# goes on (-p, a command that ignores SIGINT, --duration), as strace's
# on detach.
# Measured: the entry line's arrival on ptbpf's stderr (a pipe) after the
# time the program noted just before the call (hung_check.py).
# usage: sh hung.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/hung_check.py
H=$PROGS/hang_calls
[ -x "$H" ] || fail "no $H"
command -v strace >/dev/null || skip "strace not installed"
cleanup() {
	for p in ${L:-} ${R:-}; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

# sleep 3: its clock_nanosleep shows long before it returns; Ctrl-C kills it
python3 "$CHECK" live killed "$T/t" clock_nanosleep \
	"$P" record --stats -- sh -c 'echo "$(date +%s.%N) $$" >"$1"; exec sleep 3' sh "$T/t" ||
	fail "sleep 3"
# a read of an empty pipe, a futex wait: blocked for good
python3 "$CHECK" live killed "$T/t" read "$P" record --stats -- "$H" read "$T/t" || fail "read"
python3 "$CHECK" live killed "$T/t" futex "$P" record --stats -- "$H" futex "$T/t" || fail "futex"
# a command that ignores SIGINT: ptbpf stops tracing, it goes on
python3 "$CHECK" live detached "$T/t" futex "$P" record --stats -- "$H" -i futex "$T/t" ||
	fail "futex, SIGINT ignored"
# --duration ends the recording: the command goes on untraced
python3 "$CHECK" live duration "$T/t" read "$P" record --stats --duration "$(tscale 1.5)" -- "$H" read "$T/t" ||
	fail "--duration"
kill "$(cut -d' ' -f2 "$T/t")" || fail "the command died at the end of --duration"

# -p of a process that blocks in a futex wait of 2 s again and again: each
# new wait shows at once; Ctrl-C detaches, as strace -p's
"$H" loop "$T/l" &
L=$!
i=0
while [ ! -s "$T/l" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
python3 "$CHECK" strace_p "$T/l" "$L" || fail "strace -p (the reference)"
python3 "$CHECK" live detached "$T/l" "getppid>futex" "$P" record --stats -p "$L" || fail "-p"
kill -0 "$L" || fail "the process traced with -p died"
# -p of a process blocked before: its call is shown at once, as strace -p
# shows it when it attaches (from /proc: its arguments, no string)
"$H" read "$T/r" &
R=$!
i=0
while [ ! -s "$T/r" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
python3 "$CHECK" live detached "+$T/r" read "$P" record --stats -p "$R" || fail "-p, blocked before"
kill "$R" || fail "the process traced with -p died"
echo PASS
