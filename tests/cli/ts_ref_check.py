#!/usr/bin/env python3
# The check of ts_ref.test.sh: usage
#   ts_ref_check.py reads_at_ref_times L.JSONL REF.BIN

import json
import struct
import sys


def reads_at_ref_times(jsonl, ref):
    """dd's reads are the reference tracer's, at its times plus one constant offset, in order."""
    EXIT = 0x80000000
    b = open(ref, "rb").read()
    off, refs = 0, []
    while off < len(b):
        (size,) = struct.unpack_from("<I", b, off)
        ts, tid, nr, val = struct.unpack_from("<QIIq", b, off + 4)
        refs.append((ts, tid, nr, val))
        off += 4 + size
    # dd: the process the reference traced (its records are in per-CPU order)
    dd = refs[0][1]
    refs.sort(key=lambda r: r[0])
    # from dd's execve on (reftracer's child reads a pipe before, traced by
    # ptbpf, by the reference only if it added the pid in time)
    mine = [r for r in refs if r[1] == dd]
    start = [i for i, r in enumerate(mine) if r[2] == 59 | EXIT and r[3] == 0][0]
    mine = [(r[0], r[2] & EXIT != 0, r[3]) for r in mine[start:] if r[2] & ~EXIT == 0]
    ev = [e for e in map(json.loads, open(jsonl)) if e["type"] == "event" and e.get("tid") == dd]
    start = [i for i, e in enumerate(ev) if e["name"] == "sys_exit_execve" and e["ret"] == 0][0]
    ev = [e for e in ev[start:] if e.get("syscall") == "read"]
    got = [(e["ts_ns"], e["name"] == "sys_exit_read", e["ret"] if "ret" in e else e["args"][0])
           for e in ev]
    assert len(mine) >= 6000, len(mine)
    diff = [i for i, (g, m) in enumerate(zip(got, mine)) if g[1:] != m[1:]]
    assert len(got) == len(mine) and not diff, \
        ("not the same reads", len(got), len(mine), diff[:1] and got[diff[0]], diff[:1] and mine[diff[0]])
    d = [g[0] - m[0] for g, m in zip(got, mine)]
    spread = max(d) - min(d)
    print("ok: %d read events of dd at the reference's times + %d ns, spread %d ns"
          % (len(d), min(d), spread))
    assert spread < 1000000, "a time %d ns off the reference's" % spread
    assert all(a[0] <= b[0] for a, b in zip(got, got[1:])), "out of order"


if __name__ == "__main__":
    checks = {f.__name__: f for f in (reads_at_ref_times,)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: ts_ref_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
