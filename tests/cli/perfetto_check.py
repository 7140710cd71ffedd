#!/usr/bin/env python3
# Checks for tests/cli/perfetto.test.sh: ptbpf's Perfetto traces, as
# protoc --decode=perfetto.protos.Trace prints them, against the log's
# events as 'ptbpf show --json' gives them.
import collections
import json
import re
import resource
import subprocess
import sys

STACK_EVENTS = {"user_stack", "proc_map", "stack_trace", "stack_ref"}
NORETURN = {"exit", "exit_group"}  # the schema's R_NONE calls


def proto_blocks(proto):
    """{"Outer.Inner": body text} for every message and enum of the proto."""
    out = {}
    stack = []  # (name, start of body)
    text = re.sub(r"//[^\n]*", "", open(proto).read())
    for m in re.finditer(r"\b(?:message|enum|oneof)\s+(\w+)\s*\{|\{|\}", text):
        if m.group(0) == "{":
            stack.append((None, m.end()))
        elif m.group(0) == "}":
            name, start = stack.pop()
            if name:
                path = ".".join(n for n, _ in stack if n and not n.startswith("oneof:"))
                key = (path + "." if path else "") + name
                out.setdefault(key, text[start:m.start()])
        else:
            kind = m.group(0).split()[0]
            name = m.group(1) if kind != "oneof" else "oneof:" + m.group(1)
            stack.append((name, m.end()))
    # a oneof's fields belong to its message: its body is in the message's
    return {k: v for k, v in out.items() if "oneof:" not in k.split(".")[-1]}


WIRE = {"PB_VARINT": {"uint64", "int64", "uint32", "int32", "bool", "enum"},
        "PB_LEN": {"string", "bytes", "message"}, "PB_I64": {"fixed64"}}


def fields(defs, proto):
    """Each PF/PE of perfetto_fields.def is in the vendored proto: the
    field's number and wire type, the enum value's number."""
    blocks = proto_blocks(proto)
    enums = set(re.findall(r"\benum\s+(\w+)", open(proto).read()))
    n = 0
    for m in re.finditer(r'^PF\((\w+), "([\w.]+)", "(\w+)", (\d+), (\w+)\)', open(defs).read(), re.M):
        ident, msg, name, num, wire = m.groups()
        body = blocks.get(msg)
        assert body is not None, "no message %s in the proto" % msg
        f = re.search(r"(?:^|\n)\s*(?:optional |repeated )?([\w.]+)\s+%s\s*=\s*(\d+)" % name, body)
        assert f, "%s: no field %s.%s" % (ident, msg, name)
        assert f.group(2) == num, "%s: %s.%s is %s, not %s" % (ident, msg, name, f.group(2), num)
        typ = f.group(1).split(".")[-1]
        kind = typ if typ in WIRE["PB_VARINT"] | WIRE["PB_LEN"] | WIRE["PB_I64"] else (
            "enum" if typ in enums else "message")
        assert kind in WIRE[wire], "%s: %s.%s is a %s, not %s" % (ident, msg, name, typ, wire)
        n += 1
    for m in re.finditer(r'^PE\((\w+), "([\w.]+)", "(\w+)", (\d+)\)', open(defs).read(), re.M):
        ident, en, name, val = m.groups()
        body = blocks.get(en)
        assert body is not None, "no enum %s in the proto" % en
        v = re.search(r"\b%s\s*=\s*(\d+)" % name, body)
        assert v and v.group(1) == val, "%s: %s.%s is not %s" % (ident, en, name, val)
        n += 1
    assert n > 40, n
    print("ok: %d fields and enum values as in the vendored proto" % n)


def unescape(s):
    return s.encode("latin1", "backslashreplace").decode("unicode_escape").encode(
        "latin1").decode("utf-8")


def parse_text(path):
    """protoc's text format: a list of packets, each {field: [values]}."""
    root = {}
    stack = [root]
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.endswith("{"):
            d = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(d)
            stack.append(d)
        elif line == "}":
            stack.pop()
        elif line:
            k, v = line.split(": ", 1)
            stack[-1].setdefault(k, []).append(unescape(v[1:-1]) if v.startswith('"') else v)
    assert len(stack) == 1, "unbalanced text"
    return root.get("packet", [])


def one(d, k, default=None):
    return d[k][0] if k in d else default


class Trace:
    """The trace's tracks and TrackEvents, interned names resolved."""

    def __init__(self, path):
        self.procs, self.threads, self.tracks = {}, {}, {}
        self.events = []  # (ts, type, track uuid, name, {annotation: value}, event)
        names, anns = {}, {}
        packets = parse_text(path)
        assert packets, "no packets"
        first = packets[0]
        assert int(one(first, "sequence_flags", 0)) & 1, "the first packet does not clear the state"
        clock, inc, ts = None, None, None  # the default clock; the incremental one's time
        for p in packets:
            assert one(p, "trusted_packet_sequence_id") == "1", p
            if int(one(p, "sequence_flags", 0)) & 1:
                names, anns = {}, {}
                clock = one(one(p, "trace_packet_defaults"), "timestamp_clock_id")
            for cs in p.get("clock_snapshot", []):
                assert one(cs, "primary_trace_clock") == "BUILTIN_CLOCK_REALTIME", cs
                clocks = {one(c, "clock_id"): c for c in cs["clocks"]}
                inc = int(one(clocks["64"], "timestamp"))
                assert one(clocks["64"], "is_incremental") == "true"
                assert int(one(clocks["1"], "timestamp")) == inc, "the clocks differ"
            if "timestamp" in p:
                # REALTIME's time, or the time since the last packet on the default, incremental clock
                c = one(p, "timestamp_clock_id", clock)
                assert c in ("1", "64") and (c == "1" or clock == "64"), (c, clock)
                if c == "64":
                    inc += int(one(p, "timestamp"))
                    ts = inc
                else:
                    ts = int(one(p, "timestamp"))
            for i in p.get("interned_data", []):
                for e in i.get("event_names", []):
                    names[one(e, "iid")] = one(e, "name")
                for e in i.get("debug_annotation_names", []):
                    anns[one(e, "iid")] = one(e, "name")
            for td in p.get("track_descriptor", []):
                self.track(td)
            for te in p.get("track_event", []):
                a = {}
                for da in te.get("debug_annotations", []):
                    key = anns[one(da, "name_iid")]
                    val = [v[0] for k, v in da.items() if k != "name_iid"]
                    a[key] = val[0]
                name = names[one(te, "name_iid")] if "name_iid" in te else None
                self.events.append((ts, one(te, "type"),
                                    int(one(te, "track_uuid")), name, a, te))

    def track(self, td):
        uuid = int(one(td, "uuid"))
        for pd in td.get("process", []):
            self.procs[int(one(pd, "pid"))] = one(pd, "process_name")
        for t in td.get("thread", []):
            self.threads[uuid] = (int(one(t, "pid")), int(one(t, "tid")), one(t, "thread_name"))
        self.tracks[uuid] = td

    def of_type(self, typ):
        return [e for e in self.events if e[1] == typ]


def log_events(jsonl):
    return [e for e in map(json.loads, open(jsonl)) if e.get("type") == "event"]


def pair_calls(events):
    """As the converters pair them: per thread, an entry and the exit
    that follows it (its id + 1). The slices [(tid, name, entry ts, exit
    ts)], per thread in the order of their exits, and the set of indexes
    of the events they hold."""
    open_, slices, paired = {}, [], set()
    for i, e in enumerate(events):
        sys_ = e.get("syscall")
        if not sys_ or not e["name"].startswith(("sys_enter_", "sys_exit_")):
            continue
        tid = e["tid"] or e["pid"]
        if e["name"].startswith("sys_enter_"):
            open_[tid] = None if sys_ in NORETURN else (e["id"], e["ts_ns"], i)
        elif open_.get(tid) is not None and open_[tid][0] + 1 == e["id"]:
            slices.append((tid, sys_, open_[tid][1], e["ts_ns"]))
            paired |= {open_[tid][2], i}
            open_[tid] = None
    return slices, paired


def trace(jsonl, txt, *expect):
    """The trace holds the log: a slice per syscall (names and counts as
    the log's, per thread), every other event an instant (stacks aside),
    losses on a counter; names; user events; flows. expect: process names
    that must be there; "lost=N": the counter ends at N."""
    ev = log_events(jsonl)
    t = Trace(txt)
    want, paired = pair_calls(ev)
    begins, ends = t.of_type("TYPE_SLICE_BEGIN"), t.of_type("TYPE_SLICE_END")
    assert len(begins) == len(ends), (len(begins), len(ends))
    # each slice's times are its entry's and its exit's, to the ns
    open_, timed = {}, []
    for e in t.events:
        if e[1] == "TYPE_SLICE_BEGIN":
            open_.setdefault(e[2], []).append(e)
        elif e[1] == "TYPE_SLICE_END":
            b = open_[e[2]].pop()
            timed.append((t.threads[e[2]][1], b[3], b[0], e[0]))
    assert not any(open_.values()), "a slice without its end"
    assert sorted(timed) == sorted((a, b, c, max(c, d)) for a, b, c, d in want), \
        "slice times differ from the log's"
    got = [(t.threads[e[2]][1], e[3]) for e in begins]
    want = [(a, b) for a, b, _, _ in want]
    def per(sl):
        d = {}
        for tid, n in sl:
            d.setdefault(tid, []).append(n)
        return d
    assert collections.Counter(n for _, n in got) == collections.Counter(n for _, n in want), \
        "slice names differ from the log's syscalls"
    assert per(got) == per(want), "slices differ from the log's syscalls on a thread"
    for b in begins:
        assert "ret" in b[4], ("a slice without its result", b)
    # every other event an instant (an unpaired entry or exit too)
    stacks = sum(e["name"] in STACK_EVENTS for e in ev)
    overflows = sum(e["id"] == 5 for e in ev)
    inst = t.of_type("TYPE_INSTANT")
    assert len(inst) == len(ev) - 2 * len(want) - stacks - overflows, \
        ("instants", len(inst), len(ev), len(want), stacks, overflows)
    alone = [e["ts_ns"] for i, e in enumerate(ev)
             if i not in paired and e["id"] != 5 and e["name"] not in STACK_EVENTS]
    assert collections.Counter(i[0] for i in inst) == collections.Counter(alone), \
        "instant times differ from the log's"
    # processes and threads: each one of the log has its track, named
    for e in ev:
        if e["pid"] and e["id"] != 5 and e["name"] not in STACK_EVENTS:
            assert e["pid"] in t.procs, ("no process track", e["pid"])
    tids = {tid for tid, _ in want}
    thread_tids = {v[1] for v in t.threads.values()}
    assert tids <= thread_tids, ("threads without a track", tids - thread_tids)
    named = {v[1] for v in t.threads.values() if v[2]}
    forked = {e["child_tid"] for e in ev if e["name"] == "proc_fork" and "child_tid" in e}
    assert forked <= named, ("forked threads without a name", forked - named)
    lost = None
    for x in expect:
        if x.startswith("lost="):
            lost = int(x[5:])
        else:
            assert x in t.procs.values(), ("no process named", x, set(t.procs.values()))
    # user events: instants by name, with their payload
    uev = [e for e in ev if e["id"] >= 1024 and not e.get("syscall") and "data_hex" in e]
    uinst = [i for i in inst if i[4].get("id") and int(i[4]["id"]) >= 1024 and "payload" in i[4]]
    assert [e["name"] for e in uev] == [i[3] for i in uinst], "user events differ"
    for e, i in zip(uev, uinst):
        assert json.loads(i[4]["fields"])["data_hex"] == e["data_hex"], (e, i)
    # flows: one from each fork to its child's first slice
    starts = {int(f): i for i in inst for f in i[5].get("flow_ids", [])}
    assert len(starts) == len([e for e in ev if e["name"] == "proc_fork"]), "a fork without a flow"
    for b in begins:
        for f in b[5].get("terminating_flow_ids", []):
            assert int(f) in starts, ("a flow ending where none began", f)
            assert starts[int(f)][3] == "proc_fork"
            first = next(x for x in begins if x[2] == b[2])
            assert first is b, "a flow ends on a slice not the thread's first"
    ended = sum(len(b[5].get("terminating_flow_ids", [])) for b in begins)
    # losses
    counters = t.of_type("TYPE_COUNTER")
    if lost is not None:
        assert counters and int(one(counters[-1][5], "counter_value")) == lost, \
            ("the lost counter ends at", counters and one(counters[-1][5], "counter_value"), lost)
    elif not overflows:
        assert not counters, "a lost-events counter without losses"
    print("ok: %d slices on %d threads, %d instants (%d user events), %d processes, "
          "%d flows (%d to a slice), %d counter values"
          % (len(begins), len(set(g[0] for g in got)), len(inst), len(uinst), len(t.procs),
             len(starts), ended, len(counters)))


def framing(path):
    """A trace too large for protoc: its top level is a Trace, packet after
    packet (field 1, length-delimited) to the last byte; how many."""
    n = 0
    with open(path, "rb") as f:
        data = f.read(1 << 20)
        off = 0
        base = 0
        while True:
            if len(data) - off < 16:
                data = data[off:] + f.read(1 << 20)
                base += off
                off = 0
                if not data:
                    break
            assert data[off] == 0x0A, "not a Trace.packet at byte %d" % (base + off)
            off += 1
            ln, shift = 0, 0
            while True:
                b = data[off]
                off += 1
                ln |= (b & 0x7F) << shift
                shift += 7
                if b < 0x80:
                    break
            if off + ln <= len(data):
                off += ln
            else:
                f.seek(off + ln - len(data), 1)
                base += off + ln
                data, off = f.read(1 << 20), 0
            n += 1
    assert n > 0
    print("ok: %d packets" % n)


def maxrss(*cmd):
    """Runs cmd; prints its peak resident memory in KiB (fails if it fails)."""
    r = subprocess.run(cmd)
    assert r.returncode == 0, "%s: exit status %d" % (cmd[0], r.returncode)
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


if __name__ == "__main__":
    checks = {f.__name__: f for f in (fields, trace, framing, maxrss)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        sys.exit("usage: perfetto_check.py {%s} ARGS..." % "|".join(checks))
    try:
        sys.exit(checks[sys.argv[1]](*sys.argv[2:]))
    except AssertionError as e:
        sys.exit("FAIL: %s" % (e,))
