#!/bin/sh
# Nothing of ptbpf outlives a record: once 'ptbpf record' exits, no process
# it started runs (found by a variable in their environment) and none of
# the BPF programs it loaded (the prog_id of its fds while it ran) is left
# in 'bpftool prog show'. Other ptbpf processes on the machine (tests run
# beside this one) are not ours, whatever their names.
# usage: sh nothing_left.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
command -v bpftool >/dev/null || skip "bpftool not installed"

mark=PTBPF_NOTHING_LEFT_$$

# ours PID: the prog_id of each program fd PID holds, one a line
ours() {
	for f in /proc/"$1"/fdinfo/*; do
		sed -n 's/^prog_id:[[:space:]]*//p' "$f" 2>/dev/null
	done | sort -un
}

# left NAME: our processes still running, by the mark in their environment
left() {
	for e in /proc/[0-9]*/environ; do
		pid=${e#/proc/}
		pid=${pid%/environ}
		{ tr '\0' '\n' <"$e"; } 2>/dev/null | grep -qx "$mark=1" || continue
		echo "$pid $(cat /proc/"$pid"/comm 2>/dev/null)"
	done
}

# check NAME ARGS...: a record of $CMD (default: sleep 1) with ARGS, its
# programs seen while it runs, none of them nor any of its processes left
# after it
check() {
	name=$1
	shift
	# shellcheck disable=SC2046 # CMD: a command line
	env "$mark=1" "$P" record --format=ptbpf "$@" -- ${CMD:-sleep $(tscale 1)} >/dev/null 2>"$T/$name.err" &
	rec=$!
	# every program it holds at some time while it runs
	ids=
	while kill -0 $rec 2>/dev/null; do
		ids=$(printf '%s\n' $ids $(ours $rec) | sort -un)
		sleep 0.05
	done
	wait $rec || { cat "$T/$name.err"; fail "$name: record failed"; }
	[ -n "$ids" ] || fail "$name: no BPF program seen in the recorder's fds"
	# what another test ran with the mark, had it been left, would show too
	procs=$(left)
	[ -z "$procs" ] || fail "$name: processes left after the record: $procs"
	# the kernel frees a program after an RCU grace period
	for id in $ids; do
		i=0
		while bpftool prog show id "$id" >/dev/null 2>&1; do
			[ $i -lt 50 ] || {
				bpftool prog show id "$id"
				fail "$name: program $id still loaded 5 s after the record"
			}
			sleep 0.1
			i=$((i + 1))
		done
	done
	bpftool prog show >"$T/progs.txt" || fail "bpftool prog show failed"
	for id in $ids; do
		! grep -q "^$id: " "$T/progs.txt" || fail "$name: bpftool lists program $id"
	done
	echo "ok: $name: $(echo $ids | wc -w) programs, all gone; no process left"
}

check "record -o" -o "$T/x.log"
check "record live"
check "record -e openat" -e openat -o "$T/y.log"
# a program that links libposixtrace: its early user events' uprobes are
# closed by the record, not by a process left behind
[ -x "$B/tests/cli_uev" ] || fail "no $B/tests/cli_uev"
CMD="$B/tests/cli_uev 3 $(tscale 300)"
check "record of a libposixtrace program" -o "$T/z.log"
n=$("$P" show --format=ptbpf "$T/z.log" | grep -c " user cli_hello ")
[ "$n" = 3 ] || fail "the libposixtrace program's record: $n of its 3 user events"
echo "PASS"
