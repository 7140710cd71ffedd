#!/usr/bin/env python3
# The Python program of record_kill.test.sh: usage
#   record_kill_check.py getppid_calls CALLS

import os
import sys
import time


def getppid_calls(calls):
    """The traced program: its pid in CALLS, then for 4 s a getppid every 10 ms, its time noted first."""
    f = open(calls, "w")
    f.write("%d\n" % os.getpid())
    f.flush()
    end = time.time() + 4
    while time.time() < end:
        f.write("%.6f\n" % time.time())
        f.flush()
        os.getppid()
        time.sleep(0.01)


if __name__ == "__main__":
    checks = {f.__name__: f for f in (getppid_calls,)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: record_kill_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
