#!/bin/sh
# ptbpf record's defaults, beside strace: what it records without -e.
# usage: sh cli_record_defaults.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/cli_common.sh"
command -v strace >/dev/null || skip "strace not installed"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

# a threaded program that blocks and wakes: many context switches
cat >"$T/threads.py" <<'PY'
import threading, time
def work():
    for _ in range(20):
        time.sleep(0.001)
ts = [threading.Thread(target=work) for _ in range(4)]
for t in ts: t.start()
for t in ts: t.join()
PY

# 1. no scheduler events by default, as strace shows none: every line is a
# syscall, a signal, a process event or a stream marker; the processes'
# exits are those strace prints (cli_target forks a child that exits 3)
"$P" record -f -- python3 "$T/threads.py" >"$T/def.txt" 2>"$T/def.err" ||
	{ cat "$T/def.err"; fail "record failed"; }
grep -q -E ' (sched_switch_|sched_wakeup)' "$T/def.txt" && fail "scheduler events recorded by default"
bad=$(grep -v -E '^[0-9.]+ [0-9]+/[0-9]+ ([a-z_0-9]+\(|<\.\.\. |--- |\+\+\+ |=== |proc_|thread_exit|signal_|user )' "$T/def.txt")
[ -z "$bad" ] || { echo "$bad" | head; fail "lines of other kinds recorded by default"; }
[ "$(grep -c -E 'clone3?\(' "$T/def.txt")" -ge 4 ] || fail "the threads' clones missing"
strace -f -o "$T/strace.txt" "$PROGS/cli_target" "$T/t.tmp" 0 || fail "strace run failed"
"$P" record -f -- "$PROGS/cli_target" "$T/t.tmp" 0 >"$T/ct.txt" 2>/dev/null || fail "record failed"
s=$(grep -E '^[0-9]+ +\+\+\+ ' "$T/strace.txt" | sed 's/^[0-9]* *//' | sort)
p=$(grep -E '\+\+\+ ' "$T/ct.txt" | sed 's/^[0-9.]* [0-9/]* //' | sort)
[ -n "$s" ] && [ "$s" = "$p" ] || fail "exits: ptbpf '$p', strace '$s'"
grep -q -E ' (sched_switch_|sched_wakeup)' "$T/ct.txt" && fail "scheduler events recorded by default"

# 2. on request: -e all, -e sched; a leading exclusion starts from the default
"$P" record -f -e all -- python3 "$T/threads.py" >"$T/all.txt" 2>/dev/null || fail "record -e all"
grep -q -E ' sched_switch_(out|in) ' "$T/all.txt" || fail "-e all: no scheduler events"
"$P" record -f -e sched -- python3 "$T/threads.py" >"$T/sched.txt" 2>/dev/null || fail "record -e sched"
grep -q -E ' sched_switch_(out|in) ' "$T/sched.txt" || fail "-e sched: no scheduler events"
"$P" record -f -e '!read' -- python3 "$T/threads.py" >"$T/nr.txt" 2>/dev/null || fail "record -e !read"
grep -q -E ' (sched_switch_|sched_wakeup)' "$T/nr.txt" && fail "-e '!read' added scheduler events"
grep -q -E ' read\(' "$T/nr.txt" && fail "-e '!read' recorded read"
grep -q -E ' openat\(' "$T/nr.txt" || fail "-e '!read' lost the other syscalls"
echo PASS
