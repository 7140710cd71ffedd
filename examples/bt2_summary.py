#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Read a ptbpf trace from Python with babeltrace2's bindings (Debian's
python3-bt2): convert the log to CTF first, then count the events of each
type and print every user event's name, pid and payload.

    ptbpf record -o trace.log -- ./user_events
    ptbpf convert trace.log --to ctf -o trace.ctf
    python3 bt2_summary.py trace.ctf
"""
import collections
import sys

import bt2


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: bt2_summary.py CTF_DIR")
    counts = collections.Counter()
    for msg in bt2.TraceCollectionMessageIterator(sys.argv[1]):
        if type(msg) is not bt2._EventMessageConst:
            continue
        ev = msg.event
        counts[ev.name] += 1
        # a user event's payload is its bytes: fields len and data (the
        # POSIX markers, posix_trace_*, have the same layout)
        payload = ev.payload_field
        if list(payload.keys()) == ["len", "data"] and not ev.name.startswith("posix_trace_"):
            data = bytes(int(b) for b in payload["data"])
            print("%s pid=%d %r" % (ev.name, int(ev.common_context_field["pid"]), data))
    for name, n in counts.most_common():
        print("%10d  %s" % (n, name))


if __name__ == "__main__":
    main()
