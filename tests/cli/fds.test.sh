#!/bin/sh
# -y and -yy beside strace -f -y / -yy: the fds each call names, with their
# paths (files, the working directory, pipes, sockets with their endpoints,
# anon inodes, a memfd, a device), must be strace's, thread by thread
# (tests/cli/strace_cmp.py --fds: inode numbers and ports renumbered), live and
# from a log (show -y), for tests/progs/fd_calls and cat /etc/hostname;
# and for a process that runs already (-p: its fds from the snapshot).
# usage: sh cli_fds.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace not installed"
CMP="python3 $(dirname "$0")/strace_cmp.py --fds"
# the calls ptbpf decodes the fd arguments of (pipe2's and socketpair's
# arrays are not decoded: their fds are compared where they are used)
CALLS='^(openat|read|write|close|dup2|fcntl|socket|bind|listen|connect|accept|eventfd2|memfd_create|newfstatat|pread64|lseek|ftruncate|fchdir) '

# built without a sanitizer (tests/CMakeLists.txt): a runtime's own calls
# (ASan reads /proc/self/maps a varying number of times) are not the test's
CALLS_CMD="$PROGS/fd_calls"

# compare NAME WHAT
compare() {
	$CMP "$T/$1.strace" "$T/$1.ptbpf" "$CALLS" >"$T/$1.cmp" ||
		{ cat "$T/$1.cmp"; fail "$1: $2 differ from strace's"; }
	echo "ok: $1: $2 as strace's"
}

for y in -y -yy; do
	rm -f "$T/sock"
	strace -f $y -o "$T/calls$y.strace" $CALLS_CMD "$T" >/dev/null 2>&1 ||
		fail "fd_calls failed under strace"
	rm -f "$T/sock"
	"$P" record -f $y --output-text "$T/calls$y.ptbpf" -- $CALLS_CMD "$T" \
		>/dev/null 2>"$T/err" || { cat "$T/err"; fail "record $y fd_calls failed"; }
	compare "calls$y" "record $y's fds"
	# from a log: the same
	rm -f "$T/sock"
	"$P" record -f $y -o "$T/calls.log" -- $CALLS_CMD "$T" >/dev/null 2>"$T/err" ||
		{ cat "$T/err"; fail "record $y -o failed"; }
	"$P" show $y "$T/calls.log" >"$T/calls-show$y.ptbpf" 2>"$T/err" ||
		fail "show $y failed"
	cp "$T/calls$y.strace" "$T/calls-show$y.strace"
	compare "calls-show$y" "show $y's fds (from the log)"
done

# what -yy adds is there (not only equal: present)
grep -q 'connect([0-9]*<TCP:\[[0-9]*\]>' "$T/calls-yy.ptbpf" || fail "-yy: no unconnected TCP socket"
grep -q 'write([0-9]*<TCP:\[127.0.0.1:[0-9]*->127.0.0.1:[0-9]*\]>' "$T/calls-yy.ptbpf" ||
	fail "-yy: no TCP endpoints"
grep -q ', 10</dev/null<char 1:3>>) = 10</etc/hostname>' "$T/calls-yy.ptbpf" || fail "-yy: no device number"
grep -q 'write([0-9]*<pipe:\[[0-9]*\]>' "$T/calls-y.ptbpf" || fail "-y: no pipe"
grep -q 'openat(AT_FDCWD</etc>, "hostname", O_RDONLY) = [0-9]*</etc/hostname>' "$T/calls-y.ptbpf" ||
	fail "-y: no chdir'ed AT_FDCWD or result path"

# without -y: no paths, and no fd_info line, from a log recorded with -y
"$P" show "$T/calls.log" >"$T/plain" 2>"$T/err" || fail "show failed"
! grep -q '</etc/hostname>\|fd_info' "$T/plain" || fail "show without -y printed fd paths"

# cat: the fds it inherits (from the snapshot at start) and opens
# (its stdout a pipe)
strace -f -y -o "$T/cat.strace" cat /etc/hostname 2>/dev/null </dev/null | cat >/dev/null
"$P" record -f -y --output-text "$T/cat.ptbpf" -- cat /etc/hostname 2>/dev/null </dev/null |
	cat >/dev/null
compare cat "cat's fds"
grep -q 'write(1<pipe:\[[0-9]*\]>, ' "$T/cat.ptbpf" || fail "cat: fd 1 (inherited) has no path"

# -p: a process that runs already: its fds (7, and a socket from its
# parent) and working directory from /proc at the start, copied at its
# fork, kept over its child's exec
mkfifo "$T/go"
(cd /etc && exec sh -c 'exec 7<hostname; read x <"$0"; cat <&7 >/dev/null' "$T/go") &
S=$!
trap 'kill $S 2>/dev/null; rm -rf "$T"' EXIT
sleep 0.3
timeout 20 "$P" record -f -yy -p "$S" --output-text "$T/pid.ptbpf" 2>"$T/pid.err" &
R=$!
i=0
while [ $i -lt 50 ] && ! grep -q posix_trace_start "$T/pid.ptbpf" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
echo go >"$T/go"
wait $R || { cat "$T/pid.err"; fail "record -p -y failed"; }
grep -q "dup2(7</etc/hostname>, 0" "$T/pid.ptbpf" &&
	grep -q "read(0</etc/hostname>" "$T/pid.ptbpf" ||
	{ cat "$T/pid.ptbpf"; fail "-p: fd 7 of the snapshot not followed to the child"; }
grep -q "openat(AT_FDCWD</etc>, \"/etc/ld.so.cache\"" "$T/pid.ptbpf" || fail "-p: no working directory"

echo PASS
