#!/bin/sh
# The check-then-trace race: nobody, with CAP_BPF and CAP_PERFMON only,
# runs record -p on its own process, which execs a set-user-ID-root program
# reading a root-only file after a delay swept across ptbpf's start-up
# (0 to 120 ms: the check, the programs' load, the pid entering the
# filter, the start). Whenever the exec comes, nothing the privileged
# program did may be recorded: not its open of the file, nor what it read.
# usage: sh cli_race.test.sh BUILD_DIR
. "$(dirname "$0")/common.sh"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
# On Linux 5.10, BPF maps are charged to RLIMIT_MEMLOCK: the tracers run as
# nobody get a limit root raised
ulimit -l unlimited 2>/dev/null || true

# The tracer runs as nobody: copy what runs. A file system without nosuid.
d=$(mktemp -d -p "$B")
trap 'rm -rf "$T" "$d"' EXIT
cp "$P" "$d"/
cp -P "$B"/libposixtrace.so* "$d"/
cp /bin/cat "$d/suidcat"
chown root:root "$d/suidcat"
chmod 4755 "$d/suidcat"
echo PTBPF-SECRET-7f3a >"$d/secret"
chmod 600 "$d/secret"
chmod 755 "$d"
chmod a+rX "$d/ptbpf" "$d"/libposixtrace.so*
mkdir -m 1777 "$d/w"
# the set-user-ID bit works here (else nothing would be tested)
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$d/suidcat" "$d/secret" |
	grep -q PTBPF-SECRET || skip "set-user-ID programs do not run here (nosuid?)"

caps=+bpf,+perfmon
n=0
for ms in 0 2 5 8 10 15 20 25 30 35 40 50 60 70 80 100 120; do
	delay=$(printf '0.%03d' "$ms")
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		sh -c "sleep $delay; exec $d/suidcat $d/secret" >/dev/null &
	t=$!
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps="-all,$caps" \
		--ambient-caps="-all,$caps" env LD_LIBRARY_PATH="$d" \
		timeout 60 "$d/ptbpf" record --duration 2 -s 64 -p $t >"$T/out" 2>&1
	wait $t
	if grep -q "PTBPF-SECRET" "$T/out" ||
		grep -q "openat(AT_FDCWD, \"$d/secret\", [^)]*) = [0-9]" "$T/out"; then
		cat "$T/out"
		fail "exec after ${ms} ms: the set-user-ID program's events were recorded"
	fi
	grep -q "execve(\"$d/suidcat\"\|proc_untraced\|permission denied\|no such process" "$T/out" &&
		n=$((n + 1))
done
[ $n -gt 0 ] || fail "no run saw the exec or was refused: nothing was tested"
echo "ok: 17 delays, $n runs saw the exec or were refused, none recorded the privileged program"
