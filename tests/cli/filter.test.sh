#!/bin/sh
# ptbpf record -e: only the selected events are recorded (posix_trace_set_filter).
# usage: sh cli_filter.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/filter_check.py
[ -x "$PROGS/cli_target" ] || fail "no $PROGS/cli_target"

# only openat and close (entries and exits)
"$P" record --format=ptbpf -e openat,close --output-text "$T/a.txt" -- "$PROGS/cli_target" "$T/f.tmp" 2>"$T/a.err" ||
	{ cat "$T/a.err"; fail "record -e openat,close"; }
grep -q 'openat(AT_FDCWD, ".*f.tmp"' "$T/a.txt" || fail "openat missing"
grep -q -E 'close\([0-9]+\) = 0' "$T/a.txt" || fail "close missing"
# as strace -e trace=openat,close: how the process ended too, and its signals
# (with their signal_generate lines, as without -e)
bad=$(grep -v -E '^[0-9.]+ [0-9]+/[0-9]+ ((openat|close)\(|--- SIG|\+\+\+ |signal_generate )|=== posix_trace_' "$T/a.txt")
[ -z "$bad" ] || { echo "$bad" | head; fail "events other than openat/close recorded"; }
grep -q -E ' \+\+\+ exited with 0 \+\+\+$' "$T/a.txt" || fail "exit line missing"
# an event other than a syscall named: exactly what is named
"$P" record --format=ptbpf -e openat,proc_exec --output-text "$T/a2.txt" -- "$PROGS/cli_target" "$T/f.tmp" 2>/dev/null ||
	fail "record -e openat,proc_exec"
grep -q -E 'exited with|SIG' "$T/a2.txt" && fail "-e openat,proc_exec: exit or signal recorded"
# and !signals takes the signals away
"$P" record --format=ptbpf -e 'kill,!signals' --output-text "$T/a3.txt" -- sh -c 'kill -USR1 $$' 2>/dev/null
grep -q -E ' kill\([0-9]+, SIGUSR1\) = 0' "$T/a3.txt" || fail "-e kill,!signals: kill missing"
grep -q -E -- '--- SIGUSR1|signal_generate' "$T/a3.txt" && fail "-e kill,!signals: signal recorded"
grep -q '+++ killed by SIGUSR1 +++' "$T/a3.txt" || fail "-e kill,!signals: exit missing"

# the same through a log, with event names checked in JSON
"$P" record --format=ptbpf -e openat,close -o "$T/a.log" -- "$PROGS/cli_target" "$T/f.tmp" 2>/dev/null ||
	fail "record -o -e"
"$P" show --format=ptbpf --json "$T/a.log" >"$T/a.jsonl" || fail "show --json"
python3 "$CHECK" only_selected "$T/a.jsonl" || exit 1

# a group minus names
"$P" record --format=ptbpf -e 'syscalls,!read,!mmap' -- "$PROGS/cli_target" "$T/f.tmp" 2>"$T/b.txt" ||
	fail "record -e syscalls,!read,!mmap"
grep -q -E ' write\([0-9]+, ' "$T/b.txt" || fail "write missing"
grep -q -E ' (read|mmap)\(' "$T/b.txt" && fail "read or mmap recorded"
grep -q -E ' (sched_switch_|sched_wakeup|proc_exec|proc_fork)' "$T/b.txt" &&
	fail "non-syscall events recorded"
grep -q 'exited with' "$T/b.txt" || fail "syscalls,!read,!mmap: exit line missing, strace has it"

# proc group only
"$P" record --format=ptbpf -f -e proc --output-text "$T/c.txt" -- "$PROGS/cli_target" "$T/f.tmp" 2>/dev/null || fail "record -e proc"
grep -q 'proc_fork process' "$T/c.txt" || fail "proc_fork missing"
grep -q '+++ exited with 3 +++' "$T/c.txt" || fail "child exit missing (-f)"
grep -q -E '[a-z0-9_]+\(.*\) = ' "$T/c.txt" && fail "syscalls recorded with -e proc"

# an unknown name is a usage error
"$P" record --format=ptbpf -e 'nosuchevent' -- /bin/true >/dev/null 2>"$T/d.err"
[ $? = 2 ] || fail "unknown event: exit status"
grep -q "unknown event" "$T/d.err" || fail "unknown event: message"
echo PASS
