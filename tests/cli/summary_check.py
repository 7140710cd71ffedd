#!/usr/bin/env python3
# The checks and the Python program of summary.test.sh: usage
#   summary_check.py tables_agree NAME STRACE_C PTBPF_C SIGRET_EXIT(0|1)
#   summary_check.py threads_agree TH.TXT PERF.TXT...
#   summary_check.py python_workload TREE   (the program both tracers count)

import json
import os
import re
import sys


def tables_agree(name, sfile, pfile, sigret_exit):
    """ptbpf's -c table has strace's layout, syscalls, and calls and errors within 2% of strace's."""
    sigret_exit = sigret_exit == "1"

    def table(path):
        lines = open(path).read().splitlines()
        start = [i for i, l in enumerate(lines) if l.startswith("% time")]
        assert start, "%s: no table in %s" % (name, path)
        i = start[0]
        head, rule = lines[i], lines[i + 1]
        rows, j = {}, i + 2
        while not lines[j].startswith("------"):
            f = lines[j].split()
            # % time, seconds, usecs/call, calls, [errors], syscall
            rows[f[-1]] = (int(f[3]), int(f[4]) if len(f) == 6 else 0)
            j += 1
        total = lines[j + 1].split()
        assert total[-1] == "total", lines[j + 1]
        return head, rule, lines[j], rows, (int(total[3]), int(total[4]) if len(total) == 6 else 0)

    sh, sr, sf, srows, stot = table(sfile)
    ph, pr, pf, prows, ptot = table(pfile)
    bad = []
    # the layout: strace's header and rules, column for column
    if (ph, pr, pf) != (sh, sr, sf):
        bad.append("layout differs:\n  strace %r\n  ptbpf  %r\n  strace %r\n  ptbpf  %r" % (sh, ph, sr, pr))

    def close_enough(a, b):
        return abs(a - b) <= 0.02 * max(a, b)

    print("%s: %-22s %14s %14s" % (name, "syscall", "strace c/e", "ptbpf c/e"))
    for sc in sorted(set(srows) | set(prows)):
        s, p = srows.get(sc), prows.get(sc)
        note = ""
        if s is None:
            note = "  <- strace has none"
        elif p is None:
            note = "  <- missing"
        elif not close_enough(s[0], p[0]):
            note = "  <- calls differ"
        elif sc == "rt_sigreturn" and not sigret_exit:
            if s[1] != p[1]:
                note = "  (errors not compared: no rt_sigreturn exit recorded)"
        elif not close_enough(s[1], p[1]):
            note = "  <- errors differ"
        if note.startswith("  <-"):
            bad.append(sc + note)
        print("%s: %-22s %7s/%-6s %7s/%-6s%s" % (name, sc, *(s or ("-", "-")), *(p or ("-", "-")), note))
    if bad:
        print("FAIL: %s:\n  %s" % (name, "\n  ".join(bad)))
        sys.exit(1)


def threads_agree(threads_txt, *perf_txt):
    """show --summary=thread's calls and errors of ls are perf trace -s's, the most of its runs."""
    def rows(path):
        out, head = {}, None
        for l in open(path):
            m = re.match(r"^ (\S+) \((\d+)\), \d+ events", l)
            if m:
                head = m.group(1)
                continue
            m = re.match(r"^   (\S+) +(\d+) +(\d+) +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+%$", l)
            if m and head == "ls":
                out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        return out

    def close_enough(a, b):
        return a and b and all(abs(x - y) <= max(1, 0.02 * max(x, y)) for x, y in zip(a, b))

    ours = rows(threads_txt)
    perf = {}
    for path in perf_txt:
        for n, v in rows(path).items():
            perf[n] = tuple(max(x, y) for x, y in zip(perf.get(n, v), v))
    bad = [n for n in set(perf) | set(ours) if not close_enough(perf.get(n), ours.get(n))]
    for n in sorted(set(perf) | set(ours)):
        print("thread ls: %-16s perf %-12s ptbpf %s" % (n, perf.get(n), ours.get(n)))
    if bad:
        print("FAIL: --summary=thread differs from perf trace -s:", sorted(bad))
        sys.exit(1)


def python_workload(tree):
    """The traced program: stats every file under TREE, fails an open, writes JSON to /dev/null."""
    for root, dirs, files in os.walk(tree):
        for f in files:
            os.stat(os.path.join(root, f))
    try:
        open("/nonexistent/file")
    except OSError:
        pass
    json.dump({"a": list(range(100))}, open(os.devnull, "w"))


if __name__ == "__main__":
    checks = {f.__name__: f for f in (tables_agree, threads_agree, python_workload)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: summary_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
