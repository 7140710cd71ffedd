#!/usr/bin/env python3
# The check of filter.test.sh: usage
#   filter_check.py only_selected A.JSONL

import json
import sys


def only_selected(jsonl):
    """A log recorded with -e openat,close holds those events and the process's exit only."""
    recs = [json.loads(l) for l in open(jsonl)]
    names = {r["name"] for r in recs if r["type"] == "event"}
    names = {n for n in names if not n.startswith("posix_trace_")}
    want = {"sys_enter_openat", "sys_exit_openat", "sys_enter_close", "sys_exit_close", "proc_exit"}
    names = {n for n in names if not n.startswith("signal_")}
    assert names == want, names
    print("ok:", sorted(names))


if __name__ == "__main__":
    checks = {f.__name__: f for f in (only_selected,)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: filter_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
