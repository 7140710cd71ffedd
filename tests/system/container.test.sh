#!/bin/sh
# ptbpf and a real container runtime (issue #52): podman + runc, on a busybox
# root filesystem built here (tests/system/container_common.sh).
#  a. ptbpf in the container (seccomp unconfined, CAP_BPF, CAP_PERFMON) traces
#     its own command, with the pids of the container's pid namespace;
#  b. ptbpf on the host traces a container's process by -p HOSTPID -f: host pids;
#  c. ptbpf on the host traces a container by --cgroup DIR (its cgroup v2
#     directory): its processes only, host pids;
#  d. with podman's default seccomp profile (bpf and perf_event_open refused
#     without CAP_SYS_ADMIN), 'ptbpf info' and 'ptbpf record' fail saying so.
# Every part runs; the test fails if one does.
# usage: sh container.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/container_common.sh"

bad=
part_fail() {
	echo "FAIL: $*"
	bad="$bad ${1%%:*}"
}
# show FILE: its first lines, for a failure's context
show() {
	echo "--- $1 ($(wc -l <"$1") lines):"
	head -n "${2:-15}" "$1"
	echo "---"
}
# the traced pids of FILE's lines "TS PID/TID openat(AT_FDCWD, "/etc/hostname"..."
hostname_openers() {
	sed -n 's|^[0-9.]* \([0-9]*\)/[0-9]* openat(AT_FDCWD, "/etc/hostname".*|\1|p' "$1" | sort -u
}
# the children of PID that FILE shows created (proc_fork), as ptbpf saw them
forked_by() {
	sed -n "s|^[0-9.]* $1/[0-9]* proc_fork process \([0-9]*\)/.*|\1|p" "$2" | sort -u
}
# the pids PID's fork calls returned (its own pid namespace's view)
fork_returns() {
	sed -n "s|^[0-9.]* $1/[0-9]* v\{0,1\}fork() = \([0-9]*\)\$|\1|p; s|^[0-9.]* $1/[0-9]* clone.*) = \([0-9]*\)\$|\1|p" "$2" | sort -u
}
# the pids with an event in FILE before PID's first proc_fork: a child forked
# before the recording started is traced (--cgroup) without its fork
early_pids() {
	awk -v p="$1" '$2 ~ "^" p "/" && $3 == "proc_fork" { exit }
		{ split($2, a, "/"); if (a[1] != 0 && a[1] != p) print a[1] }' "$2" | sort -u
}
# check_host_view PART FILE HOSTPID: FILE has the opens of /etc/hostname of
# HOSTPID's children (busybox sh vforks cat), all of them, with host pids
check_host_view() {
	hostname_openers "$2" >"$T/$1.openers"
	forked_by "$3" "$2" >"$T/$1.forked"
	early_pids "$3" "$2" | sort -u - "$T/$1.forked" >"$T/$1.children"
	fork_returns "$3" "$2" >"$T/$1.nspids"
	if [ ! -s "$T/$1.openers" ]; then
		part_fail "$1: no openat of /etc/hostname"
		show "$2"
		return
	fi
	grep -q "^[0-9.]* $3/$3 " "$2" || { part_fail "$1: no event of the container's shell ($3)"; show "$2"; return; }
	[ -s "$T/$1.forked" ] || { part_fail "$1: no proc_fork of the container's shell ($3)"; show "$2"; return; }
	# every opener a child of the shell as the host sees it...
	others=$(comm -23 "$T/$1.openers" "$T/$1.children" | tr '\n' ' ')
	[ -z "$others" ] || { part_fail "$1: /etc/hostname opened by pids not forked by $3: $others"; show "$2"; return; }
	# ...not as the container does (its fork() return values)
	nsview=$(comm -12 "$T/$1.openers" "$T/$1.nspids" | tr '\n' ' ')
	[ -z "$nsview" ] || { part_fail "$1: pids of the container's namespace: $nsview"; show "$2"; return; }
	echo "$1: PASS ($(wc -l <"$T/$1.openers") processes of the container opened /etc/hostname, host pids)"
}

# the container that (b) and (c) trace: its shell opens /etc/hostname by cat
# ten times a second; it stops by itself after about a minute (a killed test
# leaves nothing running for long)
# shellcheck disable=SC2016 # expanded in the container
LOOP='i=0; while [ $i -lt 600 ]; do cat /etc/hostname >/dev/null; sleep 0.1; i=$((i + 1)); done'
start_loop() {
	ct_start "$1" sh -c "$LOOP" || return 1
	hp=$(ct_pid "$1") || return 1
	[ -n "$hp" ] && [ "$hp" != 0 ] && kill -0 "$hp" 2>/dev/null
}

# --- a. ptbpf inside the container traces its own command
mkdir -p "$T/out"
ct_run --cap-add=bpf,perfmon --security-opt=seccomp=unconfined --volume="$T/out:/out" \
	"$CT_BUILD/ptbpf" record --format=ptbpf --output-text /out/a.txt -- sh -c 'echo $$; cat /etc/hostname' \
	>"$T/a.stdout" 2>"$T/a.stderr"
rc=$?
S=$(head -n 1 "$T/a.stdout")
if [ $rc != 0 ]; then
	part_fail "a: ptbpf record in the container: exit status $rc"
	cat "$T/a.stdout" "$T/a.stderr"
elif ! expr "$S" : '[0-9][0-9]*$' >/dev/null; then
	part_fail "a: the shell printed no pid: '$S'"
elif [ ! -f "$T/out/a.txt" ]; then
	part_fail "a: no trace written"
	cat "$T/a.stderr"
elif ! grep -q "^[0-9.]* $S/$S write(1, \"$S\\\\n\", " "$T/out/a.txt" ||
	! grep -q "^[0-9.]* $S/$S openat(AT_FDCWD, \"/etc/hostname\", " "$T/out/a.txt" ||
	! grep -q "^[0-9.]* $S/$S +++ exited with 0 +++" "$T/out/a.txt"; then
	# busybox sh runs its last command by exec: cat is the shell's pid
	part_fail "a: the trace lacks the write of '$S', the open of /etc/hostname or the exit by pid $S (the shell's \$\$)"
	cat "$T/a.stderr"
	show "$T/out/a.txt"
else
	others=$(sed -n 's|^[0-9.]* \([0-9]*\)/[0-9]* .*|\1|p' "$T/out/a.txt" | sort -u | grep -vx -e "$S" -e 0 | tr '\n' ' ')
	if [ -n "$others" ]; then
		part_fail "a: events of other pids than the shell's $S: $others"
		show "$T/out/a.txt"
	else
		echo "a: PASS (pid $S, the container's view, on $(grep -c "^[0-9.]* $S/$S " "$T/out/a.txt") events)"
	fi
fi

# record_host_view PART ARGS...: ptbpf on the host records a second of
# ARGS; the container's processes are seen, by their host pids
record_host_view() {
	part=$1
	shift
	timeout 30 "$P" record --format=ptbpf "$@" --duration=1 --output-text "$T/$part.txt" 2>"$T/$part.err"
	rc=$?
	if [ $rc != 0 ]; then
		part_fail "$part: ptbpf record $*: exit status $rc"
		cat "$T/$part.err"
	else
		check_host_view "$part" "$T/$part.txt" "$hp"
	fi
}

# --- b. ptbpf on the host traces a container's process by its host pid
if ! start_loop ctb; then
	part_fail "b: cannot start the container"
else
	# the shell is the first process of its own pid namespace
	nspid=$(awk '$1 == "NSpid:" { print $2, $3, $4 }' "/proc/$hp/status")
	if [ "$nspid" != "$hp 1 " ]; then
		part_fail "b: the container's shell is not pid 1 of its own namespace (NSpid: $nspid)"
	else
		record_host_view b -f -p "$hp"
	fi
	ct_podman rm --force --time=0 ctb >/dev/null 2>&1
fi

# --- c. ptbpf on the host traces a container by its cgroup v2 directory
if ! start_loop ctc; then
	part_fail "c: cannot start the container"
elif ! cg=$(ct_cgroup2 "$hp"); then
	part_fail "c: no cgroup v2 directory for the container ($(tr '\n' ' ' <"/proc/$hp/cgroup"))"
elif [ "$cg" = "$(ct_cgroup2 $$)" ] || ! grep -qx "$hp" "$cg/cgroup.procs"; then
	part_fail "c: the container has no cgroup v2 directory of its own ($cg)"
else
	# a host process opening the same file at the same pace, outside the cgroup
	(while :; do cat /etc/hostname >/dev/null; sleep 0.1; done) &
	H=$!
	record_host_view c --cgroup "$cg"
	kill $H
	wait $H 2>/dev/null
fi
ct_podman rm --force --time=0 ctc >/dev/null 2>&1

# --- d. podman's default seccomp profile: ptbpf says what is wrong
# seccomp_says WHAT ARGS...: ptbpf ARGS in the container fails, saying seccomp
seccomp_says() {
	what=$1
	shift
	ct_run --cap-add=bpf,perfmon "$CT_BUILD/ptbpf" "$@" >"$T/d.out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		part_fail "d: ptbpf $what succeeded under the default seccomp profile"
		cat "$T/d.out"
	elif ! grep -qi seccomp "$T/d.out"; then
		part_fail "d: ptbpf $what (exit status $rc) does not mention seccomp"
		cat "$T/d.out"
	else
		echo "d: ptbpf $what: PASS ($(grep -i -m1 seccomp "$T/d.out"))"
	fi
}
seccomp_says info info
seccomp_says record record -- true

[ -z "$bad" ] || fail "parts$(echo "$bad" | tr ' ' '\n' | sort -u | tr '\n' ' ')"
echo PASS
