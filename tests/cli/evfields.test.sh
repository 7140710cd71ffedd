#!/bin/sh
# One description of each event (<ptbpf/evfields.h>): on a recorded log, the
# JSON (show --json, the Chrome export's args) and the CTF (its metadata,
# as babeltrace2 reads it) carry every field of each non-syscall event
# present, with the same values.
# usage: sh cli_evfields.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/evfields_check.py
command -v babeltrace2 >/dev/null || skip "babeltrace2 not installed"

# processes, a thread-less fork, signals, sched, fds (-y) and stacks (-k)
"$P" record -o "$T/t.log" -e all -y -k --stack=openat -- sh -c \
	'cat /etc/hostname >/dev/null; sleep 0.01 & wait; kill -USR1 $$ 2>/dev/null; exit 0' \
	2>"$T/rec.err" || true
[ -s "$T/t.log" ] || { cat "$T/rec.err"; fail "record wrote no log"; }
"$P" show --json "$T/t.log" >"$T/t.jsonl" || fail "show --json failed"
"$P" convert "$T/t.log" --to chrome -o "$T/t.chrome.json" || fail "convert --to chrome failed"
"$P" convert "$T/t.log" --to ctf -o "$T/ctf" || fail "convert --to ctf failed"
babeltrace2 "$T/ctf" >"$T/bt.txt" 2>"$T/bt.err" || { cat "$T/bt.err"; fail "babeltrace2 cannot read the CTF trace"; }
python3 "$CHECK" fields_agree "$T/ctf/metadata" "$T/bt.txt" "$T/t.jsonl" "$T/t.chrome.json" || exit 1
