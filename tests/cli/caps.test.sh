#!/bin/sh
# A non-root user with cap_bpf,cap_perfmon+ep on ptbpf records their own command; the command runs without capabilities.
# usage: sh cli_caps.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
[ -x "$PROGS/cli_target" ] || fail "no $PROGS/cli_target"
command -v setcap >/dev/null || skip "setcap not installed (libcap2-bin)"
command -v setpriv >/dev/null || skip "setpriv not installed"
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
grep -q 'execve("/bin/grep"' "$T/err" || { cat "$T/err"; fail "execve not recorded"; }
grep -q 'exit_group(0) *= ?' "$T/err" || fail "exit_group not recorded"
n=$(grep -c -E '^Cap(Inh|Prm|Eff|Amb):[[:space:]]+0+$' "$T/out")
[ "$n" = 4 ] || { cat "$T/out"; fail "the command kept capabilities"; }
echo PASS
