#!/usr/bin/env python3
"""The Python of tests/system/syscall_schema.test.sh (one subcommand each):
  schema DEF HDR TRACEFS: schema/syscalls.def against <sys/syscall.h> and the kernel's syscall tracepoints
"""
import sys


def schema():
    """schema/syscalls.def against <sys/syscall.h> and the kernel's tracepoints."""
    import os
    import re

    def_path, hdr_path, tracefs = sys.argv[1:4]
    xlat_dir = os.path.join(os.path.dirname(def_path), "..", "xlat")
    calls, cur = [], None
    for n, line in enumerate(open(def_path), 1):
        line = line.split("/*")[0].strip()
        if m := re.match(r"SYSCALL\((\w+), (\d+), (\d), (-1|\d), (R_\w+), (S_\w+), ([\w |]+)\)$", line):
            assert cur is None, f"line {n}: SYSCALL before END"
            cur = dict(name=m[1], nr=int(m[2]), nargs=int(m[3]), printed=int(m[4]), args=[], caps=0)
        elif m := re.match(r"ARG\((\w+), (A_\w+)(?:, (\w+))?\)$", line):
            assert cur and not cur["caps"], f"line {n}: ARG outside a call or after its CAPs"
            # the printer column: the table types print the names of an xlat/NAME.in
            table_type = m[2] in ("A_XVAL", "A_XVAL32", "A_FLAGS", "A_FLAGS32")
            assert table_type == bool(m[3]), f"line {n}: {m[2]} {'needs' if table_type else 'takes no'} table"
            assert not m[3] or os.path.exists(os.path.join(xlat_dir, m[3] + ".in")), \
                f"line {n}: no xlat/{m[3]}.in"
            cur["args"].append((m[1], m[2]))
        elif line.startswith("CAP("):
            assert cur, f"line {n}: CAP outside a call"
            cur["caps"] += 1
        elif re.match(r"(PATHTRACE\(([0-5<| ]+), ([0-5<| ]+)\)|FDOP\(FDOP_\w+, -?\d\))$", line):
            assert cur, f"line {n}: {line} outside a call"
        elif line == "END":
            assert cur, f"line {n}: END without SYSCALL"
            calls.append(cur)
            cur = None
        else:
            assert not line or line.startswith(("*", "/*", "#undef ")), f"line {n}: {line!r}"
    assert cur is None, "last call without END"

    names = [c["name"] for c in calls]
    assert names == sorted(names), "not sorted by name"
    assert len(set(names)) == len(names), "a name twice"
    nrs = [c["nr"] for c in calls]
    assert len(set(nrs)) == len(nrs), "a number twice"
    for c in calls:
        n = len(c["args"])
        assert c["nargs"] <= 6 and n <= 6, c["name"]
        assert c["nargs"] <= n and c["printed"] <= n, f"{c['name']}: {n} ARGs"
        assert c["caps"] <= 6, f"{c['name']}: more CAPs than KERN_CAPS"

    # numbers: every syscall the compiler's headers know
    by_name = {c["name"]: c["nr"] for c in calls}
    known = 0
    for line in open(hdr_path):
        if m := re.match(r"#define __NR_(\w+) (\d+)$", line):
            assert by_name.get(m[1]) == int(m[2]), f"{m[1]}: {by_name.get(m[1])} != {m[2]}"
            known += 1
    assert known > 300, f"only {known} syscalls in <sys/syscall.h>"

    # argument names: the kernel's tracepoints' (some under another name)
    alias = {"newfstat": "fstat", "newstat": "stat", "newlstat": "lstat",
             "newuname": "uname", "sendfile64": "sendfile", "umount": "umount2"}
    checked = 0
    if tracefs:
        args = {c["name"]: [a for a, _ in c["args"]] for c in calls}
        for e in sorted(os.listdir(tracefs)):
            if not e.startswith("sys_enter_"):
                continue
            name = alias.get(e[10:], e[10:])
            if name not in args:
                continue  # a syscall of newer kernels than the table
            fields = []
            for line in open(os.path.join(tracefs, e, "format")):
                if (m := re.search(r"field:([^;]*);", line)) and "common_" not in m[1] \
                        and "__syscall_nr" not in m[1]:
                    fields.append(re.split(r"[ *]+", m[1].strip())[-1])
            assert args[name][:len(fields)] == fields, f"{name}: {args[name]} != {fields}"
            checked += 1
    print(f"{len(calls)} syscalls; {known} numbers and "
          f"{checked} argument lists checked{'' if tracefs else ' (no tracefs)'}")


if __name__ == "__main__":
    checks = {f.__name__: f for f in (schema,)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: syscall_schema_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv.pop(1)]())
