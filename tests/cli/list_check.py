#!/usr/bin/env python3
# The check of list.test.sh: usage
#   list_check.py list_json LIST.JSON N

import json
import sys


def list_json(list_json_path, n):
    """list --json has as many event types as list, each with its id, name and group."""
    r = [json.loads(l) for l in open(list_json_path)]
    assert len(r) == int(n), (len(r), n)
    assert {"id", "name", "group"} <= set(r[0])
    assert any(x["name"] == "sys_enter_openat" and x["group"] == "syscalls" for x in r)
    print("ok: %d event types" % len(r))


if __name__ == "__main__":
    checks = {f.__name__: f for f in (list_json,)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: list_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
