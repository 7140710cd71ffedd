#!/bin/sh
# The README's recipe for tracing without root, on the installed command: a
# build configured for a private prefix is installed there, its ptbpf given
# cap_bpf,cap_perfmon+ep, and run as user nobody without LD_LIBRARY_PATH. The
# loader ignores $ORIGIN in RUNPATH for a binary with file capabilities
# (secure-execution mode), so the installed ptbpf must find its library
# another way. The install RPATH is fixed at configure time: hence a build
# of its own (the library and ptbpf only), configured with that prefix.
# Installed to another prefix (cmake --install --prefix), it still runs
# without capabilities.
# Needs root to set capabilities and switch users (CI is root: a skip there
# is a failure).
# usage: sh install_setcap.test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL (CI): $*" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || skip "needs root to set capabilities and run as another user"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
command -v setcap >/dev/null || skip "no setcap (libcap2-bin)"
# a library of that name in the ld.so cache would be found anyway
! /sbin/ldconfig -p | grep -q 'libposixtrace\.so\.0' ||
	skip "a libposixtrace.so.0 is in the ld.so cache: the test could not tell"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
prefix=$tmp/prefix
# the compiler of the build under test, without its sanitizers: what is
# checked is the installed layout
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cmake -S "$src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX="$prefix" \
	${cc:+-DCMAKE_C_COMPILER="$cc"} -DBUILD_TESTING=OFF -DPTBPF_BENCH=OFF >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "configure"; }
cmake --build "$tmp/build" -j"$(nproc)" --target posixtrace posixtrace_static ptbpf >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "build"; }
cmake --install "$tmp/build" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "install"; }
bin=$prefix/bin/ptbpf
[ -x "$bin" ] || fail "no $bin"
chmod -R a+rX "$prefix"
setcap cap_bpf,cap_perfmon+ep "$bin" || skip "setcap failed (file system without xattrs?)"

# as nobody: it starts (not "cannot open shared object file"), and holds the
# capabilities, so the loader did run it in secure-execution mode
set +e
out=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups env -u LD_LIBRARY_PATH \
	"$bin" info 2>&1)
st=$?
set -e
echo "$out"
echo "$out" | grep -q 'cannot open shared object file' && fail "the installed ptbpf does not find its library"
echo "$out" | grep -q '^ptbpf [0-9]' || fail "ptbpf info did not start (exit $st)"
echo "$out" | grep -q '^CAP_BPF  *yes' && echo "$out" | grep -q '^CAP_PERFMON  *yes' ||
	fail "the file capabilities were not in effect (mounted nosuid?): nothing was tested"
[ $st = 0 ] || fail "ptbpf info as nobody: exit $st"
echo "ok: installed ptbpf with file capabilities runs as nobody"

# From a login shell (su): the capability-gaining exec makes ptbpf, and so
# its fork, not dumpable; the command it starts must still be traced.
# record -- CMD, -f, and -p of nobody's own process work; root's is refused.
command -v su >/dev/null || skip "no su (util-linux)"
f=$tmp/nobodys-file
echo hello >"$f"
chmod 644 "$f"
as_nobody() { (cd / && su nobody -s /bin/sh -c "$1" 2>&1); }
out=$(as_nobody "$bin record -e openat -- cat $f") ||
	{ echo "$out"; fail "su nobody: record -- cat: exit status $?"; }
echo "$out" | grep -q "openat(AT_FDCWD, \"$f\"" || { echo "$out"; fail "su nobody: record -- cat: no openat"; }
out=$(as_nobody "$bin record -f -e openat -- sh -c 'cat $f; true'") ||
	{ echo "$out"; fail "su nobody: record -f: exit status $?"; }
echo "$out" | grep -q "openat(AT_FDCWD, \"$f\"" || { echo "$out"; fail "su nobody: record -f: no openat"; }
out=$(as_nobody "sh -c 'while :; do cat $f >/dev/null; sleep 0.05; done' & t=\$!; sleep 0.2
	timeout -s INT 1 $bin record -f -p \$t -e openat; kill \$t")
echo "$out" | grep -q "openat(AT_FDCWD, \"$f\"" || { echo "$out"; fail "su nobody: record -p own: no openat"; }
sleep 30 &
root=$!
out=$(as_nobody "$bin record -p $root") && { kill $root; echo "$out"; fail "su nobody: record -p of root's process succeeded"; }
kill $root
echo "$out" | grep -q "permission denied" || { echo "$out"; fail "su nobody: -p of root's: not refused"; }
echo "ok: setcap ptbpf from su: record -- CMD, -f, -p own; root's refused"

# installed elsewhere than configured (cmake --install --prefix), the
# configured prefix gone: without capabilities it finds its library next to it
cmake --install "$tmp/build" --prefix "$tmp/moved" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "install --prefix"; }
rm -rf "$prefix"
env -u LD_LIBRARY_PATH "$tmp/moved/bin/ptbpf" --version >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "ptbpf installed with --prefix does not start"; }
echo "ok: ptbpf installed with cmake --install --prefix runs: $(head -n 1 "$tmp/log")"
