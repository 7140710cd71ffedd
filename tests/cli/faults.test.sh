#!/bin/sh
# ptbpf record when things go wrong: a full disk under -o (an error, the
# events that reached the log, a non-zero exit, the log readable), a
# record that cannot start (the -o file left as it was, or not created),
# and a summary whose figures add up (printed or written, and lost).
# usage: sh cli_faults.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
command -v unshare >/dev/null || skip "no unshare (util-linux)"

# -o on a filesystem that fills: exit 1, the error on stderr, and the
# summary's count is what the log holds
cat >"$T/full.sh" <<EOS
set -u
mkdir -p "$T/mnt"
mount -t tmpfs -o size=1m tmpfs "$T/mnt" || exit 99
"$P" record -o "$T/mnt/full.log" -- dd if=/dev/zero of=/dev/null bs=1 count=400000 \\
	2>"$T/full.err"
echo \$? >"$T/full.rc"
"$P" show --json "$T/mnt/full.log" >"$T/full.jsonl" 2>"$T/show.err"
echo \$? >"$T/show.rc"
EOS
unshare -m --propagation private sh "$T/full.sh"
[ $? = 99 ] && skip "cannot mount a tmpfs"
[ "$(cat "$T/full.rc")" = 1 ] || { cat "$T/full.err"; fail "disk full: exit $(cat "$T/full.rc")"; }
grep -q "writing $T/mnt/full.log: No space left on device" "$T/full.err" ||
	{ cat "$T/full.err"; fail "disk full: no error message"; }
[ "$(cat "$T/show.rc")" = 0 ] || { cat "$T/show.err"; fail "disk full: the log is not readable"; }
written=$(sed -n 's/.* \([0-9]*\) events written to .*/\1/p' "$T/full.err")
inlog=$(grep -c '"type":"event"' "$T/full.jsonl")
[ -n "$written" ] && [ "$written" -gt 1000 ] && [ "$written" = "$inlog" ] ||
	{ cat "$T/full.err"; fail "disk full: summary says $written events, the log holds $inlog"; }
echo "ok: disk full: exit 1, $written events in the log, as the summary says"

# a record that cannot start: a new -o file is not left behind, an
# existing one keeps its bytes
"$PROGS/cli_target" "$T/x.tmp" 0 10 & gone=$!
wait $gone
"$P" record -o "$T/new.log" -p $gone 2>"$T/new.err"
rc=$?
[ $rc = 5 ] || { cat "$T/new.err"; fail "record -p of a gone pid: exit $rc"; }
[ -e "$T/new.log" ] && fail "record that could not start left $T/new.log"
printf 'precious data\n' >"$T/old.log"
"$P" record -o "$T/old.log" -p $gone 2>/dev/null
[ "$(cat "$T/old.log")" = "precious data" ] || fail "record that could not start changed old.log"
"$P" record -o "$T/old.log" -e no_such_event -- true 2>/dev/null
[ "$(cat "$T/old.log")" = "precious data" ] || fail "record with a bad -e changed old.log"
echo "ok: a record that cannot start leaves the -o file as it was"

# live: the summary counts what was printed (JSON: one event a line)
"$P" record --json --output-text "$T/live.jsonl" -- dd if=/dev/zero of=/dev/null bs=1 count=2000 2>"$T/live.err" ||
	{ cat "$T/live.err"; fail "record --json"; }
printed=$(sed -n 's/.* \([0-9]*\) events printed, \([0-9]*\) lost.*/\1/p' "$T/live.err")
lines=$(grep -c '"type":"event"' "$T/live.jsonl")
[ "$printed" = "$lines" ] || { cat "$T/live.err"; fail "live: summary says $printed printed, $lines were"; }
echo "ok: live: $printed events printed, as the summary says"
echo PASS
