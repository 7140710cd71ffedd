#!/usr/bin/env python3
# The checks of strace_opts.test.sh: usage
#   strace_opts_check.py calls strace|ptbpf OUTPUT SKIPPED_SYSCALL
#   strace_opts_check.py path_calls S.TXT P.TXT
#   strace_opts_check.py running_path_calls PS.TXT PP.TXT

import re
import sys


def seq(path, pre):
    """Each call line's name and first argument, as "openat(AT_FDCWD", resumptions left out."""
    out = []
    for l in open(path):
        m = re.match(pre + r"([a-z_0-9]+)\(([^,)]*)", l)
        if m and "resumed" not in l:
            out.append(m.group(1) + "(" + m.group(2))
    return out


def calls(kind, path, skip):
    """Prints each process's syscalls of an output, one "NAME RESULT" a line, processes apart."""
    pre = r"^(\d+) +"  # ptbpf's text in strace's look: strace -f -o's lines
    procs = {}
    for l in open(path):
        m = re.match(pre + r"([a-z_0-9]+)\((.*)\) += (-1 ([A-Z0-9_]+)|\?|\S+)", l)
        if m and m.group(2) != skip:
            procs.setdefault(m.group(1), []).append(
                m.group(2) + " " + (m.group(5) or ("?" if m.group(4) == "?" else "ok")))
    print("\n\n".join(sorted("\n".join(p) for p in procs.values())))


def path_calls(strace_txt, ptbpf_txt):
    """-P: ptbpf's calls on the path's fds are strace's."""
    s = seq(strace_txt, r"^\d+ +")
    p = seq(ptbpf_txt, r"^\d+ +")
    print("strace -P:", s)
    print("ptbpf -P: ", p)
    assert len(s) >= 8, "strace printed too little"
    if s != p:
        print("FAIL: -P: not strace's calls")
        sys.exit(1)


def running_path_calls(strace_txt, ptbpf_txt):
    """-p -P: ptbpf's calls on the fds a running process had open are strace's."""
    s = seq(strace_txt, r"^\d+ +")
    p = seq(ptbpf_txt, r"^\d+ +")
    print("strace -p -P:", s)
    print("ptbpf -p -P: ", p)
    if not s or s != p:
        print("FAIL: -p -P: not strace's calls")
        sys.exit(1)


if __name__ == "__main__":
    checks = {f.__name__: f for f in (calls, path_calls, running_path_calls)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: strace_opts_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
