#!/bin/sh
# Build the libFuzzer targets with clang (ASan + UBSan) in their own build
# directory and run each on its seed corpus, splitting the time between
# them: the log reader (tests/fuzz/corpus/log), the user-event consumer
# (tests/fuzz/corpus/uev), what probes parse (tests/fuzz/corpus/probe, with
# a real binary of the system as one more seed) and the -k reader of stacks
# and mappings (tests/fuzz/corpus/stacks); the printers of captured
# syscall memory (tests/fuzz/corpus/decode_struct) run a quarter more, and
# the walk of event fields (<ptbpf/evfields.h>) and -y's fd tables
# (tests/fuzz/corpus/fdtable), ClickHouse's answers to ptbpf export
# (tests/fuzz/corpus/ch_resp) five seconds each.
#   tools/fuzz-smoke.sh [SECONDS]      (default 30 in all; env BUILD_DIR, JOBS)
# Exits non-zero when the build fails or a fuzzer finds a crash (the input
# is saved as $BUILD_DIR/log-crash-*, uev-crash-* or stacks-crash-*).
set -eu
secs=${1:-30}
src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build-fuzz}
jobs=${JOBS:-$(nproc)}

CC=clang CXX=clang++ cmake -S "$src" -B "$build" -DPTBPF_FUZZ=ON -DPTBPF_SANITIZE=ON \
	-DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTBPF_WERROR=ON >/dev/null
cmake --build "$build" -j"$jobs" --target fuzz_log_reader fuzz_log_image fuzz_uev_consumer fuzz_probe fuzz_stacks \
	fuzz_decode_struct fuzz_evfields fuzz_fdtable fuzz_decode_caps fuzz_elf_file fuzz_ch_resp

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fuzz TARGET CORPUS SECONDS MAX_LEN: new inputs go to a scratch dir, the
# committed corpus stays unchanged
fuzz() {
	mkdir -p "$work/$2/new"
	cp "$src/tests/fuzz/corpus/$2"/* "$work/$2"/ 2>/dev/null || true
	(cd "$work/$2" && "$build/tests/fuzz/$1" -max_total_time="$3" -timeout=10 \
		-rss_limit_mb=2048 -artifact_prefix="$build/$2-" -max_len="$4" \
		-print_final_stats=1 "$work/$2/new" "$work/$2")
}

# -max_total_time=0 would mean no limit: one second each at least
quarter=$((secs / 4))
[ "$quarter" -ge 1 ] || quarter=1
rest=$((secs - 3 * quarter))
[ "$rest" -ge 1 ] || rest=1
fuzz fuzz_log_reader log "$rest" 65536
# the log's stack images: a few seconds cover the codec
fuzz fuzz_log_image log_image 5 40000
fuzz fuzz_uev_consumer uev "$quarter" 4096
# an ELF file with symbols: the first byte 2 makes the target read it as a binary
mkdir -p "$work/probe"
{ printf '\002'; cat /usr/bin/true; } >"$work/probe/elf-true"
fuzz fuzz_probe probe "$quarter" 65536
fuzz fuzz_stacks stacks "$quarter" 20000
fuzz fuzz_decode_struct decode_struct "$quarter" 4096
# the walk of event fields: a few seconds cover its few branches
fuzz fuzz_evfields evfields 5 2048
# -y's fd tables: a few seconds too
fuzz fuzz_fdtable fdtable 5 8192
# a syscall's line from its captures: a few seconds too
fuzz fuzz_decode_caps decode_caps 5 8192
# ClickHouse's answers to ptbpf export (tests/fuzz/corpus/ch_resp): a few seconds
fuzz fuzz_ch_resp ch_resp 5 8192
mkdir -p "$work/elf_file"
cp /usr/bin/true "$work/elf_file/true"
fuzz fuzz_elf_file elf_file 5 65536
