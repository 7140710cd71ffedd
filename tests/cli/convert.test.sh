#!/bin/sh
# ptbpf convert: CTF read back by babeltrace2, Chrome JSON with well-nested slices.
# usage: sh cli_convert.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
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
python3 - "$T/t.jsonl" "$T/bt.txt" <<'PY' || exit 1
import json, re, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
# babeltrace2 merges the CTF streams in time order; the log may hold a late
# event (one older than those before it, with its own timestamp)
ev = sorted((e for e in ev if e["type"] == "event"), key=lambda e: e["ts_ns"])
bt = open(sys.argv[2]).read().splitlines()
assert len(bt) == len(ev), ("event count", len(bt), len(ev))
checked = 0
for e, l in zip(ev, bt):
    m = re.match(r"^\[(\d\d):(\d\d):(\d\d)\.(\d{9})\] \(\S+\) (\S+): \{ pid = (-?\d+), tid = (-?\d+) \}", l)
    assert m, l
    assert m.group(5) == e["name"] + "" or m.group(5) == e["name"] + ":", (m.group(5), e["name"])
    assert int(m.group(6)) == e["pid"] and int(m.group(7)) == e["tid"], (l, e)
    # nanoseconds of the timestamp (babeltrace prints local time of day)
    assert int(m.group(4)) == e["ts_ns"] % 1000000000, (l, e["ts_ns"])
    if e["name"] == "sys_exit_openat":
        assert "ret = %d" % e["ret"] in l, (l, e)
    if e["name"] == "sys_enter_openat" and e["paths"]:
        assert 'path0 = "%s"' % e["paths"][0]["path"] in l, (l, e)
    # the decoded arguments, each by its name, as show --json has them
    # (an exit's: what it brought; getdents' count is JSON's alone)
    if e["name"].startswith("sys_e"):
        assert "decoded = {" in l, l
        for n, v in e.get("decoded", {}).items():
            if isinstance(v, dict):
                continue
            # babeltrace2 escapes the string's quotes and backslashes
            want = '%s = "%s"' % (n, str(v).replace("\\", "\\\\").replace('"', '\\"'))
            assert want in l, (want, l)
            checked += 1
        if e["name"].startswith("sys_exit_") and "errno" in e:
            assert 'ret = "-1 %s (' % e["errno"] in l, l
print("ok: %d CTF events match, %d decoded arguments" % (len(bt), checked))
assert checked > 20, checked
PY

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
python3 - "$T/t.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
assert len(x) > 20, len(x)
assert any(e["name"] == "openat" and e["args"]["ret"].isdigit() for e in x)
assert any(e["ph"] == "M" and e["name"] == "process_name" and e["args"]["name"] == "cli_target" for e in ev)
assert any(e["ph"] == "i" for e in ev)
per = {}
for e in x:
    assert e["dur"] >= 0, e
    per.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
for k, sl in per.items():
    sl.sort()
    stack = []
    for b, en in sl:
        while stack and stack[-1] <= b:
            stack.pop()
        assert not stack or en <= stack[-1], ("slices overlap on", k, b, en, stack)
        stack.append(en)
assert len(per) >= 2, per.keys()  # the parent and the forked child
print("ok: %d slices on %d threads, well nested" % (len(x), len(per)))
PY

# Lost events become CTF discarded-event counts
"$P" record -o "$T/lost.log" --buffer-size 64K --policy until-full -- \
	dd if=/dev/zero of=/dev/null bs=1 count=20000 2>"$T/lost.err" || fail "record (lost)"
lost=$(sed -n 's/.* events written to .* bytes), \([0-9]*\) lost.*/\1/p' "$T/lost.err")
[ "${lost:-0}" -gt 0 ] || { cat "$T/lost.err"; fail "no events lost with a 64K stream"; }
"$P" convert "$T/lost.log" --to ctf -o "$T/lostctf" || fail "convert (lost)"
babeltrace2 "$T/lostctf" >"$T/lost.txt" 2>&1 || fail "babeltrace2 (lost)"
grep -q "Tracer discarded [0-9]* event" "$T/lost.txt" || fail "no discarded events in CTF"
echo PASS
