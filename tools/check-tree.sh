#!/bin/sh
# Rules CI keeps on the tree (run by tools/run-tests.sh after the normal build):
#  1. every C file is as .clang-format has it (clang-format --dry-run -Werror);
#  2. the library exports exactly the functions and variables its public
#     headers declare with __PTBPF_API (the version script lets through
#     posix_trace_* and ptbpf_*: nothing undeclared may slip through, nothing
#     declared may be missing);
#  3. each public header compiles on its own as C89, C11 and C++11;
#  4. no circle between the folders of the library and of the command, nor
#     between their files (tools/check-layers --strict, from includes and
#     from the symbols of the build's objects). The folders checked:
#     PTBPF_LAYERS ("src cli");
#  5. no function over 150 lines in those folders (tools/check-functions).
#   tools/check-tree.sh BUILD_DIR
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?build dir}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$src"
if ! git ls-files '*.c' '*.h' '*.cpp' | grep -v '^vmlinux/' |
	xargs clang-format --dry-run -Werror >"$tmp/fmt" 2>&1; then
	grep 'error:' "$tmp/fmt" | cut -d: -f1 | sort -u | sed 's/^/not clang-formatted: /' >&2
	fail=1
fi

# the names the headers declare __PTBPF_API (visibility "default" once
# preprocessed: comments and macros gone), one declaration per ';'
printf '#include <ptbpf/ptbpf.h>\n#include <ptbpf/evfields.h>\n' | cc -E -P -Iinclude - | tr '\n' ' ' | sed 's/;/;\n/g' |
	grep 'visibility("default")' |
	sed -E 's/\(([^()]|\([^()]*\))*\)[[:space:]]*;.*$/;/; s/[[:space:]]*;.*$//; s/.*[^A-Za-z0-9_]//' |
	sort -u >"$tmp/declared"
nm -D --defined-only "$build/libposixtrace.so" | awk '{print $3}' | sort -u >"$tmp/exported"
if ! cmp -s "$tmp/declared" "$tmp/exported"; then
	echo "exported symbols differ from the public headers' (< declared, > exported):" >&2
	diff "$tmp/declared" "$tmp/exported" | grep '^[<>]' >&2 || true
	fail=1
fi

for h in trace.h ptbpf/ptbpf.h ptbpf/events.h ptbpf/evfields.h; do
	printf '#include <%s>\n' "$h" >"$tmp/h.c"
	cp "$tmp/h.c" "$tmp/h.cpp"
	for std in c89 c11; do
		cc -std=$std -Wall -Wextra -Werror -fsyntax-only -Iinclude "$tmp/h.c" 2>"$tmp/err" ||
			{ echo "<$h> does not compile as $std:" >&2; cat "$tmp/err" >&2; fail=1; }
	done
	c++ -std=c++11 -Wall -Wextra -Werror -fsyntax-only -Iinclude "$tmp/h.cpp" 2>"$tmp/err" ||
		{ echo "<$h> does not compile as C++11:" >&2; cat "$tmp/err" >&2; fail=1; }
done
# shellcheck disable=SC2086 # a list of folders
"$src/tools/check-layers" --strict -b "$build" ${PTBPF_LAYERS:-src cli} || fail=1
# shellcheck disable=SC2086
"$src/tools/check-functions" ${PTBPF_LAYERS:-src cli} || fail=1

[ $fail = 0 ] && echo "tree checks: formatting, exported symbols, public headers, layers, function lengths OK"
exit $fail
