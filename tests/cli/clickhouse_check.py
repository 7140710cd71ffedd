#!/usr/bin/env python3
"""tests/cli/clickhouse.test.sh's checks of the rows ptbpf export made.

  clickhouse_check.py rows SHOW_JSON ROWS_TSV COUNT_TSV USER_TSV
"""
import json
import sys
from collections import Counter


def rows(show_json, rows_tsv, count_tsv, user_tsv):
    entries, exits, noreturn = Counter(), Counter(), Counter()
    users = []
    for line in open(show_json):
        ev = json.loads(line)
        if ev.get("type") != "event":
            continue
        name = ev["name"]
        if name.startswith("sys_enter_"):
            entries[ev["syscall"]] += 1
        elif name.startswith("sys_exit_"):
            exits[ev["syscall"]] += 1
        elif ev["id"] >= 2048 or name == "posix_trace_unnamed_userevent":
            users.append(name)
    got = {}
    for line in open(rows_tsv):
        sys_, n, timed, finished = line.rstrip("\n").split("\t")
        got[sys_] = (int(n), int(timed), int(finished))
    bad = 0
    for s in set(entries) | set(exits):
        # a call is one row: its exit's, or its entry's when no exit came
        # (exit_group); an exit without entry (a child's clone) one too
        want = max(entries[s], exits[s])
        n, timed, finished = got.get(s, (0, 0, 0))
        if n != want:
            print(f"{s}: {n} rows, show --json has {entries[s]} entries, {exits[s]} exits")
            bad = 1
        if finished != exits[s]:
            print(f"{s}: {finished} rows finished, {exits[s]} exits")
            bad = 1
        # every call with both entry and exit has its duration
        if timed < min(entries[s], exits[s]) - (1 if s in ("clone", "clone3", "fork", "vfork", "execve") else 0):
            print(f"{s}: {timed} rows with a duration of {min(entries[s], exits[s])}")
            bad = 1
    extra = set(got) - set(entries) - set(exits)
    if extra:
        print("rows of syscalls show --json lacks:", extra)
        bad = 1
    count, dense, uniq = open(count_tsv).read().split()
    if not count == dense == uniq:
        print(f"seq: {count} rows, max(seq)+1 {dense}, {uniq} distinct")
        bad = 1
    ulines = [l.rstrip("\n").split("\t") for l in open(user_tsv)]
    if [u[0] for u in ulines] != users:
        print("user events:", [u[0] for u in ulines], "show --json:", users)
        bad = 1
    if not any(u[0] == "cli_hello" and u[1].startswith("hello") for u in ulines):
        print("no cli_hello row with its payload:", ulines)
        bad = 1
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "rows":
        sys.exit(rows(*sys.argv[2:6]))
    sys.exit(2)
