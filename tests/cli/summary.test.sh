#!/bin/sh
# ptbpf record -c -f against the real strace -c -f: for programs of several
# kinds, the calls and errors of every syscall within 2% of strace's, every
# syscall strace counts present (and none strace does not), and the table in
# strace's layout; -C prints the events and the table, -c -o writes the log
# and its table is show -c's; show --summary=thread against perf trace -s.
# usage: sh cli_summary.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/summary_check.py
SRC=${2:?source dir}
command -v strace >/dev/null || skip "strace not installed"
[ -x "$PROGS/summary_calls" ] || fail "no $PROGS/summary_calls"
SC=$PROGS/summary_calls
echo "summary_calls data" >"$T/data.txt"
mkdir -p "$T/tree/sub"
cp "$SRC/README.md" "$SRC/docs/"*.md "$T/tree/"
cp "$SRC/cli/"*.c "$T/tree/sub/"

# Does this ptbpf record the exit of rt_sigreturn? Where it does not, the
# summary counts the call when its thread begins the next, without knowing
# whether it "failed" (the value it restores): its errors are not compared.
sigret_exit=0
"$P" record --format=ptbpf --output-text "$T/sr.txt" -e rt_sigreturn -- "$PROGS/summary_calls" "$T/data.txt" >/dev/null 2>&1 ||
	fail "record -e rt_sigreturn"
grep -q 'rt_sigreturn(.*) = ' "$T/sr.txt" && sigret_exit=1

# compare NAME COMMAND...: strace -c -f and ptbpf record -c -f of COMMAND
# (stdout to /dev/null, stderr to a file for both: the same fds)
compare() {
	name=$1
	shift
	strace -c -f -o "$T/$name.strace" -- "$@" >/dev/null 2>"$T/$name.serr" ||
		fail "$name: strace -c -f failed"
	"$P" record --format=ptbpf -c -f -- "$@" >/dev/null 2>"$T/$name.ptbpf" ||
		{ cat "$T/$name.ptbpf"; fail "$name: ptbpf record -c -f failed"; }
	python3 "$CHECK" tables_agree "$name" "$T/$name.strace" "$T/$name.ptbpf" "$sigret_exit" || exit 1
}

# a directory listing (statx, xattrs that fail), an archiver, an
# interpreter, shell pipelines (the sleeps make every wait block: the
# same calls under both tracers), and a program of ours whose calls fail
# in many ways, with signals and a child
compare ls ls -la /usr/bin
compare tar tar cf "$T/tree.tar" -C "$T" tree
# the interpreter itself, not a wrapper script in PATH (pyenv's shims)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
# one hash seed for both runs: the interpreter's allocations (its munmaps) follow it
compare python env PYTHONHASHSEED=0 "$py" "$CHECK" python_workload "$T/tree"
compare pipe1 sh -c '(sleep 0.1; echo hello) | (sleep 0.2; cat) >/dev/null'
compare pipe2 sh -c 'sleep 0.1 | cat '"$T/data.txt"' | (sleep 0.2; wc -l) >/dev/null'
# shellcheck disable=SC2086
compare calls $SC "$T/data.txt"

# -c prints no event (summary_calls prints nothing itself)
"$P" record --format=ptbpf --output-text "$T/c.out" -c -- "$PROGS/summary_calls" "$T/data.txt" >/dev/null 2>&1 || fail "record -c"
[ -s "$T/c.out" ] && fail "-c printed events"

# -C: the events, then the table (on stderr)
"$P" record --format=ptbpf --output-text "$T/C.out" -C -- "$PROGS/summary_calls" "$T/data.txt" >/dev/null 2>"$T/C.err" ||
	fail "record -C"
grep -q 'mkdir("/", 0755) = -1 EEXIST' "$T/C.out" || fail "-C: no events printed"
grep -q '^% time     seconds  usecs/call     calls    errors syscall$' "$T/C.err" ||
	fail "-C: no table"
grep -E -q '^ *[0-9.]+ +[0-9.]+ +[0-9]+ +20 +20 mkdir$' "$T/C.err" || fail "-C: mkdir row"

# -c -o: the log is written, the table made from it, as show -c makes it
"$P" record --format=ptbpf -c -f -o "$T/c.log" -- "$PROGS/summary_calls" "$T/data.txt" >"$T/co.out" \
	2>"$T/co.err" || fail "record -c -o"
"$P" show --format=ptbpf "$T/c.log" | grep -q 'mkdir("/", 0755)' || fail "-c -o: the log lacks the events"
"$P" show --format=ptbpf -c "$T/c.log" >"$T/show.c" || fail "show -c"
[ -s "$T/show.c" ] || fail "show -c printed nothing"
# the rows (calls, errors, name), the times aside
cut -c32- "$T/show.c" >"$T/show.rows"
sed -n '/^% time/,/ total$/p' "$T/co.err" | cut -c32- >"$T/co.rows"
cmp -s "$T/show.rows" "$T/co.rows" || { diff "$T/co.rows" "$T/show.rows"; fail "-c -o vs show -c"; }
grep -q " events written to $T/c.log" "$T/co.err" || fail "-c -o: closing line"

# show -c -S calls: strace's order, most calls first
"$P" show --format=ptbpf -c -S calls "$T/c.log" | awk 'NR > 2 && !/^-/ && !/total$/ { print $4 }' >"$T/calls"
sort -n -r -s "$T/calls" | cmp -s - "$T/calls" || fail "-S calls: not sorted by calls"

# --summary=thread: perf trace -s's table per thread, the same calls and
# errors as perf counts for the same program (where perf trace runs). perf
# trace drops a few syscalls of a run (here 1302 to 1305 of the 1305 statx
# of ls -la /usr/bin): its counts are the most of three runs, and may be 1
# or 2% below ptbpf's.
"$P" record --format=ptbpf -o "$T/t.log" -- ls -la /usr/bin >/dev/null 2>&1 || fail "record ls"
"$P" show --format=ptbpf --summary=thread "$T/t.log" >"$T/th.txt" || fail "show --summary=thread"
grep -q '^ Summary of events:$' "$T/th.txt" || fail "--summary=thread: title"
grep -E -q '^ ls \([0-9]+\), [0-9]+ events, 100\.0%' "$T/th.txt" || fail "--summary=thread: thread line"
grep -q '^   syscall            calls  errors  total       min       avg       max       stddev$' \
	"$T/th.txt" || fail "--summary=thread: header"
if perf trace -s -- true >/dev/null 2>"$T/perf0.txt" && grep -q 'Summary of events' "$T/perf0.txt"; then
	for i in 1 2 3; do
		perf trace -s -- ls -la /usr/bin >/dev/null 2>"$T/perf$i.txt" || fail "perf trace -s"
	done
	python3 "$CHECK" threads_agree "$T/th.txt" "$T/perf1.txt" "$T/perf2.txt" "$T/perf3.txt" || exit 1
else
	echo "perf trace -s does not run here: the layout alone was checked"
fi
"$P" show --format=ptbpf --summary=process "$T/c.log" >"$T/pr.txt" || fail "show --summary=process"
[ "$(grep -c -E '^ summary_calls \([0-9]+\), [0-9]+ events' "$T/pr.txt")" = 2 ] ||
	{ cat "$T/pr.txt"; fail "--summary=process: one line per process"; }
echo PASS
