#!/usr/bin/env python3
"""Checks of tests/cli/histogram.test.sh.

agree FILE: FILE holds a -c table and @ns[NAME] histograms in bpftrace's
hist() look; each histogram's counts add up to its syscall's calls in the
table, and every syscall of the table has one.
only FILE NAME...: the histograms are those of NAME... (of those called).
"""
import re
import sys

ROW = re.compile(r'^\s*\d+\.\d+\s+\d+\.\d+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\S+)\s*$')
LINE = re.compile(r'^(\[[^\]]*\]|\[[^)]*\))\s+(\d+) \|[@ ]{52}\|$')


def parse(path):
    table, hists, cur = {}, {}, None
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        m = re.match(r'^@ns\[(\w+)\]:$', line)
        if m:
            cur = m.group(1)
            hists[cur] = 0
            continue
        if cur is not None:
            m = LINE.match(line)
            if m:
                hists[cur] += int(m.group(2))
                continue
            if line:
                sys.exit('not a hist() line: %r' % line)
            cur = None
            continue
        m = ROW.match(line)
        if m and m.group(2) != 'total':
            table[m.group(2)] = int(m.group(1))
    return table, hists


def agree(path):
    table, hists = parse(path)
    if not table or not hists:
        sys.exit('%s: no table or no histograms' % path)
    bad = ['%s: %d calls, histogram %s' % (s, c, hists.get(s))
           for s, c in table.items() if hists.get(s) != c]
    bad += ['%s: a histogram, not in the table' % s for s in hists if s not in table]
    if bad:
        sys.exit('\n'.join(bad))
    print('agree: %d syscalls' % len(table))


def only(path, *names):
    table, hists = parse(path)
    want = {n for n in names if n in table}
    if set(hists) != want:
        sys.exit('histograms %s, wanted %s' % (sorted(hists), sorted(want)))


if __name__ == '__main__':
    {'agree': agree, 'only': only}[sys.argv[1]](*sys.argv[2:])
