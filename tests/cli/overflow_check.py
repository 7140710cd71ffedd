#!/usr/bin/env python3
# The checks of overflow.test.sh: usage
#   overflow_check.py live_json_gaps L.JSONL
#   overflow_check.py show_json_gaps LOST <SHOW.JSONL
#   overflow_check.py chrome_gaps U.JSON LOST

import json
import sys


def live_json_gaps(jsonl):
    """Live JSON: each gap has a positive "lost", and they add up to the status record's."""
    recs = [json.loads(l) for l in open(jsonl)]
    gaps = [r for r in recs if r.get("name") == "posix_trace_overflow"]
    st = recs[-1]
    assert st["type"] == "status" and st["lost"] > 0, st
    assert all(isinstance(g.get("lost"), int) and g["lost"] > 0 for g in gaps), gaps[:3]
    assert sum(g["lost"] for g in gaps) == st["lost"], (sum(g["lost"] for g in gaps), st["lost"])
    print("ok: JSON: %d lost in %d gaps" % (st["lost"], len(gaps)))


def show_json_gaps(lost):
    """show --json on standard input: the gaps' "lost" add up to LOST."""
    recs = [json.loads(l) for l in sys.stdin]
    n = sum(r["lost"] for r in recs if r.get("name") == "posix_trace_overflow")
    assert n == int(lost), (n, lost)


def chrome_gaps(chrome, lost):
    """The Chrome export's gaps' "lost" add up to LOST."""
    ev = json.load(open(chrome))["traceEvents"]
    n = sum(e["args"]["lost"] for e in ev if e["name"] == "posix_trace_overflow")
    assert n == int(lost), (n, lost)


if __name__ == "__main__":
    checks = {f.__name__: f for f in (live_json_gaps, show_json_gaps, chrome_gaps)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: overflow_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
