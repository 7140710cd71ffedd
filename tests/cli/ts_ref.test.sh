#!/bin/sh
# ptbpf's syscall timestamps against the benchmark's reference tracer
# (bench/reftracer, a bare BPF program on the same tracepoints) for the same
# syscalls: ptbpf record -f traces reftracer, which traces dd. Every read()
# of dd is in both, with the same argument and result, and ptbpf's time of
# each is the reference's plus one constant (the clocks' offset: ptbpf
# prints CLOCK_REALTIME, the reference CLOCK_MONOTONIC), up to what the two
# programs' run on one tracepoint takes: a time rewritten on its way (held,
# raised to a newer one) would be off by a drain's latency. Run with the
# CPUs kept busy, as the merge must hold under a starved consumer.
# usage: sh cli_ts_ref.test.sh BUILD_DIR
. "$(dirname "$0")/common.sh"
R=$B/bench/reftracer
[ -x "$R" ] || skip "no $R (configured with PTBPF_BENCH=OFF)"

# two spinning shells, one per CPU of a 2-CPU machine
spin() { sh -c 'while :; do :; done' & echo $! >>"$T/spin"; }
spin
spin
trap 'kill $(cat "$T/spin") 2>/dev/null; rm -rf "$T"' EXIT

for run in 1 2 3; do
	st=0
	"$P" record -f -o "$T/l.log" -e read,execve -- \
		"$R" -o "$T/ref.bin" -- dd if=/dev/zero of=/dev/null bs=1 count=3000 \
		>"$T/out" 2>"$T/err" || st=$?
	[ $st = 0 ] || { cat "$T/err"; fail "run $run: exit status $st"; }
	grep -q 'reftracer: .* dropped 0 ' "$T/err" || { cat "$T/err"; fail "run $run: reftracer dropped"; }
	"$P" show --json "$T/l.log" >"$T/l.jsonl" || fail "run $run: show --json"
	python3 - "$T/l.jsonl" "$T/ref.bin" <<'PY' || exit 1
import json, struct, sys
jsonl, ref = sys.argv[1:]
EXIT = 0x80000000
b = open(ref, "rb").read()
off, refs = 0, []
while off < len(b):
    (size,) = struct.unpack_from("<I", b, off)
    ts, tid, nr, val = struct.unpack_from("<QIIq", b, off + 4)
    refs.append((ts, tid, nr, val))
    off += 4 + size
# dd: the process the reference traced (its records are in per-CPU order)
dd = refs[0][1]
refs.sort(key=lambda r: r[0])
# from dd's execve on (reftracer's child reads a pipe before, traced by
# ptbpf, by the reference only if it added the pid in time)
mine = [r for r in refs if r[1] == dd]
start = [i for i, r in enumerate(mine) if r[2] == 59 | EXIT and r[3] == 0][0]
mine = [(r[0], r[2] & EXIT != 0, r[3]) for r in mine[start:] if r[2] & ~EXIT == 0]
ev = [e for e in map(json.loads, open(jsonl)) if e["type"] == "event" and e.get("tid") == dd]
start = [i for i, e in enumerate(ev) if e["name"] == "sys_exit_execve" and e["ret"] == 0][0]
ev = [e for e in ev[start:] if e.get("syscall") == "read"]
got = [(e["ts_ns"], e["name"] == "sys_exit_read", e["ret"] if "ret" in e else e["args"][0])
       for e in ev]
assert len(mine) >= 6000, len(mine)
diff = [i for i, (g, m) in enumerate(zip(got, mine)) if g[1:] != m[1:]]
assert len(got) == len(mine) and not diff, \
    ("not the same reads", len(got), len(mine), diff[:1] and got[diff[0]], diff[:1] and mine[diff[0]])
d = [g[0] - m[0] for g, m in zip(got, mine)]
spread = max(d) - min(d)
print("ok: %d read events of dd at the reference's times + %d ns, spread %d ns"
      % (len(d), min(d), spread))
assert spread < 1000000, "a time %d ns off the reference's" % spread
assert all(a[0] <= b[0] for a, b in zip(got, got[1:])), "out of order"
PY
done
echo "ok: cli_ts_ref"
