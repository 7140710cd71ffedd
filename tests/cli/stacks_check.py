#!/usr/bin/env python3
# The checks of stacks.test.sh: usage
#   stacks_check.py json_frames OWN.JSON MODULE SOURCE INNER_LINE MIDDLE_LINE OUTER_LINE
#   stacks_check.py chrome_own_frames CHAIN MODULE
#   stacks_check.py kernel_stack_json <SHOW_K.JSONL
#   stacks_check.py chrome_kernel_frames CHAIN
#   stacks_check.py build_id ELF   (prints its GNU build-id in hex)
# (CHAIN: chrome_stack.py's output)

import json
import struct
import sys


def json_frames(path, mod, src, inner_line, middle_line, outer_line):
    """show -k --json: the stack after the failed openat, our frames with their source lines, libc's first."""
    lines = dict(zip(("inner", "middle", "outer"), map(int, (inner_line, middle_line, outer_line))))
    recs = [json.loads(l) for l in open(path)]
    for i, r in enumerate(recs):
        if r.get("type") == "stack":
            prev = recs[i - 1]
            if prev.get("name") == "sys_exit_openat" and prev.get("errno") == "ENOENT" and prev["tid"] == r["tid"]:
                break
    else:
        sys.exit("no stack record after the failed openat")
    own = [f for f in r["frames"] if f.get("module") == mod]
    assert [f["symbol"] for f in own[:4]] == ["inner", "middle", "outer", "main"], own
    for f in own[:3]:
        assert f["file"] == src and f["line"] == lines[f["symbol"]], f
    assert r["frames"][0]["module"].endswith("/libc.so.6"), r["frames"][0]


def chrome_own_frames(chain_txt, mod):
    """The Chrome slice's stack: libc's frame, then ours from inner out to main."""
    chain = open(chain_txt).read().splitlines()
    own = [n for n in chain if n.endswith("(%s)" % mod)]
    assert own[:4] == ["%s (%s)" % (f, mod) for f in ("inner", "middle", "outer", "main")], chain
    assert "libc.so.6" in chain[0], chain


def kernel_stack_json():
    """show -k --json of a --kernel-stack log: the kernel's frames last, with do_syscall_64."""
    recs = [json.loads(l) for l in sys.stdin]
    st = [r for r in recs if r.get("type") == "stack"]
    assert st, "no stack record"
    fr = st[-1]["frames"]
    k = [f for f in fr if f.get("kernel")]
    assert k and fr[-len(k):] == k, fr
    assert all(f["module"] == "[kernel.kallsyms]" for f in k), k
    assert any(f.get("symbol") == "do_syscall_64" for f in k), k


def chrome_kernel_frames(chain_txt):
    """The Chrome slice's stack: the kernel's frames, then ours from inner out to main."""
    chain = open(chain_txt).read().splitlines()
    # innermost first: the kernel's, then ours from inner out
    names = [n.split(" ")[0] for n in chain]
    assert "do_syscall_64" in names and names.index("do_syscall_64") < names.index("inner"), chain
    assert names[names.index("inner"):names.index("inner") + 4] == ["inner", "middle", "outer", "main"], chain


def build_id(elf):
    """Prints the GNU build-id of the ELF file, in hex."""
    d = open(elf, "rb").read()
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", d, 0x3a)
    for i in range(shnum):
        name, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", d, shoff + i * shentsize)
        at = off
        while typ == 7 and at < off + size:
            nsz, dsz, t = struct.unpack_from("<III", d, at)
            n = at + 12 + (nsz + 3) // 4 * 4
            if t == 3 and d[at + 12:at + 12 + nsz] == b"GNU\0":
                print(d[n:n + dsz].hex())
                return
            at = n + (dsz + 3) // 4 * 4


if __name__ == "__main__":
    checks = {f.__name__: f for f in (json_frames, chrome_own_frames, kernel_stack_json, chrome_kernel_frames, build_id)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: stacks_check.py {%s} ARGS..." % "|".join(checks))
    sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
