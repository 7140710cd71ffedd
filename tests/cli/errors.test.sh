#!/bin/sh
# ptbpf error paths: one line on stderr, nothing on stdout, distinct exit codes.
# usage: sh cli_errors.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
[ -x "$PROGS/cli_target" ] || fail "no $PROGS/cli_target"

# expect CODE PATTERN CMD...: exit status, one stderr line matching, empty stdout
expect() {
	code=$1 pat=$2
	shift 2
	# (ptbpf prints libbpf's own messages only with PTBPF_VERBOSE)
	env -u PTBPF_VERBOSE "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = "$code" ] || { cat "$T/err"; fail "$*: exit status $rc, expected $code"; }
	[ -s "$T/out" ] && { cat "$T/out"; fail "$*: printed on stdout"; }
	# usage errors add argp's "Try --help" line
	[ "$code" = 2 ] || [ "$(wc -l <"$T/err")" = 1 ] ||
		{ cat "$T/err"; fail "$*: not one line on stderr"; }
	head -1 "$T/err" | grep -q -e "$pat" || { cat "$T/err"; fail "$*: message does not match '$pat'"; }
	echo "ok: $code $(head -1 "$T/err")"
}

# no such process (ESRCH): 5
pid=4000000
while kill -0 $pid 2>/dev/null; do pid=$((pid + 1)); done
expect 5 "no such process: $pid" "$P" record -p $pid
expect 5 "no such process" "$P" record -o "$T/x.log" -p $pid

# command not found: 6, before and after the fork
expect 6 "nosuchcommand-ptbpf: command not found" "$P" record -- nosuchcommand-ptbpf
expect 6 "command not found" "$P" record -- "$T/none/prog"
printf '\177ELF-not-really' >"$T/badexe"
chmod +x "$T/badexe"
expect 6 "cannot execute: Exec format error" "$P" record -- "$T/badexe"

# log unreadable or invalid: 7
expect 7 "cannot open log" "$P" show "$T/missing.log"
echo "this is not a trace log" >"$T/bad.log"
expect 7 "not a valid POSIX trace log" "$P" show "$T/bad.log"
expect 7 "not a valid POSIX trace log" "$P" convert "$T/bad.log" --to ctf -o "$T/ctf"
: >"$T/empty.log"
expect 7 "not a valid POSIX trace log" "$P" show --json "$T/empty.log"

# bad command lines: 2
expect 2 "give a command" "$P" record
expect 2 "invalid policy" "$P" record --policy sometimes -- /bin/true
expect 2 "unknown format" "$P" convert "$T/bad.log" --to svg -o "$T/x"
expect 2 "unknown command" "$P" frobnicate

# no permission: 3, naming the capabilities and the setcap line
command -v setpriv >/dev/null || skip "setpriv not installed"
chmod 755 "$T"
NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all"
$NOBODY "$P" --version >/dev/null 2>&1 ||
	skip "user nobody cannot run $P (the build directory must be readable by others)"
expect 3 "missing CAP_BPF and CAP_PERFMON.*setcap cap_bpf,cap_perfmon+ep" \
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$P" record -- /bin/true
# listing the event types needs no privilege (and no BPF)
$NOBODY "$P" list >"$T/list.nobody" 2>&1 || { cat "$T/list.nobody"; fail "list as nobody"; }
grep -qx sys_enter_openat "$T/list.nobody" || fail "list as nobody: no sys_enter_openat"
"$P" list | cmp -s - "$T/list.nobody" || fail "list as nobody differs from root's"
echo "ok: list as nobody"
echo PASS
