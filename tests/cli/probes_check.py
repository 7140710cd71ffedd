#!/usr/bin/env python3
# The checks of probes.test.sh: usage
#   probes_check.py malloc_pointers M.TXT
#   probes_check.py probe_json P.JSONL
#   probes_check.py python_counts PY.TXT PY.BT PROBE

import collections
import json
import re
import sys


def malloc_pointers(text):
    """Each allocation the program printed has its uprobe malloc(size) and its uretprobe's pointer, beside write syscalls."""
    lines = open(text).read().splitlines()
    ptrs = [l.split() for l in lines if l.startswith("ptr ")]
    assert len(ptrs) == 20, ptrs
    ev = [l.split(None, 2) for l in lines if re.match(r"^[0-9.]+ [0-9]+/[0-9]+ ", l)]
    for _, pid, size, addr in ptrs:
        i = next(k for k, e in enumerate(ev) if e[2] == "uprobe malloc(%s)" % size)
        tid = ev[i][1]
        ret = next(e for e in ev[i + 1:] if e[1] == tid and "malloc" in e[2])
        assert ret[2] == "uretprobe malloc = %s" % addr, (ret, addr)
        assert tid == "%s/%s" % (pid, pid)
    assert any(e[2].startswith("write(1, ") for e in ev), "no write syscall with the probes"
    print("ok: malloc sizes and pointers")


def probe_json(jsonl):
    """show --json gives the USDT probe's and the function's arguments."""
    ev = [json.loads(l) for l in open(jsonl)]
    t = [e for e in ev if e.get("name") == "usdt:probe_alloc:ptbpf_test:tick:int,str"]
    assert [e["args"] for e in t] == [[0, "tick"], [1, "tick"], [2, "tick"]], t
    u = [e for e in ev if e.get("name") == "uprobe:probe_alloc:probe_target"]
    assert [e["args"] for e in u][1] == [1, 1, 2, 3, 4, 5], u
    print("ok: probe events in JSON")


def python_counts(text, bt_out, probe):
    """Python's USDT PROBE counts per function are bpftrace's (37 returns of fnord)."""
    mine = collections.Counter(m.group(1) for m in re.finditer(
        r'usdt python:%s\("[^"]*", "([^"]*)", [0-9]+\)$' % probe,
        open(text).read(), re.M))
    bt = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"^@\[(.*)\]: ([0-9]+)$", open(bt_out).read(), re.M)}
    assert mine == bt, (mine, bt)
    if probe == "function__return":
        assert mine["fnord"] == 37, mine
    print("ok: python %s as bpftrace counts (%d calls)" % (probe, sum(mine.values())))


if __name__ == "__main__":
    checks = {f.__name__: f for f in (malloc_pointers, probe_json, python_counts)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: probes_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
