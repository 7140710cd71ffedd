# Sourced by the tests/system/container*.test.sh scripts (BUILD_DIR is $1): a real
# container runtime, Debian's podman with runc, on a root filesystem the test
# builds from busybox-static (no image is pulled from a registry).
# Defines, besides tests/cli/common.sh's B, P, T, skip and fail:
#   CT_BUILD         the build dir as an absolute path (bind-mounted read-only
#                    at the same path in every container: $CT_BUILD/ptbpf runs
#                    there, with the host's /usr, /lib and /lib64)
#   CT_IMAGE         the image imported from that root filesystem
#   ct_podman ARG... podman with a private store under $T (nothing outlives the
#                    test: the trap removes the containers, the image and $T)
#   ct_run [OPTION...] COMMAND [ARG...]
#                    run COMMAND in a new container (removed when it ends) and
#                    return its exit status; OPTIONs are podman run options,
#                    one word each (--cap-add=bpf,perfmon)
#   ct_start NAME [OPTION...] COMMAND [ARG...]
#                    the same, detached, as container NAME
#   ct_pid NAME      the host pid of container NAME's first process
#   ct_cgroup2 PID   the cgroup v2 directory of host process PID
# A test that cannot run skips (exit 77) on a developer machine, fails when
# CI=true (tests/cli/common.sh's skip).
. "$(dirname "$0")/../cli/common.sh"

command -v podman >/dev/null || skip "podman not installed (tools/install-deps.sh)"
command -v runc >/dev/null || skip "runc not installed (tools/install-deps.sh)"
# busybox-static's (without a loader or libraries, the image stands alone)
[ -x /bin/busybox ] || skip "/bin/busybox not installed (busybox-static; tools/install-deps.sh)"

CT_BUILD=$(cd "$B" && pwd)
CT_IMAGE=localhost/ptbpf-ctest:$$
CT_ROOTFS=$T/rootfs
# the containers' cgroups: under this one, removed at exit
CT_CGROUP=ptbpf-ctest-$$
# podman import writes a cache of blob locations to /var/lib/containers/cache
# whatever --root is: removed at exit if the test made it
ct_var_made=
[ -e /var/lib/containers ] || ct_var_made=1

# podman's own state: storage (--root, --runroot), libpod's (--tmpdir: state,
# events, exit files, attach sockets) and the network backend's
# (--network-config-dir: its lock file, else in /etc/cni/net.d) all under $T.
# vfs storage keeps nothing mounted (an overlay mount could outlive a killed
# test; the image is 2 MB, copying it costs nothing).
#   --runtime=runc           podman prefers crun when both are installed,
#                            and crun refuses a hybrid cgroup v1/v2 layout
#   --cgroup-manager=cgroupfs  the cgroups are plain directories (podman's
#                            systemd manager needs systemd as init, which the
#                            CI machines lack, and a slice as the parent)
#   --events-backend=file    no journald (events in --tmpdir, removed)
ct_podman() {
	podman --root="$T/podman/root" --runroot="$T/podman/run" --tmpdir="$T/podman/tmp" \
		--network-config-dir="$T/podman/net" --storage-driver=vfs \
		--cgroup-manager=cgroupfs --events-backend=file --runtime=runc "$@"
}

# podman run's options for every container:
#   --network=none           no bridge, no iptables rules, no CNI state on the
#                            host (the default network makes all three)
#   --ulimit=nofile=1024:1024, --ulimit=nproc=1024:1024
#                            podman's defaults (1048576) are above the hard
#                            limits of a caller without CAP_SYS_RESOURCE (the
#                            CI machines: 20000 open files): runc's setrlimit
#                            then fails with EPERM
#   --volume=...:ro          the host's /usr, /lib, /lib64 (ptbpf is
#                            dynamically linked; the default library paths
#                            find libc, libbpf..., no ld.so.cache needed) and
#                            the build dir at its own path (the RUNPATH of
#                            ptbpf)
#   --env=PATH=/bin          the busybox applets, not the host's /usr/bin
#   --env=ASAN_OPTIONS...    those the caller has (tools/run-tests.sh's for
#                            the sanitizer build)
#   --cgroup-parent=/$CT_CGROUP  the containers' cgroups (and conmon's) in one
#                            the test removes (podman's default, libpod_parent,
#                            stays)
# Capabilities and seccomp are each test's choice (--cap-add=bpf,perfmon,
# --security-opt=seccomp=unconfined).
ct_run_cmd() {
	# the leading "-..." arguments are options, the rest the command: the
	# image goes between them (the list is rotated once, the image put in)
	ct_k=0
	for ct_a in "$@"; do
		case $ct_a in
		-*) ct_k=$((ct_k + 1)) ;;
		*) break ;;
		esac
	done
	ct_n=$#
	ct_i=0
	while [ $ct_i -lt $ct_n ]; do
		[ $ct_i = $ct_k ] && set -- "$@" "$CT_IMAGE"
		set -- "$@" "$1"
		shift
		ct_i=$((ct_i + 1))
	done
	[ $ct_k = $ct_n ] && set -- "$@" "$CT_IMAGE"
	[ -e /lib64 ] && set -- --volume=/lib64:/lib64:ro "$@"
	for ct_a in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
		eval "[ -n \"\${$ct_a:-}\" ]" && set -- --env="$ct_a" "$@"
	done
	ct_podman run --network=none --ulimit=nofile=1024:1024 --ulimit=nproc=1024:1024 \
		--volume=/usr:/usr:ro --volume=/lib:/lib:ro \
		--volume="$CT_BUILD:$CT_BUILD:ro" --env=PATH=/bin --cgroup-parent="/$CT_CGROUP" "$@"
}

ct_run() { ct_run_cmd --rm "$@"; }

ct_start() {
	ct_name=$1
	shift
	ct_run_cmd --detach --name="$ct_name" "$@" >/dev/null
}

ct_pid() { ct_podman inspect --format '{{.State.Pid}}' "$1"; }

ct_cgroup2() {
	ct_mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	ct_rel=$(sed -n 's/^0:://p' "/proc/$1/cgroup")
	[ -n "$ct_mnt" ] && [ -n "$ct_rel" ] && echo "$ct_mnt$ct_rel"
}

ct_cleanup() {
	ct_podman rm --all --force --time=0 >/dev/null 2>&1
	ct_podman rmi --all --force >/dev/null 2>&1
	rm -rf "$T"
	if [ -n "$ct_var_made" ]; then
		rm -f /var/lib/containers/cache/blob-info-cache-v1.boltdb
		rmdir /var/lib/containers/cache /var/lib/containers 2>/dev/null
	fi
	# empty once the containers' conmon processes are gone (a moment)
	ct_i=0
	for ct_d in "/sys/fs/cgroup/$CT_CGROUP" /sys/fs/cgroup/*/"$CT_CGROUP"; do
		[ -d "$ct_d" ] || continue
		while ! { [ ! -d "$ct_d/conmon" ] || rmdir "$ct_d/conmon" 2>/dev/null; } ||
			! rmdir "$ct_d" 2>/dev/null; do
			[ $ct_i -lt 50 ] || { echo "cannot remove the cgroup $ct_d" >&2; break; }
			sleep 0.1
			ct_i=$((ct_i + 1))
		done
	done
}
trap ct_cleanup EXIT
trap 'exit 130' INT HUP
trap 'exit 143' TERM

# the root filesystem: busybox and a link for each of its applets in /bin,
# root in /etc/passwd, the mount points
mkdir -p "$CT_ROOTFS/bin" "$CT_ROOTFS/etc" "$CT_ROOTFS/proc" "$CT_ROOTFS/sys" \
	"$CT_ROOTFS/dev" "$CT_ROOTFS/tmp" "$CT_ROOTFS/root" "$CT_ROOTFS/usr" "$CT_ROOTFS/lib" \
	"$CT_ROOTFS/lib64" || fail "cannot make $CT_ROOTFS"
cp /bin/busybox "$CT_ROOTFS/bin/busybox" || fail "cannot copy /bin/busybox"
for a in $(/bin/busybox --list); do
	[ "$a" = busybox ] || ln -s busybox "$CT_ROOTFS/bin/$a"
done
for a in sh cat sleep echo true; do
	[ -L "$CT_ROOTFS/bin/$a" ] || fail "busybox has no $a applet"
done
echo "root:x:0:0:root:/root:/bin/sh" >"$CT_ROOTFS/etc/passwd"
echo "root:x:0:" >"$CT_ROOTFS/etc/group"
chmod 1777 "$CT_ROOTFS/tmp"
tar -C "$CT_ROOTFS" -cf - . | ct_podman import --quiet - "$CT_IMAGE" >"$T/import.out" 2>&1 ||
	skip "podman import failed: $(cat "$T/import.out")"

# can a container run here at all?
ct_run true >"$T/smoke.out" 2>&1 || skip "podman cannot run a container here: $(cat "$T/smoke.out")"
