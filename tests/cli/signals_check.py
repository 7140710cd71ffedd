#!/usr/bin/env python3
# The check of signals.test.sh: usage
#   signals_check.py chrome_paths PATHS.JSON

import json
import sys


def chrome_paths(chrome):
    """The Chrome export's statfs and openat calls name their late paths."""
    calls = [e["args"]["call"] for e in json.load(open(chrome))["traceEvents"]
             if e.get("cat") == "syscall" and "call" in e.get("args", {})]
    assert any(c.startswith('statfs("/etc/hosts", ') for c in calls), calls[-8:]
    assert any(c.startswith('openat(AT_FDCWD, "/etc/passwd", ') for c in calls), calls[-8:]


if __name__ == "__main__":
    checks = {f.__name__: f for f in (chrome_paths,)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: signals_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
