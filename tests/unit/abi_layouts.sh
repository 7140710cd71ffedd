#!/bin/sh
# cli/decode/abi.h against each architecture's kernel headers: abi_layouts.c
# compiled (-fsyntax-only) by the compiler for each architecture this
# machine has one for; CI's x86_64 host must have both (arm64's:
# gcc-aarch64-linux-gnu and linux-libc-dev-arm64-cross).
# usage: sh abi_layouts.sh CC SOURCE_DIR
set -eu
cc=$1 src=$2
if ! command -v "$cc" >/dev/null 2>&1; then
	# a cross build's tests run on its target (the arm64 guest), without it
	echo "no $cc here: checked where the build was made"
	exit 0
fi
case $($cc -dumpmachine) in
aarch64*) other=x86_64-linux-gnu-gcc need= ;;
*) other=aarch64-linux-gnu-gcc need=${CI:+1} ;;
esac
check() {
	$1 -std=gnu11 -fsyntax-only -I"$src/cli" -I"$src/schema" "$src/tests/unit/abi_layouts.c"
	echo "$($1 -dumpmachine): the layouts agree"
}
check "$cc"
if command -v "$other" >/dev/null 2>&1; then
	check "$other"
elif [ -n "$need" ]; then
	echo "no $other: arm64's layouts not checked" >&2
	exit 1
else
	echo "no $other: its layouts not checked"
fi
