#!/bin/sh
# Install the Debian 12 packages ptbpf needs to build, test and benchmark,
# only those that are missing: with everything present it does nothing.
#   tools/install-deps.sh          build + test dependencies
#   tools/install-deps.sh --bench  also the peers the benchmarks compare with
set -eu
# podman and runc: tests/system/container.test.sh (a root filesystem of busybox-static
# in a container). runc is named so that apt takes it for podman's
# "crun | runc" (crun refuses a hybrid cgroup v1/v2 layout); the container runs
# as root with --network none on vfs storage, so neither uidmap, slirp4netns,
# netavark nor fuse-overlayfs is needed (podman only recommends them).
pkgs="cmake make gcc g++ clang llvm libbpf-dev bpftool libelf-dev libdw-dev zlib1g-dev
libcmocka-dev pkg-config libclang-rt-14-dev systemtap-sdt-dev strace babeltrace2
libcap2-bin python3 qemu-system-x86 busybox-static xz-utils zstd clang-format
podman runc"
# the Debian packages' test (tests/system/deb.test.sh: dpkg-buildpackage,
# lintian, a clean root by debootstrap), the bash and fish completions' and
# Python's reading of a CTF trace (examples/bt2_summary.py)
pkgs="$pkgs debhelper dpkg-dev fakeroot lintian debootstrap bash-completion fish python3-bt2"
if [ "${1:-}" = "--bench" ]; then
	pkgs="$pkgs bpftrace linux-perf liblttng-ust-dev lttng-tools"
fi
missing=
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
