#!/usr/bin/env python3
# Compare the lines of strace -f -o FILE and of ptbpf record -f that match
# a pattern, thread by thread: usage
#   strace_cmp.py [--first-string|--name-status|--fds] [--may-be-empty] STRACE_OUT PTBPF_OUT REGEX
# An "<unfinished ...>" line and its "<... NAME resumed>" are joined first
# (the two tools split calls at different places), pids inside lines become
# N, and each thread's matching lines, in order, must be the same in both;
# threads are matched by their sequences, not by their ids. The arguments
# of a call that a signal interrupted (= ? ERESTART...) are not compared
# (strace decodes structures, ptbpf shows their address); with
# --first-string, a call is its name, its first string argument (a path)
# and its result; with --name-status, its name and the form of its result
# (a number is N, "?" and errors stay); with --fds (-y, -yy), a call is its
# name and the fds it names, with their paths (3</etc/x>), inode numbers and
# ports renumbered in the order each side first shows them, /proc/PID/ as
# /proc/N/ (the two runs differ there).
# Exit 1 with both sides printed when they differ, or when
# no line of strace's matched (unless --may-be-empty).
import re
import sys

STRACE = re.compile(r'^(\d+) +(.*)$')


class _Leader:
    """A line of ptbpf's text: strace's look (the tid before each line in
    a file with -f, "[pid N] " on stderr while several run, none for one
    thread: the thread is then "0"), or ptbpf's own ("TS PID/TID ", the
    thread named by its tid, or pid/tid with pid_tid). match() returns an
    object whose group(1) is the thread and group(2) the text."""
    OWN = re.compile(r'^-?\d+\.\d+ (\d+)/(\d+) (.*)$')
    STRACE = re.compile(r'^(?:\[pid +(\d+)(?:<[^>]*>)?\] |(\d+)(?:<[^>]*>)? +)?(.*)$')

    def __init__(self, pid_tid=False):
        self.pid_tid = pid_tid

    def match(self, line):
        m = self.OWN.match(line)
        if m:
            tid = m.group(1) + '/' + m.group(2) if self.pid_tid else m.group(2)
            return _Match(tid, m.group(3))
        m = self.STRACE.match(line)
        return _Match(m.group(1) or m.group(2) or '0', m.group(3))


class _Match:
    def __init__(self, tid, text):
        self.groups = (tid, text)

    def group(self, i):
        return self.groups[i - 1]


PTBPF = _Leader()
PTBPF_PID = _Leader(pid_tid=True)  # the thread named pid/tid in ptbpf's look
UNFIN = re.compile(r'^(.*?) ?<unfinished \.\.\.>$')
RESUMED = re.compile(r'^<\.\.\. (\S+) resumed>(?: <unfinished \.\.\.>\))?(.*)$')
PIDS = re.compile(r'\b(si_pid|pid)=\d+|\b(kill|wait4|tgkill)\(\d+')
TIMES = re.compile(r'\b(si_utime|si_stime)=\d+')
RESTART = re.compile(r'^(\w+)\(.*\)( = \? ERESTART.*)$')
FIRST_STRING = re.compile(r'^(\w+)\(.*?("(?:[^"\\]|\\.)*").*\)( = .*)$')
NAME_STATUS = re.compile(r'^(\w+)\(.*? = (\?|-1 E\w+|\? E\w+|\d+|0x[0-9a-f]+)(?=\s|$).*$')
FD_TOKEN = re.compile(r'(?:\b\d+|AT_FDCWD)<(?:->|[^<>\\]|\\.|<[^<>]*>)*>(?:\(deleted\))?')
FD_NUMBERS = re.compile(r'(?<=:\[)(\d+)(?=[\],-])|(?<=->)(\d+)(?=[\],])|(?<=\d:|\]:)(\d+)(?=\]|->)')


def joined(path, line_re):
    """{thread: [text, ...]}, each thread's lines in order, an "<unfinished
    ...>" call joined to its resumption (line_re: group 1 names the thread,
    group 2 is the text; lines it does not match are left out). Also used
    by decode_agree.py."""
    out, held = {}, {}
    with open(path, errors='replace') as f:
        for raw in f:
            m = line_re.match(raw.rstrip('\n'))
            if not m:
                continue
            tid, text = m.group(1), m.group(2)
            u = UNFIN.match(text)
            if u:
                held[tid] = u.group(1)
                continue
            r = RESUMED.match(text)
            if r and tid in held:
                head, tail = held.pop(tid).rstrip(), r.group(2)
                # strace: "read(3, <unfinished ...>" + "<... read resumed>buf, 1) = 1";
                # ptbpf before 2026-12: "read(3, buf, 1) <unfinished ...>" + "<... read resumed>) = 1"
                if head.endswith(')') and tail.startswith(')'):
                    text = head + tail[1:]
                elif tail.startswith(')') or head.endswith('('):
                    text = head + tail
                else:
                    text = head + ' ' + tail
            out.setdefault(tid, []).append(text)
    for tid, text in held.items():
        out.setdefault(tid, []).append(text + ' <unfinished ...>')
    return out


def threads(path, line_re):
    """{tid: [line, ...]} with unfinished calls joined to their resumption."""
    return {tid: [norm(t) for t in lines] for tid, lines in joined(path, line_re).items()}


def norm(text):
    text = PIDS.sub(lambda m: (m.group(1) + '=N') if m.group(1) else m.group(2) + '(N', text)
    text = TIMES.sub(lambda m: m.group(1) + '=N', text)
    # strace pads the result to a column
    text = re.sub(r'\) +(= .*)$', r') \1', text)
    text = RESTART.sub(r'\1(...)\2', text)
    if FIRST_ONLY:
        text = FIRST_STRING.sub(r'\1(\2)\3', text)
    if NAME_ONLY:
        m = NAME_STATUS.match(text)
        if m:
            st = m.group(2)
            text = m.group(1) + '(...) = ' + ('N' if st[0].isdigit() else st)
    elif FDS:
        name = re.match(r'^(\w*)', text).group(1)
        # a process's own /proc files: named by its pid
        text = name + ' ' + re.sub(r'</proc/\d+/', '</proc/N/', ' '.join(FD_TOKEN.findall(text)))
    return text


def renumber(m):
    """An inode number or port: its rank among those this side showed."""
    v = next(g for g in m.groups() if g)
    return 'N%d' % RANKS.setdefault(v, len(RANKS))


FIRST_ONLY = False
NAME_ONLY = False
FDS = False
RANKS = {}


def main():
    global FIRST_ONLY, NAME_ONLY, FDS
    args = sys.argv[1:]
    may_be_empty = '--may-be-empty' in args
    FIRST_ONLY = '--first-string' in args
    NAME_ONLY = '--name-status' in args
    FDS = '--fds' in args
    args = [a for a in args if a not in ('--may-be-empty', '--first-string', '--name-status', '--fds')]
    if len(args) != 3:
        sys.exit('usage: strace_cmp.py [--first-string|--fds] [--may-be-empty] '
                 'STRACE_OUT PTBPF_OUT REGEX')
    want = re.compile(args[2])
    sides = []
    for path, line_re in ((args[0], STRACE), (args[1], PTBPF)):
        RANKS.clear()
        seqs = [tuple(FD_NUMBERS.sub(renumber, l) if FDS else l
                      for l in lines if want.search(l))
                for lines in threads(path, line_re).values()]
        sides.append(sorted(s for s in seqs if s))
    if not sides[0] and not may_be_empty:
        print('no line of strace\'s output matched ' + args[2])
        return 1
    if sides[0] == sides[1]:
        for seq in sides[0]:
            print('  same: ' + ' | '.join(seq))
        return 0
    for name, side in zip(('strace', 'ptbpf'), sides):
        print(name + ':')
        for seq in side:
            print('  ' + ' | '.join(seq))
    return 1


if __name__ == '__main__':
    sys.exit(main())
