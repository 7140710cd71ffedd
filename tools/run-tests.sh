#!/bin/bash
# The whole test suite (the README's test command, and what CI runs):
#  1. a normal build and its tests (unit, integration with real BPF, script),
#     and the rules the tree keeps (tools/check-tree.sh: formatting, exported
#     symbols, public headers),
#  2. an ASan+UBSan build and the same tests, and a Release build (-O3, what
#     distributions build; compiled, the unit tests run),
#  2b. a cross build for arm64 (build-arm64/: gcc-aarch64-linux-gnu against
#     the arm64 root of tools/arm64-root; the library, the command, the
#     integration and CLI test programs, no unit tests nor benchmarks), timed,
#  3. the fuzz targets (log reader, user-event consumer) for a short time
#     (PTBPF_FUZZ_SECONDS, 30, split between them),
#  4. with --vm (or PTBPF_VMTEST=1), the integration tests under QEMU on the
#     Debian kernels 5.10, 6.1 and 6.12 (tools/vmtest-suite), then the arm64
#     build's integration and CLI tests on Debian's arm64 kernels 6.1 and 6.12
#     (tools/vmtest-suite --arch arm64, under TCG).
# Integration tests skip without BPF on a developer machine, but fail when
# CI=true. Warnings are errors (PTBPF_WERROR). Build trees: build/,
# build-asan/, build-release/ and build-arm64/ (PTBPF_BUILD_DIR to move them).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${PTBPF_BUILD_DIR:-$top}
jobs=$(nproc)
vm=${PTBPF_VMTEST:-0}
for a in "$@"; do
	case $a in
	--vm) vm=1 ;;
	--no-vm) vm=0 ;;
	*) echo "usage: $0 [--vm|--no-vm]" >&2; exit 2 ;;
	esac
done

step() { printf '\n=== %s\n' "$*"; }

build() {
	local dir=$1
	shift
	cmake -S "$top" -B "$dir" -DPTBPF_WERROR=ON "$@" >/dev/null
	cmake --build "$dir" -j"$jobs"
}

step "normal build"
build "$out/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
step "tree checks"
"$top/tools/check-tree.sh" "$out/build"
step "ASan+UBSan build"
build "$out/build-asan" -DCMAKE_BUILD_TYPE=Debug -DPTBPF_SANITIZE=ON -DPTBPF_BENCH=OFF
step "Release build"
# the library, the command, the examples and the unit tests (the tests that
# trace run in the two builds above)
cmake -S "$top" -B "$out/build-release" -DPTBPF_WERROR=ON -DCMAKE_BUILD_TYPE=Release \
	-DPTBPF_BENCH=OFF >/dev/null
cmake --build "$out/build-release" -j"$jobs" --target posixtrace posixtrace_static ptbpf \
	example_user_events example_controller example_log_analyzer \
	$(cd "$top/tests/unit" && ls test_*.c | sed 's/\.c$//')

step "arm64 cross build"
t0=$(date +%s)
arm64_root=$("$top/tools/arm64-root" --quiet)
cmake -S "$top" -B "$out/build-arm64" -DPTBPF_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_TOOLCHAIN_FILE="$top/cmake/aarch64-linux-gnu.cmake" \
	-DPTBPF_SYSROOT="$arm64_root" \
	-DPTBPF_BENCH=OFF -DPTBPF_UNIT_TESTS=OFF >/dev/null
cmake --build "$out/build-arm64" -j"$jobs"
echo "arm64 cross build: $(($(date +%s) - t0)) s"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

if [ -x "$top/tools/fuzz-smoke.sh" ]; then
	step "fuzz smoke (${PTBPF_FUZZ_SECONDS:-30} s)"
	"$top/tools/fuzz-smoke.sh" "${PTBPF_FUZZ_SECONDS:-30}"
fi

if [ "$vm" = 1 ] && [ -x "$top/tools/vmtest-suite" ]; then
	step "integration tests under QEMU kernels"
	"$top/tools/vmtest-suite" "$out/build"
	# the arm64 build is a step of its own above: without it this fails, never skips
	step "arm64: integration and CLI tests under QEMU (TCG) on Debian's arm64 kernels"
	"$top/tools/vmtest-suite" --arch arm64 --peer "$out/build" "$out/build-arm64"
fi

step "tests: ASan+UBSan build"
ctest --test-dir "$out/build-asan" --output-on-failure -j"$jobs"
step "tests: Release build (unit)"
ctest --test-dir "$out/build-release" --output-on-failure -j"$jobs" -L unit
step "tests: normal build"
ctest --test-dir "$out/build" --output-on-failure -j"$jobs"
