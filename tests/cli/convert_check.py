#!/usr/bin/env python3
# The checks of convert.test.sh: usage
#   convert_check.py ctf_matches_json T.JSONL BT.TXT
#   convert_check.py chrome_nested T.JSON

import json
import re
import sys


def ctf_matches_json(jsonl, bt_txt):
    """babeltrace2's reading of the CTF trace has show --json's events, fields and decoded arguments."""
    ev = [json.loads(l) for l in open(jsonl)]
    # babeltrace2 merges the CTF streams in time order; the log may hold a late
    # event (one older than those before it, with its own timestamp)
    ev = sorted((e for e in ev if e["type"] == "event"), key=lambda e: e["ts_ns"])
    bt = open(bt_txt).read().splitlines()
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
                # babeltrace2 escapes the string's quotes, backslashes and
                # question marks (a C trigraph's start: "PR_???")
                want = '%s = "%s"' % (n, str(v).replace("\\", "\\\\").replace('"', '\\"')
                                      .replace("?", "\\?"))
                assert want in l, (want, l)
                checked += 1
            if e["name"].startswith("sys_exit_") and "errno" in e:
                assert 'ret = "-1 %s (' % e["errno"] in l, l
    print("ok: %d CTF events match, %d decoded arguments" % (len(bt), checked))
    assert checked > 20, checked


def chrome_nested(chrome):
    """The Chrome export has openat slices, process names and instants, well nested per thread."""
    d = json.load(open(chrome))
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


if __name__ == "__main__":
    checks = {f.__name__: f for f in (ctf_matches_json, chrome_nested)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: convert_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
