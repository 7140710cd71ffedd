#!/usr/bin/env python3
# How much of strace's decoding ptbpf reproduces, for one run of a program
# under each (issue #35): usage
#   decode_agree.py STRACE_OUT PTBPF_OUT [--min PCT] [--show N] [--name NAME]
# STRACE_OUT is strace -f -s 32 -o's file, PTBPF_OUT ptbpf record -f's text
# (--output-text), or a second strace file (to measure the noise of two
# runs of strace). Prints "AGREE NAME: P% (M/N strace lines)": the share of
# strace's syscall lines that ptbpf printed identically, once what differs
# from run to run is set aside. Exit 1 when P is below --min, 2 when a file
# cannot be read or STRACE_OUT holds no syscall line.
#
# Both files are parsed by strace_cmp.joined(): a call split into
# "<unfinished ...>" and "<... NAME resumed>" is one line again. Then each
# line is normalised (norm() below): pids and tids (arguments of kill,
# wait4..., results of clone, fork, wait4, getpid..., si_pid=, clone3's
# parent_tid=[N], /proc/N/),
# times (si_utime=, clock readings, epoch seconds), the volatile counters of
# sysinfo, getrandom's bytes and addresses (hex numbers of 5+ digits)
# become placeholders; strace's column padding before "=" goes. Everything
# else must be the same to the byte: quotes, escapes, flags, "...".
#
# The two runs are separate, so their threads interleave differently and
# have different ids: lines are compared within a process, never across.
# Processes are grouped (ptbpf names pid/tid; in strace's file a thread
# belongs to the process whose clone(CLONE_THREAD) returned its id) and
# paired greedily by the number of lines they share (then of syscall names,
# then by order of appearance), which follows the program's structure, not
# the scheduler's. A single-threaded process is compared in order (a
# longest common subsequence: a line counts when it is at its place, one
# call missing or extra costs only itself); a multi-threaded one as a
# multiset of all its threads' lines, since which thread does which piece
# of work may change between runs. A strace process without a partner
# agrees on nothing. Only syscall lines count; strace's "---" signal and
# "+++" exit lines are reported beside, as ptbpf's lines strace does not
# have.
#
# --show N: the N syscalls with the most lines that differ, each with one
# example: strace's line and the line of ptbpf's, of the same syscall in the
# paired process, nearest to it (what a decoder author reads first).
import argparse
import collections
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from strace_cmp import PTBPF_PID, STRACE, TIMES, joined  # noqa: E402

SYSCALL = re.compile(r'^(\w+)\(')
PADDING = re.compile(r'\) +(= .*)$')
ADDRESS = re.compile(r'\b0x[0-9a-f]{5,}\b(?! \(flags )')  # not fcntl's F_GETFL result
RESULT_NUM = re.compile(r' = (\d+)$')
INTEGER = re.compile(r'^\s*(-?)(\d+)\s*$')
NEW_THREAD = re.compile(r'^clone3?\(.*\bCLONE_THREAD\b.* = (\d+)$')

# Arguments (0-based) that are pids or tids, per syscall.
PID_ARGS = {
    'kill': (0,), 'tkill': (0,), 'tgkill': (0, 1), 'wait4': (0,), 'waitid': (1,),
    'getpgid': (0,), 'setpgid': (0, 1), 'getsid': (0,), 'pidfd_open': (0,),
    'prlimit64': (0,), 'sched_getaffinity': (0,), 'sched_setaffinity': (0,),
    'sched_getparam': (0,), 'sched_setparam': (0,), 'sched_getscheduler': (0,),
    'sched_setscheduler': (0,), 'sched_getattr': (0,), 'sched_setattr': (0,),
    'rt_sigqueueinfo': (0,), 'rt_tgsigqueueinfo': (0, 1), 'process_vm_readv': (0,),
    'process_vm_writev': (0,), 'get_robust_list': (0,), 'ioprio_get': (1,),
    'ioprio_set': (1,), 'kcmp': (0, 1), 'ptrace': (1,),
}
# Syscalls whose result is a pid or a tid.
PID_RESULTS = {
    'clone', 'clone3', 'fork', 'vfork', 'wait4', 'waitpid', 'getpid', 'gettid',
    'getppid', 'set_tid_address', 'getpgrp', 'getpgid', 'getsid', 'setsid',
}
# Syscalls that read a clock: every number of their timespecs and timevals
# (and time's and times' result) is a time.
CLOCK_READS = {'clock_gettime', 'gettimeofday', 'time', 'times', 'timerfd_gettime',
               'timer_gettime'}
# Anywhere: a pid field, a time field or an epoch-like number of seconds.
PID_FIELD = re.compile(r'\b(si_pid|pid)=\d+')
PID_LIST = re.compile(r'\b(parent_tid|child_tid)=\[\d+\]')  # clone3's
EPOCH = re.compile(r'\b(tv_sec|\w+time)=\d{9,}(, (?:tv_nsec|tv_usec|\w+time_nsec)=\d+)?')
CLOCK_FIELD = re.compile(r'\b(tv_sec|tv_nsec|tv_usec|tms_\w+)=\d+')
PROC_PID = re.compile(r'/proc/\d+(?=/|"|$)')
PID_TAG = re.compile(r'\[pid +\d+\]')
SYSINFO_FIELD = re.compile(r'\b(uptime|freeram|sharedram|bufferram|freeswap|procs|freehigh)=\d+')
SYSINFO_LOADS = re.compile(r'\bloads=\[[\d, ]*\]')
RANDOM_BYTES = re.compile(r'^getrandom\("(?:[^"\\]|\\.)*"(?:\.\.\.)?')


def arg_spans(text, start, count):
    """The (begin, end) offsets of the first count top-level arguments of
    the call whose argument list begins at text[start]."""
    spans, depth, quote, i, begin = [], 0, False, start, start
    while i < len(text) and len(spans) < count:
        c = text[i]
        if quote:
            if c == '\\':
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
        elif c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                spans.append((begin, i))
                break
            depth -= 1
        elif c == ',' and depth == 0:
            spans.append((begin, i))
            begin = i + 1
        i += 1
    return spans


def pid_args(name, text):
    """text with the pid arguments of name (kill(1234, ...) not 0, -1, 1)
    replaced by PID."""
    want = PID_ARGS.get(name)
    if not want:
        return text
    spans = arg_spans(text, len(name) + 1, max(want) + 1)
    for i in sorted(want, reverse=True):
        if i >= len(spans):
            continue
        b, e = spans[i]
        m = INTEGER.match(text[b:e])
        if m and int(m.group(2)) > 1:
            text = text[:b] + text[b:e].replace(m.group(2), 'PID', 1) + text[e:]
    return text


def norm(text):
    """A syscall line with what differs from run to run set aside."""
    text = PADDING.sub(r') \1', text)
    name = SYSCALL.match(text).group(1)
    text = ADDRESS.sub('0xADDR', text)
    text = pid_args(name, text)
    if name in PID_RESULTS:
        text = RESULT_NUM.sub(' = PID', text)
    text = PID_FIELD.sub(r'\1=PID', text)
    text = PID_LIST.sub(r'\1=[PID]', text)
    text = PID_TAG.sub('[pid PID]', text)
    text = PROC_PID.sub('/proc/PID', text)
    text = TIMES.sub(r'\1=T', text)
    text = EPOCH.sub(lambda m: m.group(1) + '=T' + (', T' if m.group(2) else ''), text)
    if name in CLOCK_READS:
        text = CLOCK_FIELD.sub(r'\1=T', text)
        if name in ('time', 'times'):
            text = RESULT_NUM.sub(' = T', text)
    if name == 'sysinfo':
        text = SYSINFO_FIELD.sub(r'\1=V', text)
        text = SYSINFO_LOADS.sub('loads=[V]', text)
    if name == 'getrandom':
        text = RANDOM_BYTES.sub('getrandom("<random>"', text)
    return text


class Process:
    def __init__(self, key, order):
        self.key, self.order, self.threads = key, order, collections.OrderedDict()
        self.signals, self.exits = collections.Counter(), collections.Counter()

    def lines(self):
        return [line for seq in self.threads.values() for line in seq]


def processes(path, line_re, process_of):
    """[Process] of one file, in order of appearance: each thread's syscall
    lines normalised, its --- and +++ lines counted."""
    threads = joined(path, line_re)
    owner = process_of(threads)
    procs = collections.OrderedDict()
    for tid, texts in threads.items():
        key = owner(tid)
        p = procs.setdefault(key, Process(key, len(procs)))
        seq = p.threads.setdefault(tid, [])
        for text in texts:
            if text.startswith('--- '):
                p.signals[PID_FIELD.sub(r'\1=PID', TIMES.sub(r'\1=T', text))] += 1
            elif text.startswith('+++ '):
                p.exits[text] += 1
            elif SYSCALL.match(text):
                seq.append(norm(text))
    return [p for p in procs.values() if p.threads and p.lines() or p.signals or p.exits]


def strace_owner(threads):
    """tid -> its process's first tid, from the clone(CLONE_THREAD) calls."""
    creator = {}
    for tid, texts in threads.items():
        for text in texts:
            m = NEW_THREAD.match(PADDING.sub(r') \1', text))
            if m:
                creator[m.group(1)] = tid

    def owner(tid):
        seen = set()
        while tid in creator and tid not in seen:
            seen.add(tid)
            tid = creator[tid]
        return tid
    return owner


def ptbpf_owner(threads):
    return lambda tid: tid.split('/')[0]


def shared(a, b):
    return sum((collections.Counter(a) & collections.Counter(b)).values())


def pair(sprocs, pprocs):
    """{strace Process index: ptbpf Process index}, greedily by shared lines,
    then shared syscall names, then nearness in order of appearance."""
    names = lambda p: [SYSCALL.match(line).group(1) for line in p.lines()]
    snames, pnames = [names(p) for p in sprocs], [names(p) for p in pprocs]
    scores = []
    for i, s in enumerate(sprocs):
        for j, p in enumerate(pprocs):
            by_name = shared(snames[i], pnames[j])
            if by_name or (not snames[i] and not pnames[j]):
                scores.append((-shared(s.lines(), p.lines()), -by_name,
                               abs(s.order - p.order), i, j))
    pairs, used = {}, set()
    for _, _, _, i, j in sorted(scores):
        if i not in pairs and j not in used:
            pairs[i] = j
            used.add(j)
    return pairs


def same_places(a, b, i1, i2, j1, j2):
    """{i: [line]} for a[i1:i2] replaced by b[j1:j2]: the k-th call of a
    syscall in one with the k-th in the other ([] when the other has none)."""
    mine, theirs = collections.defaultdict(list), collections.defaultdict(list)
    for i in range(i1, i2):
        mine[SYSCALL.match(a[i]).group(1)].append(i)
    for j in range(j1, j2):
        theirs[SYSCALL.match(b[j]).group(1)].append(b[j])
    out = {}
    for name, idx in mine.items():
        for k, i in enumerate(idx):
            out[i] = theirs[name][k:k + 1]
    return out


def matched(s, p):
    """(the indices in s.lines() of the lines that have their partner in
    p.lines(), {index of a line that has none: the lines of p.lines() at its
    place}). In order for single-threaded processes, else as multisets."""
    a, b = s.lines(), p.lines()
    if len(s.threads) == 1 and len(p.threads) == 1:
        sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
        ok, place = set(), {}
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == 'equal':
                ok.update(range(i1, i2))
            elif op == 'replace':
                place.update(same_places(a, b, i1, i2, j1, j2))
        return ok, place
    left, ok = collections.Counter(b), set()
    for i, line in enumerate(a):
        if left[line]:
            left[line] -= 1
            ok.add(i)
    return ok, {}


def nearest(line, candidates):
    """The candidate most like line ('' when there is none)."""
    best, best_ratio = '', -1.0
    for c in candidates[:2000]:
        sm = difflib.SequenceMatcher(None, line, c, autojunk=False)
        if sm.real_quick_ratio() <= best_ratio or sm.quick_ratio() <= best_ratio:
            continue
        r = sm.ratio()
        if r > best_ratio:
            best, best_ratio = c, r
    return best


def second_is_strace(path):
    """Whether PTBPF_OUT is in strace's form: a second strace file (strace
    against itself: the measure's noise floor), or ptbpf's text in strace's
    look (its default), read the same way."""
    with open(path, errors='replace') as f:
        for raw in f:
            if raw.strip():
                return bool(STRACE.match(raw)) and not PTBPF_PID.OWN.match(raw)
    return False


def program_name(sprocs):
    for p in sprocs:
        for line in p.lines():
            m = re.match(r'^execve\("(?:[^"]*/)?([^"/]+)"', line)
            if m:
                return m.group(1)
    return '?'


def main():
    ap = argparse.ArgumentParser(description='agreement of ptbpf record with strace -f -s 32')
    ap.add_argument('strace_out')
    ap.add_argument('ptbpf_out')
    ap.add_argument('--min', type=float, default=0.0, metavar='PCT')
    ap.add_argument('--show', type=int, default=0, metavar='N')
    ap.add_argument('--name', help='the program in the AGREE line (default: from strace\'s '
                    'first execve)')
    args = ap.parse_args()

    try:
        sprocs = processes(args.strace_out, STRACE, strace_owner)
        if second_is_strace(args.ptbpf_out):
            pprocs = processes(args.ptbpf_out, STRACE, strace_owner)
        else:
            pprocs = processes(args.ptbpf_out, PTBPF_PID, ptbpf_owner)
    except OSError as e:
        print('decode_agree.py: %s' % e, file=sys.stderr)
        return 2
    name = args.name or program_name(sprocs)
    total = sum(len(p.lines()) for p in sprocs)
    if not total:
        print('AGREE %s: no syscall line in %s' % (name, args.strace_out))
        return 2
    pairs = pair(sprocs, pprocs)

    agree, extra = 0, 0
    sig = [0, 0]
    exits = [0, 0]
    # syscall -> [(strace line, ptbpf lines at its place, ptbpf Process or None)]
    differ = collections.OrderedDict()
    for i, s in enumerate(sprocs):
        p = pprocs[pairs[i]] if i in pairs else None
        ok, place = matched(s, p) if p else (set(), {})
        agree += len(ok)
        for k, line in enumerate(s.lines()):
            if k not in ok:
                differ.setdefault(SYSCALL.match(line).group(1), []).append(
                    (line, place.get(k, []), p))
        sig[1] += sum(s.signals.values())
        exits[1] += sum(s.exits.values())
        if p:
            sig[0] += sum((s.signals & p.signals).values())
            exits[0] += sum((s.exits & p.exits).values())
            extra += len(p.lines()) - len(ok)
    extra += sum(len(p.lines()) for j, p in enumerate(pprocs) if j not in pairs.values())

    pct = 100.0 * agree / total
    print('AGREE %s: %.1f%% (%d/%d strace lines)' % (name, pct, agree, total))
    print('  also: --- lines %d/%d, +++ lines %d/%d identical; processes paired %d/%d; '
          'ptbpf lines strace has not: %d' % (sig[0], sig[1], exits[0], exits[1], len(pairs),
                                               len(sprocs), extra))
    worst = sorted(differ.items(), key=lambda kv: -len(kv[1]))[:max(args.show, 0)]
    for syscall, cases in worst:
        line, at_place, p = cases[0]
        # the same syscall's line at its place, else anywhere in its process
        pool = [x for x in at_place if x.startswith(syscall + '(')]
        if not pool:
            pool = [x for x in (p.lines() if p else []) if x.startswith(syscall + '(')]
        if not pool:
            pool = [x for q in pprocs for x in q.lines() if x.startswith(syscall + '(')]
        print('  %s: %d %s, e.g.' % (syscall, len(cases),
                                    'line differs' if len(cases) == 1 else 'lines differ'))
        print('    strace: ' + line)
        print('    ptbpf:  ' + (nearest(line, pool) or '(no %s line)' % syscall))
    return 1 if pct < args.min else 0


if __name__ == '__main__':
    sys.exit(main())
