#!/bin/sh
# A small trace makes a small log: 'ptbpf record -o' of a short command
# writes tens of KB, not the type area's 400 KB, and the log reads back
# with the syscalls strace sees for the same command.
# usage: sh cli_log_small.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace not installed"
true_bin=$(command -v true)
case "$true_bin" in /*) ;; *) true_bin=/bin/true ;; esac

"$P" record -o "$T/t.log" -- "$true_bin" 2>"$T/rec.err" || { cat "$T/rec.err"; fail "record"; }
size=$(wc -c <"$T/t.log")
echo "log of $true_bin: $size bytes"
[ "$size" -lt 131072 ] || fail "a log of $size bytes for a few hundred events"
"$P" show "$T/t.log" >"$T/show.txt" || fail "ptbpf show of the small log"
grep -q '+++ exited with 0 +++' "$T/show.txt" || fail "no exit in the log"

# the syscall names, in order, as strace gives them (the same environment:
# ptbpf record gives the command PTBPF_UEV_PENDING=1)
PTBPF_UEV_PENDING=1 strace -f -qq -o "$T/strace.txt" "$true_bin" || fail "strace run"
sed -E 's/^[0-9]+ +//; s/\(.*//' "$T/strace.txt" | grep -v '^+++' >"$T/a.txt"
sed -E 's/^[0-9.]+ [0-9]+\/[0-9]+ //' "$T/show.txt" | grep -E '^[a-z_0-9]+\(' |
	sed 's/(.*//' >"$T/b.txt"
diff "$T/a.txt" "$T/b.txt" || fail "the log's syscalls differ from strace's"
echo "PASS"
