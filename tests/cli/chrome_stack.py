#!/usr/bin/env python3
# The stack of a Chrome trace's slice, innermost frame first, one name a line:
#   chrome_stack.py TRACE.json MARK
# MARK: a string in the slice's "call" (the first complete slice that has it).
# Fails when no slice has it, or when stackFrames holds a frame twice (the
# same name under the same parent).
import json
import sys


def main():
    d = json.load(open(sys.argv[1]))
    sf = d["stackFrames"]
    seen = set()
    for f in sf.values():
        key = (f["name"], f.get("parent"))
        if key in seen:
            sys.exit("a frame stored twice: %r" % (key,))
        seen.add(key)
    for e in d["traceEvents"]:
        if e.get("ph") == "X" and sys.argv[2] in e["args"].get("call", ""):
            break
    else:
        sys.exit("no slice with %s" % sys.argv[2])
    i = e.get("sf")
    while i:
        print(sf[i]["name"])
        i = sf[i].get("parent")


if __name__ == "__main__":
    main()
