#!/bin/sh
# schema/syscalls.def, the one description of each syscall: sorted by name
# (the library and the command bsearch it), each name and number once, the
# numbers those of the compiler's <sys/syscall.h>, the argument names
# those of the running kernel's syscall tracepoints where tracefs has them,
# and a table (an xlat/NAME.in) in the printer column of each table type.
# usage: sh syscall_schema.test.sh BUILD_DIR SOURCE_DIR
set -eu
src=${2:-$(dirname "$0")/../..}
def=$src/schema/syscalls.def
hdr=$(mktemp)
trap 'rm -f "$hdr"' EXIT
echo '#include <sys/syscall.h>' | ${CC:-cc} -dM -E - >"$hdr"
tracefs=
for d in /sys/kernel/tracing/events/syscalls /sys/kernel/debug/tracing/events/syscalls; do
	[ -r "$d/sys_enter_read/format" ] && tracefs=$d && break
done
python3 "$(dirname "$0")/syscall_schema_check.py" schema "$def" "$hdr" "$tracefs"
