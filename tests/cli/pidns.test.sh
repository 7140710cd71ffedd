#!/bin/sh
# ptbpf in a pid namespace (unshare --pid --fork --mount-proc): record --
# CMD, -f and -p record, and every pid in the output is the one the
# namespace sees ($$ echoed by the traced shells), in the live lines and in
# a log's JSON. Then the host-pid confusion: nobody, with CAP_BPF and
# CAP_PERFMON only, in a pid namespace, runs record -p N on its own process
# whose pid there is N, while a root process of the host has the pid N
# (/proc/sys/kernel/ns_last_pid makes it so): only its own is recorded.
# usage: sh cli_pidns.test.sh BUILD_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/pidns_check.py
command -v unshare >/dev/null || skip "no unshare (util-linux)"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
ns() { unshare --pid --fork --mount-proc "$@"; }
# On Linux 5.10, BPF maps are charged to RLIMIT_MEMLOCK: the tracers run as
# nobody get a limit root raised
ulimit -l unlimited 2>/dev/null || true

# record -- CMD: the shell's $$ is on its lines, the file it opened seen
ns sh -c "stat -L -c %i /proc/self/ns/pid >\"$T/a.ns\"; \"$P\" record --format=ptbpf -o \"$T/a.log\" -- sh -c 'echo \$\$ >\"$T/a.pid\"; exec cat /etc/hostname'" \
	>"$T/a.out" 2>&1 || { cat "$T/a.out"; fail "record -- CMD in a pid namespace"; }
pid=$(cat "$T/a.pid")
"$P" show --format=ptbpf "$T/a.log" >"$T/a.txt" || fail "show"
grep -q "^[0-9.]* $pid/$pid openat(.*\"/etc/hostname\"" "$T/a.txt" ||
	{ cat "$T/a.txt"; fail "record -- CMD: no openat of /etc/hostname by $pid"; }
"$P" show --format=ptbpf "$T/a.log" 2>&1 >/dev/null | grep -q "pids are those of pid namespace pid:\[$(cat "$T/a.ns")\]" ||
	fail "show of a log of a pid namespace does not say so"
"$P" show --format=ptbpf --json "$T/a.log" >"$T/a.jsonl" || fail "show --json"
"$P" record --format=ptbpf -o "$T/h.log" -- true 2>/dev/null || fail "record on the host"
"$P" show --format=ptbpf --json "$T/h.log" | head -1 | grep -q "\"pid_namespace\":4026531836}" ||
	fail "a host log's pid_namespace is not the initial one"
[ -z "$("$P" show --format=ptbpf "$T/h.log" 2>&1 >/dev/null)" ] || fail "show of a host log says something of namespaces"
python3 "$CHECK" namespace_pids "$T/a.jsonl" "$pid" "$(cat "$T/a.ns")" || exit 1

# -f: a child's lines carry the pid it echoed; its fork names it
ns sh -c "\"$P\" record --format=ptbpf -f -e openat,proc -- sh -c 'echo \$\$ >\"$T/p.pid\"; sh -c \"echo \\\$\\\$ >$T/c.pid; exec cat /etc/hostname\"'" \
	>"$T/f.out" 2>&1 || { cat "$T/f.out"; fail "record -f in a pid namespace"; }
p=$(cat "$T/p.pid")
c=$(cat "$T/c.pid")
grep -q " $c/$c openat(.*\"/etc/hostname\"" "$T/f.out" ||
	{ cat "$T/f.out"; fail "-f: no openat by the child $c"; }
grep -q " $p/$p proc_fork process $c/$c" "$T/f.out" ||
	{ cat "$T/f.out"; fail "-f: no fork of $c by $p"; }
echo "ok: -f: parent $p, child $c"

# -p: a process of the namespace, by the pid it has there
ns sh -c "sh -c 'echo \$\$ >\"$T/t.pid\"; while :; do cat /etc/hostname >/dev/null; sleep 0.05; done' &
	t=\$!; sleep $(tscale 0.3); timeout 60 \"$P\" record --format=ptbpf --duration $(tscale 1) -f -p \$t -e openat,proc; kill \$t" \
	>"$T/p.out" 2>&1
t=$(cat "$T/t.pid")
# a child it forked (cat, not sleep) opened the file
ok=
for c in $(sed -n "s|^[0-9.]* $t/$t proc_fork process \([0-9]*\)/.*|\1|p" "$T/p.out"); do
	grep -q " $c/$c openat(.*\"/etc/hostname\"" "$T/p.out" && ok=1
done
[ -n "$ok" ] || { tail -20 "$T/p.out"; fail "-p $t: no child of it opened /etc/hostname"; }
echo "ok: -p $t in the namespace"

# The host-pid confusion. The tracer runs as nobody: copy what runs.
d=$(mktemp -d)
trap 'kill $host 2>/dev/null; rm -rf "$T" "$d"' EXIT
cp "$P" "$d"/
cp -P "$B"/libposixtrace.so* "$d"/
chmod -R a+rX "$d"
mkdir -m 1777 "$d/w"
sh -c 'while :; do cat /etc/hostname >/dev/null; sleep 0.05; done' &
host=$!
caps=+bpf,+perfmon
ns sh -c "echo $((host - 1)) >/proc/sys/kernel/ns_last_pid
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all sh -c \
		'echo \$\$ >\"$d/w/n.pid\"; while :; do cat /etc/os-release >/dev/null; sleep 0.05; done' &
	t=\$!; sleep $(tscale 0.3)
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,$caps \
		--ambient-caps=-all,$caps env LD_LIBRARY_PATH=$d timeout 60 $d/ptbpf record --format=ptbpf --duration $(tscale 1) -f -p $host -e openat
	kill \$t" >"$T/h.out" 2>&1
[ "$(cat "$d/w/n.pid")" = "$host" ] || { cat "$T/h.out"; fail "the namespace's process did not get pid $host"; }
grep -q "openat(.*\"/etc/os-release\"" "$T/h.out" ||
	{ cat "$T/h.out"; fail "-p $host in the namespace: its own process not recorded"; }
! grep -q "/etc/hostname" "$T/h.out" ||
	{ cat "$T/h.out"; fail "-p $host in the namespace recorded the host's process $host"; }
echo "ok: -p $host in a namespace records its own process, not the host's $host"

# User events of a program in a pid namespace, the tracer inside it (a
# child sharing the region too) and outside it (the program's ids are its
# namespace's, the tracer's are the host's)
U=$PROGS/cli_uev
ns "$P" record --format=ptbpf -f -e user,proc -- "$PROGS/fork_uev" 50 >"$T/u1.out" 2>&1 ||
	{ tail -20 "$T/u1.out"; fail "record -e user in the namespace"; }
n=$(grep -c " user fork_hello " "$T/u1.out")
[ "$n" = 100 ] || { tail -20 "$T/u1.out"; fail "fork_uev in the namespace: $n user events, not 100"; }
c=$(sed -n "s|^[0-9.]* \([0-9]*\)/[0-9]* proc_fork process \([0-9]*\)/.*|\2|p" "$T/u1.out" | head -1)
[ "$(grep -c " $c/$c user fork_hello " "$T/u1.out")" = 50 ] ||
	{ tail -20 "$T/u1.out"; fail "fork_uev in the namespace: not 50 events of its child $c"; }
echo "ok: user events in the namespace, the tracer inside, a child's too"
"$P" record --format=ptbpf -f -e user,proc -- unshare --pid --fork "$U" 2 "$(tscale 500)" >"$T/u2.out" 2>&1 ||
	{ tail -20 "$T/u2.out"; fail "record -e user -- unshare --pid"; }
h=$(sed -n "s|^[0-9.]* \([0-9]*\)/[0-9]* proc_exec \"$U\"|\1|p" "$T/u2.out")
[ -n "$h" ] && [ "$(grep -c "^[0-9.]* $h/$h user cli_hello len=7" "$T/u2.out")" = 2 ] ||
	{ tail -20 "$T/u2.out"; fail "a namespaced program's user events, traced from the host: not 2 of pid $h"; }
echo "ok: user events of a namespaced program traced from the host, pid $h"
# ... and a child it forks after the tracer attached, by -p
unshare --pid --fork "$PROGS/fork_uev" 50 $(tscale 3000) &
un=$!
sleep $(tscale 0.5)
f=$(pgrep -P $un)
timeout $(tscale 10) "$P" record --format=ptbpf -f -e user,proc -p "$f" >"$T/u3.out" 2>&1
wait $un || fail "fork_uev in a namespace failed"
c=$(sed -n "s|^[0-9.]* $f/$f proc_fork process \([0-9]*\)/.*|\1|p" "$T/u3.out" | head -1)
[ -n "$c" ] && [ "$(grep -c "^[0-9.]* $f/$f user fork_hello " "$T/u3.out")" = 50 ] &&
	[ "$(grep -c "^[0-9.]* $c/$c user fork_hello " "$T/u3.out")" = 50 ] ||
	{ tail -20 "$T/u3.out"; fail "-f -p of a namespaced program from the host: not 50 events of $f and of its child"; }
echo "ok: -f -p $f, in a namespace, from the host: its events and its child $c's"
