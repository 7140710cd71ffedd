#!/usr/bin/env python3
# The checks of look.test.sh: strace's look of ptbpf's text, each applied
# to strace's output and to ptbpf's of the same run. usage:
#   look_check.py same STRACE PTBPF      one process on stderr: every line
#       the same once decode_agree.py's normalisation (pids, addresses,
#       times, random bytes, the padding before " = ") is applied
#   look_check.py align COLUMN FILE...   " = " where strace's tabto puts it:
#       at COLUMN, or one space after the call's ")" when that is further
#   look_check.py forks [--strict] FILE...   -f on stderr: "[pid %5u] "
#       exactly while two processes or more are traced, no leader while one
#       is (a new one is traced from its first line, or before: strace may
#       attach it earlier; --strict: from its parent's fork's result, as
#       ptbpf counts it from its fork)
#   look_check.py file_pids FILE...      -f -o: "%-5u " before every line
#   look_check.py times MODE START END MIN FILE...   -t, -tt, -ttt, -r,
#       -t -r (MODE t, tt, ttt, r, tr): the leader of every line, the time
#       of day within the run (START, END: the clock before and after), -r's
#       intervals non-negative, the first 0, their sum at least MIN and at
#       most the run's length
#   look_check.py comm FILE...           -Y -f: "[pid %5u<COMM>] "; prints
#       the names seen
#   look_check.py marks STRACE PTBPF     the "---" and "+++" lines, leaders
#       and pids set aside: the same ones in both (in any order)
#   look_check.py lines FILE             the lines, strace's messages removed
# strace's own messages ("strace: Process N attached", which may cut a
# line in two) are set aside first. Exit 1 with the reason on failure.
import difflib
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from decode_agree import norm as syscall_norm  # noqa: E402
from strace_cmp import PIDS, TIMES  # noqa: E402

MESSAGE = re.compile(r'strace: (?:Process \d+ (?:attached|detached)|\[ Process PID=\d+ runs in .* \])\n')
PID_LEADER = re.compile(r'^\[pid (?P<pid> *\d+)(?:<(?P<comm>[^>]*)>)?\] (?P<rest>.*)$')
SYSCALL = re.compile(r'^\w+\(')
RESULT = re.compile(r'^(.*\)) +(= .*)$')
FORK_ENTRY = re.compile(r'^(clone|clone3|fork|vfork)\(')
FORK_RESULT = re.compile(r'^(?:(?:clone|clone3|fork|vfork)\(|<\.\.\. (?:clone|clone3|fork|vfork) resumed>).* = (\d+)$')
CHILD_RETURN = re.compile(r'<\.\.\. (?:clone|clone3|fork|vfork) resumed>.* = 0$')
OWN = re.compile(r'^(=== |proc_exec |proc_fork |signal_generate |ptbpf: )')


def lines_of(path):
    """The lines of a file (bytes as latin-1: columns are bytes, as
    strace counts them), strace's own messages removed."""
    with open(path, encoding='latin-1') as f:
        text = MESSAGE.sub('', f.read())
    return [ln for ln in text.split('\n') if ln and not ln.startswith('strace: ')]


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def other_norm(text):
    text = re.sub(r'\) +(= .*)$', r') \1', text)
    text = PIDS.sub(lambda m: (m.group(1) + '=N') if m.group(1) else m.group(2) + '(N', text)
    return TIMES.sub(lambda m: m.group(1) + '=N', text)


def norm(text):
    return syscall_norm(text) if SYSCALL.match(text) else other_norm(text)


def cmd_same(spath, ppath):
    s = [norm(t) for t in lines_of(spath)]
    p = [norm(t) for t in lines_of(ppath)]
    if len(s) < 20:
        fail('%s: only %d lines' % (spath, len(s)))
    if s != p:
        print(''.join(difflib.unified_diff([t + '\n' for t in s], [t + '\n' for t in p],
                                           'strace', 'ptbpf', n=1)))
        fail('%s and %s: not the same lines' % (spath, ppath))
    print('same: %d lines' % len(s))


def cmd_align(column, paths):
    column = int(column)
    for path in paths:
        n = 0
        for line in lines_of(path):
            m = RESULT.match(line)
            if not m:
                continue
            want = max(column, len(m.group(1)) + 1)
            at = len(line) - len(m.group(2))
            if at != want:
                fail('%s: "=" at column %d, strace\'s tabto puts it at %d: %s' % (path, at, want, line))
            n += 1
        if n < 20:
            fail('%s: only %d lines with a result' % (path, n))
        print('align %d: %s: %d results in place' % (column, path, n))


def leader(line):
    """(pid or None, its field as printed, comm or None, the rest)"""
    m = PID_LEADER.match(line)
    if not m:
        return None, None, None, line
    return int(m.group('pid')), m.group('pid'), m.group('comm'), m.group('rest')


def check_pid_field(path, field, line):
    if len(field) != max(5, len(field.strip())):
        fail('%s: not "[pid %%5u] ": %s' % (path, line))


def cmd_forks(paths, strict):
    for path in paths:
        lines = lines_of(path)
        children = set()
        for line in lines:
            m = FORK_RESULT.match(leader(line)[3])
            if m and int(m.group(1)):
                children.add(int(m.group(1)))
        if not children:
            fail('%s: no fork' % path)
        nalive, pending, seen, with_pid, without = 1, 0, set(), 0, 0
        for line in lines:
            pid, field, _, text = leader(line)
            if OWN.match(text) or CHILD_RETURN.search(text):
                fail('%s: a line strace does not print: %s' % (path, line))
            if pid in children and pid not in seen:
                seen.add(pid)
                nalive += 1
                pending = max(0, pending - 1)
            if pid is not None:
                check_pid_field(path, field, line)
                with_pid += 1
                if nalive < 2 and not pending:
                    fail('%s: "[pid N] " while one process is traced: %s' % (path, line))
            else:
                without += 1
                if nalive > 1:
                    fail('%s: no "[pid N] " while %d processes are traced: %s' % (path, nalive, line))
            if text.startswith('+++ ') and pid in children:
                nalive -= 1
            if FORK_ENTRY.match(text):
                pending += 1
            m = FORK_RESULT.match(text)
            if strict and m and int(m.group(1)) in children and int(m.group(1)) not in seen:
                seen.add(int(m.group(1)))
                nalive += 1
                pending = max(0, pending - 1)
        if seen != children:
            fail('%s: children %s, lines of %s' % (path, sorted(children), sorted(seen)))
        if not with_pid or not without:
            fail('%s: %d lines with a pid, %d without' % (path, with_pid, without))
        print('forks: %s: %d children, %d lines with "[pid N] ", %d without' %
              (path, len(children), with_pid, without))


def cmd_file_pids(paths):
    for path in paths:
        pids = set()
        for line in lines_of(path):
            m = re.match(r'^(\d+)( +)\S', line)
            if not m or len(m.group(1)) + len(m.group(2)) != max(5, len(m.group(1))) + 1:
                fail('%s: not "%%-5u " before the line: %s' % (path, line))
            if OWN.match(line[m.end() - 1:]):
                fail('%s: a line strace does not print: %s' % (path, line))
            pids.add(m.group(1))
        if len(pids) < 2:
            fail('%s: lines of %d process' % (path, len(pids)))
        print('file_pids: %s: %d processes' % (path, len(pids)))


CLOCK = r'(\d\d):(\d\d):(\d\d)'
TIME_LEADERS = {
    't': re.compile('^' + CLOCK + r' (?P<rest>.*)$'),
    'tt': re.compile('^' + CLOCK + r'\.\d{6} (?P<rest>.*)$'),
    'ttt': re.compile(r'^(?P<epoch>\d+\.\d{6}) (?P<rest>.*)$'),
    'r': re.compile(r'^(?P<rs>( *)(\d+))\.(?P<ru>\d{6}) (?P<rest>.*)$'),
    'tr': re.compile('^' + CLOCK + r' \(\+(?P<rs>( *)(\d+))\.(?P<ru>\d{6})\) (?P<rest>.*)$'),
}


def day_seconds(epoch):
    t = time.localtime(epoch)
    return t.tm_hour * 3600 + t.tm_min * 60 + t.tm_sec


def cmd_times(mode, start, end, least, paths):
    start, end, least = float(start), float(end), float(least)
    rx = TIME_LEADERS[mode]
    for path in paths:
        deltas = []
        lines = lines_of(path)
        for line in lines:
            m = rx.match(line)
            if not m:
                fail('%s: not the leader of -%s: %s' % (path, mode, line))
            if mode in ('t', 'tt', 'tr'):
                s = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))
                lo, hi = day_seconds(start - 2), day_seconds(end + 2)
                if not (lo <= s <= hi if lo <= hi else s >= lo or s <= hi):
                    fail('%s: %s is not in the run (%s): %s' % (path, m.group(0)[:8], time.ctime(start), line))
            if mode == 'ttt' and not start - 1 <= float(m.group('epoch')) <= end + 1:
                fail('%s: %s is not in the run (%.6f to %.6f)' % (path, m.group('epoch'), start, end))
            if mode in ('r', 'tr'):
                if len(m.group('rs')) != max(6, len(m.group('rs').strip())):
                    fail('%s: not %%6ld.%%06ld: %s' % (path, line))
                deltas.append(int(m.group('rs')) + int(m.group('ru')) / 1e6)
        if deltas:
            if deltas[0] != 0:
                fail('%s: the first line\'s interval is %f, not 0' % (path, deltas[0]))
            total = sum(deltas)
            if not least <= total <= end - start + 0.05:
                fail('%s: -r\'s intervals add up to %.6f s, the run took %.6f s (at least %.3f s asleep)' %
                     (path, total, end - start, least))
            print('times -%s: %s: %d lines, intervals add up to %.3f s of %.3f s' %
                  (mode, path, len(lines), total, end - start))
        else:
            print('times -%s: %s: %d lines in the run' % (mode, path, len(lines)))


def cmd_comm(paths):
    for path in paths:
        names, n = set(), 0
        for line in lines_of(path):
            pid, field, comm, _ = leader(line)
            if pid is None:
                continue
            if comm is None or not comm:
                fail('%s: no <COMM> after the pid: %s' % (path, line))
            check_pid_field(path, field, line)
            names.add(comm)
            n += 1
        if not n:
            fail('%s: no line with "[pid N<COMM>] "' % path)
        print(' '.join(sorted(names)))


def marks(path):
    out = []
    for line in lines_of(path):
        text = leader(line)[3]
        if text.startswith('--- ') or text.startswith('+++ '):
            out.append(other_norm(text))
    return sorted(out)


def cmd_marks(spath, ppath):
    s, p = marks(spath), marks(ppath)
    if s != p:
        print('strace:\n  ' + '\n  '.join(s))
        print('ptbpf:\n  ' + '\n  '.join(p))
        fail('not the same --- and +++ lines')
    print('marks: %s' % ('; '.join(s) if s else 'none'))


def main():
    a = sys.argv[1:]
    cmd = a.pop(0) if a else ''
    if cmd == 'same' and len(a) == 2:
        cmd_same(*a)
    elif cmd == 'align' and len(a) >= 2:
        cmd_align(a[0], a[1:])
    elif cmd == 'forks' and a:
        strict = a[0] == '--strict'
        cmd_forks(a[1:] if strict else a, strict)
    elif cmd == 'file_pids' and a:
        cmd_file_pids(a)
    elif cmd == 'times' and len(a) >= 5:
        cmd_times(a[0], a[1], a[2], a[3], a[4:])
    elif cmd == 'comm' and a:
        cmd_comm(a)
    elif cmd == 'marks' and len(a) == 2:
        cmd_marks(*a)
    elif cmd == 'lines' and len(a) == 1:
        print('\n'.join(lines_of(a[0])))
    else:
        sys.exit('usage: look_check.py same|align|forks|file_pids|times|comm|marks|lines ... (see its head)')


if __name__ == '__main__':
    main()
