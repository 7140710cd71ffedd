#!/bin/sh
# A non-root user with cap_bpf,cap_perfmon+ep on ptbpf records their own command; the command runs without capabilities.
# usage: sh cli_caps.test.sh BUILD_DIR SOURCE_DIR
set -u
B=${1:?build dir}
P=$B/ptbpf
PROGS=$B/tests
skip() {
	echo "SKIP: $*"
	if [ "${CI:-}" = true ]; then echo "FAIL: CI=true, a test may not skip"; exit 1; fi
	exit 77
}
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$P" ] || fail "no $P"
[ -x "$PROGS/cli_target" ] || fail "no $PROGS/cli_target"
[ "$(id -u)" = 0 ] || skip "needs root"
"$P" info >/dev/null 2>&1 || skip "BPF tracing not available here ('ptbpf info')"
command -v python3 >/dev/null || skip "python3 not installed"
T=$(mktemp -d)
command -v setcap >/dev/null || skip "setcap not installed (libcap2-bin)"
command -v setpriv >/dev/null || skip "setpriv not installed"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
cp "$P" "$T/ptbpf"
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$T/ptbpf" --version >/dev/null 2>&1 ||
	skip "user nobody cannot run ptbpf (the build directory must be readable by others)"
setcap cap_bpf,cap_perfmon+ep "$T/ptbpf" || skip "cannot set file capabilities here"
cd "$T"
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
	"$T/ptbpf" record -e execve,exit_group -- /bin/grep -E '^Cap(Inh|Prm|Eff|Amb)' /proc/self/status \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || { cat "$T/out" "$T/err"; fail "record as nobody with file capabilities: exit status $rc"; }
grep -q 'execve("/bin/grep"' "$T/out" || { cat "$T/out"; fail "execve not recorded"; }
grep -q 'exit_group(0) = ?' "$T/out" || fail "exit_group not recorded"
n=$(grep -c -E '^Cap(Inh|Prm|Eff|Amb):[[:space:]]+0+$' "$T/out")
[ "$n" = 4 ] || { cat "$T/out"; fail "the command kept capabilities"; }
echo PASS
