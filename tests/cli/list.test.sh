#!/bin/sh
# ptbpf list, --help, --usage, --version.
# usage: sh cli_list.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/list_check.py
[ -x "$PROGS/cli_target" ] || fail "no $PROGS/cli_target"
"$P" list >"$T/list" 2>"$T/err" || { cat "$T/err"; fail "list failed"; }
for e in posix_trace_start proc_fork proc_exec proc_exit signal_deliver sched_switch_in \
	sys_enter_openat sys_exit_openat sys_enter_execve sys_exit_close; do
	grep -qx "$e" "$T/list" || fail "list: $e missing"
done
n=$(wc -l <"$T/list")
[ "$n" -gt 600 ] || fail "list: only $n event types"
[ "$(sort "$T/list" | uniq -d | wc -l)" = 0 ] || fail "list: duplicates"
"$P" list --json >"$T/list.json" || fail "list --json failed"
python3 "$CHECK" list_json "$T/list.json" "$n" || exit 1
for c in "" record show convert list info; do
	"$P" $c --help >"$T/h" 2>&1 || fail "ptbpf $c --help failed"
	grep -q -i usage "$T/h" || fail "ptbpf $c --help: no usage"
done
"$P" record --help | grep -q -- '--follow-forks' || fail "record --help lacks -f"
# GNU's --version: the first line "ptbpf X.Y.Z" alone, then the library's
# version and the optional features (as strace -V)
"$P" --version >"$T/v" || fail "--version"
head -n 1 "$T/v" | grep -q -x "ptbpf [0-9]*\.[0-9]*\.[0-9]*" || { cat "$T/v"; fail "--version: first line"; }
grep -q "^libposixtrace [0-9]" "$T/v" || fail "--version: no library version"
grep -q "^Optional features enabled: " "$T/v" || fail "--version: no features"
"$P" record --version | cmp -s - "$T/v" || fail "record --version differs from --version"
"$P" --usage | grep -q -i usage || fail "--usage"
"$P" show --usage | grep -q "LOG" || fail "show --usage"

# the command needs the library only (libbpf's messages: ptbpf_set_print)
readelf -d "$P" >"$T/dyn" || fail "readelf -d $P failed"
grep -q 'NEEDED.*libposixtrace' "$T/dyn" || fail "ptbpf does not link libposixtrace"
if grep -q 'NEEDED.*libbpf' "$T/dyn"; then fail "ptbpf links libbpf itself"; fi

# (the syscall table's order: syscall_schema.test.sh)
echo PASS
