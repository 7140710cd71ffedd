#!/bin/sh
# --histogram: record -c --histogram (the kernel's counts) prints, per
# syscall, bpftrace's hist() whose counts add up to the -c table's calls of
# the same run; show --histogram LOG prints it from a log's events, adding
# up to show -c's calls; --histogram=SYSCALLS only those; a bad name is an
# error before anything runs.
# usage: sh histogram.test.sh BUILD_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/histogram_check.py
echo "histogram data" >"$T/data.txt"

"$P" record -c -f --histogram -- "$PROGS/summary_calls" "$T/data.txt" >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "record -c --histogram"; }
python3 "$CHECK" agree "$T/rec.err" || exit 1

"$P" record -o "$T/t.log" -f -- "$PROGS/summary_calls" "$T/data.txt" >/dev/null 2>&1 || fail "record -o"
"$P" show -c --histogram "$T/t.log" >/dev/null 2>"$T/show.err" ||
	{ cat "$T/show.err"; fail "show -c --histogram"; }
# show prints the table on stdout or stderr: take both
"$P" show -c --histogram "$T/t.log" >"$T/show.out" 2>&1 || fail "show -c --histogram"
python3 "$CHECK" agree "$T/show.out" || exit 1

"$P" record -c --histogram=openat,read -- "$PROGS/summary_calls" "$T/data.txt" >/dev/null 2>"$T/sel.err" ||
	fail "record --histogram=openat,read"
python3 "$CHECK" only "$T/sel.err" openat read || exit 1

"$P" record -c --histogram=openat,nosuchcall -- touch "$T/ran" >/dev/null 2>"$T/bad.err" &&
	fail "--histogram=nosuchcall succeeded"
grep -q "unknown syscall 'nosuchcall'" "$T/bad.err" || { cat "$T/bad.err"; fail "--histogram: no reason"; }
[ -e "$T/ran" ] && fail "--histogram=nosuchcall: the command ran"
echo PASS
