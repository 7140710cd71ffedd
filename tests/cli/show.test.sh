#!/bin/sh
# ptbpf record -o + show prints the same events as live recording; show --json
# and convert --to jsonl are valid JSON Lines; a log read from a pipe or a
# FIFO is shown alike, garbage and read errors are an invalid log (exit 7).
# usage: sh cli_show.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/show_check.py
[ -x "$PROGS/cli_target" ] || fail "no $PROGS/cli_target"

# Scheduling and signal events depend on timing: leave them out. A sanitizer
# runtime's startup and leak check are not deterministic: compared from the
# program's first openat on, without the leak check.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
EV='!sched,!signals'
"$P" record --format=ptbpf -e "$EV" --output-text "$T/live.txt" -- "$PROGS/cli_target" "$T/show.tmp" 4 2>"$T/live.err"
[ $? = 4 ] || { cat "$T/live.err"; fail "live: exit status"; }
"$P" record --format=ptbpf -e "$EV" --name clitest --buffer-size 8M -o "$T/t.log" -- "$PROGS/cli_target" "$T/show.tmp" 4 >"$T/rec.out" 2>"$T/rec.err"
[ $? = 4 ] || { cat "$T/rec.err"; fail "record -o: exit status"; }
[ -s "$T/rec.out" ] && fail "record -o printed on stdout"
[ -s "$T/t.log" ] || fail "no log written"
grep -q "events \(printed\|written to\)" "$T/rec.err" || fail "no summary"
"$P" show --format=ptbpf "$T/t.log" >"$T/show.txt" || fail "show failed"

# Timestamps, pids and addresses differ between runs, and so do a sanitizer
# runtime's reads of /proc/self/maps (their count, sizes and bytes): those
# reads are left out, and a read's buffer too.
norm() {
	sed -E -e 's/^[0-9]+\.[0-9]+ [0-9]+\/[0-9]+ //' -e 's/0x[0-9a-f]+/ADDR/g' \
		-e 's/^read\(([0-9]+), "([^"\\]|\\.)*"(\.\.\.)?, /read(\1, BUF, /' "$1" |
		awk '/^open(at)?\(.*"\/proc\/self\/maps"/ { maps = $NF }
			maps != "" && index($0, "read(" maps ", ") == 1 { next }
			index($0, "close(" maps ")") == 1 { maps = "" }
			{ print }' |
		sed -E -e 's/\b[0-9]{2,}\b/N/g' | grep -v '^=== posix_trace_' |
		sed -n '/show\.tmp/,$p'
}
norm "$T/live.txt" >"$T/live.n"
norm "$T/show.txt" >"$T/show.n"
[ "$(wc -l <"$T/live.n")" -gt 10 ] || fail "too few live lines"
diff -u "$T/live.n" "$T/show.n" || fail "show differs from live"
grep -q 'openat(AT_FDCWD, ".*show.tmp", O_RDWR|O_CREAT|O_TRUNC|O_CLOEXEC, 0600) = [0-9]*$' "$T/show.txt" ||
	fail "decoded openat line missing"
grep -q '= -1 ENOENT (No such file or directory)' "$T/show.txt" || fail "errno line missing"
grep -q '+++ exited with 4 +++' "$T/show.txt" || fail "exit line missing"

# JSON Lines: show --json and convert --to jsonl
"$P" show --format=ptbpf --json "$T/t.log" >"$T/show.jsonl" || fail "show --json failed"
"$P" convert "$T/t.log" --to jsonl -o "$T/conv.jsonl" || fail "convert --to jsonl failed"
cmp -s "$T/show.jsonl" "$T/conv.jsonl" || fail "convert --to jsonl differs from show --json"
python3 "$CHECK" json_records "$T/show.jsonl" || exit 1
# -t: absolute timestamps (seconds since the epoch, within a minute of now)
now=$(date +%s)
"$P" show --format=ptbpf -t "$T/t.log" | head -1 | awk -v now="$now" '{ d = $1 - now; exit !(d > -60 && d < 60) }' ||
	fail "show -t: not absolute timestamps"

# A log that is not a regular file is read all the same: standard input as
# '-' (a pipe and a file), /dev/stdin on a pipe, a FIFO.
cat "$T/t.log" | "$P" show --format=ptbpf - >"$T/pipe.txt" || fail "show - on a pipe failed"
cmp -s "$T/show.txt" "$T/pipe.txt" || fail "show - on a pipe differs from show LOG"
"$P" show --format=ptbpf - <"$T/t.log" >"$T/pipe.txt" || fail "show - on a file failed"
cmp -s "$T/show.txt" "$T/pipe.txt" || fail "show - on a file differs from show LOG"
cat "$T/t.log" | "$P" show --format=ptbpf /dev/stdin >"$T/pipe.txt" || fail "show /dev/stdin on a pipe failed"
cmp -s "$T/show.txt" "$T/pipe.txt" || fail "show /dev/stdin on a pipe differs from show LOG"
mkfifo "$T/fifo"
cat "$T/t.log" >"$T/fifo" &
"$P" show --format=ptbpf "$T/fifo" >"$T/pipe.txt" || fail "show FIFO failed"
wait
cmp -s "$T/show.txt" "$T/pipe.txt" || fail "show FIFO differs from show LOG"
cat "$T/t.log" | "$P" show --format=ptbpf --json - >"$T/pipe.jsonl" || fail "show --json - failed"
cmp -s "$T/show.jsonl" "$T/pipe.jsonl" || fail "show --json - differs from show --json LOG"
cat "$T/t.log" | "$P" convert - --to jsonl -o "$T/pipe.jsonl" || fail "convert - failed"
cmp -s "$T/show.jsonl" "$T/pipe.jsonl" || fail "convert - differs from show --json LOG"

badlog() { # DESCRIPTION MESSAGE COMMAND...: exit 7 (invalid log) with MESSAGE
	what=$1
	msg=$2
	shift 2
	st=0
	"$@" >"$T/bad.out" 2>"$T/bad.err" || st=$?
	[ $st = 7 ] || { cat "$T/bad.err"; fail "$what: exit $st, expected 7"; }
	grep -q "$msg" "$T/bad.err" || { cat "$T/bad.err"; fail "$what: no '$msg'"; }
	[ -s "$T/bad.out" ] && fail "$what: printed on stdout"
	echo "ok: $what: $(cat "$T/bad.err")"
}
# garbage: short, and longer than the probe after which ptbpf stops reading
printf 'not a log\n' >"$T/garbage"
badlog "show - on a pipe of garbage" "standard input: not a valid POSIX trace log" \
	sh -c 'cat "$1" | "$2" show -' sh "$T/garbage" "$P"
badlog "show - on an endless pipe of garbage" "standard input: not a valid POSIX trace log" \
	sh -c 'yes | "$1" show -' sh "$P"
badlog "convert - on a pipe of garbage" "standard input: not a valid POSIX trace log" \
	sh -c 'cat "$1" | "$2" convert - --to jsonl -o -' sh "$T/garbage" "$P"
badlog "show /dev/zero" "/dev/zero: not a valid POSIX trace log" "$P" show --format=ptbpf /dev/zero
badlog "show a directory" "cannot open log $T: Is a directory" "$P" show --format=ptbpf "$T"
# a read error: standard input an unconnected socket (ENOTCONN)
badlog "show - on an unreadable socket" "cannot read log standard input: " \
	python3 "$CHECK" show_from_socket "$P"
echo PASS
