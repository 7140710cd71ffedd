#!/usr/bin/env python3
# The helpers of show.test.sh: usage
#   show_check.py json_records SHOW.JSONL
#   show_check.py show_from_socket PTBPF   (its exit status, show's)

import json
import socket
import subprocess
import sys


def json_records(jsonl):
    """show --json gives the stream, events with their fields and decoding, and the status record."""
    lines = open(jsonl).read().splitlines()
    recs = [json.loads(l) for l in lines]
    assert recs[0]["type"] == "stream", recs[0]
    assert recs[0]["name"] == "clitest" and recs[0]["stream_size"] == 8 << 20, recs[0]
    assert recs[-1]["type"] == "status", recs[-1]
    ev = [r for r in recs if r["type"] == "event"]
    assert recs[-1]["events"] == len(ev), (recs[-1], len(ev))
    for r in ev:
        for k in ("ts", "pid", "tid", "id", "name", "address", "truncation"):
            assert k in r, (k, r)
    op = [r for r in ev if r["name"] == "sys_enter_openat" and any(p["path"].endswith("show.tmp") for p in r["paths"])]
    assert op and op[0]["syscall"] == "openat" and len(op[0]["args"]) == 6, op
    ex = [r for r in ev if r["name"] == "sys_exit_openat" and r.get("errno") == "ENOENT"]
    assert ex and ex[0]["ret"] == -2, ex
    pe = [r for r in ev if r["name"] == "proc_exit"]
    assert pe and pe[-1]["status"] == 4, pe
    print("ok: %d JSON records" % len(recs))


def show_from_socket(ptbpf):
    """Runs PTBPF show - with an unconnected socket as standard input; returns its exit status."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    return subprocess.run([ptbpf, "show", "-"], stdin=s).returncode


if __name__ == "__main__":
    checks = {f.__name__: f for f in (json_records, show_from_socket)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: show_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
