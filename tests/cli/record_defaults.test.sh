#!/bin/sh
# ptbpf record's defaults, beside strace: what it records without -e.
# usage: sh cli_record_defaults.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace not installed"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

# a threaded program that blocks and wakes: many context switches
THREADS="python3 $(dirname "$0")/record_defaults_check.py threads"
# 1. no scheduler events by default, as strace shows none: every line is a
# syscall, a signal, a process event or a stream marker; the processes'
# exits are those strace prints (cli_target forks a child that exits 3)
"$P" record --format=ptbpf -f --output-text "$T/def.txt" -- $THREADS 2>"$T/def.err" ||
	{ cat "$T/def.err"; fail "record failed"; }
grep -q -E ' (sched_switch_|sched_wakeup)' "$T/def.txt" && fail "scheduler events recorded by default"
bad=$(grep -v -E '^[0-9.]+ [0-9]+/[0-9]+ ([a-z_0-9]+\(|<\.\.\. |--- |\+\+\+ |=== |proc_|thread_exit|signal_|user )' "$T/def.txt")
[ -z "$bad" ] || { echo "$bad" | head; fail "lines of other kinds recorded by default"; }
[ "$(grep -c -E 'clone3?\(' "$T/def.txt")" -ge 4 ] || fail "the threads' clones missing"
strace -f -o "$T/strace.txt" "$PROGS/cli_target" "$T/t.tmp" 0 || fail "strace run failed"
"$P" record --format=ptbpf -f --output-text "$T/ct.txt" -- "$PROGS/cli_target" "$T/t.tmp" 0 2>/dev/null || fail "record failed"
s=$(grep -E '^[0-9]+ +\+\+\+ ' "$T/strace.txt" | sed 's/^[0-9]* *//' | sort)
p=$(grep -E '\+\+\+ ' "$T/ct.txt" | sed 's/^[0-9.]* [0-9/]* //' | sort)
[ -n "$s" ] && [ "$s" = "$p" ] || fail "exits: ptbpf '$p', strace '$s'"
grep -q -E ' (sched_switch_|sched_wakeup)' "$T/ct.txt" && fail "scheduler events recorded by default"

# 2. on request: -e all, -e sched; a leading exclusion starts from the default
"$P" record --format=ptbpf -f -e all --output-text "$T/all.txt" -- $THREADS 2>/dev/null || fail "record -e all"
grep -q -E ' sched_switch_(out|in) ' "$T/all.txt" || fail "-e all: no scheduler events"
"$P" record --format=ptbpf -f -e sched --output-text "$T/sched.txt" -- $THREADS 2>/dev/null || fail "record -e sched"
grep -q -E ' sched_switch_(out|in) ' "$T/sched.txt" || fail "-e sched: no scheduler events"
"$P" record --format=ptbpf -f -e '!read' --output-text "$T/nr.txt" -- $THREADS 2>/dev/null || fail "record -e !read"
grep -q -E ' (sched_switch_|sched_wakeup)' "$T/nr.txt" && fail "-e '!read' added scheduler events"
grep -q -E ' read\(' "$T/nr.txt" && fail "-e '!read' recorded read"
grep -q -E ' openat\(' "$T/nr.txt" || fail "-e '!read' lost the other syscalls"

# 3. the events go to stderr, as strace's: the command's stdout is its own,
# byte for byte, in a file and in a pipe; 2>&1 | grep works as with strace
cmd='echo out1; ls /; echo err1 >&2; cat /etc/hostname'
sh -c "$cmd" >"$T/plain.out" 2>"$T/plain.err" || fail "the command fails untraced"
strace -f -o /dev/null sh -c "$cmd" >"$T/s.out" 2>/dev/null || fail "strace run"
cmp -s "$T/plain.out" "$T/s.out" || fail "strace changed the stdout (test broken)"
"$P" record --format=ptbpf -f -- sh -c "$cmd" >"$T/p.out" 2>"$T/p.err" || fail "record failed"
cmp -s "$T/plain.out" "$T/p.out" || { diff "$T/plain.out" "$T/p.out" | head; fail "the command's stdout is not its own"; }
grep -q 'execve("/usr/bin/sh"\|execve("/bin/sh"' "$T/p.err" || fail "no trace on stderr"
grep -q '^err1$' "$T/p.err" || fail "the command's stderr lost"
grep -q 'events printed' "$T/p.err" || fail "no summary"
[ "$("$P" record --format=ptbpf -f -- sh -c "$cmd" 2>/dev/null | md5sum)" = "$(sh -c "$cmd" 2>/dev/null | md5sum)" ] ||
	fail "a pipe of the command's stdout gets other bytes"
s=$(strace -f sh -c "$cmd" 2>&1 >/dev/null | grep -c 'openat(AT_FDCWD, "/etc/hostname"')
p=$("$P" record --format=ptbpf -f -- sh -c "$cmd" 2>&1 >/dev/null | grep -c 'openat(AT_FDCWD, "/etc/hostname"')
[ "$s" = 1 ] && [ "$p" = 1 ] || fail "2>&1 | grep: strace $s lines, ptbpf $p"

# 4. --output-text FILE: the events in FILE, stderr only the command's and
# the summary; - is stdout; --json goes where the text goes
"$P" record --format=ptbpf -f --output-text "$T/t.txt" -- sh -c "$cmd" >"$T/t.out" 2>"$T/t.err" || fail "--output-text"
cmp -s "$T/plain.out" "$T/t.out" || fail "--output-text: stdout changed"
grep -q 'openat(AT_FDCWD, "/etc/hostname"' "$T/t.txt" || fail "--output-text: no events in the file"
grep -v -e '^err1$' -e 'events printed' "$T/t.err" | grep -q . && fail "--output-text: events on stderr"
"$P" record --format=ptbpf --output-text - -- true 2>/dev/null | grep -q 'exit_group(0) = ?' || fail "--output-text -"
"$P" record --format=ptbpf --json -- true 2>&1 >/dev/null | python3 "$(dirname "$0")/record_defaults_check.py" json_stream ||
	fail "--json: not on stderr"
"$P" record --format=ptbpf --output-text "$T/nodir/x" -- true 2>"$T/nd.err" && fail "--output-text into a missing dir"
grep -q "cannot create" "$T/nd.err" || fail "--output-text: no message"
"$P" record --format=ptbpf -o "$T/x.log" --output-text "$T/x.txt" -- true 2>/dev/null
[ $? = 2 ] || fail "-o with --output-text accepted"
# 5. the command's environment is the caller's, as under strace (no
# variable of ptbpf's own); --early-user-events adds PTBPF_UEV_PENDING=1
env | sort >"$T/env.plain"
strace -f -o /dev/null env | sort >"$T/env.strace"
"$P" record --format=ptbpf -- env 2>/dev/null | sort >"$T/env.ptbpf"
cmp -s "$T/env.plain" "$T/env.strace" || fail "strace changed the environment (test broken)"
cmp -s "$T/env.plain" "$T/env.ptbpf" ||
	{ diff "$T/env.plain" "$T/env.ptbpf"; fail "the command's environment is not the caller's"; }
"$P" record --format=ptbpf --early-user-events -- env 2>/dev/null | sort >"$T/env.early"
[ "$(comm -13 "$T/env.plain" "$T/env.early")" = PTBPF_UEV_PENDING=1 ] ||
	fail "--early-user-events: not PTBPF_UEV_PENDING=1 alone added"
"$P" record --format=ptbpf --early-user-events -p $$ 2>/dev/null
[ $? = 2 ] || fail "--early-user-events with -p accepted"

# the stream's size: 4M, 128M with -k's copied stacks (not with fp, nor
# over --buffer-size)
size() {
	"$P" record --format=ptbpf "$@" -o "$T/size.log" -- true 2>/dev/null || fail "record $*"
	"$P" show --format=ptbpf --json "$T/size.log" | head -1 | sed 's/.*"stream_size":\([0-9]*\).*/\1/'
}
[ "$(size)" = 4194304 ] || fail "default stream size $(size)"
[ "$(size -k)" = 134217728 ] || fail "-k stream size $(size -k)"
[ "$(size -k --call-graph=fp)" = 4194304 ] || fail "-k fp stream size"
[ "$(size -k --buffer-size=8M)" = 8388608 ] || fail "-k --buffer-size ignored"
echo PASS
