#!/bin/sh
# Install into a temporary prefix, then build C (C89, C99, C11) and C++
# programs that reference every function and constant of <trace.h>, with
# pkg-config and with CMake's find_package; check the exported symbols.
set -eu
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(ls -d "$tmp"/prefix/lib*/ | head -n 1)
export PKG_CONFIG_PATH="$libdir/pkgconfig"
export LD_LIBRARY_PATH="$libdir"
flags=$(pkg-config --cflags --libs posixtrace)
# A sanitizer build installs an instrumented library: build against it alike.
san=
if grep -q '^PTBPF_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
	san="-fsanitize=address,undefined"
fi
flags="$san $flags"
for std in c89 c99 c11; do
	cc -std=$std -Wall -Wextra -Werror -o "$tmp/prog_$std" "$src/tests/system/pkg/all_api.c" $flags
	"$tmp/prog_$std" >/dev/null
done
c++ -std=c++11 -Wall -Wextra -Werror -o "$tmp/prog_cxx" "$src/tests/system/pkg/all_api.cpp" $flags
"$tmp/prog_cxx"
cmake -S "$src/tests/system/pkg" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
	-DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer_c" >/dev/null
"$tmp/consumer/consumer_cxx" >/dev/null
# Only posix_trace_* and ptbpf_* are exported.
bad=$(nm -D --defined-only "$libdir/libposixtrace.so" | awk '{print $3}' |
	grep -v -E '^(posix_trace_|ptbpf_)' || true)
if [ -n "$bad" ]; then
	echo "unexpected exported symbols: $bad" >&2
	exit 1
fi
soname=$(objdump -p "$libdir/libposixtrace.so" | awk '/SONAME/ {print $2}')
[ "$soname" = "libposixtrace.so.0" ] || { echo "SONAME is '$soname'" >&2; exit 1; }
test -f "$tmp/prefix/include/trace.h"
test -f "$tmp/prefix/include/ptbpf/ptbpf.h"
echo "package: C89/C99/C11/C++ via pkg-config and find_package OK"
