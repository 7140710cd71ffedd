#!/usr/bin/env python3
# The checks of uev.test.sh: usage
#   uev_check.py user_events_json U.JSONL
#   uev_check.py fork_events FORK.TXT

import json
import re
import sys


def user_events_json(jsonl):
    """show --json gives the two cli_hello user events with their data, hex and string."""
    ev = [json.loads(l) for l in open(jsonl)]
    ev = [e for e in ev if e["type"] == "event" and not e["name"].startswith("posix_trace_")]
    assert [e["name"] for e in ev] == ["cli_hello", "cli_hello"], ev
    assert ev[0]["data_hex"] == "68656c6c6f0130" and ev[0]["data_str"] == "hello\u00010", ev[0]
    assert ev[0]["id"] >= 2048 and ev[0]["len"] == 7
    print("ok: user events in JSON")


def fork_events(text):
    """fork_uev's parent and child each have their 100 user events, in order, under their own pid."""
    seen = {}
    for l in open(text):
        m = re.match(r"[0-9.]+ (\d+)/\d+ user fork_hello len=8 data=([0-9a-f]{16})", l)
        if m:
            pid = int(m.group(1))
            d = bytes.fromhex(m.group(2))
            assert int.from_bytes(d[:4], "little") == pid, l
            seen.setdefault(pid, []).append(int.from_bytes(d[4:], "little"))
    assert len(seen) == 2, seen.keys()
    for pid, seq in seen.items():
        assert seq == list(range(100)), (pid, seq)
    print("ok: a child forked at once: 100 events of each process")


if __name__ == "__main__":
    checks = {f.__name__: f for f in (user_events_json, fork_events)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: uev_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
