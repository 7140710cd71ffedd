#!/usr/bin/env python3
# The check of pidns.test.sh: usage
#   pidns_check.py namespace_pids A.JSONL PID NS_INODE

import json
import sys


def namespace_pids(jsonl, pid, ns):
    """A log recorded in a pid namespace names it, and its events carry the pid the namespace sees."""
    recs = list(map(json.loads, open(jsonl)))
    assert recs[0]["type"] == "stream" and recs[0]["pid_namespace"] == int(ns), recs[0]
    ev = [e for e in recs if e["type"] == "event" and e["pid"]]
    pids = {e["pid"] for e in ev} | {e["tid"] for e in ev}
    assert pids == {int(pid)}, pids
    print("ok: record -- CMD: %d events, all of pid %s" % (len(ev), pid))


if __name__ == "__main__":
    checks = {f.__name__: f for f in (namespace_pids,)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: pidns_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
