#!/usr/bin/env python3
"""Checks of tests/cli/metrics.test.sh.

push_agrees TABLE GATEWAY: the -c table (ptbpf's stderr) and the metrics
the Pushgateway holds agree: calls and errors per syscall, and each
histogram's _count equals its calls.
has_value JSON: a Prometheus query answered with at least one number.
all_zero JSON: every value of a Prometheus query is 0.
consistent SCRAPE...: in each scrape, per syscall, the calls, the
histogram's _count and its +Inf bucket are one number and the buckets grow
with le; from one scrape to the next no counter went backwards.
"""
import json
import math
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$')


def table(path):
    rows = {}
    for line in open(path, encoding='utf-8', errors='replace'):
        f = line.split()
        # % time, seconds, usecs/call, calls, [errors,] syscall
        if len(f) >= 5 and re.match(r'^\d+\.\d+$', f[0]) and f[-1] != 'total':
            calls = int(f[3])
            errors = int(f[4]) if len(f) == 6 else 0
            rows[f[-1]] = (calls, errors)
    return rows


def samples(path):
    out = []
    for line in open(path, encoding='utf-8'):
        if line.startswith('#'):
            continue
        m = SAMPLE.match(line.strip())
        if not m:
            continue
        labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ''))
        out.append((m.group(1), labels, float(m.group(3))))
    return out


def push_agrees(tab, gw):
    rows = table(tab)
    if not rows:
        sys.exit('no -c table in ' + tab)
    calls, errors, counts = {}, {}, {}
    for name, labels, v in samples(gw):
        if labels.get('job') != 'ptbpf' or labels.get('service') != 'test':
            continue
        s = labels.get('syscall')
        if name == 'ptbpf_syscalls_total':
            calls[s] = int(v)
        elif name == 'ptbpf_syscall_errors_total':
            errors[s] = errors.get(s, 0) + int(v)
        elif name == 'ptbpf_syscall_duration_seconds_count':
            counts[s] = int(v)
    bad = []
    for s, (c, e) in rows.items():
        if calls.get(s) != c or errors.get(s, 0) != e or counts.get(s) != c:
            bad.append('%s: table %d calls %d errors, gateway %s calls %s errors, _count %s'
                       % (s, c, e, calls.get(s), errors.get(s, 0), counts.get(s)))
    extra = set(calls) - set(rows)
    if extra:
        bad.append('in the gateway, not in the table: ' + ', '.join(sorted(extra)))
    if bad:
        sys.exit('\n'.join(bad))
    print('push_agrees: %d syscalls' % len(rows))


def values(path):
    d = json.load(open(path))
    if d.get('status') != 'success':
        sys.exit('query failed: %s' % d)
    return [float(r['value'][1]) for r in d['data']['result']]


def has_value(path):
    v = values(path)
    if not v or any(math.isnan(x) for x in v):
        sys.exit('no value: %s' % v)


def all_zero(path):
    v = values(path)
    if not v or any(x != 0 for x in v):
        sys.exit('not all zero: %s' % v)


def series_key(name, labels):
    return name + repr(sorted((k, v) for k, v in labels.items()))


def consistent(*paths):
    prev = {}
    for path in paths:
        cur, calls, count, inf, buckets = {}, {}, {}, {}, {}
        for name, labels, v in samples(path):
            cur[series_key(name, labels)] = v
            s = labels.get('syscall')
            if name == 'ptbpf_syscalls_total':
                calls[s] = v
            elif name == 'ptbpf_syscall_duration_seconds_count':
                count[s] = v
            elif name == 'ptbpf_syscall_duration_seconds_bucket':
                if labels['le'] == '+Inf':
                    inf[s] = v
                else:
                    buckets.setdefault(s, []).append((float(labels['le']), v))
        if not calls:
            sys.exit('%s: no ptbpf_syscalls_total' % path)
        for s, c in calls.items():
            if count.get(s) != c or inf.get(s) != c:
                sys.exit('%s: %s: calls %s, _count %s, +Inf %s' % (path, s, c, count.get(s),
                                                                   inf.get(s)))
            b = [v for _, v in sorted(buckets.get(s, []))]
            if b != sorted(b) or (b and b[-1] > c):
                sys.exit('%s: %s: buckets do not grow with le: %s' % (path, s, b))
        for k, v in prev.items():
            if (k.startswith('ptbpf_sys') or k.startswith('ptbpf_events')) and cur.get(k, 0) < v:
                sys.exit('%s: %s went backwards: %s then %s' % (path, k, v, cur.get(k)))
        prev = cur
    print('consistent: %d scrapes' % len(paths))


if __name__ == '__main__':
    {'push_agrees': push_agrees, 'has_value': has_value,
     'all_zero': all_zero, 'consistent': consistent}[sys.argv[1]](*sys.argv[2:])
