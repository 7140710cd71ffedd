#!/usr/bin/env python3
# The check of evfields.test.sh: usage
#   evfields_check.py fields_agree CTF_METADATA BT.TXT T.JSONL T.CHROME.JSON

import json
import re
import sys


def fields_agree(metadata, bt_txt, jsonl, chrome):
    """Each non-syscall event's CTF fields are in its JSON and Chrome records, with babeltrace2's values."""
    meta = open(metadata).read()
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
    for l in open(bt_txt):
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

    jl = [json.loads(l) for l in open(jsonl)]
    n1 = check([e for e in jl if e.get("type") == "event"], "json")
    ch = json.load(open(chrome))
    ch = ch["traceEvents"] if isinstance(ch, dict) else ch
    chev = []
    for e in ch:
        if e.get("ph") == "i" and "args" in e:
            a = dict(e["args"]); a["name"] = e["name"]; chev.append(a)
    n2 = check(chev, "chrome")
    assert n1 and n2, (n1, n2)
    print("ok: %d JSON and %d Chrome events carry their CTF fields, %d kinds of event" % (n1, n2, len(bt)))


if __name__ == "__main__":
    checks = {f.__name__: f for f in (fields_agree,)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: evfields_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
