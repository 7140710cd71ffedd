#!/bin/sh
# ptbpf record at its default sizes in a container's memory limit: a cgroup
# of the test's own with 128 MiB (memory.max of cgroup v2, where its memory
# controller is enabled, else memory.limit_in_bytes of cgroup v1's), no
# swap, the shell moved into it: the kernel rings and maps, charged to the
# tracer's cgroup, fit; the record exits 0 with its events, nothing is
# killed for memory (memory.events' oom_kill), and the peak is under 48 MiB
# (memory.peak where the kernel has it, else the maximum resident set of
# /usr/bin/time -v).
# usage: sh memlimit.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
LIMIT=$((128 << 20))
PEAK_MAX=$((48 << 20))

cgfs() { [ "$(stat -f -c %T "$1" 2>/dev/null)" = cgroup2fs ]; }
V2=
for root in /sys/fs/cgroup /sys/fs/cgroup/unified; do
	cgfs "$root" || continue
	grep -qw memory "$root/cgroup.controllers" 2>/dev/null || continue
	# the root's children get the controller (the root itself has no limit)
	grep -qw memory "$root/cgroup.subtree_control" ||
		echo +memory >"$root/cgroup.subtree_control" 2>/dev/null || continue
	V2=$root
	break
done
if [ -n "$V2" ]; then
	CG=$V2/ptbpf-memlimit-$$
else
	# cgroup v1: under this process's memory cgroup, whose own limit stays
	V1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/self/mounts)
	[ -n "$V1" ] || skip "no memory controller (cgroup v2 memory.max or cgroup v1 memory)"
	CG=$V1$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)/ptbpf-memlimit-$$
fi
cleanup() {
	# up to 15 s: a process ptbpf left behind may still run in it
	[ -d "$CG" ] && for i in $(seq 75); do
		rmdir "$CG" 2>/dev/null && break
		sleep "$(tscale 0.2)"
	done
	rm -rf "$T"
}
trap cleanup EXIT
mkdir "$CG" || fail "mkdir $CG"
if [ -n "$V2" ]; then
	echo $LIMIT >"$CG/memory.max" || fail "memory.max"
	[ -f "$CG/memory.swap.max" ] && echo 0 >"$CG/memory.swap.max"
else
	echo $LIMIT >"$CG/memory.limit_in_bytes" || fail "memory.limit_in_bytes"
	[ -f "$CG/memory.memsw.limit_in_bytes" ] && echo $LIMIT >"$CG/memory.memsw.limit_in_bytes"
fi
echo "cgroup: $CG, limit $((LIMIT >> 20)) MiB"

TIME=
[ -x /usr/bin/time ] && TIME="/usr/bin/time -v -o $T/time.txt"
[ -n "$TIME" ] || [ -f "$CG/memory.peak" ] ||
	skip "no memory.peak (Linux 5.19) and no /usr/bin/time to measure the peak"

# the program: reads a file whose name the log must show
: >"$T/marker-memlimit"
# the shell moved into the cgroup, then ptbpf started from it
sh -c 'echo $$ >"$1/cgroup.procs" || exit 99; shift; exec "$@"' sh "$CG" \
	$TIME "$P" record -o "$T/m.log" -- cat "$T/marker-memlimit" 2>"$T/rec.err"
rc=$?
cat "$T/rec.err"
[ $rc != 99 ] || fail "could not move the shell into $CG"
if [ -n "$V2" ]; then
	oom=$(sed -n 's/^oom_kill //p' "$CG/memory.events")
else
	oom=$(sed -n 's/^oom_kill //p' "$CG/memory.oom_control")
fi
[ "${oom:-0}" = 0 ] || fail "$oom processes killed for memory in the 128 MiB cgroup"
[ $rc = 0 ] || fail "ptbpf record exited $rc in the 128 MiB cgroup"
grep -q ' 0 lost' "$T/rec.err" || fail "events lost"
"$P" show "$T/m.log" >"$T/m.txt" || fail "show failed"
grep -q 'openat(.*marker-memlimit' "$T/m.txt" || { tail "$T/m.txt"; fail "no openat of the marker"; }
grep -q '+++ exited with 0 +++' "$T/m.txt" || { tail "$T/m.txt"; fail "no exit of cat"; }

# the peak: the cgroup's (the rings and maps too) where the kernel keeps it
if [ -f "$CG/memory.peak" ]; then
	peak=$(cat "$CG/memory.peak")
	what="the cgroup's memory.peak"
else
	peak=$(($(sed -n 's/.*Maximum resident set size (kbytes): //p' "$T/time.txt") * 1024))
	what="ptbpf's maximum resident set"
	[ -f "$CG/memory.max_usage_in_bytes" ] &&
		echo "(cgroup v1 memory.max_usage_in_bytes: $(($(cat "$CG/memory.max_usage_in_bytes") >> 10)) KiB)"
fi
echo "peak: $((peak >> 10)) KiB ($what)"
[ "$peak" -gt 0 ] || fail "no peak measured"
# a sanitizer build's shadow memory and quarantine are not ptbpf's: the
# limit above holds for it too, the bound on the peak does not
if grep -q "PTBPF_SANITIZE:BOOL=ON" "$B/CMakeCache.txt" 2>/dev/null; then
	echo "sanitizer build: the peak is not bounded"
else
	[ "$peak" -lt $PEAK_MAX ] || fail "peak $((peak >> 10)) KiB, over $((PEAK_MAX >> 10)) KiB"
fi
echo PASS
