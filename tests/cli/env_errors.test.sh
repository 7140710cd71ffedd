#!/bin/sh
# Where ptbpf cannot trace whatever the kernel offers (issue #52), 'ptbpf
# record' and 'ptbpf info' say why and what to do, and fail:
#  a. a user namespace (unshare -Ur): the kernel refuses bpf() there;
#  b. a chroot without /proc, and a pid namespace whose /proc is the
#     parent's (unshare --pid --fork without --mount-proc);
#  c. a seccomp filter that refuses bpf() (tests/progs/seccomp_nobpf, as
#     podman's default profile: EPERM; and ENOSYS).
# usage: sh cli_env_errors.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
command -v unshare >/dev/null || skip "no unshare (util-linux)"
command -v chroot >/dev/null || skip "no chroot (coreutils)"
[ -x "$PROGS/seccomp_nobpf" ] || fail "no $PROGS/seccomp_nobpf"
# a sanitized build: LeakSanitizer's own look at /proc (missing, or another
# namespace's) is not what is tested
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

# expect NAME CODE PATTERN CMD...: CMD exits with CODE, its output (both
# streams) matches PATTERN.
expect() {
	name=$1 code=$2 pat=$3
	shift 3
	env -u PTBPF_VERBOSE "$@" >"$T/out" 2>&1
	rc=$?
	[ $rc = "$code" ] || { cat "$T/out"; fail "$name: exit status $rc, expected $code"; }
	grep -q -e "$pat" "$T/out" || { cat "$T/out"; fail "$name: no '$pat'"; }
	echo "ok: $name: $(grep -e "$pat" "$T/out" | head -1)"
}

# --- a. a user namespace
if unshare -Ur true 2>/dev/null; then
	userns="BPF is not available in a non-initial user namespace.*run ptbpf in the initial user namespace"
	expect "record in a user namespace" 3 "cannot trace: $userns" \
		unshare -Ur "$P" record --format=ptbpf -- true
	expect "info in a user namespace" 4 "^user namespace  *NO  *fix: $userns" \
		unshare -Ur "$P" info
	grep -q "^can load BPF programs  *NO  *fix: bpf() is refused here" "$T/out" ||
		{ cat "$T/out"; fail "info in a user namespace: its BPF lines blame something else"; }
else
	skip "unshare -Ur fails here (user namespaces disabled?)"
fi

# --- b. no /proc: a chroot of /usr (and its links), the build dir at its
# own path (ptbpf's RUNPATH), in a mount namespace of its own (the bind
# mounts go with it)
BA=$(cd "$B" && pwd)
R=$T/root
mkdir -p "$R/usr" "$R$BA"
for l in bin sbin lib lib64 lib32 libx32; do
	if [ -L "/$l" ]; then
		ln -s "$(readlink "/$l")" "$R/$l"
	elif [ -d "/$l" ]; then
		mkdir "$R/$l"
	fi
done
# a sanitizer build reads its options from /proc/self/environ before the
# environment is set up (without it, the leak check runs and cannot work):
# a plain file there (not a procfs: /proc is still "not mounted")
if nm -D "$BA/ptbpf" 2>/dev/null | grep -q __asan_init; then
	mkdir -p "$R/proc/self"
	printf 'ASAN_OPTIONS=detect_leaks=0\0' >"$R/proc/self/environ"
fi
cat >"$T/chroot.sh" <<EOF
for d in /usr /bin /sbin /lib /lib64 /lib32 /libx32 "$BA"; do
	[ -d "$R\$d" ] && [ ! -L "$R\$d" ] && { mount --bind "\$d" "$R\$d" || exit 99; }
done
exec chroot "$R" "\$@"
EOF
unshare --mount --propagation private sh "$T/chroot.sh" "$BA/ptbpf" --version >"$T/out" 2>&1 ||
	{ cat "$T/out"; skip "cannot run ptbpf in a chroot"; }
noproc="/proc is not mounted: ptbpf needs it.*mount -t proc proc /proc"
expect "record in a chroot without /proc" 1 "^ptbpf: $noproc" \
	unshare --mount --propagation private sh "$T/chroot.sh" "$BA/ptbpf" record -- /bin/true
expect "record -p in a chroot without /proc" 1 "^ptbpf: $noproc" \
	unshare --mount --propagation private sh "$T/chroot.sh" "$BA/ptbpf" record -p 1
expect "info in a chroot without /proc" 4 "^/proc  *NO  *fix: $noproc" \
	unshare --mount --propagation private sh "$T/chroot.sh" "$BA/ptbpf" info

# a pid namespace with its parent's /proc: the pids there name other processes
pidns="/proc belongs to another pid namespace: mount one for this namespace, e.g. unshare --mount-proc"
expect "record in a pid namespace without its /proc" 1 "^ptbpf: $pidns" \
	unshare --pid --fork "$P" record --format=ptbpf -- true
expect "info in a pid namespace without its /proc" 4 "^/proc  *NO  *fix: $pidns" \
	unshare --pid --fork "$P" info
# with its own /proc it works (tests/cli/pidns.test.sh tests the rest)
expect "record in a pid namespace with its /proc" 0 "events printed" \
	unshare --pid --fork --mount-proc "$P" record --format=ptbpf -- true

# --- c. a seccomp filter refuses bpf() (and perf_event_open) with EPERM,
# or ENOSYS
seccomp="a seccomp filter blocks the bpf() system call: run ptbpf with a seccomp profile that allows bpf and perf_event_open, or .*seccomp=unconfined"
expect "record under seccomp (EPERM)" 3 "^ptbpf: cannot trace: $seccomp" \
	"$PROGS/seccomp_nobpf" "$P" record --format=ptbpf -- true
expect "record under seccomp (ENOSYS)" 3 "^ptbpf: cannot trace: $seccomp" \
	"$PROGS/seccomp_nobpf" --enosys "$P" record --format=ptbpf -- true
expect "info under seccomp" 4 "^seccomp filter  *NO  *fix: $seccomp" \
	"$PROGS/seccomp_nobpf" "$P" info
grep -q "^BPF ring buffer  *NO  *fix: bpf() is refused here" "$T/out" ||
	{ cat "$T/out"; fail "info under seccomp: the ring buffer line blames the kernel"; }
# nobody under the filter lacks CAP_BPF: the capabilities are named, as without it
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
chmod 755 "$T"
if setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$P" --version \
	>/dev/null 2>&1; then
	expect "record under seccomp without CAP_BPF" 3 "missing CAP_BPF and CAP_PERFMON" \
		"$PROGS/seccomp_nobpf" setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=-all "$P" record --format=ptbpf -- /bin/true
fi
echo PASS
