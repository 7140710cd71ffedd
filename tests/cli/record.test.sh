#!/bin/sh
# ptbpf record: the syscall sequence of a known program, compared with strace.
# usage: sh cli_record.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/record_check.py
[ -x "$PROGS/cli_target" ] || fail "no $PROGS/cli_target"
command -v strace >/dev/null || skip "strace not installed"
# With a sanitizer build the target is instrumented: LeakSanitizer cannot run
# under strace (ptrace), so it is off for both runs.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

# 1. exit status of the command is ptbpf's, output is parsable
"$P" record --format=ptbpf -f --output-text "$T/ptbpf.txt" -- "$PROGS/cli_target" "$T/unique-$$.tmp" 5 2>"$T/ptbpf.err"
rc=$?
[ $rc = 5 ] || { cat "$T/ptbpf.err"; fail "ptbpf exit status $rc, expected 5"; }
grep -q "events \(printed\|written to\)" "$T/ptbpf.err" || fail "no summary on stderr"
grep -q "unique-$$.tmp" "$T/ptbpf.txt" || fail "path not in the output"

# 2. the same with strace
strace -f -qq -o "$T/strace.txt" "$PROGS/cli_target" "$T/unique-$$.tmp" 5
[ $? = 5 ] || fail "strace run: unexpected exit status"

# 3. same syscalls, same order per thread, same results. Before the program's
# own code (its first openat of the unique path), only the syscall names are
# compared: a sanitizer runtime reads /proc/self/maps there, whose size
# changes from run to run; with a sanitizer runtime (whose number of reads
# varies too) the startup is left out.
python3 "$CHECK" same_syscalls "$T/ptbpf.txt" "$T/strace.txt" "$PROGS/cli_target" || exit 1
# 4. the first recorded syscall of the command is its execve
first=$(grep -v -e '===' -e sched_ "$T/ptbpf.txt" | head -1)
case $first in
*execve\(*) ;;
*) fail "first event is not the execve: $first" ;;
esac

# 5. ptbpf's own threads run at the caller's nice value unless --nice sets
# theirs, the command at the caller's always: read while the command sleeps (it runs
# once tracing does, so its line says the stream and its threads exist)
nice_of() { awk '{ sub(/^.*\) /, ""); print $17 }' "$1"; }
check_nice() { # expected ptbpf threads, expected command, ptbpf options...
	want_p=$1 want_c=$2
	shift 2
	rm -f "$T/nice.txt"
	"$P" record --format=ptbpf "$@" -- sh -c 'echo "CHILDNICE $(cut -d" " -f19 /proc/$$/stat)"; sleep 1' \
		>"$T/nice.txt" 2>/dev/null &
	rp=$!
	i=0
	until grep -q CHILDNICE "$T/nice.txt" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 200 ] || fail "the command did not start within 10 s"
		sleep 0.05
	done
	for t in /proc/$rp/task/*; do
		n=$(nice_of "$t/stat")
		[ "$n" = "$want_p" ] || fail "ptbpf thread ${t##*/} at nice $n, expected $want_p"
	done
	[ "$(ls /proc/$rp/task | wc -l)" -ge 2 ] || fail "no library thread seen"
	wait $rp
	c=$(sed -n 's/.*CHILDNICE \(-*[0-9]*\).*/\1/p' "$T/nice.txt")
	[ "$c" = "$want_c" ] || fail "command at nice '$c', expected $want_c"
}
# relative to the nice value this test runs at (a niced shell runs it niced)
base=$(nice_of /proc/$$/stat)
check_nice "$base" "$base"
other=$((base < 19 ? base + 1 : base - 1))
check_nice $other "$base" --nice=$other
check_nice 3 "$base" --nice=3
"$P" record --format=ptbpf --nice=40 -- true 2>/dev/null && fail "--nice=40 accepted"

# 6. in a pipe, the lines come out while events keep coming (a syscall every
# 10 ms for 3 s, never the 50 ms pause that flushes), not at the end
rm -f "$T/done"
"$P" record --format=ptbpf -e clock_nanosleep -- python3 "$CHECK" sleep_then_touch "$T/done" 2>&1 |
	python3 "$CHECK" first_sleep_early "$T/done" >"$T/pipe.txt"
[ "$(cat "$T/pipe.txt")" = early ] ||
	fail "piped lines held back until the command ended: '$(cat "$T/pipe.txt")'"
echo PASS
