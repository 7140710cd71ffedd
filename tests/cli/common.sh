# Sourced by the tests/cli/*.test.sh scripts (BUILD_DIR is $1): defines
# B (build dir), P (the ptbpf binary), PROGS (test programs), T (a temp dir
# removed at exit unless the script sets its own trap), skip and fail. A test
# that cannot run skips (exit 77) on a developer machine, fails when CI=true.
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
# tscale SECONDS: a wait or a duration of a test, longer on a slow machine
# (PTBPF_TEST_TIME_SCALE: tools/vmtest-suite sets 4 under QEMU)
tscale() { awk -v t="$1" -v k="${PTBPF_TEST_TIME_SCALE:-1}" 'BEGIN { print t * k }'; }
[ -x "$P" ] || fail "no $P"
[ "$(id -u)" = 0 ] || skip "needs root"
"$P" info >/dev/null 2>&1 || skip "BPF tracing not available here ('ptbpf info')"
command -v python3 >/dev/null || skip "python3 not installed"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
