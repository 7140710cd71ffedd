#!/bin/sh
# ptbpf record --cgroup: the processes of a cgroup v2 directory of the
# test's own (/sys/fs/cgroup/unified/ptbpf-test-* in a hybrid layout,
# /sys/fs/cgroup/ptbpf-test-* in a pure v2 one): one moved in before the
# recording starts, one moved in while it runs, the processes they create
# (with -f, also one that moves out), not one outside; with -e, -o, a
# command; as nobody with CAP_BPF+CAP_PERFMON, root's processes in it are
# left out and counted; a path that is not a cgroup v2 directory is refused.
# usage: sh cli_cgroup.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
cgfs() { [ "$(stat -f -c %T "$1" 2>/dev/null)" = cgroup2fs ]; }
if cgfs /sys/fs/cgroup; then
	ROOT=/sys/fs/cgroup
elif cgfs /sys/fs/cgroup/unified; then
	ROOT=/sys/fs/cgroup/unified
else
	skip "no cgroup v2 mount (/sys/fs/cgroup or /sys/fs/cgroup/unified)"
fi
CG=$ROOT/ptbpf-test-$$
# the test's own cgroup, where processes move back out to
HOME_CG=$ROOT$(sed -n 's/^0:://p' /proc/self/cgroup)
[ -d "$HOME_CG" ] || skip "cannot find this process's cgroup v2 ($HOME_CG)"
PIDS=
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	[ -d "$CG" ] && for i in 1 2 3 4 5 6 7 8 9 10; do
		rmdir "$CG" 2>/dev/null && break
		sleep "$(tscale 0.2)"
	done
	rm -rf "$T"
}
trap cleanup EXIT
mkdir "$CG" || fail "mkdir $CG"
chmod 755 "$T"

# the helper where another user can run it
mkdir "$T/bin"
cp "$P" "$PROGS/cg_loop" "$T/bin/" || fail "no $PROGS/cg_loop"
cp -P "$B"/libposixtrace.so* "$T/bin/"
chmod -R a+rX "$T/bin"
# loop MARKER [AS...]: a process that opens MARKER every 50 ms, forking nothing
loop() {
	m=$1
	shift
	: >"$T/$m"
	chmod 644 "$T/$m"
	"$@" env LD_LIBRARY_PATH="$T/bin" "$T/bin/cg_loop" "$T/$m" &
	PIDS="$PIDS $!"
	LAST=$!
}
join() { echo "$1" >"$CG/cgroup.procs" || fail "moving $1 into $CG"; }
# wait_for FILE PATTERN: until a line of FILE matches (10 s at most, scaled)
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "no '$2' in $1 after $(tscale 10) s"
		sleep "$(tscale 0.1)"
	done
}
has() { grep -q "$2" "$1" || { cat "$1" | tail -20; fail "$3"; }; }
hasnt() { ! grep -q "$2" "$1" || { grep "$2" "$1" | head -5; fail "$3"; }; }

loop m-before
BEFORE=$LAST
join $BEFORE
loop m-outside
OUTSIDE=$LAST
loop m-joiner
JOINER=$LAST
sleep "$(tscale 0.3)"

# before, joined while recording, not outside; -e openat: nothing else
timeout 30 "$P" record --format=ptbpf --cgroup "$CG" -e openat --duration $(tscale 3) --output-text "$T/a.txt" \
	2>"$T/a.err" &
R=$!
wait_for "$T/a.txt" "m-before"
join $JOINER
wait $R
rc=$?
[ $rc = 0 ] || { cat "$T/a.err"; fail "record --cgroup: exit status $rc"; }
has "$T/a.txt" "^[0-9.]* $BEFORE/$BEFORE openat(AT_FDCWD, \"$T/m-before\"" \
	"the process in the cgroup before the start is not traced"
has "$T/a.txt" "^[0-9.]* $JOINER/$JOINER openat(AT_FDCWD, \"$T/m-joiner\"" \
	"the process that joined the cgroup is not traced"
hasnt "$T/a.txt" "m-outside" "a process outside the cgroup is traced"
hasnt "$T/a.txt" "^[0-9.]* $OUTSIDE/" "a process outside the cgroup is traced"
grep -E '^[0-9.]+ [0-9]+/[0-9]+ [a-z0-9_]+\(' "$T/a.txt" | grep -v ' openat(' >"$T/a.other"
[ ! -s "$T/a.other" ] || { head -5 "$T/a.other"; fail "-e openat: other syscalls recorded"; }
has "$T/a.err" "events printed, 0 lost, 0 processes left out" "no left-out count in the summary"
echo "ok: before the start, joined, outside, -e"

# without -e: the other syscalls too; -o: into a log
timeout 30 "$P" record --format=ptbpf --cgroup "$CG" -o "$T/b.log" --duration $(tscale 1) 2>"$T/b.err" ||
	{ cat "$T/b.err"; fail "record --cgroup -o"; }
has "$T/b.err" "events written to .*0 processes left out" "-o: no summary"
"$P" show --format=ptbpf "$T/b.log" >"$T/b.txt" || fail "show of the --cgroup log"
has "$T/b.txt" "^[0-9.]* $BEFORE/$BEFORE close(" "no close() without -e"
has "$T/b.txt" "^[0-9.]* $JOINER/$JOINER openat(AT_FDCWD, \"$T/m-joiner\"" "-o: no joiner"
hasnt "$T/b.txt" "^[0-9.]* $OUTSIDE/" "-o: a process outside the cgroup is traced"
echo "ok: -o, no -e"

# a child created in the cgroup is traced (without -f); one that moves out
# is not, unless -f made it the traced parent's (then it stays traced)
mover() { # MARKER TRIGGER: once TRIGGER exists, a child that moves out and loops
	: >"$T/$1"
	: >"$T/start-$1"
	sh -c 'while [ ! -e "$3" ]; do sleep 0.05; done
sh -c "read x <\"$4\"; echo \$\$ >\"$1/cgroup.procs\"; echo \$\$ >\"$2.pid\"; exec \"$5\" \"$2\""
' mover "$HOME_CG" "$T/$1" "$T/$2" "$T/start-$1" "$T/bin/cg_loop" &
	PIDS="$PIDS $!"
	LAST=$!
	join $LAST
}
for f in nof f; do
	mover m-moved-$f go-$f
	M=$LAST
	sleep "$(tscale 0.3)"
	opt=
	[ $f = f ] && opt=-f
	timeout 30 "$P" record --format=ptbpf --cgroup "$CG" $opt -e openat --duration $(tscale 2.5) \
		--output-text "$T/c-$f.txt" 2>"$T/c-$f.err" &
	R=$!
	wait_for "$T/c-$f.txt" "m-before"
	: >"$T/go-$f"
	wait $R || { cat "$T/c-$f.err"; fail "record --cgroup $opt (child moving out)"; }
	has "$T/c-$f.txt" "openat(AT_FDCWD, \"$T/start-m-moved-$f\"" \
		"$opt: the child created in the cgroup is not traced"
	if [ $f = f ]; then
		has "$T/c-$f.txt" "\"$T/m-moved-$f\"" "-f: the child that moved out is no longer traced"
	else
		hasnt "$T/c-$f.txt" "\"$T/m-moved-$f\"" "the child that moved out is still traced"
	fi
	kill $M $(cat "$T/m-moved-$f.pid")
done
echo "ok: children created in the cgroup, moving out, -f"

# with a command: it (not its children: no -f) and the cgroup's processes;
# the end is the command's
echo x >"$T/m-cmd"
timeout 30 "$P" record --format=ptbpf --cgroup "$CG" -e openat --output-text "$T/d.txt" -- \
	sh -c "sleep 1; read x <'$T/m-cmd'" 2>"$T/d.err" ||
	{ cat "$T/d.err"; fail "record --cgroup -- cmd"; }
has "$T/d.txt" "openat(AT_FDCWD, \"$T/m-cmd\"" "with a command: the command is not traced"
has "$T/d.txt" "^[0-9.]* $BEFORE/$BEFORE openat" "with a command: the cgroup is not traced"
echo "ok: with a command"

# SIGINT ends a recording of a cgroup alone
"$P" record --format=ptbpf --cgroup "$CG" -e openat --output-text "$T/e.txt" 2>"$T/e.err" &
R=$!
wait_for "$T/e.txt" "m-before"
kill -INT $R
wait $R || { cat "$T/e.err"; fail "SIGINT: exit status $?"; }
has "$T/e.err" "events printed" "SIGINT: no summary"
echo "ok: SIGINT"

# errors: a clear message, exit status 2 (usage), nothing traced or written
err() { # PATH PATTERN
	"$P" record --format=ptbpf --cgroup "$1" -o "$T/err.log" -- true 2>"$T/err.txt"
	rc=$?
	[ $rc = 2 ] || { cat "$T/err.txt"; fail "--cgroup $1: exit status $rc, expected 2"; }
	has "$T/err.txt" "$2" "--cgroup $1: no clear message"
	[ ! -e "$T/err.log" ] || fail "--cgroup $1: the log was created"
}
err /nonexistent/ptbpf-cgroup "No such file or directory"
err "$T" "not a cgroup v2 directory"
err "$CG/cgroup.procs" "not a cgroup v2 directory"
if [ "$(stat -f -c %T /sys/fs/cgroup/cpu 2>/dev/null)" = cgroupfs ]; then
	err /sys/fs/cgroup/cpu "a cgroup v1 hierarchy's directory"
fi
echo "ok: errors"

# as nobody with CAP_BPF+CAP_PERFMON: nobody's process is traced, root's
# (in it at the start, and joined) are left out, counted
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
# On Linux 5.10, BPF maps are charged to RLIMIT_MEMLOCK: the tracers run as
# nobody get a limit root raised
ulimit -l unlimited 2>/dev/null || true
# root's processes so far gone: those below are the cgroup's
kill $BEFORE $JOINER
wait $BEFORE $JOINER 2>/dev/null
loop m-root
ROOT_P=$LAST
join $ROOT_P
loop m-nobody setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all
NOBODY=$LAST
join $NOBODY
loop m-rootj
ROOTJ=$LAST
sleep "$(tscale 0.5)"
mkdir "$T/out"
chmod 777 "$T/out"
(cd / && timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps="-all,+bpf,+perfmon" --ambient-caps="-all,+bpf,+perfmon" \
	env LD_LIBRARY_PATH="$T/bin" "$T/bin/ptbpf" record --format=ptbpf --cgroup "$CG" -e openat --duration $(tscale 3) \
	--output-text "$T/out/f.txt" 2>"$T/f.err") &
R=$!
wait_for "$T/out/f.txt" "m-nobody"
join $ROOTJ
wait $R || { cat "$T/f.err"; fail "record --cgroup as nobody: exit status $?"; }
has "$T/out/f.txt" "^[0-9.]* $NOBODY/$NOBODY openat(AT_FDCWD, \"$T/m-nobody\"" \
	"as nobody: nobody's process in the cgroup is not traced"
hasnt "$T/out/f.txt" "m-root" "as nobody: root's process in the cgroup is traced"
hasnt "$T/out/f.txt" "^[0-9.]* $ROOT_P/" "as nobody: root's process in the cgroup is traced"
hasnt "$T/out/f.txt" "^[0-9.]* $ROOTJ/" "as nobody: root's process that joined is traced"
has "$T/f.err" ", 2 processes left out" "as nobody: root's two processes are not counted"
echo "ok: as nobody with CAP_BPF+CAP_PERFMON: $(tail -1 "$T/f.err")"
echo PASS

# A tracer in a pid namespace: the host's processes in the cgroup have no
# pid there and are not its to see; its namespace's are traced
sh -c 'while :; do cat /etc/hostname >/dev/null; sleep 0.05; done' &
hp=$!
PIDS="$PIDS $hp"
echo $hp >"$CG/cgroup.procs" || fail "moving $hp into $CG"
unshare --pid --fork --mount-proc sh -c "
	sh -c 'echo \$\$ >$CG/cgroup.procs; while :; do cat /etc/os-release >/dev/null; sleep 0.05; done' &
	t=\$!; sleep $(tscale 0.3)
	timeout 30 \"$P\" record --format=ptbpf --cgroup $CG -e openat --duration $(tscale 1.5); kill \$t" >"$T/ns.out" 2>&1
grep -q 'openat(AT_FDCWD, "/etc/os-release"' "$T/ns.out" ||
	{ tail -20 "$T/ns.out"; fail "--cgroup in a pid namespace: its own process not traced"; }
! grep -q '/etc/hostname' "$T/ns.out" ||
	{ tail -20 "$T/ns.out"; fail "--cgroup in a pid namespace traced a host process"; }
echo "ok: --cgroup from a pid namespace: its processes, not the host's"
