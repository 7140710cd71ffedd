#!/bin/sh
# ptbpf record --output-text FILE that cannot be written (issue #52): as -o,
# the error named with the file, what reached it (its lines and bytes, as the
# file has them) and exit status 1. /dev/full, a full 64 KiB tmpfs, a
# directory and a file in a missing directory.
# usage: sh cli_textout.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
command -v mount >/dev/null || skip "no mount"
trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT

# expect_fail NAME PATTERN: the last run exited 1, its stderr matches
expect_fail() {
	[ "$rc" = 1 ] || { cat "$T/err"; fail "$1: exit status $rc, expected 1"; }
	grep -q -e "$2" "$T/err" || { cat "$T/err"; fail "$1: no '$2' on stderr"; }
	echo "ok: $1: $(grep -e "$2" "$T/err" | head -1)"
}

# /dev/full: every write fails, nothing reaches it
"$P" record --output-text=/dev/full -- ls / >/dev/null 2>"$T/err"
rc=$?
expect_fail /dev/full "writing /dev/full: No space left on device"
grep -q "ptbpf: 0 lines written to /dev/full (0 bytes)" "$T/err" ||
	{ cat "$T/err"; fail "/dev/full: not 0 lines written"; }

# a full disk: the count said is the lines in the file
mkdir "$T/full"
mount -t tmpfs -o size=64k tmpfs "$T/full" || skip "cannot mount a tmpfs"
"$P" record --output-text="$T/full/out.txt" -- \
	dd if=/dev/zero of=/dev/null bs=1 count=20000 >/dev/null 2>"$T/err"
rc=$?
expect_fail "full tmpfs" "writing $T/full/out.txt: No space left on device"
lines=$(wc -l <"$T/full/out.txt")
bytes=$(wc -c <"$T/full/out.txt")
[ "$lines" -gt 100 ] || fail "full tmpfs: only $lines lines in the file"
grep -q "ptbpf: $lines lines written to $T/full/out.txt ($bytes bytes)" "$T/err" ||
	{ cat "$T/err"; fail "full tmpfs: the file has $lines lines, $bytes bytes"; }
echo "ok: full tmpfs: $lines lines, $bytes bytes said and in the file"
umount "$T/full"

# a file that cannot be created: said before anything runs
mkdir "$T/dir"
"$P" record --output-text="$T/dir" -- touch "$T/ran" >/dev/null 2>"$T/err"
rc=$?
expect_fail directory "cannot create $T/dir: Is a directory"
"$P" record --output-text="$T/none/out.txt" -- touch "$T/ran" >/dev/null 2>"$T/err"
rc=$?
expect_fail "missing directory" "cannot create $T/none/out.txt: No such file or directory"
[ ! -e "$T/ran" ] || fail "the command ran though its output could not be created"

# still fine: a writable file gets every line, exit status the command's
"$P" record --output-text="$T/ok.txt" -- sh -c 'exit 3' >/dev/null 2>"$T/err"
rc=$?
[ $rc = 3 ] || { cat "$T/err"; fail "writable file: exit status $rc, expected 3"; }
grep -q "+++ exited with 3 +++" "$T/ok.txt" || fail "writable file: no exit line"
echo PASS
