#!/bin/sh
# The Debian packages, built and installed as a user of Debian would:
#  1. dpkg-buildpackage -us -uc -b on a copy of the source tree (the
#     project's tests are not run in the package build: nocheck),
#  2. lintian on the result: no error and no warning (those explained are
#     overridden in debian/*.lintian-overrides, with the reason),
#  3. the three packages installed with apt into a clean Debian 12 root (a
#     copy of a debootstrap minbase root with a compiler and pkg-config,
#     made once and kept under PTBPF_TEST_CACHE, /var/cache/ptbpf-tests by
#     default; their dependencies come from Debian's archive), and there:
#     ptbpf --version and ptbpf info; the examples built from
#     /usr/share/doc/ptbpf/examples with pkg-config posixtrace and traced;
#     the README's setcap recipe on the packaged ptbpf, run as nobody.
# Needs root, debhelper, lintian, debootstrap and Debian's archive (CI is
# root and has them: a skip there is a failure).
# usage: sh deb.test.sh BUILD_DIR SOURCE_DIR
set -eu
src=$(cd "$2" && pwd)
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
[ "$(id -u)" = 0 ] || skip "needs root (chroot, setcap)"
for c in dpkg-buildpackage dh lintian debootstrap setcap unshare; do
	command -v $c >/dev/null || skip "no $c (tools/install-deps.sh)"
done
mirror=${PTBPF_TEST_MIRROR:-http://deb.debian.org/debian}
cache=${PTBPF_TEST_CACHE:-/var/cache/ptbpf-tests}
# what the clean root holds besides minbase: what a user building against
# libposixtrace-dev brings (the packages under test bring the rest)
include=gcc,libc6-dev,pkg-config,make,ca-certificates

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)
step() { echo "[$(($(date +%s) - t0)) s] $*"; }

# 1. the packages, from a copy of the tree (dpkg-buildpackage writes into it,
#    its .debs beside it): the files git knows and the new ones not ignored
step "dpkg-buildpackage"
mkdir "$tmp/src"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 tar cf - 2>/dev/null) | tar xf - -C "$tmp/src"
else
	(cd "$src" && tar cf - --exclude='./build*' .) | tar xf - -C "$tmp/src"
fi
(cd "$tmp/src" && DEB_BUILD_OPTIONS="nocheck parallel=${PTBPF_DEB_JOBS:-2}" \
	dpkg-buildpackage -us -uc -b) </dev/null >"$tmp/build.log" 2>&1 ||
	{ tail -n 60 "$tmp/build.log"; fail "dpkg-buildpackage"; }
ls "$tmp"/*.deb
for p in ptbpf libposixtrace0 libposixtrace-dev; do
	ls "$tmp/${p}_"*.deb >/dev/null 2>&1 || fail "no $p package"
done
# what each package holds
for p in ptbpf libposixtrace0 libposixtrace-dev; do
	dpkg-deb -c "$tmp/${p}_"*_*.deb | awk '{ print $6 }' >"$tmp/$p.list"
done
has() {
	grep -q -- "$2" "$tmp/$1.list" || { cat "$tmp/$1.list"; fail "$1: no $2"; }
}
has ptbpf '^\./usr/bin/ptbpf$'
has ptbpf '/usr/share/man/man1/ptbpf\.1'
has ptbpf '^\./usr/share/bash-completion/completions/ptbpf$'
has ptbpf '^\./usr/share/fish/vendor_completions.d/ptbpf.fish$'
has ptbpf '^\./usr/share/doc/ptbpf/examples/user_events\.c$'
has libposixtrace0 '/libposixtrace\.so\.0$'
has libposixtrace0 '/libposixtrace\.so\.0\.1\.0$'
for f in include/trace.h include/ptbpf/ptbpf.h libposixtrace.so libposixtrace.a \
	pkgconfig/posixtrace.pc cmake/posixtrace/posixtraceConfig.cmake man3/posixtrace.3; do
	has libposixtrace-dev "$f"
done

# 2. lintian
step "lintian"
lintian --fail-on error,warning --display-info "$tmp"/*.changes >"$tmp/lintian.log" 2>&1 ||
	{ cat "$tmp/lintian.log"; fail "lintian"; }
cat "$tmp/lintian.log"

# 3. a clean root: the cached debootstrap, made once (under a lock: another
#    test run may be making it), copied
step "clean root"
mkdir -p "$cache"
(
	flock 9
	if [ "$(cat "$cache/bookworm.include" 2>/dev/null)" != "$include" ]; then
		rm -rf "$cache/bookworm" "$cache/bookworm.new"
		debootstrap --variant=minbase --include="$include" bookworm "$cache/bookworm.new" \
			"$mirror" >"$tmp/debootstrap.log" 2>&1 ||
			{ tail -n 30 "$tmp/debootstrap.log"; rm -rf "$cache/bookworm.new"; exit 1; }
		rm -f "$cache/bookworm.new/var/cache/apt/archives/"*.deb
		mv "$cache/bookworm.new" "$cache/bookworm"
		echo "$include" >"$cache/bookworm.include"
	fi
) 9>"$cache/lock" || fail "debootstrap of bookworm into $cache"
root=$tmp/root
cp -a "$cache/bookworm" "$root"
mkdir "$root/tmp/debs" "$root/tmp/ex"
cp "$tmp"/*.deb "$root/tmp/debs/"
cp /etc/resolv.conf "$root/etc/resolv.conf"

# in the root, in a mount namespace of its own (its mounts go with it)
cat >"$root/tmp/in-root.sh" <<'EOS'
set -eu
export DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
apt-get update -qq
apt-get install -y -qq --no-install-recommends /tmp/debs/*.deb >/tmp/apt.log 2>&1 ||
	{ cat /tmp/apt.log; echo "FAIL: apt-get install of the packages"; exit 1; }
ptbpf --version
ptbpf --version | head -n 1 | grep -qx 'ptbpf [0-9.]*' || { echo "FAIL: --version"; exit 1; }
ptbpf info || { echo "FAIL: ptbpf info: exit $?"; exit 1; }
cd /tmp/ex
cc -Wall -Wextra -Werror -o user_events /usr/share/doc/ptbpf/examples/user_events.c \
	$(pkg-config --cflags --libs posixtrace)
./user_events 1
make -s -f /usr/share/doc/ptbpf/examples/Makefile
ptbpf record -e user:app.request -- ./user_events 2 2>rec.txt
grep -q 'user:app.request "request 1"' rec.txt || { cat rec.txt; echo "FAIL: record: no user event"; exit 1; }
ptbpf record -o t.log -- ./user_events 3
./log_analyzer t.log >an.txt
grep -q '^ *3  app.request$' an.txt || { echo "FAIL: log_analyzer"; exit 1; }
./controller ./user_events 2 >ctl.txt
grep -q ' app.done ' ctl.txt || { cat ctl.txt; echo "FAIL: controller: no app.done"; exit 1; }
chmod 755 /tmp/ex
EOS
step "install and run in the root"
unshare --mount --propagation private sh -c '
	set -e
	mount -t proc proc "$1/proc"
	mount --rbind /sys "$1/sys"
	mount --rbind /dev "$1/dev"
	chroot "$1" sh /tmp/in-root.sh
	# the README recipe: file capabilities, then any user records (its
	# syscalls: a non-root ptbpf does not see user events yet, setcap or not)
	setcap cap_bpf,cap_perfmon+ep "$1/usr/bin/ptbpf"
	chroot --userspec=65534:65534 "$1" sh -c "cd /tmp && env -u LD_LIBRARY_PATH ptbpf info" >"$2/nobody.txt" 2>&1 || true
	chroot --userspec=65534:65534 "$1" sh -c "cd /tmp && ptbpf record -e access -- /tmp/ex/user_events 1" >"$2/nobody-rec.txt" 2>&1 || true
' sh "$root" "$tmp" || fail "in the clean root"
cat "$tmp/nobody.txt"
grep -q '^CAP_BPF  *yes' "$tmp/nobody.txt" && grep -q '^CAP_PERFMON  *yes' "$tmp/nobody.txt" ||
	fail "setcap'd packaged ptbpf as nobody: capabilities not in effect"
grep -q '^access("/", R_OK) *= 0$' "$tmp/nobody-rec.txt" ||
	{ cat "$tmp/nobody-rec.txt"; fail "setcap'd packaged ptbpf as nobody: record"; }
step "ok: packages built, lintian clean, installed and run in a clean bookworm root"
