#!/usr/bin/env python3
# The checks of log_ts.test.sh: usage
#   log_ts_check.py far_ts_outputs NAME SHOW.JSONL T.JSON CTF_STREAM
#   log_ts_check.py late_outputs "TS..." LATE.TXT LATE_T.TXT LATE.JSONL LATE.JSON CTF_DIR [BT.TXT]

import glob
import json
import re
import struct
import sys


def far_ts_outputs(name, jsonl, chrome, ctf):
    """A log with a far timestamp gives the 5 events before it in JSON, Chrome and CTF packets."""
    ev = [r for r in map(json.loads, open(jsonl)) if r["type"] == "event"]
    assert [e["ts_ns"] for e in ev] == [5000000000 + i for i in range(5)], (name, ev)
    assert [e["rel_ns"] for e in ev] == list(range(5)), (name, ev)
    c = [e for e in json.load(open(chrome))["traceEvents"] if e["ph"] == "i"]
    assert [e["ts"] for e in c] == [i / 1000 for i in range(5)], (name, c)
    # CTF packet headers: magic, stream id, timestamp_begin, timestamp_end, ...
    b = open(ctf, "rb").read()
    off, ends = 0, []
    while off < len(b):
        magic, _, t0, t1, content, size, _ = struct.unpack_from("<IIQQQQQ", b, off)
        assert magic == 0xC1FC1FC1 and size % 8 == 0 and size > 0, (name, off, magic, size)
        assert t0 <= t1 < 1 << 63, (name, off, t0, t1)
        ends.append(t1)
        off += size // 8
    assert max(ends) == 5000000004, (name, ends)
    print("ok: %s: 5 events in show, jsonl, chrome and ctf" % name)


def late_outputs(late, text, text_t, jsonl, chrome, ctf, bt):
    """Late events keep their own timestamps in show, show -t, JSON, Chrome, CTF and babeltrace2."""
    ts = [int(t) for t in late.split()]
    names = ["event %d" % (i + 1) for i in range(len(ts))]
    def sec_us(ns):  # show's "S.UUUUUU", from a signed ns count
        a = abs(ns)
        return "%s%d.%06d" % ("-" if ns < 0 else "", a // 10**9, a % 10**9 // 1000)
    for path, base in ((text, ts[0]), (text_t, 0)):
        got = [(l.split()[0], l.rstrip().rsplit(" ", 2)[-2:]) for l in open(path)]
        want = [(sec_us(t - base), ['"event', '%d"' % (i + 1)]) for i, t in enumerate(ts)]
        assert got == want, (path, got, want)
    ev = [r for r in map(json.loads, open(jsonl)) if r["type"] == "event"]
    assert [(e["ts_ns"], e["rel_ns"], e["data_str"]) for e in ev] == \
        [(t, t - ts[0], n) for t, n in zip(ts, names)], ev
    c = [e for e in json.load(open(chrome))["traceEvents"] if e["ph"] == "i"]
    assert [(e["ts"], e["args"]["data_str"]) for e in c] == \
        [((t - ts[0]) / 1000, n) for t, n in zip(ts, names)], c
    # each CTF data stream goes forward, packet by packet and event by event
    # (event header: id, timestamp; every event here is one "late" of 7 bytes)
    files = sorted(glob.glob(ctf + "/stream_*"))
    seen = []
    for f in files:
        b, off, prev = open(f, "rb").read(), 0, 0
        while off < len(b):
            magic, _, t0, t1, content, size, _ = struct.unpack_from("<IIQQQQQ", b, off)
            assert magic == 0xC1FC1FC1 and prev <= t0 <= t1, (f, off, t0, t1)
            e = off + 48
            while e < off + content // 8:
                _, t = struct.unpack_from("<IQ", b, e)
                assert t0 <= t <= t1 and prev <= t, (f, t, prev)
                prev, e = t, e + 4 + 8 + 4 + 4 + 4 + 7
                seen.append(t)
            off += size // 8
    assert sorted(seen) == sorted(ts), (seen, ts)
    if bt:
        # babeltrace2 --clock-cycles: "[NS] (+...) late: { ... }, { len = 7, data = [ [0] = 101, ... ] }"
        got = []
        for l in open(bt):
            m = re.match(r"^\[(\d+)\] .* late: .* data = \[ (.*) \] \}$", l.rstrip())
            assert m, l
            got.append((int(m.group(1)), bytes(int(v) for v in re.findall(r"= (\d+)", m.group(2))).decode()))
        assert got == sorted(zip(ts, names)), (got, sorted(zip(ts, names)))
    print("ok: late events with their own timestamps in show, JSON, chrome%s" % (", CTF (babeltrace2)" if bt else ", CTF"))


if __name__ == "__main__":
    checks = {f.__name__: f for f in (far_ts_outputs, late_outputs)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: log_ts_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
