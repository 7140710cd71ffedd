#!/usr/bin/env python3
"""The Python checks of tests/cli/record.test.sh (one subcommand each):
  same_syscalls PTBPF_TXT STRACE_TXT PROG: ptbpf and strace saw the same syscalls, in the same order per thread, with the same results
  sleep_then_touch FILE: the traced program: a sleep every 10 ms for 3 s, then FILE created
  first_sleep_early FILE: the first clock_nanosleep line of stdin came before FILE existed
"""
import sys


def same_syscalls():
    """ptbpf and strace saw the same syscalls, per thread, with the same results."""
    import re

    # Results that are pids/tids or addresses differ from run to run.
    PIDRET = {"getpid", "getppid", "gettid", "clone", "clone3", "fork", "vfork",
              "wait4", "waitid", "set_tid_address"}
    call = re.compile(r"^([a-z_0-9]+)\(.*\)\s+=\s+(\S+)(?:\s+(E[A-Z0-9_]+))?")
    unfin = re.compile(r"^([a-z_0-9]+)\(.*<unfinished \.\.\.>$")
    resumed = re.compile(r"^<\.\.\. ([a-z_0-9]+) resumed>.*\)\s+=\s+(\S+)(?:\s+(E[A-Z0-9_]+))?")

    def norm(name, ret, err):
        if name in PIDRET and ret not in ("-1", "?"):
            ret = "PID"
        elif ret.startswith("0x"):
            ret = "ADDR"
        return (name, ret + ((" " + err) if err else ""))

    def parse(path, ptbpf):
        seqs, order, start = {}, [], {}
        for line in open(path):
            line = line.rstrip("\n")
            if ptbpf:
                m = re.match(r"^\d+\.\d+ (\d+)/(\d+) (.*)$", line)
                if not m:
                    continue
                tid, text = m.group(2), m.group(3)
            else:
                m = re.match(r"^(\d+) +(.*)$", line)
                if not m:
                    continue
                tid, text = m.group(1), m.group(2)
            if tid not in seqs:
                seqs[tid] = []
                order.append(tid)
            if text.startswith("openat(") and "/unique-" in text and tid not in start:
                start[tid] = len(seqs[tid])
            m = call.match(text)
            if m:
                seqs[tid].append(norm(*m.groups()))
                continue
            m = unfin.match(text)
            if m:
                seqs[tid].append([m.group(1)])  # completed by its resumed line
                continue
            m = resumed.match(text)
            if m:
                n = norm(*m.groups())
                for i in range(len(seqs[tid]) - 1, -1, -1):
                    if isinstance(seqs[tid][i], list) and seqs[tid][i][0] == n[0]:
                        seqs[tid][i] = n
                        break
                else:
                    # a return without its entry: the child's return from
                    # clone/fork, which strace does not report
                    if n[0] not in ("clone", "clone3", "fork", "vfork"):
                        seqs[tid].append(n)
        out = []
        for t in order:
            s = [x if isinstance(x, tuple) else (x[0], "?") for x in seqs[t]]
            k = start.get(t, 0)
            s = ([] if ASAN else [(n, "-") for n, r in s[:k]]) + s[k:]
            if s:
                out.append(s)
        return out

    ASAN = b"__asan_init" in open(sys.argv[3], "rb").read()
    p = parse(sys.argv[1], True)
    s = parse(sys.argv[2], False)
    ok = len(p) == len(s)
    for i in range(min(len(p), len(s))):
        if p[i] != s[i]:
            ok = False
            print("thread %d differs:" % i)
            for j in range(max(len(p[i]), len(s[i]))):
                a = p[i][j] if j < len(p[i]) else None
                b = s[i][j] if j < len(s[i]) else None
                print("  %s %-40s %s" % ("  " if a == b else "!=", a, b))
    if not ok:
        print("FAIL: syscall sequences differ (ptbpf %d threads, strace %d)" % (len(p), len(s)))
        sys.exit(1)
    checked = sum(1 for t in p for x in t if x[1] != "-")
    print("ok: %d threads, %s syscalls match strace (%d with results)" %
          (len(p), [len(x) for x in p], checked))
    if checked < 10:
        print("FAIL: too few results compared")
        sys.exit(1)


def sleep_then_touch():
    """A sleep every 10 ms for 3 s, then the file sys.argv[1] created."""
    import time

    for _ in range(300):
        time.sleep(0.01)
    open(sys.argv[1], "w")


def first_sleep_early():
    """Whether the first clock_nanosleep line came before sys.argv[1] existed."""
    import os

    for l in sys.stdin:
        if "clock_nanosleep(" in l:
            print("late" if os.path.exists(sys.argv[1]) else "early")
            break
    for l in sys.stdin:
        pass


if __name__ == "__main__":
    checks = {f.__name__: f for f in (same_syscalls, sleep_then_touch, first_sleep_early)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: record_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv.pop(1)]())
