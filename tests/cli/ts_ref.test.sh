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
CHECK=$(dirname "$0")/ts_ref_check.py
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
	python3 "$CHECK" reads_at_ref_times "$T/l.jsonl" "$T/ref.bin" || exit 1
done
echo "ok: cli_ts_ref"
