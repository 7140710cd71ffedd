#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Benchmark driver of ptbpf (called by bench/run; see docs/benchmarks.md).

Runs every row with repetitions, each row independent: a row whose piece is
missing or fails reports "n/a (reason)" and the run goes on. Prints a
Markdown table (min and median per row, overhead, ratios, events
captured/expected and lost, goal pass/fail) and writes the results to
bench/results/latest.json and latest.md.
"""
import argparse
import datetime
import json
import os
import platform
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------------------
# Settings per mode: iteration counts are chosen so that one run of a row
# takes well under a second at the speed of its tracer (n_fast: untraced,
# the reference tracers and ptbpf; n_mid: bpftrace; n_slow: strace and perf
# trace). Rows compared by a ratio run the same count: a shorter run costs
# more per syscall (the rings, queues and caches warm up, the threads start
# apart), and that would be charged to the tracer that ran it.
MODES = {
    "smoke": dict(reps=1, sys_reps=1, n_fast=50000, n_mid=20000, n_slow=3000, tree_reps=1,
                  tree_files=300, ue_n=500000, ue_traced_n=200000, rate_secs=0.5,
                  rate_reps=1, rates=[500000, 2000000], dd_mb=64, log_ue_n=300000, mem_secs=2,
                  flood_n=100000),
    "quick": dict(reps=3, sys_reps=3, n_fast=300000, n_mid=100000, n_slow=15000, tree_reps=3,
                  tree_files=1000, ue_n=10000000, ue_traced_n=1000000, rate_secs=1.0,
                  rate_reps=1, rates=[250000, 500000, 1000000, 2000000, 3000000, 4000000], dd_mb=256,
                  log_ue_n=2000000, mem_secs=5, flood_n=400000),
    "full": dict(reps=9, sys_reps=15, n_fast=1000000, n_mid=300000, n_slow=50000, tree_reps=9,
                 tree_files=2000, ue_n=50000000, ue_traced_n=4000000, rate_secs=3.0,
                 rate_reps=3, rates=[250000, 500000, 1000000, 2000000, 3000000, 4000000, 8000000],
                 dd_mb=1024,
                 log_ue_n=8000000, mem_secs=60, flood_n=2000000),
}

# A burst of user events small enough for the default buffers of both
# ptbpf and LTTng: the cost of an event that is recorded, not dropped.
BURST = 20000

PGID_FILE = None  # process groups we started, for bench/run's EXIT trap

# the larger --buffer-size of the flood rows: what ptbpf's loss line proposes
FLOOD_BUFSIZE = "32M"
# the build of the memory section: C files compiled by make -j2
BUILD_FILES = 24

# the rows of stacks (-k), run on the getppid loop and the tree walk only
STACK_ROWS = ("ptbpf_log_k", "ptbpf_log_k_fp", "strace_k")
# the rows of the read/write loop
RW_ROWS = ("untraced", "ref", "ptbpf_live", "ptbpf_log", "ptbpf_log_s0", "strace", "perf")
# the rows that record more than ptbpf -o, each against it: its name there
EXTRA_ROWS = {"ptbpf_log_k": "stacks", "ptbpf_log_k_fp": "stacks", "ptbpf_log_y": "fds",
              "ptbpf_log_s0": "no captures", "ptbpf_log_cg": "cgroup",
              "ptbpf_log_ns": "pid namespace"}


class NA(Exception):
    """A row cannot produce a number; the message says why."""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def wait_exit(p, timeout):
    """p.wait(timeout=...) polls with sleeps that double up to 50 ms, so a
    wall time taken after it is late by up to that much (a 33 ms run read
    64): wait on a pidfd instead, which wakes at the exit."""
    try:
        fd = os.pidfd_open(p.pid)
    except OSError:
        return p.wait(timeout=timeout)
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
    finally:
        os.close(fd)
    if not ready:
        raise subprocess.TimeoutExpired(p.args, timeout)
    return p.wait()


def run(cmd, timeout=120, env=None, stdout=None, wait_hook=None):
    """Run cmd in its own process group; return (rc, stdout, stderr, wall s).
    On timeout the whole group is killed and NA raised."""
    e = dict(os.environ)
    if env:
        e.update(env)
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=stdout if stdout is not None else out, stderr=err,
                         stdin=subprocess.DEVNULL, env=e, start_new_session=True)
    if PGID_FILE:
        with open(PGID_FILE, "a") as f:
            f.write("%d\n" % p.pid)
    try:
        if wait_hook:
            wait_hook(p)
        rc = wait_exit(p, timeout)
    except subprocess.TimeoutExpired:
        kill_group(p)
        raise NA("timed out after %ds" % timeout)
    finally:
        kill_group(p, only_rest=True)
    wall = time.monotonic() - t0
    out.seek(0)
    err.seek(0)
    return rc, out.read().decode(errors="replace"), err.read().decode(errors="replace"), wall


def settle():
    """Each repetition starts with no dirty page cache left by the previous
    ones: the writeback of earlier log rows would throttle this one's
    writes (dd included)."""
    os.sync()


def kill_group(p, only_rest=False):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if not only_rest:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


def last_line(text, what):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1][:200] if lines else "%s failed" % what


def count_lines(path, line_re, lost_re=None):
    """(lines matching line_re, the sum of lost_re's group 1) in a tracer's
    output file."""
    n = lost = 0
    with open(path, errors="replace") as f:
        for line in f:
            m = lost_re and re.search(lost_re, line)
            if m:
                lost += int(m.group(1))
            elif re.search(line_re, line):
                n += 1
    return n, lost


def count_strace(path):
    """Syscalls in an `strace -f` log: a line each, or an unfinished line and
    its resumed one; signals (---) and exits (+++) are not syscalls."""
    return count_lines(path, r"^\s*\S+\s+(?!<\.\.\.|---|\+\+\+)\S")[0]


def count_perf_trace(path):
    """(syscalls, events lost) in a `perf trace` log: a line each, or an
    unfinished line and its "[continued]" one; perf trace writes the events
    it lost as "LOST n events!"."""
    return count_lines(path, r"^(?!.*\[continued\]:).*\): \S*/\d+ \S", r"^\s*LOST (\d+) events!")


def strace_argv(cmd, out):
    if not shutil.which("strace"):
        raise NA("strace not installed")
    return ["strace", "-f", "-o", out] + cmd


def perf_trace_argv(cmd, out):
    if not shutil.which("perf"):
        raise NA("perf not installed")
    return ["perf", "trace", "-o", out, "--"] + cmd


def bpftrace_argv(cmd, out):
    """bpftrace's one-liner: a line per event, entry and exit, like the
    others, into `out`."""
    if not shutil.which("bpftrace"):
        raise NA("bpftrace not installed")
    prog = ('tracepoint:raw_syscalls:sys_enter /pid == cpid/ '
            '{ printf("%d %ld %ld\\n", tid, args->id, args->args[0]); } '
            'tracepoint:raw_syscalls:sys_exit /pid == cpid/ '
            '{ printf("%d %ld %ld\\n", tid, args->id, args->ret); }')
    return ["bpftrace", "-q", "-o", out, "-c", " ".join(cmd), "-e", prog]


def count_bpftrace(path):
    """(events, events lost) in the output of bpftrace_argv(): a line of
    three numbers per event; bpftrace reports what it lost as "Lost n
    events" in the same output."""
    return count_lines(path, r"^-?\d+ -?\d+ -?\d+\s*$", r"Lost (\d+) events")


# strace, perf trace and bpftrace: a command line into a given output file
PEER_ARGV = {"strace": strace_argv, "perf": perf_trace_argv, "bpftrace": bpftrace_argv}


def parse_kv(line):
    toks = line.split()
    d = {}
    for i in range(0, len(toks) - 1, 2):
        try:
            d[toks[i]] = float(toks[i + 1])
        except ValueError:
            pass
    return d


class Bench:
    def __init__(self, args):
        self.args = args
        self.m = MODES[args.mode]
        self.rows_only = set(filter(None, getattr(args, "rows", "").split(",")))
        self.bin = os.path.join(args.build, "bench")
        self.ptbpf = os.path.join(args.build, "ptbpf")
        self.work = args.workdir
        self.rows = []
        self.untraced = {}
        self.sessiond_pid = None
        self.lttng_env = None
        self.cpu_fixed = {}  # tracer key -> its CPU for a run of 10 syscalls

    # -- helpers -------------------------------------------------------------
    def b(self, name):
        return os.path.join(self.bin, name)

    def workload(self, cmd, runner, timeout=180):
        """Run a workload program under runner (a function cmd -> argv, env,
        stdout) and return (result dict, stderr text, rc, wall)."""
        res = os.path.join(self.work, "result.txt")
        if os.path.exists(res):
            os.unlink(res)
        argv, env, stdout = runner(cmd)
        env = dict(env or {})
        env["BENCH_RESULT"] = res
        rc, out, err, wall = run(argv, timeout=timeout, env=env, stdout=stdout)
        try:
            with open(res) as f:
                line = f.read().strip().splitlines()[-1]
        except (OSError, IndexError):
            raise NA(last_line(err + out, argv[0]) if rc else "no result line")
        return parse_kv(line), out + err, rc, wall

    def add(self, section, name, vals, unit, **kw):
        row = dict(section=section, name=name, unit=unit, min=None, median=None, na=None,
                   reps=len(vals), values=vals)
        if vals:
            row["min"] = min(vals)
            row["median"] = statistics.median(vals)
        row.update(kw)
        self.rows.append(row)
        log("  %-55s %s" % (section + " / " + name, fmt_row_short(row)))
        return row

    def add_na(self, section, name, reason, unit="", **kw):
        row = dict(section=section, name=name, unit=unit, min=None, median=None,
                   na=str(reason)[:160], reps=0, values=[])
        row.update(kw)
        self.rows.append(row)
        log("  %-55s n/a (%s)" % (section + " / " + name, row["na"]))
        return row

    def group(self, items, reps=None, first=()):
        """Rows repeated round-robin (rep 1 of every row, then rep 2, ...), so
        that a change in the machine's load affects them alike. items:
        (section, name, fn, unit, kw). The rows whose kw["tracer"] is in
        first run first in each round, in that order (the table keeps the
        order of items): the ratios that are judged pair runs close in
        time."""
        vals = [[] for _ in items]
        extras = [[] for _ in items]
        fail = [None] * len(items)
        rank = {t: k for k, t in enumerate(first)}
        order = sorted(range(len(items)),
                       key=lambda i: (rank.get(items[i][4].get("tracer"), len(rank)), i))
        for _ in range(reps or self.m["reps"]):
            for i in order:
                section, name, fn, unit, kw = items[i]
                if fail[i]:
                    continue
                try:
                    settle()
                    v, ex = fn()
                    vals[i].append(v)
                    extras[i].append(ex)
                    log("    %-60s %s" % (name[:60], num(v)))
                except NA as e:
                    fail[i] = str(e)
                except Exception as e:  # a broken row never stops the run
                    fail[i] = "%s: %s" % (type(e).__name__, e)
        for i, (section, name, fn, unit, kw) in enumerate(items):
            kw = dict(kw)
            if fail[i]:
                self.add_na(section, name, fail[i], unit, **kw)
                continue
            med = statistics.median(vals[i])
            j = min(range(len(vals[i])), key=lambda k: abs(vals[i][k] - med))
            kw.update(extras[i][j])
            self.add(section, name, vals[i], unit, **kw)

    def repeat(self, section, name, fn, unit, reps=None, **kw):
        """fn() -> (value, extras dict); repeated; the extras of the run whose
        value is the median are kept. Queued instead while a group is being
        collected (self.items)."""
        if getattr(self, "items", None) is not None:
            self.items.append((section, name, fn, unit, kw))
            return None
        vals, extras = [], []
        try:
            for _ in range(reps or self.m["reps"]):
                settle()
                v, ex = fn()
                vals.append(v)
                extras.append(ex)
        except NA as e:
            return self.add_na(section, name, e, unit, **kw)
        except Exception as e:  # a broken row never stops the run
            return self.add_na(section, name, "%s: %s" % (type(e).__name__, e), unit, **kw)
        med = statistics.median(vals)
        ex = extras[min(range(len(vals)), key=lambda i: abs(vals[i] - med))]
        kw.update(ex)
        return self.add(section, name, vals, unit, **kw)

    # -- tracers ---------------------------------------------------------------
    def tracers(self):
        """(key, label, runner, size class, counter parser)"""
        def untraced(cmd):
            return cmd, None, None

        def ref(cmd):
            return [self.b("reftracer"), "--"] + cmd, None, None

        def ref_paths(cmd):
            return [self.b("reftracer"), "-p", "--"] + cmd, None, None

        def ref_file(cmd):
            return ([self.b("reftracer"), "-p", "-s", "-o", os.path.join(self.work, "ref.raw"),
                     "--"] + cmd, None, None)

        def ref_wake(cmd):
            return [self.b("reftracer"), "-w", "4096", "--"] + cmd, None, None

        def ptbpf_live(cmd):
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            return ([self.ptbpf, "record", "--stats", "--output-text", "/dev/null", "--"] + cmd,
                    None,
                    subprocess.DEVNULL)

        def ptbpf_log(cmd):
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            return ([self.ptbpf, "record", "-o", os.path.join(self.work, "rec.ptlog"), "--"]
                    + cmd, None, None)

        def ptbpf_c(cmd):
            # -c alone: the syscalls counted and timed in the kernel's maps,
            # no record crosses the ring (bpf/count.bpf.h)
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            return [self.ptbpf, "record", "-c", "--"] + cmd, None, None

        def ptbpf_log_k(cmd):
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            return ([self.ptbpf, "record", "-k", "-o", os.path.join(self.work, "rec.ptlog"),
                     "--"] + cmd, None, None)

        def ptbpf_log_y(cmd):
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            return ([self.ptbpf, "record", "-y", "-o", os.path.join(self.work, "rec.ptlog"),
                     "--"] + cmd, None, None)

        def ptbpf_log_s0(cmd):
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            return ([self.ptbpf, "record", "-s", "0", "-o", os.path.join(self.work, "rec.ptlog"),
                     "--"] + cmd, None, None)

        def ptbpf_log_k_fp(cmd):
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            return ([self.ptbpf, "record", "-k", "--call-graph=fp", "-o",
                     os.path.join(self.work, "rec.ptlog"), "--"] + cmd, None, None)

        def ptbpf_log_cg(cmd):
            # the workload traced as a process of a cgroup (--cgroup), not as
            # the command: a child of the command, not followed (no -f), that
            # moves itself into the cgroup, then execs the workload
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            cg = self.cgroup()
            return ([self.ptbpf, "record", "--cgroup", cg, "-o",
                     os.path.join(self.work, "rec.ptlog"), "--", "sh", "-c",
                     'sh -c \'echo $$ >"$0/cgroup.procs" && exec "$@"\' "$0" "$@" & wait $!',
                     cg]
                    + cmd, None, None)

        def ptbpf_log_ns(cmd):
            # ptbpf and the workload in a pid namespace of their own: every
            # event's ids are the namespace's (bpf/pidns.bpf.h)
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            if not shutil.which("unshare"):
                raise NA("unshare not installed")
            return (["unshare", "--pid", "--fork", "--mount-proc", self.ptbpf, "record", "-o",
                     os.path.join(self.work, "rec.ptlog"), "--"] + cmd, None, None)

        def strace_k(cmd):
            if not shutil.which("strace"):
                raise NA("strace not installed")
            return ["strace", "-f", "-k", "-o", "/dev/null"] + cmd, None, None

        def ptbpf_api(cmd):
            return [self.b("bench_ctl"), "--"] + cmd, None, None

        def strace(cmd):
            return strace_argv(cmd, "/dev/null"), None, None

        def perf(cmd):
            return perf_trace_argv(cmd, "/dev/null"), None, None

        def bpft(cmd):
            return bpftrace_argv(cmd, "/dev/null"), None, None

        return [
            ("untraced", "untraced", untraced, "n_fast"),
            ("ref", "reference tracer (tp_btf + ringbuf, timer drain)", ref, "n_fast"),
            ("ref_wake", "reference tracer, a wakeup per record past 4 KiB waiting", ref_wake,
             "n_fast"),
            # where paths are read (the tree walk): the floor of a tracer
            # that shows them, as ptbpf does
            ("ref_paths", "reference tracer + path arguments copied (-p)", ref_paths, "n_fast"),
            # the floor of a tracer that keeps its records in a file, as
            # ptbpf record -o: -p, and every record written (-o, -s)
            ("ref_file", "reference tracer + paths, records written to a file (-p -o)",
             ref_file, "n_fast"),
            ("ptbpf_live", "ptbpf record > /dev/null", ptbpf_live, "n_fast"),
            ("ptbpf_log", "ptbpf record -o FILE", ptbpf_log, "n_fast"),
            # strace -c's table from counts kept in the kernel
            ("ptbpf_c", "ptbpf record -c (counted in the kernel)", ptbpf_c, "n_fast"),
            ("ptbpf_api", "libposixtrace API, analyzer reading (bench_ctl)", ptbpf_api, "n_fast"),
            # -y: what each fd is, an fd_info event at each call that makes one
            ("ptbpf_log_y", "ptbpf record -y -o FILE (fd paths)", ptbpf_log_y, "n_fast"),
            # -s 0: no captures, arguments as pointers (record decodes by default)
            ("ptbpf_log_s0", "ptbpf record -s 0 -o FILE (no captures)", ptbpf_log_s0, "n_fast"),
            # the processes of a cgroup: the same filter as a pid's, taken in
            # by the kernel as they join
            ("ptbpf_log_cg", "ptbpf record --cgroup CG -o FILE (the workload in CG)",
             ptbpf_log_cg, "n_fast"),
            ("ptbpf_log_ns", "ptbpf record -o FILE in a pid namespace (unshare --pid)",
             ptbpf_log_ns, "n_fast"),
            ("bpftrace", "bpftrace printf > /dev/null", bpft, "n_mid"),
            ("strace", "strace -f -o /dev/null", strace, "n_slow"),
            # user stacks (-k): 8 KiB of stack a syscall into the log, and
            # strace's -k, which unwinds each call as it stops it
            ("ptbpf_log_k", "ptbpf record -k -o FILE (user stacks)", ptbpf_log_k, "n_slow"),
            # the frame-pointer walk: no copy, each distinct stack once
            ("ptbpf_log_k_fp", "ptbpf record -k --call-graph=fp -o FILE", ptbpf_log_k_fp,
             "n_slow"),
            ("strace_k", "strace -f -k -o /dev/null", strace_k, "n_slow"),
            ("perf", "perf trace -o /dev/null", perf, "n_slow"),
        ]

    @staticmethod
    def counts(key, text, expected):
        """events captured and lost, from the tracer's own summary."""
        m = None
        if key in ("ref", "ref_wake", "ref_paths", "ref_file"):
            m = re.search(r"reftracer: events (\d+) dropped (\d+)", text)
            if m:
                c = re.search(r"reftracer: events .* cpu_ns (\d+)", text)
                return dict(captured=int(m.group(1)), lost=int(m.group(2)), expected=expected,
                            cpu_ns=int(c.group(1)) if c else None)
        if key in ("ptbpf_live", "ptbpf_log", "ptbpf_log_y", "ptbpf_log_k", "ptbpf_log_k_fp",
                   "ptbpf_log_s0", "ptbpf_log_cg", "ptbpf_log_ns", "ptbpf_log_big",
                   "ptbpf_live_big", "ptbpf_build"):
            m = re.search(r"(\d+) events (?:printed|written to .* bytes\)), (\d+) lost"
                          r"(?:, \d+ late)?(?:, \d+ processes left out)?, "
                          r"[\d.]+ s, CPU ([\d.]+) s", text)
            if m:
                return dict(captured=int(m.group(1)), lost=int(m.group(2)), expected=expected,
                            cpu_ns=float(m.group(3)) * 1e9)
        if key == "ptbpf_api":
            m = re.search(r"bench_ctl: read (\d+) recorded (\d+) lost (\d+) kdropped (\d+)", text)
            if m:
                c = re.search(r"bench_ctl: read .* cpu_ns (\d+)", text)
                return dict(captured=int(m.group(1)), lost=int(m.group(3)), expected=expected,
                            note="recorded %s" % m.group(2),
                            cpu_ns=int(c.group(1)) if c else None)
        return dict(expected=expected)

    def cpu_per_event(self, key, runner, ex):
        """The tracer's own CPU per event it recorded (its threads, from the
        start of tracing to its end), less what it takes for a run of 10
        syscalls (start-up after the start of tracing, tear-down: about 10
        ms for ptbpf, about 1 % of a run of the getppid loop), measured once per
        tracer."""
        cpu = ex.pop("cpu_ns", None)
        events = ex.get("captured")
        if cpu is None or not events:
            return
        if key not in self.cpu_fixed:
            fixed = []
            for _ in range(3):
                _, text, _, _ = self.workload([self.b("bench_syscalls"), "getppid", "10"],
                                              runner)
                fixed.append(self.counts(key, text, 20).get("cpu_ns") or 0)
            self.cpu_fixed[key] = statistics.median(fixed)
        ex["cpu_per_event"] = max(0.0, cpu - self.cpu_fixed[key]) / events

    # -- sections --------------------------------------------------------------
    def syscalls(self):
        m = self.m
        tree_dir = "/usr/include"
        workloads = [
            ("getppid", "getppid loop", lambda n: ["getppid", str(n)]),
            ("tree", "tree walk (getdents/stat/open/read) of %s" % tree_dir,
             # walks in proportion to the tracer's speed, as the loops: one
             # walk is ~0.1 s untraced, too short a window for a stable figure
             lambda n: ["tree", tree_dir, str(m["tree_files"]),
                        str(max(1, round(m["tree_reps"] * n / m["n_mid"])))]),
            ("getppid2", "getppid loop, 2 threads", lambda n: ["getppid2", str(n)]),
            # the buffers that decoding copies (strace's "..." of -s 32)
            ("rw", "read/write loop (64 bytes through a pipe)", lambda n: ["rw", str(n)]),
        ]
        for wkey, wlabel, wargs in workloads:
            section = "syscalls: " + wlabel
            log("== " + section)
            items = []
            for key, label, runner, size in self.tracers():
                if key == "ref_paths" and wkey != "tree":
                    continue  # no path argument: the same as "ref"
                if (key in STACK_ROWS or key in EXTRA_ROWS) and wkey == "getppid2":
                    continue  # stacks and fds: the loop and the tree walk
                if wkey == "rw" and key not in RW_ROWS:
                    continue  # captures' cost: decoding on and off, and the peers
                if self.rows_only and key not in self.rows_only and key != "untraced":
                    continue
                cmd = [self.b("bench_syscalls")] + wargs(m[size])

                def once(cmd=cmd, runner=runner, key=key):
                    r, text, rc, _ = self.workload(cmd, runner)
                    if "ns_per_op" not in r:
                        raise NA("no result")
                    ex = self.counts(key, text, int(2 * r.get("total", 0)))
                    self.cpu_per_event(key, runner, ex)
                    return r["ns_per_op"], ex
                items.append((section, label, once, "ns/syscall",
                              dict(tracer=key, workload=wkey)))
            # ptbpf's rows are judged against the two before them in each
            # round (a VM's state can last longer than a row), and compared
            # with the floors with paths and a file right after them; -c's
            # (counted in the kernel) right after -o's
            self.group(items, reps=m["sys_reps"],
                       first=("untraced", "ref", "ptbpf_live", "ptbpf_log", "ptbpf_c",
                              "ptbpf_api", "ref_paths", "ref_file"))
            self.peer_counts(section, wargs)

    def peer_counts(self, section, wargs):
        """strace, perf trace and bpftrace write to /dev/null in their timed
        rows, so that what they capture is not known there (bpftrace writes
        its "Lost n events" lines there too): one more run of each, not
        timed, writes to a file whose lines are counted (a syscall line of
        strace or perf trace is 2 events, entry and exit, as the other rows
        count them; a bpftrace line is one event)."""
        out = os.path.join(self.work, "peer.txt")
        sizes = {key: size for key, _, _, size in self.tracers()}
        for key in ("strace", "perf", "bpftrace"):
            row = next((r for r in self.rows if r["section"] == section
                        and r.get("tracer") == key and r["median"] is not None), None)
            if row is None:
                continue
            argv = PEER_ARGV[key]  # the timed row's command, into a file
            runner = lambda c, argv=argv: (argv(c, out), None, None)
            try:
                if os.path.exists(out):
                    os.unlink(out)
                # the row's own size: a tracer's loss depends on the rate and
                # the time it has to catch up
                cmd = [self.b("bench_syscalls")] + wargs(self.m[sizes[key]])
                r, _, _, _ = self.workload(cmd, runner)
                if key == "strace":
                    captured, lost = 2 * count_strace(out), None
                elif key == "perf":
                    captured, lost = count_perf_trace(out)
                    captured *= 2
                else:
                    captured, lost = count_bpftrace(out)
            except (NA, OSError) as e:
                row["note"] = "events not counted: %s" % e
                continue
            finally:
                if os.path.exists(out):
                    os.unlink(out)
            expected = int(2 * r.get("total", 0))
            if lost is None:  # strace stops the thread at every syscall
                lost = max(0, expected - captured)
            row.update(captured=captured, expected=expected, lost=lost,
                       note="counted in one more run, into a file")
            log("    %-60s %d/%d events (%d lost)" % (row["name"][:60], captured,
                                                        expected, lost))

    def probes(self):
        """A uprobe on a function called in a tight loop, and a USDT probe
        (its semaphore raised: the probe site is the kernel's nop5 to
        optimize) hit in one: the cost per hit under ptbpf (each hit an
        event with its argument, printed or written to a log) and under
        bpftrace printing the same argument per hit, same rounds."""
        m = self.m
        prog = self.b("bench_probes")
        specs = [("uprobe", "uprobe on a function called in a loop",
                  "uprobe:%s:bench_probe_target:int" % prog,
                  "uprobe:%s:bench_probe_target" % prog),
                 ("usdt", "USDT probe (semaphore) hit in a loop",
                  "usdt:%s:ptbpf_bench:hit:int" % prog,
                  "usdt:%s:ptbpf_bench:hit" % prog)]
        for kind, label, spec, bt_probe in specs:
            section = "probes: " + label
            log("== " + section)

            def untraced(cmd):
                return cmd, None, None

            def live(cmd, spec=spec):
                if not os.access(self.ptbpf, os.X_OK):
                    raise NA("ptbpf command not built")
                return ([self.ptbpf, "record", "--stats", "-e", spec, "--"] + cmd, None,
                        subprocess.DEVNULL)

            def to_log(cmd, spec=spec):
                if not os.access(self.ptbpf, os.X_OK):
                    raise NA("ptbpf command not built")
                return ([self.ptbpf, "record", "-o", os.path.join(self.work, "probe.ptlog"),
                         "-e", spec, "--"] + cmd, None, None)

            def bpft(cmd, bt_probe=bt_probe):
                if not shutil.which("bpftrace"):
                    raise NA("bpftrace not installed")
                return (["bpftrace", "-q", "-o", "/dev/null", "-c", " ".join(cmd), "-e",
                         '%s { printf("%%d\\n", arg0); }' % bt_probe], None, None)

            items = []
            for key, name, runner in (("untraced", "untraced", untraced),
                                      ("ptbpf_live", "ptbpf record -e PROBE > /dev/null", live),
                                      ("ptbpf_log", "ptbpf record -o FILE -e PROBE", to_log),
                                      ("bpftrace", "bpftrace printf arg0 > /dev/null", bpft)):
                cmd = [prog, kind, str(m["n_mid"])]

                def once(cmd=cmd, runner=runner, key=key):
                    r, text, rc, _ = self.workload(cmd, runner)
                    if "ns_per_op" not in r:
                        raise NA("no result")
                    return r["ns_per_op"], self.counts(key, text, int(r.get("total", 0)))
                items.append((section, name, once, "ns/hit", dict(tracer=key, workload=kind)))
            self.group(items, reps=m["reps"], first=("untraced", "ptbpf_live", "ptbpf_log"))

    def uevents(self):
        m = self.m
        section = "user events (int + 64 bytes)"
        log("== " + section)
        self.items = []
        for th in (1, 2):
            def untr(th=th):
                r, _, _, _ = self.workload([self.b("bench_uevent"), str(m["ue_n"]), str(th)],
                                           lambda c: (c, None, None))
                return r["ns_per_op"], {}
            self.repeat(section, "posix_trace_event untraced, %d thread%s" % (th, "s"[:th - 1]),
                        untr, "ns/event", kind="ptbpf_untraced", threads=th)

            def traced(th=th, n=m["ue_traced_n"]):
                r, text, _, _ = self.workload(
                    [self.b("bench_uevent"), str(n), str(th)],
                    lambda c: ([self.b("bench_ctl"), "-u", "--"] + c, None, None))
                mm = re.search(r"bench_ctl: read (\d+) recorded (\d+) lost (\d+) kdropped (\d+) "
                               r"udropped (\d+)", text)
                ex = dict(expected=n)
                # ptbpf_counters.lost already counts udropped (a subset of it)
                if mm:
                    ex.update(captured=int(mm.group(1)),
                              lost=int(mm.group(3)),
                              note="recorded %s" % mm.group(2))
                return r["ns_per_op"], ex
            self.repeat(section, "posix_trace_event traced (bench_ctl), %d thread%s, %s events"
                        % (th, "s"[:th - 1], si(m["ue_traced_n"])), traced, "ns/event",
                        kind="ptbpf_traced", threads=th)
            self.repeat(section, "posix_trace_event traced (bench_ctl), %d thread%s, burst of %s"
                        % (th, "s"[:th - 1], si(BURST)),
                        lambda th=th: traced(th, BURST), "ns/event", kind="ptbpf_burst",
                        threads=th)
            self.lttng_rows(section, th)
        items, self.items = self.items, None
        self.group(items)

    def lttng_start(self):
        if self.sessiond_pid is not None:
            return
        lt = self.b("bench_uevent_lttng")
        if not os.access(lt, os.X_OK):
            raise NA("bench_uevent_lttng not built (liblttng-ust-dev missing)")
        if not shutil.which("lttng-sessiond") or not shutil.which("lttng"):
            raise NA("lttng-tools not installed")
        home = os.path.join(self.work, "lttng-home")
        os.makedirs(home, exist_ok=True)
        self.lttng_env = dict(LTTNG_HOME=home, LTTNG_UST_REGISTER_TIMEOUT="5000")
        pidfile = os.path.join(self.work, "sessiond.pid")
        rc, out, err, _ = run(["lttng-sessiond", "--daemonize", "--no-kernel",
                               "--pidfile=" + pidfile], env=self.lttng_env, timeout=60)
        if rc:
            raise NA("lttng-sessiond: " + last_line(err + out, "lttng-sessiond"))
        for _ in range(50):
            if os.path.exists(pidfile) and open(pidfile).read().strip():
                break
            time.sleep(0.1)
        self.sessiond_pid = int(open(pidfile).read().strip())

    def cgroup(self):
        """A cgroup v2 directory of the run's own (the ptbpf_log_cg rows),
        removed by cgroup_remove()."""
        if not getattr(self, "cg_dir", None):
            for root in ("/sys/fs/cgroup", "/sys/fs/cgroup/unified"):
                if os.path.exists(os.path.join(root, "cgroup.procs")) and \
                        not os.path.exists(os.path.join(root, "tasks")):
                    break
            else:
                raise NA("no cgroup v2 mount")
            self.cg_dir = os.path.join(root, "ptbpf-bench-%d" % os.getpid())
            os.makedirs(self.cg_dir, exist_ok=True)
        return self.cg_dir

    def cgroup_remove(self):
        if getattr(self, "cg_dir", None):
            try:
                os.rmdir(self.cg_dir)
            except OSError as e:
                log("cannot remove %s: %s" % (self.cg_dir, e))
            self.cg_dir = None

    def lttng_stop(self):
        if self.sessiond_pid:
            try:
                os.kill(self.sessiond_pid, signal.SIGTERM)
                for _ in range(50):
                    os.kill(self.sessiond_pid, 0)
                    time.sleep(0.1)
                os.kill(self.sessiond_pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.sessiond_pid = None

    def lttng(self, *args):
        rc, out, err, _ = run(["lttng"] + list(args), env=self.lttng_env, timeout=60)
        if rc:
            raise NA("lttng %s: %s" % (args[0], last_line(err + out, "lttng")))
        return out + err

    def lttng_rows(self, section, th):
        m = self.m
        lt = self.b("bench_uevent_lttng")
        sfx = "%d thread%s" % (th, "s"[:th - 1])

        def inactive():
            self.lttng_start()
            r, _, _, _ = self.workload([lt, str(m["ue_n"]), str(th)],
                                       lambda c: (c, self.lttng_env, None))
            return r["ns_per_op"], {}

        def active(n=m["ue_traced_n"]):
            self.lttng_start()
            out_dir = os.path.join(self.work, "lttng-trace")
            shutil.rmtree(out_dir, ignore_errors=True)
            self.lttng("create", "ptbpfbench", "--output=" + out_dir)
            try:
                self.lttng("enable-event", "-u", "bench:ev", "-s", "ptbpfbench")
                self.lttng("start", "ptbpfbench")
                r, _, _, _ = self.workload([lt, str(n), str(th)],
                                           lambda c: (c, self.lttng_env, None))
                text = self.lttng("stop", "ptbpfbench")
                mm = re.search(r"(\d+) events were discarded", text)
                lost = int(mm.group(1)) if mm else 0
                ex = dict(expected=n, captured=n - lost, lost=lost)
                if lost > n:  # LTTng's discard counter is not exact per run
                    ex = dict(expected=n, note="LTTng reported %d discarded" % lost)
            finally:
                try:
                    self.lttng("destroy", "ptbpfbench")
                except NA:
                    pass
                shutil.rmtree(out_dir, ignore_errors=True)
            return r["ns_per_op"], ex
        self.repeat(section, "LTTng-UST tracepoint, no session, " + sfx, inactive, "ns/event",
                    kind="lttng_inactive", threads=th)
        self.repeat(section, "LTTng-UST tracepoint, session active, %s, %s events"
                    % (sfx, si(m["ue_traced_n"])), active, "ns/event",
                    kind="lttng_active", threads=th)
        self.repeat(section, "LTTng-UST tracepoint, session active, %s, burst of %s"
                    % (sfx, si(BURST)), lambda: active(BURST), "ns/event",
                    kind="lttng_burst", threads=th)

    def throughput(self):
        m = self.m
        section = "throughput and loss (default sizes)"
        log("== " + section)

        def paced(runner_key, rate, losts):
            def once():
                if runner_key == "api":
                    runner = lambda c: ([self.b("bench_ctl"), "-u", "--"] + c, None, None)
                else:
                    runner = lambda c: ([self.b("bench_ctl"), "-u", "-o",
                                         os.path.join(self.work, "tput.ptlog"), "--"] + c,
                                        None, None)
                r, text, _, _ = self.workload(
                    [self.b("bench_uevent"), "rate", str(rate), str(m["rate_secs"])], runner)
                mm = re.search(r"bench_ctl: read (\d+) recorded (\d+) lost (\d+) kdropped (\d+) "
                               r"udropped (\d+)", text)
                if not mm:
                    raise NA("no bench_ctl summary")
                lost = int(mm.group(3))
                n = int(r["total"])
                cap = int(mm.group(1)) if runner_key == "api" else int(mm.group(2))
                ex = dict(expected=n, captured=cap, lost=lost)
                losts.append(ex)
                return r["ns_per_op"], ex
            return once
        for key, label in (("api", "analyzer reading"), ("log", "into a log")):
            for rate in m["rates"]:
                # judged on the median run's losses: one hiccup of the
                # machine in one run of a few seconds is not the tracer's rate
                losts = []
                row = self.repeat(section, "user events paced at %s/s, %s" % (si(rate), label),
                                  paced(key, rate, losts), "events/s", reps=m["rate_reps"],
                                  kind="rate_" + key, target=rate)
                if row and len(losts) > 1:
                    row.update(sorted(losts, key=lambda e: e["lost"])[len(losts) // 2])
                    row["note"] = "lost per run: " + ", ".join(str(e["lost"]) for e in losts)
        # syscall floods: the highest rate the syscall path sustains; ptbpf
        # at its default size (4M, for a small container: it may lose some)
        # and at the size the loss line proposes (--buffer-size 32M)
        def flood_log(size):
            return lambda c: ([self.ptbpf, "record"] + size + [
                "-o", os.path.join(self.work, "flood.ptlog"), "--"] + c, None, None)

        def flood_live(size):
            return lambda c: ([self.ptbpf, "record", "--stats"] + size + [
                "--output-text", "/dev/null", "--"] + c, None, subprocess.DEVNULL)
        big = ["--buffer-size", FLOOD_BUFSIZE]
        for key, label, runner in (
                ("ref", "reference tracer",
                 lambda c: ([self.b("reftracer"), "--"] + c, None, None)),
                ("ptbpf_log", "ptbpf record -o FILE", flood_log([])),
                ("ptbpf_live", "ptbpf record > /dev/null", flood_live([])),
                ("ptbpf_log_big", "ptbpf record --buffer-size %s -o FILE" % FLOOD_BUFSIZE,
                 flood_log(big)),
                ("ptbpf_live_big", "ptbpf record --buffer-size %s > /dev/null" % FLOOD_BUFSIZE,
                 flood_live(big))):
            losts = []

            def flood(key=key, runner=runner, losts=losts):
                if key.startswith("ptbpf") and not os.access(self.ptbpf, os.X_OK):
                    raise NA("ptbpf command not built")
                r, text, _, _ = self.workload(
                    [self.b("bench_syscalls"), "getppid2", str(m["flood_n"])], runner)
                ex = self.counts(key, text, int(2 * r["total"]))
                losts.append(ex.get("lost"))
                rate = 2 * r["total"] * 1e9 / r["elapsed_ns"]
                return rate, ex
            row = self.repeat(section, "syscall flood (getppid, 2 threads), " + label, flood,
                              "events/s", kind="flood_" + key)
            if row and len(losts) > 1:
                row["note"] = "lost per run: " + ", ".join(str(x) for x in losts)

    def logs(self):
        m = self.m
        section = "trace logs"
        log("== " + section)
        self.items = []
        ddfile = os.path.join(self.work, "dd.bin")

        def dd():
            rc, out, err, _ = run(["dd", "if=/dev/zero", "of=" + ddfile, "bs=1M",
                                   "count=%d" % m["dd_mb"], "conv=fdatasync"], timeout=300)
            os.unlink(ddfile)
            mm = re.search(r"(\d+) bytes .* copied, ([\d.]+) s", err)
            if rc or not mm:
                raise NA("dd: " + last_line(err, "dd"))
            return int(mm.group(1)) / float(mm.group(2)) / 1e6, {}
        self.repeat(section, "dd bs=1M conv=fdatasync, same filesystem", dd, "MB/s",
                    kind="dd")
        logfile = os.path.join(self.work, "write.ptlog")

        def write_api():
            n = m["log_ue_n"]
            r, text, _, _ = self.workload(
                [self.b("bench_uevent"), str(n), "1"],
                lambda c: ([self.b("bench_ctl"), "-u", "-o", logfile, "--"] + c, None, None))
            mm = re.search(r"recorded (\d+) lost (\d+) kdropped \d+ udropped (\d+) "
                           r"log_bytes (\d+) elapsed_ns (\d+)", text)
            if not mm or not int(mm.group(4)):
                raise NA("no log written: " + last_line(text, "bench_ctl"))
            return (int(mm.group(4)) / (int(mm.group(5)) / 1e9) / 1e6,
                    dict(expected=n, captured=int(mm.group(1)),
                         lost=int(mm.group(2)),
                         note="%.1f MB" % (int(mm.group(4)) / 1e6)))
        self.repeat(section, "log write, user-event flood into a log (bench_ctl -o)",
                    write_api, "MB/s", kind="logwrite_api")

        def write_alone():
            f = os.path.join(self.work, "alone.ptlog")
            n = m["log_ue_n"]
            r, _, _, _ = self.workload([self.b("bench_log"), "write", f, str(n)],
                                       lambda c: (c, None, None))
            os.unlink(f)
            return r["bytes"] / (r["elapsed_ns"] / 1e9) / 1e6, dict(
                note="%s events of 68 bytes, %.1f MB" % (si(n), r["bytes"] / 1e6))
        self.repeat(section, "log writer alone (internal log_writer, fdatasync at the end)",
                    write_alone, "MB/s", kind="logwrite_alone")

        cli_lost = []  # per run: the row is judged on every run, not the median one

        def write_cli():
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            f = os.path.join(self.work, "cli.ptlog")
            r, text, _, wall = self.workload(
                [self.b("bench_syscalls"), "getppid2", str(m["flood_n"])],
                lambda c: ([self.ptbpf, "record", "-o", f, "--"] + c, None, None))
            mm = re.search(r"(\d+) events written to .* bytes\), (\d+) lost, ([\d.]+) s", text)
            size = os.path.getsize(f) if os.path.exists(f) else 0
            if not mm or not size:
                raise NA("no log written: " + last_line(text, "ptbpf record"))
            cli_lost.append(int(mm.group(2)))
            return (size / float(mm.group(3)) / 1e6,
                    dict(expected=int(2 * r["total"]), captured=int(mm.group(1)),
                         lost=int(mm.group(2)),
                         note="%.1f MB over the whole record, %.0f bytes/event" % (
                             size / 1e6, size / max(1, int(mm.group(1))))))
        self.repeat(section, "log write, ptbpf record -o (syscall flood, whole run)",
                    write_cli, "MB/s", kind="logwrite_cli")

        def read():
            if not os.path.exists(logfile):
                raise NA("no log from the write row")
            r, _, _, _ = self.workload([self.b("bench_log"), "read", logfile],
                                       lambda c: (c, None, None))
            return 1e9 / r["ns_per_op"], dict(captured=int(r["total"]))
        self.repeat(section, "log read, posix_trace_open + getnext", read, "events/s",
                    kind="logread")
        items, self.items = self.items, None
        self.group(items)
        for row in self.rows:
            if row.get("kind") == "logwrite_cli" and row["median"] is not None:
                row["lost_runs"] = list(cli_lost)
                row["note"] += ", lost per run: " + ", ".join(str(x) for x in cli_lost)

    def startup(self):
        """The wall time of tracing a short command (true) from start to
        end, beside the same run untraced and under strace: a tracer's
        fixed cost (load, set-up, the end), which a short command in a
        script or a build pays every time: each record loads and verifies
        its BPF programs (nothing is kept from one record to the next)."""
        m = self.m
        section = "a short command (true), start to end"
        log("== " + section)
        self.items = []
        true = shutil.which("true") or "/bin/true"
        logf = os.path.join(self.work, "short.ptlog")
        for key, label, argv, out in (
                ("untraced", "untraced", [true], None),
                ("strace", "strace -f -o /dev/null", ["strace", "-f", "-o", "/dev/null", true],
                 None),
                ("ptbpf_live", "ptbpf record > /dev/null", [self.ptbpf, "record", "--", true],
                 subprocess.DEVNULL),
                ("ptbpf_log", "ptbpf record -o FILE (a first record: the programs loaded)",
                 [self.ptbpf, "record", "-o", logf, "--", true], None)):
            def once(argv=argv, out=out, key=key):
                if key.startswith("ptbpf") and not os.access(self.ptbpf, os.X_OK):
                    raise NA("ptbpf command not built")
                if key == "strace" and not shutil.which("strace"):
                    raise NA("strace not installed")
                rc, _, err, wall = run(argv, stdout=out)
                if rc:
                    raise NA(last_line(err, argv[0]))
                ex = {}
                if key == "ptbpf_log":
                    ex["note"] = "log %d bytes" % os.path.getsize(logf)
                return wall * 1e3, ex
            self.repeat(section, label, once, "ms", kind="short_" + key)
        items, self.items = self.items, None
        self.group(items, reps=max(5, m["reps"]))

    def memory(self):
        m = self.m
        section = "memory of ptbpf record"
        log("== " + section)
        for key, label, out in (("log", "ptbpf record -o FILE", None),
                                ("live", "ptbpf record > /dev/null", subprocess.DEVNULL)):
            samples = []

            def hook(p):
                t0 = time.monotonic()
                while p.poll() is None:
                    try:
                        st = open("/proc/%d/status" % p.pid).read()
                    except OSError:
                        break
                    try:
                        kids = open("/proc/%d/task/%d/children" % (p.pid, p.pid)).read().split()
                    except OSError:
                        kids = []
                    rss = re.search(r"VmRSS:\s+(\d+)", st)
                    hwm = re.search(r"VmHWM:\s+(\d+)", st)
                    if rss and hwm and "ptbpf" in open("/proc/%d/comm" % p.pid).read():
                        # kids: the workload still runs (after it ptbpf drains)
                        samples.append((time.monotonic() - t0, int(rss.group(1)),
                                        int(hwm.group(1)), bool(kids)))
                    time.sleep(0.1)

            def once(out=out, key=key):
                if not os.access(self.ptbpf, os.X_OK):
                    raise NA("ptbpf command not built")
                samples.clear()
                argv = [self.ptbpf, "record"]
                if key == "log":
                    argv += ["-o", os.path.join(self.work, "mem.ptlog")]
                else:
                    argv += ["--output-text", "/dev/null"]
                argv += ["--", self.b("bench_syscalls"), "rate", "500000", str(m["mem_secs"])]
                rc, o, e, _ = run(argv, timeout=m["mem_secs"] + 120, stdout=out,
                                  env=dict(BENCH_RESULT=os.path.join(self.work, "mem.txt")),
                                  wait_hook=hook)
                if not samples:
                    raise NA("no samples: " + last_line(e, "ptbpf"))
                hwm = max(s[2] for s in samples)
                run_s = [s for s in samples if s[3]]
                # growth in steady state: the second half of the run (the
                # first half lets buffers reach the size of the largest drain)
                warm = max(1.0, (run_s[-1][0] - run_s[0][0]) / 2) if run_s else 0
                late = [s for s in run_s if s[0] >= run_s[0][0] + warm] if run_s else []
                if len(late) < 2:
                    raise NA("too few samples while the workload ran")
                return hwm / 1024.0, dict(rss_start_kb=late[0][1], rss_end_kb=late[-1][1],
                                                  growth_kb=late[-1][1] - late[0][1],
                                                  secs=round(late[-1][0] - late[0][0], 1))
            self.repeat(section, "peak RSS (VmHWM), %s, %ss at 500k ev/s" % (label, m["mem_secs"]),
                        once, "MiB", kind="mem_" + key, reps=1)
        self.memory_peaks(section)

    def build_tree(self):
        """A small C project (BUILD_FILES files, each including a few
        system headers) and its Makefile, made once: the build row's."""
        d = os.path.join(self.work, "build")
        if not os.path.isdir(d):
            os.makedirs(d)
            for i in range(BUILD_FILES):
                with open(os.path.join(d, "f%d.c" % i), "w") as f:
                    f.write("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
                            "int f%d(const char *s)\n{\n\tchar b[64];\n\n"
                            "\tsnprintf(b, sizeof(b), \"%%s-%d\", s);\n"
                            "\treturn (int)strlen(b) + atoi(s);\n}\n" % (i, i))
            with open(os.path.join(d, "Makefile"), "w") as f:
                f.write("OBJS = $(patsubst %.c,%.o,$(wildcard f*.c))\nlib.a: $(OBJS)\n"
                        "\tar rcs $@ $^\n%.o: %.c\n\tcc -O2 -c $< -o $@\n")
        return d

    def memory_peaks(self, section):
        """ptbpf's peak resident memory at its default sizes: tracing true
        (the fixed cost: its maximum resident set from wait4, true's own is
        a few hundred KiB) and a parallel build (ptbpf's VmHWM, sampled: the
        compilers it waits for are larger), whose events must all be there
        (0 lost at the defaults)."""
        def peak(argv, own):
            p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
            if PGID_FILE:
                with open(PGID_FILE, "a") as f:
                    f.write("%d\n" % p.pid)
            hwm, ru, t0 = 0, None, time.monotonic()
            while ru is None:
                try:
                    st = open("/proc/%d/status" % p.pid).read()
                    mm = re.search(r"VmHWM:\s+(\d+)", st)
                    if mm and "ptbpf" in open("/proc/%d/comm" % p.pid).read():
                        hwm = max(hwm, int(mm.group(1)))
                except OSError:
                    pass
                pid, status, r = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    ru = (status, r)
                elif time.monotonic() - t0 > 300:
                    kill_group(p)
                    raise NA("timed out")
                else:
                    time.sleep(0.002)
            err = p.stderr.read().decode(errors="replace")
            p.returncode = os.waitstatus_to_exitcode(ru[0])
            if p.returncode:
                raise NA(last_line(err, "ptbpf"))
            return (hwm if own else max(hwm, ru[1].ru_maxrss)), err

        logf = os.path.join(self.work, "peak.ptlog")
        true = shutil.which("true") or "/bin/true"

        def short():
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            kb, _ = peak([self.ptbpf, "record", "-o", logf, "--", true], False)
            return kb / 1024.0, {}
        self.repeat(section, "peak RSS, ptbpf record -o FILE -- true", short, "MiB",
                    kind="peak_true")

        def build():
            if not os.access(self.ptbpf, os.X_OK):
                raise NA("ptbpf command not built")
            if not shutil.which("make") or not shutil.which("cc"):
                raise NA("make or cc not installed")
            d = self.build_tree()
            kb, err = peak([self.ptbpf, "record", "-f", "-o", logf, "--", "make", "-s", "-j2",
                            "-B", "-C", d], True)
            ex = self.counts("ptbpf_build", err, 0)
            ex.pop("expected", None)
            ex.pop("cpu_ns", None)
            return kb / 1024.0, ex
        self.repeat(section, "peak RSS (VmHWM), ptbpf record -f -o FILE -- make -j2 "
                    "(%d C files)" % BUILD_FILES, build, "MiB", kind="peak_build")


def si(v):
    for div, s in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= div * 0.9995:
            return ("%.3g" % (v / div)) + s
    return "%.3g" % v


def num(v):
    if v is None:
        return "-"
    if abs(v) >= 10000:
        return si(v)
    if abs(v) >= 100:
        return "%.0f" % v
    return "%.3g" % v


def fmt_row_short(r):
    return "min %s median %s %s" % (num(r["min"]), num(r["median"]), r["unit"])


# ---------------------------------------------------------------------------
# Ratios and goals, computed from the medians of the same run.
def analyse(rows):
    by = {}
    for r in rows:
        by[(r["section"], r.get("tracer") or r.get("kind"), r.get("threads"))] = r

    def get(section, key, th=None):
        r = by.get((section, key, th))
        return r if r and r["median"] is not None else None
    sections = sorted({r["section"] for r in rows if r.get("tracer")})
    for s in sections:
        base = get(s, "untraced")
        ref = get(s, "ref")
        ov = {}
        for r in rows:
            if r["section"] != s or r["median"] is None or not base:
                continue
            r["overhead"] = paired_overhead(r, base)
            r["overhead_min"] = r["min"] - base["min"]
            ov[r["tracer"]] = r
        ref_ov = ref["overhead"] if ref else None
        ref_ov_min = ref["overhead_min"] if ref else None
        for r in rows:
            if r["section"] != s or r.get("overhead") is None or r["tracer"] == "untraced":
                continue
            if ref_ov and ref_ov > 0:
                r["vs_ref"] = paired_ratio(r, ref, base)
            if ref_ov_min and ref_ov_min > 0:
                r["vs_ref_min"] = r["overhead_min"] / ref_ov_min
            rp = ov.get("ref_paths")
            if (r["tracer"] in ("ptbpf_live", "ptbpf_log", "ptbpf_api") and rp
                    and rp["overhead"] > 0):
                r["vs_ref_paths"] = paired_ratio(r, rp, base)
            rf = ov.get("ref_file")
            if r["tracer"] == "ptbpf_log" and rf and rf["overhead"] > 0:
                r["vs_ref_file"] = paired_ratio(r, rf, base)
            if r["tracer"] in ("ptbpf_live", "ptbpf_log", "ptbpf_api"):
                if r.get("vs_ref") is not None:
                    sp = ratio_spread(paired_ratios(r, ref, base), 1.2)
                    if sp:
                        r["vs_ref_q1"], r["vs_ref_q3"] = sp["q1"], sp["q3"]
                        r["rounds_within"], r["rounds"] = sp["within"], sp["rounds"]
                    r["goal"] = ("pass" if r["vs_ref"] <= 1.2 else "fail") + " (<=1.2x ref%s)" % (
                        "; %d of %d rounds within" % (sp["within"], sp["rounds"]) if sp else "")
            if r["tracer"] in ("strace", "perf"):
                ks = []
                for pk, pl in (("ptbpf_live", "live"), ("ptbpf_log", "-o")):
                    p = ov.get(pk)
                    if p and p["overhead"] > 0:
                        k = paired_ratio(r, p, base)
                        ks.append(k)
                        r.setdefault("ptbpf_frac", [])
                        r["ptbpf_frac"].append("ptbpf %s = %s" % (
                            pl, "1/%.0f" % k if k >= 1 else "%.1fx" % (1 / k)))
                if ks:
                    r["ptbpf_frac"] = ", ".join(r["ptbpf_frac"])
                    r["goal"] = ("pass" if min(ks) >= 50 else "fail") + " (ptbpf <=1/50)"
            # stacks, fds: the price of -k, -y over ptbpf -o; and the
            # overhead of -k against strace -k's on the same workload
            if r["tracer"] in EXTRA_ROWS and r["overhead"] > 0:
                lo, sk = ov.get("ptbpf_log"), ov.get("strace_k")
                if lo and lo["overhead"] > 0:
                    r["vs_log"] = paired_ratio(r, lo, base)
                    r["extra_cost"] = r["overhead"] - lo["overhead"]
                if r["tracer"] == "ptbpf_log_s0" and r.get("vs_log"):
                    # decoding's price: ptbpf -o (captures on) over -s 0
                    r["goal"] = "%s (decoding <=1.25x without: %.2fx)" % (
                        "pass" if 1 / r["vs_log"] <= 1.25 else "fail", 1 / r["vs_log"])
                if sk and sk["overhead"] > 0 and r["tracer"] in STACK_ROWS:
                    k = paired_ratio(sk, r, base)
                    r["vs_strace_k"] = k
                    r["goal"] = "%s (<=1/20 of strace -k: 1/%.0f)" % (
                        "pass" if k >= 20 else "fail", k)
        if ref:
            ref["goal"] = "floor"
    # probes: ptbpf's cost per hit against bpftrace's, same probe, same rounds
    for s in sections:
        base, bt = get(s, "untraced"), get(s, "bpftrace")
        if not s.startswith("probes: ") or not base or not bt or bt.get("overhead", 0) <= 0:
            continue
        for r in rows:
            if r["section"] == s and r.get("tracer") in ("ptbpf_live", "ptbpf_log") \
                    and r.get("overhead") is not None:
                r["vs_bpftrace"] = paired_ratio(r, bt, base)
                r["goal"] = "%s (<=1x bpftrace: %.2fx)" % (
                    "pass" if r["vs_bpftrace"] <= 1 else "fail", r["vs_bpftrace"])
    # user events
    s = "user events (int + 64 bytes)"
    for th in (1, 2):
        un, li = get(s, "ptbpf_untraced", th), get(s, "lttng_inactive", th)
        for pk, lk in (("ptbpf_traced", "lttng_active"), ("ptbpf_burst", "lttng_burst")):
            pt, la = get(s, pk, th), get(s, lk, th)
            if pt and un:
                pt["overhead"] = pt["median"] - un["median"]
                pt["overhead_min"] = pt["min"] - un["min"]
            if la and li:
                la["overhead"] = la["median"] - li["median"]
                la["overhead_min"] = la["min"] - li["min"]
            if pt and la:
                k = pt["median"] / la["median"]
                pt["vs_lttng"] = k
                pt["goal"] = "%s (<=1x LTTng, target 0.5x: %s)" % (
                    "pass" if k <= 1 else "fail", "met" if k <= 0.5 else "not met")
        if un and li:
            un["vs_lttng"] = un["median"] / li["median"]
    # throughput
    for kind in ("rate_api", "rate_log"):
        rs = [r for r in rows if r.get("kind") == kind and r["median"] is not None]
        for r in rs:
            r["goal"] = None
            if r.get("target") == 2000000:
                ok = r.get("lost") == 0 and r["median"] >= 0.95 * r["target"]
                r["goal"] = ("pass" if ok else "fail") + " (0 lost at 2M/s)"
    for r in rows:
        if r.get("kind", "").startswith("flood_") and r["median"] is not None:
            r["goal"] = "info"
    for kind, label in (("rate_api", "analyzer reading"), ("rate_log", "into a log")):
        rs = [r for r in rows if r.get("kind") == kind]
        if not rs:
            continue
        ok = [r for r in rs if r["median"] is not None and r.get("lost") == 0]
        best = max((r["median"] for r in ok), default=None)
        summ = dict(section=rs[0]["section"], unit="events/s", reps=1, values=[],
                    name="highest paced user-event rate with 0 lost, " + label,
                    kind="maxrate_" + kind[5:], min=best, median=best, na=None)
        if best is None:
            if all(r["median"] is not None for r in rs):
                summ["min"] = summ["median"] = 0.0
                summ["note"] = "every rate tried lost events"
            else:
                summ["na"] = "rows missing"
        summ["goal"] = ("pass" if (best or 0) >= 0.95 * 2e6 else "fail") + " (>= 2M/s)"
        rows.insert(rows.index(rs[-1]) + 1, summ)
    # logs
    dd = next((r for r in rows if r.get("kind") == "dd" and r["median"]), None)
    for r in rows:
        if r.get("kind", "").startswith("logwrite") and r["median"] and dd:
            r["vs_dd"] = vs_baseline(r, dd)
            r["goal"] = ("pass" if r["vs_dd"] >= 0.8 else "fail") + " (>=80% of dd)"
        if r.get("kind") == "logwrite_cli" and r["median"] and dd:
            # the workload's syscall rate, not the writer, sets its MB/s
            # (the writer is idle most of the time): judged on keeping up
            ok = all(x == 0 for x in r.get("lost_runs") or [r.get("lost")])
            r["goal"] = ("pass" if ok else "fail") + \
                " (keeps up: 0 lost in every run; MB/s set by the workload)"
        if r.get("kind") in ("short_ptbpf_live", "short_ptbpf_log") and r["median"]:
            base = next((b for b in rows if b.get("kind") == "short_untraced"
                         and b["median"]), None)
            st = next((b for b in rows if b.get("kind") == "short_strace" and b["median"]),
                      None)
            if st:
                r["vs_strace"] = vs_baseline(r, st)
            if base:
                r["overhead"] = paired_overhead(r, base)
                r["goal"] = ("pass" if r["overhead"] < 100 else "fail") + \
                    " (< 100 ms added)"
        if r.get("kind") == "short_strace" and r["median"]:
            base = next((b for b in rows if b.get("kind") == "short_untraced"
                         and b["median"]), None)
            if base:
                r["overhead"] = paired_overhead(r, base)
                r["goal"] = "info"
        if r.get("kind") in ("peak_true", "peak_build") and r["median"] is not None:
            ok = r["median"] < 48 and r.get("lost", 0) == 0
            r["goal"] = ("pass" if ok else "fail") + " (< 48 MiB%s)" % (
                ", 0 lost" if r["kind"] == "peak_build" else "")
        if r.get("kind", "").startswith("mem_") and r["median"] is not None:
            g = r.get("growth_kb", 0)
            flat = g <= max(1024, 0.05 * r.get("rss_start_kb", 0))
            r["goal"] = ("pass" if flat else "fail") + " (flat: RSS %+d kB over %ss)" % (
                g, r.get("secs"))


def paired_overhead(r, base):
    """r's overhead over the untraced base: the median of the differences
    of the repetitions run in the same round (see vs_baseline()); the
    difference of the medians when the rows do not pair up."""
    a, b = r.get("values") or [], base.get("values") or []
    if len(a) == len(b) and a:
        return statistics.median(x - y for x, y in zip(a, b))
    return r["median"] - base["median"]


def paired_ratios(r, ref, base):
    """The ratios of r's overhead over ref's in each round where ref's is
    positive (both over the untraced base of the same round); empty when
    the rows do not pair up."""
    a, b, u = r.get("values") or [], ref.get("values") or [], base.get("values") or []
    if len(a) == len(b) == len(u) and a:
        return [(x - z) / (y - z) for x, y, z in zip(a, b, u) if y > z]
    return []


def paired_ratio(r, ref, base):
    """r's overhead over ref's, both over the untraced base: the median of
    paired_ratios(); the ratio of the paired overheads when the rows do not
    pair up."""
    ks = paired_ratios(r, ref, base)
    if ks:
        return statistics.median(ks)
    return r["overhead"] / ref["overhead"]


# Rounds needed before a judged ratio's spread is shown.
SPREAD_MIN_ROUNDS = 5


def ratio_spread(ks, goal):
    """For a judged ratio near its goal, how its rounds (paired_ratios())
    spread: their quartiles and how many were within the goal (None with
    too few rounds)."""
    if len(ks) < SPREAD_MIN_ROUNDS:
        return None
    q = statistics.quantiles(ks, n=4)
    return dict(q1=q[0], q3=q[2], within=sum(k <= goal for k in ks), rounds=len(ks))


def vs_baseline(r, base):
    """r's speed over base's: the median of the ratios of the repetitions
    run side by side (the rows of a group run round-robin, so value i of
    each comes from the same round), which cancels what the machine did
    meanwhile (dd alone moved 2.7x between rounds here); the ratio of the
    medians when the rows do not pair up."""
    a, b = r.get("values") or [], base.get("values") or []
    if len(a) == len(b) and a and all(b):
        return statistics.median(x / y for x, y in zip(a, b))
    return r["median"] / base["median"]


def table(rows):
    head = ["Row", "min", "median", "unit", "overhead", "ratio", "events captured/expected (lost)",
            "goal"]
    out = []
    section = None
    for r in rows:
        if r["section"] != section:
            section = r["section"]
            out.append("")
            out.append("**%s**" % section)
            out.append("")
            out.append("| " + " | ".join(head) + " |")
            out.append("|" + "---|" * len(head))
        if r["na"]:
            out.append("| %s | n/a (%s) | | | | | | %s |" % (
                r["name"], r["na"].replace("|", "/"), "fail (no number)"))
            continue
        ratio = []
        if r.get("vs_ref") is not None or r.get("vs_ref_min") is not None:
            ratio.append("%s ref (%smin: %s)" % (
                "%.2fx" % r["vs_ref"] if r.get("vs_ref") is not None else "-",
                "rounds' quartiles %.2f-%.2f, " % (r["vs_ref_q1"], r["vs_ref_q3"])
                if r.get("vs_ref_q1") is not None else "",
                "%.2fx" % r["vs_ref_min"] if r.get("vs_ref_min") is not None else "-"))
        if r.get("vs_ref_paths") is not None:
            ratio.append("%.2fx ref + paths" % r["vs_ref_paths"])
        if r.get("vs_ref_file") is not None:
            ratio.append("%.2fx ref + file" % r["vs_ref_file"])
        if r.get("ptbpf_frac"):
            ratio.append(r["ptbpf_frac"])
        if r.get("vs_log") is not None:
            ratio.append("%.2fx ptbpf -o (%s: %s%s ns/syscall)" % (
                r["vs_log"], EXTRA_ROWS[r["tracer"]], "+" if r["extra_cost"] >= 0 else "",
                num(r["extra_cost"])))
        if r.get("vs_strace") is not None:
            ratio.append("%.1fx strace" % r["vs_strace"])
        if r.get("vs_strace_k") is not None:
            ratio.append("1/%.0f of strace -k" % r["vs_strace_k"])
        if r.get("vs_lttng") is not None:
            ratio.append("%.2fx LTTng" % r["vs_lttng"])
        if r.get("vs_dd") is not None:
            ratio.append("%.0f%% of dd" % (100 * r["vs_dd"]))
        ev = ""
        if r.get("expected") is not None or r.get("captured") is not None:
            ev = "%s/%s" % (r.get("captured", "-"), r.get("expected", "-"))
            if r.get("lost") is not None:
                ev += " (%s lost)" % r["lost"]
            if r.get("note"):
                ev += ", " + r["note"]
            if r.get("cpu_per_event") is not None:
                ev += ", tracer CPU %s ns/event" % num(r["cpu_per_event"])
        elif r.get("note"):
            ev = r["note"]
        elif r.get("growth_kb") is not None:
            ev = "RSS %d -> %d kB" % (r["rss_start_kb"], r["rss_end_kb"])
        ov = r.get("overhead")
        if ov is None or r.get("tracer") == "untraced":
            ovs = ""
        elif r.get("overhead_min") is not None:
            ovs = "%s (min: %s)" % (num(ov), num(r["overhead_min"]))
        else:
            ovs = num(ov)
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["name"], num(r["min"]), num(r["median"]), r["unit"], ovs,
            ", ".join(ratio), ev, r.get("goal") or ""))
    return "\n".join(out)


def machine():
    cpu = "?"
    try:
        for l in open("/proc/cpuinfo"):
            if l.startswith("model name"):
                cpu = l.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    # on, every BPF program run reads the clock twice more (its run time
    # is added up): a cost the BPF tracers here pay, perf trace and strace
    # do not. bench/run turns it off for the run (the kernel's default)
    # unless told otherwise; the header shows both values.
    try:
        bpf_stats = open("/proc/sys/kernel/bpf_stats_enabled").read().strip()
    except OSError:
        bpf_stats = "?"
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip()
    return dict(date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                nproc=os.cpu_count(), cpu=cpu, kernel=platform.release(),
                os=platform.freedesktop_os_release().get("PRETTY_NAME", "?")
                if hasattr(platform, "freedesktop_os_release") else "?",
                commit=rev, bpf_stats=bpf_stats,
                machine_bpf_stats=os.environ.get("PTBPF_BENCH_MACHINE_BPF_STATS", bpf_stats))


# Program types that run on events of every process (a tracepoint, a
# probe, a perf event): another tool's program of these types makes every
# traced syscall cost more, whichever tracer is measured.
TRACING_PROG_TYPES = {"tracepoint", "raw_tracepoint", "raw_tracepoint_writable", "tracing",
                      "kprobe", "perf_event"}


def other_tracers():
    """Tracing BPF programs loaded now (before the run starts any): one
    "id name (type, held by comm/pid)" string each; None if bpftool cannot
    tell."""
    try:
        p = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True,
                           timeout=30)
        progs = json.loads(p.stdout or "[]")
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    if p.returncode:
        return None
    out = []
    for pr in progs:
        if pr.get("type") not in TRACING_PROG_TYPES:
            continue
        who = ", ".join("%s/%s" % (h.get("comm", "?"), h.get("pid", "?"))
                        for h in pr.get("pids", [])) or "a process bpftool does not name"
        out.append("%s %s (%s, held by %s)" % (pr.get("id"), pr.get("name", "?"),
                                               pr.get("type"), who))
    return out


def main():
    global PGID_FILE
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=sorted(MODES), default="full")
    ap.add_argument("--build")
    ap.add_argument("--workdir")
    ap.add_argument("--results", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--only", default="", help="comma-separated sections to run")
    ap.add_argument("--rows", default="",
                    help="comma-separated tracer keys of the syscalls sections to run "
                         "(untraced always), e.g. ptbpf_log,ptbpf_log_k,strace_k")
    ap.add_argument("--allow-other-tracers", action="store_true",
                    help="run although other tools' tracing BPF programs are loaded")
    ap.add_argument("--reanalyse", metavar="JSON",
                    help="recompute the ratios and goals of a run's JSON results with this "
                         "version's analysis, and write them to --results (nothing is run)")
    args = ap.parse_args()
    if args.reanalyse:
        return reanalyse(args.reanalyse, args.results)
    if not args.build or not args.workdir:
        ap.error("--build and --workdir are required")
    PGID_FILE = os.path.join(args.workdir, "pgids")
    # SIGTERM (bench/run's EXIT trap) unwinds like Ctrl-C: the finally
    # clauses kill the running command's group and stop lttng-sessiond.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    others = other_tracers()
    if others is None:
        log("warning: bpftool could not list the BPF programs loaded: other tracers not checked")
    elif others:
        msg = ("other tracing BPF programs are loaded; every traced syscall pays for them, "
               "and the figures would be wrong:\n  " + "\n  ".join(others))
        if args.mode != "smoke" and not args.allow_other_tracers:
            print("bench: " + msg + "\nstop them, or run with --allow-other-tracers",
                  file=sys.stderr)
            return 2
        log("warning: " + msg)
    b = Bench(args)
    mach = machine()
    mach["other_tracers"] = others
    log("ptbpf benchmark, mode %s: %s, %s CPUs, kernel %s, commit %s" % (
        args.mode, mach["cpu"], mach["nproc"], mach["kernel"], mach["commit"]))
    sections = [("syscalls", b.syscalls), ("probes", b.probes), ("uevents", b.uevents),
                ("throughput", b.throughput), ("logs", b.logs), ("memory", b.memory),
                ("startup", b.startup)]
    only = set(filter(None, args.only.split(",")))
    t0 = time.monotonic()
    try:
        for name, fn in sections:
            if only and name not in only:
                continue
            try:
                fn()
            except Exception as e:
                b.add_na(name, "(section)", "%s: %s" % (type(e).__name__, e))
    finally:
        b.lttng_stop()
        b.cgroup_remove()
    analyse(b.rows)
    mach["mode"] = args.mode
    mach["duration_s"] = round(time.monotonic() - t0)
    return write_results(args.results, mach, b.rows, b.cpu_fixed)


def write_results(results, mach, rows, cpu_fixed):
    """Prints the table and writes results/latest.{json,md}; 1 if a row has
    no number."""
    stats = "kernel.bpf_stats_enabled=%s" % mach["bpf_stats"]
    if mach["machine_bpf_stats"] != mach["bpf_stats"]:
        stats += " during the run, %s on the machine" % mach["machine_bpf_stats"]
    mode = mach["mode"]
    hdr = ("ptbpf benchmarks, %s mode, %s: %s, %d CPUs (%s), kernel %s (%s), commit %s; "
           "%d repetitions (%d for syscall capture), %.0f s"
           % (mode, mach["date"], mach["os"], mach["nproc"], mach["cpu"], mach["kernel"],
              stats, mach["commit"], MODES[mode]["reps"], MODES[mode]["sys_reps"],
              mach["duration_s"]))
    if mach.get("other_tracers"):
        hdr += "; other tracing BPF programs were loaded: " + "; ".join(mach["other_tracers"])
    if mach.get("analysed_by"):
        hdr += "; ratios and goals computed again by commit %s" % mach["analysed_by"]
    md = hdr + "\n" + table(rows) + "\n"
    print(md)
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "latest.json"), "w") as f:
        json.dump(dict(machine=mach, rows=rows, tracer_cpu_fixed_ns=cpu_fixed), f, indent=1,
                  default=str)
    with open(os.path.join(results, "latest.md"), "w") as f:
        f.write(md)
    missing = [r for r in rows if r["median"] is None]
    if missing:
        log("%d row(s) without a number" % len(missing))
    return 1 if missing else 0


def reanalyse(path, results):
    """A run's saved rows (their repetitions are kept) analysed again: the
    numbers are the run's, the ratios and goals this version's."""
    with open(path) as f:
        d = json.load(f)
    mach = d["machine"]
    # the rows analyse() adds (highest rate with 0 lost) are made again
    rows = [r for r in d["rows"] if not str(r.get("kind", "")).startswith("maxrate_")]
    for r in rows:
        r.pop("ptbpf_frac", None)  # analyse() builds it from a list
    analyse(rows)
    commit = machine()["commit"]
    if mach.get("commit") != commit:
        mach["analysed_by"] = commit
    return write_results(results, mach, rows, d.get("tracer_cpu_fixed_ns"))


if __name__ == "__main__":
    sys.exit(main())
