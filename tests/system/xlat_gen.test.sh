#!/bin/sh
# tools/xlat_gen.cmake, the generator of the command's tables (xlat/*.in):
# a table it generates compiles, a value that is not the headers' does not
# (the compiler names the file and line), and a line it cannot read stops it.
# usage: sh xlat_gen.test.sh BUILD_DIR SOURCE_DIR
set -eu
src=${2:-$(dirname "$0")/../..}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
gen() { # NAME: xlat/NAME.in (from stdin) to NAME.c, compiled
	mkdir -p "$tmp/xlat"
	cat >"$tmp/xlat/$1.in"
	cmake -DIN="$tmp/xlat/$1.in" -DOUT="$tmp/$1.c" -P "$src/tools/xlat_gen.cmake" >"$tmp/log" 2>&1 &&
		${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -c -I"$src/cli" -o "$tmp/$1.o" "$tmp/$1.c" \
			>>"$tmp/log" 2>&1
}
gen good <<'IN' || { cat "$tmp/log"; fail "a good table"; }
/* a comment */
#include <fcntl.h>
#default O_???
O_CREAT
O_EXCL 0200
"O_TMPFILE or so" 020200000
IN
grep -q '{ (unsigned long)(0200), "O_EXCL" }' "$tmp/good.c" || fail "O_EXCL's row"
grep -q '"O_???", "good" };' "$tmp/good.c" || fail "the default and name"
if gen wrong <<'IN'; then
#include <fcntl.h>
O_EXCL 0100
IN
	fail "O_EXCL 0100 compiled"
fi
grep -q 'xlat/wrong.in:2: O_EXCL is not 0100' "$tmp/log" || { cat "$tmp/log"; fail "the message"; }
if gen missing <<'IN'; then
#include <fcntl.h>
O_NOT_A_FLAG
IN
	fail "a constant no header defines compiled"
fi
if gen syntax <<'IN'; then
O_CREAT 1 2
IN
	fail "a line of three words"
fi
grep -q 'xlat/syntax.in:1: not an xlat line' "$tmp/log" || { cat "$tmp/log"; fail "the syntax message"; }
echo "ok: xlat_gen.cmake generates, checks against the headers, rejects"
