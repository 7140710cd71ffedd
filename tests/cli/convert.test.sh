#!/bin/sh
# ptbpf convert: CTF read back by babeltrace2, Chrome JSON with well-nested slices.
# usage: sh cli_convert.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/convert_check.py
[ -x "$PROGS/cli_target" ] || fail "no $PROGS/cli_target"
command -v babeltrace2 >/dev/null || skip "babeltrace2 not installed"

"$P" record -f -o "$T/t.log" -- "$PROGS/cli_target" "$T/conv.tmp" 0 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "record failed"; }
"$P" show --json "$T/t.log" >"$T/t.jsonl" || fail "show --json failed"

# CTF
"$P" convert "$T/t.log" --to ctf -o "$T/ctf" || fail "convert --to ctf failed"
[ -f "$T/ctf/metadata" ] && [ -f "$T/ctf/stream_0" ] || fail "CTF files missing"
head -1 "$T/ctf/metadata" | grep -q '/\* CTF 1.8 \*/' || fail "metadata header"
babeltrace2 "$T/ctf" >"$T/bt.txt" 2>"$T/bt.err" || { cat "$T/bt.err"; fail "babeltrace2 cannot read the CTF trace"; }
python3 "$CHECK" ctf_matches_json "$T/t.jsonl" "$T/bt.txt" || exit 1

# A non-empty directory is not overwritten without --force
mkdir "$T/old" && echo keep >"$T/old/metadata"
"$P" convert "$T/t.log" --to ctf -o "$T/old" 2>"$T/old.err" && fail "non-empty CTF dir overwritten"
grep -q "exists and is not empty" "$T/old.err" || { cat "$T/old.err"; fail "no message for a non-empty dir"; }
[ "$(cat "$T/old/metadata")" = keep ] && [ ! -e "$T/old/stream_0" ] || fail "refused, yet the dir changed"
"$P" convert "$T/t.log" --to ctf -o "$T/ctf" 2>/dev/null &&
	fail "the earlier CTF output overwritten"
"$P" convert "$T/t.log" --to ctf -o "$T/old" --force || fail "--force refused"
babeltrace2 "$T/old" >"$T/bt2.txt" 2>&1 && cmp -s "$T/bt.txt" "$T/bt2.txt" ||
	fail "--force: not the same trace as a fresh directory"
mkdir "$T/empty"
"$P" convert "$T/t.log" --to ctf -o "$T/empty" || fail "an empty directory refused"

# Chrome trace-event JSON
"$P" convert "$T/t.log" --to chrome -o "$T/t.json" || fail "convert --to chrome failed"
python3 "$CHECK" chrome_nested "$T/t.json" || exit 1

# Lost events become CTF discarded-event counts
"$P" record -o "$T/lost.log" --buffer-size 64K --policy until-full -- \
	dd if=/dev/zero of=/dev/null bs=1 count=20000 2>"$T/lost.err" || fail "record (lost)"
lost=$(sed -n 's/.* events written to .* bytes), \([0-9]*\) lost.*/\1/p' "$T/lost.err")
[ "${lost:-0}" -gt 0 ] || { cat "$T/lost.err"; fail "no events lost with a 64K stream"; }
"$P" convert "$T/lost.log" --to ctf -o "$T/lostctf" || fail "convert (lost)"
babeltrace2 "$T/lostctf" >"$T/lost.txt" 2>&1 || fail "babeltrace2 (lost)"
grep -q "Tracer discarded [0-9]* event" "$T/lost.txt" || fail "no discarded events in CTF"
echo PASS
