#!/usr/bin/env python3
"""The Python of tests/system/syscall_schema.test.sh (one subcommand each):
  schema DEF HDR TRACEFS ARM64_HDR: schema/syscalls.def against x86_64's <sys/syscall.h>, the
    kernel's syscall tracepoints and arm64's <asm/unistd.h> (`-dM -E` of each; empty: not checked)
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
        if m := re.match(r"SYSCALL\((\w+), (-1|\d+), (-1|\d+), (\d), (-1|\d), (R_\w+), (S_\w+), "
                         r"([\w |]+)\)$", line):
            assert cur is None, f"line {n}: SYSCALL before END"
            cur = dict(name=m[1], nr=int(m[2]), arm64=int(m[3]), nargs=int(m[4]), printed=int(m[5]),
                       args=[], caps=0)
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
    for col in ("nr", "arm64"):
        nrs = [c[col] for c in calls if c[col] >= 0]
        assert len(set(nrs)) == len(nrs), f"a number twice ({col})"
    assert all(c["nr"] >= 0 or c["arm64"] >= 0 for c in calls), "a call of no architecture"
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
    assert known > 300 or not os.path.getsize(hdr_path), f"only {known} syscalls in <sys/syscall.h>"
    arm64 = check_arm64(calls, sys.argv[4]) if os.path.getsize(sys.argv[4]) else 0

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
    print(f"{len(calls)} syscalls; {known} numbers, {arm64} arm64 numbers and "
          f"{checked} argument lists checked{'' if tracefs else ' (no tracefs)'}")


def check_arm64(calls, hdr_path):
    """The arm64 column against `-dM -E` of arm64's <asm/unistd.h>, both ways: each of its
    __NR_ a row's number (or a range marker it names), each row's number below its
    __NR_syscalls its __NR_; from 424 on (newer than the header, perhaps) the numbers
    are every architecture's, x86_64's."""
    import re

    defs = {}
    for line in open(hdr_path):
        if m := re.match(r"#define (__NR\w+) (\w+)$", line):
            defs[m[1]] = m[2]

    def value(k):
        v = defs[k]
        return int(v) if v.isdigit() else value(v)  # __NR_fcntl __NR3264_fcntl

    # names of <asm/unistd.h> that are no call: the table's end, the arch range's start
    not_calls = {"syscalls", "arch_specific_syscall"}
    hdr = {k[5:]: value(k) for k in defs if k.startswith("__NR_")}
    top = hdr.pop("syscalls")
    assert top > 400, f"__NR_syscalls {top}: not arm64's <asm/unistd.h>?"
    by_name = {c["name"]: c["arm64"] for c in calls}
    for name, nr in hdr.items():
        if name in not_calls:
            continue
        assert by_name.get(name) == nr, f"arm64 {name}: {by_name.get(name)} != {nr}"
    for c in calls:
        if c["arm64"] < 0:
            assert c["name"] not in hdr, f"arm64 {c['name']}: absent, but {hdr.get(c['name'])}"
            assert c["nr"] < 424, f"arm64 {c['name']}: absent, but >= 424 (every arch's)"
        elif c["arm64"] < top:
            assert hdr.get(c["name"]) == c["arm64"], f"arm64 {c['name']}: not in <asm/unistd.h>"
        else:
            assert c["arm64"] == c["nr"], f"arm64 {c['name']}: {c['arm64']} != x86_64's {c['nr']}"
    return len(hdr) - len(not_calls & set(hdr))


if __name__ == "__main__":
    checks = {f.__name__: f for f in (schema,)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: syscall_schema_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv.pop(1)]())
