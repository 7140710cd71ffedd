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
# sqlite3 ... perl: the real programs tests/cli/decode.test.sh compares with
# strace. libmicrohttpd-dev, libcurl4-openssl-dev: --metrics-listen's server,
# --metrics-push's and export's client; prometheus, prometheus-pushgateway: the
# real ones tests/cli/metrics.test.sh starts on 127.0.0.1 (promtool is prometheus's).
pkgs="cmake make gcc g++ clang llvm libbpf-dev bpftool libelf-dev libdw-dev zlib1g-dev
libcmocka-dev pkg-config libclang-rt-14-dev systemtap-sdt-dev strace babeltrace2
libcap2-bin python3 qemu-system-x86 busybox-static xz-utils zstd clang-format
podman runc sqlite3 bzip2 git file diffutils mawk perl
libmicrohttpd-dev libcurl4-openssl-dev prometheus prometheus-pushgateway"
# the arm64 cross build (tools/run-tests.sh: its sysroot is tools/arm64-root's
# download, nothing installed) and its tests under qemu-system-aarch64
# (tools/vmtest --arch arm64)
pkgs="$pkgs gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross linux-libc-dev-arm64-cross qemu-system-arm"
# tests/cli/clickhouse.test.sh starts a ClickHouse server of its own (the
# package's service is neither started nor enabled)
pkgs="$pkgs clickhouse-server clickhouse-client"
# the Debian packages' test (tests/system/deb.test.sh: dpkg-buildpackage,
# lintian, a clean root by debootstrap), the bash and fish completions' and
# Python's reading of a CTF trace (examples/bt2_summary.py)
pkgs="$pkgs debhelper dpkg-dev fakeroot lintian debootstrap bash-completion fish python3-bt2"
# protoc decodes the Perfetto traces with the vendored schema (tests/cli/perfetto.test.sh)
pkgs="$pkgs protobuf-compiler"
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
# no service starts while installing (clickhouse-server's would, and stay)
if [ ! -e /usr/sbin/policy-rc.d ]; then
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
	chmod 755 /usr/sbin/policy-rc.d
fi
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
case " $missing " in
*" clickhouse-server "*) deb-systemd-helper disable clickhouse-server.service 2>/dev/null || true ;;
esac
