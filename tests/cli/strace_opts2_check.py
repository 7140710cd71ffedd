#!/usr/bin/env python3
# The checks of strace_opts2.test.sh: usage
#   strace_opts2_check.py ff S_PREFIX P_PREFIX      -ff's files, FILE.PID
#   strace_opts2_check.py detach S.TXT P.TXT        -b execve (with -f)
# A line of either may begin with ptbpf's "TS PID/TID ", strace -f's
# "[pid N] " or its "PID " (in a file): each is taken off, its pid kept.

import glob
import re
import sys

PRE = r"^(?:-?[0-9.]+ (?P<a>\d+)/\d+ )?(?:\[pid +(?P<b>\d+)\] )?(?:(?P<c>\d+) +)?"
CALL = re.compile(PRE + r"(?P<name>[a-z_0-9]+)\((?P<rest>.*)$")
EXIT = re.compile(PRE + r"\+\+\+ (?P<what>.*) \+\+\+$")
# a call whose status is timing's (a shell's wait4 may find its child
# gone or not yet; a thread joined may have ended or not), or whose exit
# this kernel may not record
VARIES = {"rt_sigreturn", "wait4", "futex"}


def pid_of(m):
    return m.group("a") or m.group("b") or m.group("c")


def status(rest):
    """A call line's end: ok, ?, an errno name, detached or unfinished."""
    if rest.endswith("<detached ...>"):
        return "detached"
    if rest.endswith("<unfinished ...>"):
        return "unfinished"
    m = re.search(r"\) += (-1 ([A-Z0-9_]+)|\?|\S+)", rest)
    if not m:
        return "??"
    return m.group(2) or ("?" if m.group(1) == "?" else "ok")


def lines(path, resumed=True):
    """Each call and exit of a file: (pid or None, "NAME STATUS" or "+++ ...");
    a resumption left out, or (resumed False) taken as the call."""
    out = []
    for l in open(path):
        l = l.rstrip("\n")
        m = re.match(PRE + r"<\.\.\. ([a-z_0-9]+) resumed>(.*)$", l)
        if m and not resumed:
            m = CALL.match(l.replace("<... %s resumed>" % m.group(4), m.group(4) + "(", 1))
        else:
            m = CALL.match(l)
        if m:
            if "resumed>" in l or m.group("name") in VARIES:
                continue
            out.append((pid_of(m), m.group("name") + " " + status(m.group("rest"))))
            continue
        m = EXIT.match(l)
        if m:
            out.append((pid_of(m), "+++ " + m.group("what")))
    return out


def files(prefix):
    """FILE.PID's, by pid."""
    fs = glob.glob(glob.escape(prefix) + ".*")
    return sorted(fs, key=lambda f: int(f.rsplit(".", 1)[1]))


def ff(s_prefix, p_prefix):
    """-ff: a file per process, strace's calls in each, no pid on a line."""
    s, p = files(s_prefix), files(p_prefix)
    print("strace -ff:", [f.rsplit("/", 1)[1] for f in s])
    print("ptbpf -ff: ", [f.rsplit("/", 1)[1] for f in p])
    if len(s) < 2 or len(s) != len(p):
        print("FAIL: -ff: not as many files as strace's")
        return 1
    for sf, pf in zip(s, p):
        # a thread's own file: nothing resumes (strace's neither)
        sl, pl = lines(sf, False), lines(pf, False)
        for path, ls in ((sf, sl), (pf, pl)):
            withpid = [x for x in open(path) if re.match(r"^(\[pid +\d+\] |\d+ +[a-z_+])", x)]
            if withpid:
                print("FAIL: -ff: %s: a line with a pid: %s" % (path, withpid[0]))
                return 1
        sc, pc = [x[1] for x in sl], [x[1] for x in pl]
        if sc != pc:
            print("FAIL: -ff: %s is not %s:" % (pf, sf))
            print("  strace:", sc)
            print("  ptbpf: ", pc)
            return 1
        print("%s: %d calls, as %s, ending %s" % (pf, len(pc), sf, pc[-1]))
    return 0


def procs(path):
    """Each process's calls and exits, in the order of their first line."""
    out = {}
    for pid, what in lines(path):
        out.setdefault(pid, []).append(what)
    return list(out.values())


def detach(s_txt, p_txt):
    """-b execve: per process strace's calls; a detached one's last an execve
    (detached, or unfinished where another's line came between), no exit."""
    s, p = procs(s_txt), procs(p_txt)
    print("strace -b execve:", [x[-1] for x in s])
    print("ptbpf -b execve: ", [x[-1] for x in p])
    if len(s) != len(p):
        print("FAIL: -b execve: not as many processes as strace's")
        return 1
    ndet = 0
    ends = ("execve detached", "execve unfinished")
    for sc, pc in zip(s, p):
        if sc[-1] in ends or pc[-1] in ends:
            if sc[-1] not in ends or pc[-1] not in ends:
                print("FAIL: -b execve: detached in one only: %s, %s" % (sc[-1], pc[-1]))
                return 1
            ndet += 1
            sc, pc = sc[:-1], pc[:-1]
        if sc != pc:
            print("FAIL: -b execve: not strace's calls:")
            print("  strace:", sc)
            print("  ptbpf: ", pc)
            return 1
    if not ndet:
        print("FAIL: -b execve: no process detached")
        return 1
    return 0


if __name__ == "__main__":
    checks = {f.__name__: f for f in (ff, detach)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: strace_opts2_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
