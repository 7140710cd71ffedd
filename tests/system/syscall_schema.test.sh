#!/bin/sh
# schema/syscalls.def, the one description of each syscall: sorted by name
# (the library and the command bsearch it), each name and number once, the
# numbers those of the compiler's <sys/syscall.h> and, with an arm64
# compiler (aarch64-linux-gnu-gcc, or cc on arm64), the arm64 column
# that of arm64's <asm/unistd.h> both ways, the argument names
# those of the running kernel's syscall tracepoints where tracefs has them,
# and a table (an xlat/NAME.in) in the printer column of each table type.
# usage: sh syscall_schema.test.sh BUILD_DIR SOURCE_DIR
set -eu
src=${2:-$(dirname "$0")/../..}
def=$src/schema/syscalls.def
if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
	# a cross build's tests run on its target (the arm64 guest), without one
	echo "no ${CC:-cc} here: checked where the build was made"
	exit 0
fi
hdr=$(mktemp)
arm64_hdr=$(mktemp)
trap 'rm -f "$hdr" "$arm64_hdr"' EXIT
# each column against its architecture's headers: the compiler's, and the
# other's through its cross compiler (CI's x86_64 host has arm64's:
# linux-libc-dev-arm64-cross; an arm64 host may lack x86_64's)
case $(${CC:-cc} -dumpmachine) in
aarch64*) x86_cc=x86_64-linux-gnu-gcc arm64_cc=${CC:-cc} need=arm64 ;;
*) x86_cc=${CC:-cc} arm64_cc=aarch64-linux-gnu-gcc need=x86_64${CI:+ arm64} ;;
esac
header() { # ARCH CC OUT HEADER
	echo "#include <$4>" | $2 -dM -E - >"$3" 2>/dev/null && return
	case " $need " in *" $1 "*) echo "no $1 <$4> ($2)" >&2 && exit 1 ;; esac
	echo "no $1 <$4> ($2): its numbers not checked" >&2
	: >"$3"
}
header x86_64 "$x86_cc" "$hdr" sys/syscall.h
header arm64 "$arm64_cc" "$arm64_hdr" asm/unistd.h
tracefs=
for d in /sys/kernel/tracing/events/syscalls /sys/kernel/debug/tracing/events/syscalls; do
	[ -r "$d/sys_enter_read/format" ] && tracefs=$d && break
done
python3 "$(dirname "$0")/syscall_schema_check.py" schema "$def" "$hdr" "$tracefs" "$arm64_hdr"
