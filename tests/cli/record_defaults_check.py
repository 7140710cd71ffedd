#!/usr/bin/env python3
"""The Python of tests/cli/record_defaults.test.sh (one subcommand each):
  threads: the traced program: 4 threads that sleep 1 ms 20 times (many context switches)
  json_stream: stdin holds a JSON Lines stream record, the exit_group and a status record
"""
import sys


def threads():
    """Four threads that sleep 1 ms 20 times each: many context switches."""
    import threading
    import time

    def work():
        for _ in range(20):
            time.sleep(0.001)
    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def json_stream():
    """stdin (ptbpf record --json) holds the stream, the exit_group and the status."""
    import json

    recs = [json.loads(l) for l in sys.stdin if l.startswith("{")]
    assert recs[0]["type"] == "stream" and recs[-1]["type"] == "status", recs[-1]
    assert any(r.get("syscall") == "exit_group" for r in recs)


if __name__ == "__main__":
    checks = {f.__name__: f for f in (threads, json_stream)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: record_defaults_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv.pop(1)]())
