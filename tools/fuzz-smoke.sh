#!/bin/sh
# Build the libFuzzer targets with clang (ASan + UBSan) in their own build
# directory and run the log reader target on its seed corpus.
#   tools/fuzz-smoke.sh [SECONDS]      (default 30; env BUILD_DIR, JOBS)
# Exits non-zero when the build fails or the fuzzer finds a crash (the input
# is saved as $BUILD_DIR/crash-*).
set -eu
secs=${1:-30}
src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build-fuzz}
jobs=${JOBS:-$(nproc)}

CC=clang CXX=clang++ cmake -S "$src" -B "$build" -DPTBPF_FUZZ=ON -DPTBPF_SANITIZE=ON \
	-DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$jobs" --target fuzz_log_reader

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# new inputs go to a scratch dir: the committed corpus stays unchanged
cp "$src"/tests/fuzz/corpus/log/* "$work"/ 2>/dev/null || true
mkdir -p "$work/new"
cd "$work"
"$build/tests/fuzz/fuzz_log_reader" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$build/" \
	-max_len=65536 -print_final_stats=1 "$work/new" "$work"
