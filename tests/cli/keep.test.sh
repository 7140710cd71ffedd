#!/bin/sh
# ptbpf record keeps its loaded programs for the next record (--keep): a
# ptbpf-keep process holds them after the end, the next record of the same
# options takes them (the holder is gone) and records as a new load does,
# probes included; other options load their own; --keep 0 starts no holder.
# usage: sh cli_keep.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
PA=$PROGS/probe_alloc
[ "$(id -u)" = 0 ] || skip "kept programs are root's"
[ -x "$B/ptbpf-keep" ] || fail "no $B/ptbpf-keep"
command -v strace >/dev/null || skip "strace not installed"

# record under strace (which lets go at execs): the key of the holder it
# started in $T/key, if any (a sanitized build's leak check cannot run
# under ptrace: off)
record_traced() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -b execve -qq -e trace=execve -e signal=none -o "$T/spawn.txt" \
		"$P" record "$@" -- /bin/true >/dev/null 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; fail "record $*"; }
	sed -n 's/^[0-9]* *execve("[^"]*ptbpf-keep", \["ptbpf-keep", "\([0-9a-f]*\)".*/\1/p' \
		"$T/spawn.txt" >"$T/key"
}

# running, not a zombie (an init that reaps nothing keeps those)
alive() { [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" != Z ] && [ -e "/proc/$1" ]; }

# a record leaves a holder; --keep 0 none
record_traced --keep 0 -o "$T/z.log"
[ -s "$T/key" ] && fail "--keep 0 started ptbpf-keep"
record_traced -o "$T/a.log"
key=$(cat "$T/key")
[ -n "$key" ] || fail "no ptbpf-keep after a record"
sleep 0.2
# the helper runs on its own, after a fork; one holder a key (the socket's name)
h=$(pgrep -f "^ptbpf-keep $key ") || fail "ptbpf-keep not running"

# other options: a set of their own, the holder left alone
"$P" record -s 77 -o "$T/s.log" -- /bin/true 2>/dev/null || fail "record -s 77"
alive "$h" || fail "a record of other options took the set"

# the same options: taken, and a probe and the syscalls recorded with it
[ -x "$PA" ] || fail "no $PA"
case $(uname -r) in
[1-4].* | 5.[0-9].* | 5.1[0-4].*) ev="write,exit_group" ;; # no probes before 5.15
*) ev="write,exit_group,uprobe:$PA:probe_target" ;;
esac
"$P" record -o "$T/b.log" -e "$ev" -- "$PA" 2 - >/dev/null 2>"$T/b.err" ||
	{ cat "$T/b.err"; fail "record after a kept set"; }
sleep 0.2
alive "$h" && fail "the kept set was not taken"
"$P" show "$T/b.log" >"$T/b.txt" || fail "show"
grep -q ' exit_group(0) *= ?' "$T/b.txt" || { cat "$T/b.txt"; fail "no exit_group"; }
grep -q ' write(1, ' "$T/b.txt" || { cat "$T/b.txt"; fail "no write"; }
case $ev in
*uprobe*) grep -q ' uprobe probe_target(' "$T/b.txt" || { cat "$T/b.txt"; fail "no uprobe event"; } ;;
esac
echo PASS
