#!/bin/sh
# ptbpf record's default sizes hold a syscall flood: two threads making
# getppid() calls flat out on a 2-CPU machine, live and with -o, three runs
# each: nothing lost, and every call the program made is there.
# usage: sh cli_record_flood.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/cli_common.sh"
[ -x "$PROGS/flood2" ] || fail "no $PROGS/flood2"

# calls per thread; a sanitizer build prints several times slower than the
# program floods: a flood of a size it can hold
n=1000000
grep -q "PTBPF_SANITIZE:BOOL=ON" "$B/CMakeCache.txt" 2>/dev/null && n=20000

lost_of() { sed -n 's/.* \([0-9][0-9]*\) lost, .*/\1/p' "$1"; }
for run in 1 2 3; do
	# PTBPF_VERBOSE: the summary says where events were lost, if any.
	# Live, ptbpf's printer shares the 2 CPUs with the flood's 2 threads:
	# at the caller's nice (the default) it falls behind, --nice -10 is
	# what a user gives it for a flood
	PTBPF_VERBOSE=1 "$P" record --nice=-10 --output-text "$T/live.txt" -- "$PROGS/flood2" $n \
		>/dev/null 2>"$T/live.err" ||
		{ cat "$T/live.err"; fail "ptbpf record (live) failed"; }
	# a call is one line, or two when the threads interleave: "getppid(
	# <unfinished ...>", then "<... getppid resumed>"; its first counts
	got=$(grep -cE '^[0-9.]* [0-9]*/[0-9]* getppid\((\) | <unfinished)' "$T/live.txt")
	echo "live run $run: $got of $((2 * n)) calls, $(lost_of "$T/live.err") lost"
	[ "$(lost_of "$T/live.err")" = 0 ] ||
		fail "live: events lost: $(cat "$T/live.err"; grep -n posix_trace_overflow "$T/live.txt")"
	[ "$got" = $((2 * n)) ] || fail "live: $got getppid calls printed, $((2 * n)) made"

	rm -f "$T/f.log"
	PTBPF_VERBOSE=1 "$P" record -o "$T/f.log" -- "$PROGS/flood2" $n 2>"$T/log.err" ||
		{ cat "$T/log.err"; fail "ptbpf record -o failed"; }
	echo "-o run $run: $(lost_of "$T/log.err") lost"
	[ "$(lost_of "$T/log.err")" = 0 ] || fail "-o: events lost: $(cat "$T/log.err")"
done
# the calls of the last log, counted by 'ptbpf show'
got=$("$P" show "$T/f.log" | grep -cE '^[0-9.]* [0-9]*/[0-9]* getppid\((\) | <unfinished)')
[ "$got" = $((2 * n)) ] || fail "-o: $got getppid calls in the log, $((2 * n)) made"
echo "PASS"
