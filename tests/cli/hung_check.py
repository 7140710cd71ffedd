#!/usr/bin/env python3
# The checks of hung.test.sh: usage
#   hung_check.py live END [+]TIMEFILE [FIRST>]NAME CMD...
#   hung_check.py strace_p TIMEFILE PID
# TIMEFILE: "SECONDS PID", written by the traced program just before it
# blocks (tests/progs/hang_calls.c, or the test's shell).

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

SCALE = float(os.environ.get("PTBPF_TEST_TIME_SCALE", "1"))
# the delay ptbpf waits for a call's exit (0.2 s) and the library's
# ordering hold, with a generous margin: a call printed when it returns
# (after 3 s, or never) is far above it
BOUND = 1.5 * SCALE
WAIT = 10 * SCALE
# ptbpf's own "TS PID/TID " before strace's line, and strace -f's "[pid N] "
PREFIX = re.compile(r"^(?:[0-9.]+ [0-9]+/[0-9]+ )?(?:\[pid +[0-9]+\] )?")


def body(line):
    return PREFIX.sub("", line, count=1)


def reader(stream, q):
    """Each line of stream with the time it came; None at the end."""
    for raw in stream:
        q.put((time.time(), raw.decode(errors="replace").rstrip("\n")))
    q.put(None)


def lines_until(q, seen, pred, what):
    """Lines (time, text) from q, into seen, until pred(text); that one's time."""
    end = time.time() + WAIT
    while True:
        try:
            item = q.get(timeout=max(0.01, end - time.time()))
        except queue.Empty:
            item = None
        if item is None:
            show(seen)
            sys.exit("FAIL: no %s within %.1f s" % (what, WAIT))
        seen.append(item)
        if pred(item[1]):
            return item[0]


def show(seen, n=12):
    for t, text in seen[-n:]:
        print("  %.3f %s" % (t, text))


def noted(timefile):
    f = open(timefile).read().split()
    return float(f[0]), int(f[1])


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def live(end, timefile, name, *cmd):
    """ptbpf's live text shows NAME blocked (<unfinished ...>) within BOUND
    of the call; after a SIGINT to ptbpf, END: killed (the command got it:
    resumed, +++ killed by SIGINT +++) or detached (the process goes on:
    <... NAME resumed> <detached ...>, as strace's on detach); duration: no
    SIGINT, --duration ends the recording, detached. TIMEFILE +pre: the
    call began before ptbpf (-p), its time is not measured."""
    pre = timefile.startswith("+")
    timefile = timefile.lstrip("+")
    # FIRST>NAME: NAME's entry after FIRST's line (a call begun after ptbpf)
    first, _, name = name.rpartition(">")
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    q = queue.Queue()
    threading.Thread(target=reader, args=(p.stderr, q), daemon=True).start()
    seen = []
    try:
        if first:
            lines_until(q, seen, lambda s: body(s).startswith(first + "("), first + "'s line")
        at = lines_until(q, seen, lambda s: body(s).startswith(name + "(") and
                         s.endswith(" <unfinished ...>"), name + "'s blocked entry")
        line = seen[-1][1]
        t, pid = noted(timefile)
        if pre:
            # blocked before tracing began: shown at all, from /proc
            t = at
        print("%s: its entry printed %.3f s after the call (bound %.1f s): %s" %
              (name, at - t, BOUND, line))
        if at - t > BOUND:
            show(seen)
            sys.exit("FAIL: %s blocked is not shown within %.1f s" % (name, BOUND))
        if end != "duration":
            p.send_signal(signal.SIGINT)
        lines_until(q, seen, lambda s: s.startswith("ptbpf: "), "summary at the end (--stats)")
        after = [body(s) for _, s in seen]
        if end == "killed":
            want = ["<... %s resumed>" % name, "+++ killed by SIGINT +++"]
            ok = all(any(b.startswith(w) for b in after) for w in want)
        else:
            want = ["<... %s resumed> <detached ...>" % name]
            ok = want[0] in after and alive(pid)
        if not ok:
            show(seen)
            sys.exit("FAIL: at the end, not %s (%s)" % (" and ".join(want),
                                                         "running" if alive(pid) else "gone"))
        print("at the end: %s" % " / ".join(want))
        try:
            p.wait(timeout=3 * SCALE)
        except subprocess.TimeoutExpired:
            # the command goes on untraced, ptbpf waits for it: ended here
            os.kill(pid, signal.SIGTERM)
        rc = p.wait(timeout=WAIT)
        if end == "killed" and rc != 128 + signal.SIGINT:
            sys.exit("FAIL: ptbpf exited %d, not as its command (130)" % rc)
    finally:
        if p.poll() is None:
            # failed: ptbpf killed, and the program it left blocked
            p.kill()
            p.wait()
            try:
                os.kill(noted(timefile)[1], signal.SIGKILL)
            except (OSError, ValueError, IndexError):
                pass


def strace_p(timefile, pid):
    """The reference: strace -p prints the entry of the call the process
    blocks in at once (a line left open), and on SIGINT ends it
    " <detached ...>"; the process goes on."""
    p = subprocess.Popen(["strace", "-p", pid], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    out = b""
    end = time.time() + WAIT
    try:
        while b"\nfutex(" not in out and time.time() < end:
            chunk = os.read(p.stderr.fileno(), 4096)
            if not chunk:
                break
            out += chunk
        at = time.time()
        t, _ = noted(timefile)
        text = out.decode(errors="replace")
        print("strace: the futex entry %.3f s after the call: %r" %
              (at - t, text.splitlines()[-1] if text else ""))
        if b"\nfutex(" not in out or at - t > BOUND:
            sys.exit("FAIL: strace did not show the futex entry within %.1f s: %r" %
                     (BOUND, text))
        p.send_signal(signal.SIGINT)
        _, rest = p.communicate(timeout=WAIT)
        out += rest
        text = out.decode(errors="replace")
        last = text[text.rindex("\nfutex("):]
        print("strace at SIGINT: %r" % last)
        if ") = " in last or " <detached ...>" not in last:
            sys.exit("FAIL: strace's pending futex is not <detached ...>")
        if not alive(int(pid)):
            sys.exit("FAIL: the process died with strace")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


if __name__ == "__main__":
    checks = {f.__name__: f for f in (live, strace_p)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: hung_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
