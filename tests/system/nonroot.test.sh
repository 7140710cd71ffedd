#!/bin/sh
# Tracing without root: an unprivileged user holding only CAP_BPF and
# CAP_PERFMON traces its own processes (the integration suite's stream and
# user-event tests, run as that user); it gets EPERM for another user's
# process, and without the capabilities; ptbpf then says which capability is
# missing and how to fix it. Needs root to switch users (CI is root: a skip
# there is a failure).
set -eu
build=$1
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL (CI): $*" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root to run tests as another user"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
# The build tree may not be readable by others: copy what runs.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$build"/tests/nonroot_check "$build"/tests/itest_stream "$build"/tests/itest_user_events \
	"$build"/tests/script_child "$build"/tests/uevent_app "$build"/tests/open_file "$tmp"/
cp -P "$build"/libposixtrace.so* "$tmp"/
cp "$build"/ptbpf "$tmp"/
chmod -R a+rX "$tmp"
as_user() { # CAPS COMMAND...: run as nobody with only CAPS ("" for none)
	caps=$1
	shift
	if [ -n "$caps" ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps="-all,$caps" \
			--ambient-caps="-all,$caps" env LD_LIBRARY_PATH="$tmp" "$@"
	else
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			env LD_LIBRARY_PATH="$tmp" "$@"
	fi
}
fail=0
check() { # EXPECTED_STATUS DESCRIPTION COMMAND...
	want=$1
	what=$2
	shift 2
	set +e
	out=$("$@" 2>&1)
	got=$?
	set -e
	if [ "$got" != "$want" ]; then
		echo "FAIL: $what: exit $got, expected $want: $out" >&2
		fail=1
	else
		echo "ok: $what: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
	fi
}
eperm=1
# the integration tests of streams and user events, as that user (the
# one that switches users itself skips); they run from a directory of theirs
for t in itest_stream itest_user_events; do
	check 0 "$t as nobody with CAP_BPF+CAP_PERFMON" as_user +bpf,+perfmon \
		env PTBPF_PROGS_DIR="$tmp" "$tmp/$t"
done
check 0 "CAP_BPF+CAP_PERFMON traces its own child" as_user +bpf,+perfmon "$tmp"/nonroot_check self
check $eperm "CAP_BPF+CAP_PERFMON, another user's process" \
	as_user +bpf,+perfmon "$tmp"/nonroot_check pid 1
check $eperm "no capabilities" as_user "" "$tmp"/nonroot_check self
# A traced process that execs a program the tracer could not ptrace (one
# that changes its credentials, or that it may not read) is no longer traced
# from that exec on: nothing of the new image is recorded, proc_untraced says
# why. CAP_SYS_PTRACE, or root, keeps tracing it.
cp "$tmp"/open_file "$tmp"/open_suid
chmod 4755 "$tmp"/open_suid
cp "$tmp"/open_file "$tmp"/open_noread
chmod 0711 "$tmp"/open_noread
secret="$tmp/secret-file"
echo secret >"$secret"
chmod 0600 "$secret"
untraced() { # DESCRIPTION WHY CAPS COMMAND...: the open of $secret is not recorded
	what=$1
	why=$2
	caps=$3
	shift 3
	set +e
	out=$(as_user "$caps" "$tmp"/ptbpf record -f -e openat,execve -- "$@" 2>&1)
	st=$?
	set -e
	if [ $st != 0 ] || echo "$out" | grep -q "openat(.*secret-file" ||
		! echo "$out" | grep -q "+++ untraced: exec of \".*\" $why (tracing it needs CAP_SYS_PTRACE) +++"; then
		echo "FAIL: $what: exit $st: $out" >&2
		fail=1
	else
		echo "ok: $what: $(echo "$out" | grep untraced)"
	fi
}
traced() { # DESCRIPTION CAPS COMMAND...: the open of $secret is recorded
	what=$1
	caps=$2
	shift 2
	set +e
	out=$(as_user "$caps" "$tmp"/ptbpf record -f -e openat -- "$@" 2>&1)
	st=$?
	set -e
	if [ $st != 0 ] || ! echo "$out" | grep -q "openat(AT_FDCWD, \"$secret\", O_RDONLY) *= [0-9]" ||
		echo "$out" | grep -q untraced; then
		echo "FAIL: $what: exit $st: $out" >&2
		fail=1
	else
		echo "ok: $what"
	fi
}
untraced "set-user-ID program" "changes its credentials" +bpf,+perfmon \
	"$tmp"/open_suid "$secret"
untraced "set-user-ID program run by a shell (-f)" "changes its credentials" +bpf,+perfmon \
	sh -c "\"$tmp/open_suid\" \"$secret\""
untraced "program the tracer may not read" "that the tracer may not read" +bpf,+perfmon \
	"$tmp"/open_noread /dev/null
traced "set-user-ID program, tracer with CAP_SYS_PTRACE" +bpf,+perfmon,+sys_ptrace \
	"$tmp"/open_suid "$secret"
set +e
out=$("$tmp"/ptbpf record -e openat -- "$tmp"/open_suid "$secret" 2>&1)
set -e
if ! echo "$out" | grep -q "openat(AT_FDCWD, \"$secret\", O_RDONLY) *= [0-9]"; then
	echo "FAIL: root traces a set-user-ID program: $out" >&2
	fail=1
else
	echo "ok: root traces a set-user-ID program"
fi
if [ -u /usr/bin/passwd ]; then
	set +e
	out=$(as_user +bpf,+perfmon "$tmp"/ptbpf record -e openat -- /usr/bin/passwd -S nobody 2>&1)
	set -e
	if echo "$out" | grep -q /etc/shadow || ! echo "$out" | grep -q "+++ untraced"; then
		echo "FAIL: passwd -S as nobody: $out" >&2
		fail=1
	else
		echo "ok: passwd -S as nobody: untraced at its exec"
	fi
fi
# the command: a clear message and the permission exit status (3)
set +e
msg=$(as_user "" "$tmp"/ptbpf record -- /bin/true 2>&1 >/dev/null)
st=$?
set -e
if [ $st != 3 ] || ! echo "$msg" | grep -q "setcap cap_bpf,cap_perfmon+ep"; then
	echo "FAIL: ptbpf without capabilities: exit $st: $msg" >&2
	fail=1
else
	echo "ok: ptbpf without capabilities: $msg"
fi
exit $fail
