#!/bin/sh
# One description of each event (<ptbpf/evfields.h>): on a recorded log, the
# JSON (show --json, the Chrome export's args) and the CTF (its metadata,
# as babeltrace2 reads it) carry every field of each non-syscall event
# present, with the same values.
# usage: sh cli_evfields.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
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
python3 - "$T/ctf/metadata" "$T/bt.txt" "$T/t.jsonl" "$T/t.chrome.json" <<'PY' || exit 1
import json, re, sys
meta = open(sys.argv[1]).read()
# the fields of each event, as the metadata (written by the table's walk) declares them
fields = {}
for name, body in re.findall(r'event \{\n\tname = "([^"]+)";.*?fields := struct \{\n(.*?)\t\};', meta, re.S):
    fields[name] = re.findall(r'\t\t\S+ (\w+)(?:\[[^\]]*\])?;', body)
want = {"proc_fork", "proc_exec", "proc_exit", "thread_exit", "signal_generate",
        "signal_deliver", "sched_switch_out", "sched_switch_in", "sched_wakeup",
        "fd_info", "user_stack", "proc_map"}
missing = want - set(fields)
assert not missing, ("events not recorded", missing)
for n in want:
    assert fields[n] != ["len", "data"], (n, "left generic in CTF")
assert "flags" in fields["signal_deliver"] and "stime" in fields["signal_deliver"], fields["signal_deliver"]

# babeltrace2 shows every declared field of each event
bt = {}
for l in open(sys.argv[2]):
    m = re.match(r"^\[[^]]*\] \(\S+\) (\S+): \{ pid = -?\d+, tid = -?\d+ \}, \{ (.*) \}$", l.rstrip("\n"))
    if not m or m.group(1) not in want:
        continue
    vals = dict(re.findall(r'(?:^|, )(\w+) = (-?\d+|0x[0-9A-F]+|"[^"]*")', m.group(2)))
    for f in fields[m.group(1)]:
        assert f + " = " in m.group(2), (m.group(1), f, l)
    bt.setdefault(m.group(1), []).append(vals)

def key_of(obj, f):
    # JSON names a payload's pid and tid after its event (exec_pid): the record has its own
    for k in obj:
        if k == f or k.endswith("_" + f):
            return k
    return None

def agrees(e, name, vals):
    for f in fields[name]:
        j = key_of(e, f)
        v, b = e[j], vals.get(f)
        if isinstance(v, bool) or b is None or f in ("reason", "kind"):
            continue
        if isinstance(v, int):
            if v != (int(b, 16) if b.startswith("0x") else int(b)):
                return False
        elif isinstance(v, str) and b.startswith('"') and v and v != b[1:-1]:
            # (babeltrace2 2.0 prints an empty string as the last non-empty
            # one of its field: the CTF stream holds "", an empty string)
            return False
    return True

def check(evs, what):
    n = 0
    for e in evs:
        name = e["name"]
        if name not in want:
            continue
        for f in fields[name]:
            if f.endswith("_len") and f[:-4] in fields[name]:
                continue  # a CTF sequence's count: JSON's arrays have their own
            assert key_of(e, f), (what, name, "no field", f, e)
        # the same values as one of babeltrace2's events of that name
        assert any(agrees(e, name, v) for v in bt[name]), (what, name, e)
        n += 1
    return n

jl = [json.loads(l) for l in open(sys.argv[3])]
n1 = check([e for e in jl if e.get("type") == "event"], "json")
ch = json.load(open(sys.argv[4]))
ch = ch["traceEvents"] if isinstance(ch, dict) else ch
chev = []
for e in ch:
    if e.get("ph") == "i" and "args" in e:
        a = dict(e["args"]); a["name"] = e["name"]; chev.append(a)
n2 = check(chev, "chrome")
assert n1 and n2, (n1, n2)
print("ok: %d JSON and %d Chrome events carry their CTF fields, %d kinds of event" % (n1, n2, len(bt)))
PY
