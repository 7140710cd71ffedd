#!/bin/sh
# A log prints the same on every architecture: `show` of a log recorded on
# one (its names, struct layouts, classes, -P, -c, JSON) gives on another
# what it gives where it was recorded. The logs travel in a directory
# shared by an x86_64 build and an arm64 one (tools/vmtest-suite --arch
# arm64 --peer): the host records its logs there before the guest boots,
# the guest checks them and records its own, the host checks those after.
# usage: sh arch_cross.test.sh BUILD_DIR SOURCE_DIR [record DIR | check DIR]
# Without a mode: with PTBPF_ARCH_XCHG, check the other architecture's
# logs there (at least one must be there), then record this one's; without
# it, record and check in a temporary directory (show depends on the log
# alone, never on the machine it runs on).
. "$(dirname "$0")/common.sh"
mode=${3:-}
dir=${4:-}
arch=$(uname -m)

# the outputs of show compared across architectures, one file each
shows() {
	"$P" show "$1" 2>&1
	echo "== -c"
	"$P" show -c -S name "$1" 2>&1
	echo "== -e trace=%file,%process -yy -T -X verbose"
	"$P" show -e trace=%file,%process -yy -T -X verbose "$1" 2>&1
	echo "== -P /etc/hostname"
	"$P" show -P /etc/hostname "$1" 2>&1
	echo "== --json"
	"$P" show --json "$1" 2>&1
}

record() {
	mkdir -p "$1"
	rm -f "$1/$arch".*
	# the programs exercise what differs between architectures: stat and
	# statfs, epoll, clone's arguments, open flags, sockets, signals, user
	# events (each build's own programs: each log is shown against itself)
	"$P" record -f -y -o "$1/$arch.log" -- sh -c "
		$PROGS/decode_files >/dev/null 2>&1
		$PROGS/decode_net >/dev/null 2>&1
		$PROGS/decode_proc >/dev/null 2>&1
		$PROGS/fork_uev >/dev/null 2>&1
		cat /etc/hostname >/dev/null; ls -l / >/dev/null" 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; fail "record on $arch"; }
	shows "$1/$arch.log" >"$1/$arch.out"
	grep -q "\"arch\":\"$arch\"" "$1/$arch.out" || fail "$arch's log does not say its architecture"
	[ "$(grep -c '^execve(\|^\[pid *[0-9]*\] execve(\|^[0-9]* *execve(' "$1/$arch.out")" -ge 5 ] ||
		{ head -40 "$1/$arch.out"; fail "$arch's log: the programs' execve lines missing"; }
	echo "recorded $1/$arch.log ($(wc -l <"$1/$arch.out") lines of show)"
}

# check DIR [any]: each log of DIR (another architecture's, unless any) shown here as where it was recorded
check() {
	n=0
	for log in "$1"/*.log; do
		[ -f "$log" ] || continue
		a=$(basename "$log" .log)
		[ "$a" != "$arch" ] || [ "${2:-}" = any ] || continue
		[ -f "$1/$a.out" ] || fail "$log without $a.out"
		shows "$log" >"$T/$a.here"
		diff -u "$1/$a.out" "$T/$a.here" >"$T/$a.diff" ||
			{ head -60 "$T/$a.diff"; fail "$a's log shows differently on $arch"; }
		echo "ok: $a's log ($(wc -l <"$T/$a.here") lines) shows on $arch as on $a"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || fail "no log of another architecture in $1"
}

case "$mode" in
record) record "${dir:?record DIR}" ;;
check) check "${dir:?check DIR}" ;;
"")
	if [ -n "${PTBPF_ARCH_XCHG:-}" ]; then
		check "$PTBPF_ARCH_XCHG"
		record "$PTBPF_ARCH_XCHG"
	else
		record "$T/x"
		check "$T/x" any
	fi
	;;
*) fail "unknown mode $mode (record DIR or check DIR)" ;;
esac
echo "PASS"
