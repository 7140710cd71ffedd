#!/bin/sh
# ptbpf record -f beside strace -f on the cases of tests/progs/sig_cases.c:
# the signal lines (---), the exit lines (+++), rt_sigreturn, the results
# of calls a signal interrupted (= ? ERESTART...) and paths read from pages
# not yet mapped must be strace's, thread by thread (tests/cli/strace_cmp.py;
# pids and times normalised). Then -o and Ctrl-C: the log ends with the
# command's +++ killed by SIGINT +++.
# usage: sh cli_signals.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/signals_check.py
command -v strace >/dev/null || skip "strace not installed"
CMP="python3 $(dirname "$0")/strace_cmp.py"

# both tools on one case: $T/CASE.strace, $T/CASE.ptbpf; ptbpf exits with
# STATUS (default 0), the command's
run() {
	strace -f -o "$T/$1.strace" "$PROGS/sig_cases" "$1" >/dev/null 2>&1
	"$P" record --output-text "$T/$1.ptbpf" -f -- "$PROGS/sig_cases" "$1" >/dev/null 2>"$T/$1.err"
	rc=$?
	[ $rc = "${2:-0}" ] || { cat "$T/$1.err"; fail "$1: ptbpf record exited $rc"; }
}

# compare CASE WHAT REGEX [strace_cmp options]
compare() {
	c=$1 what=$2 re=$3
	shift 3
	$CMP "$@" "$T/$c.strace" "$T/$c.ptbpf" "$re" >"$T/$c.cmp" ||
		{ cat "$T/$c.cmp"; fail "$c: $what differ from strace's"; }
	echo "ok: $c: $what as strace's"
}

# A SIGTERM from another process: strace shows SIGTERM with its sender, not
# the SIGKILL the kernel ends the process with. (The parent's SIGCHLD is
# left out: it is ignored, strace sees it only because ptrace stops it.)
run term
compare term "signal and exit lines" '^--- SIG(?!CHLD)|^\+\+\+'

# exit_group of a 4-thread process: no signal line for the other threads
run threads
grep -q '^[0-9]* *exit_group(0) *= ?$' "$T/threads.ptbpf" || fail "threads: no exit_group line"
compare threads "signal lines" '^---|^exit_group'

# each thread's +++ line under its tid, the process's under its pid, and
# "= ?" for the calls the exit_group's SIGKILL ends, as strace -f prints
compare threads "exit lines and killed calls" '^\+\+\+|^(clock_nanosleep|exit_group)\(' --name-status
run threxit
compare threxit "thread exits (exit, return, exit_group)" \
	'^\+\+\+|^(clock_nanosleep|exit|exit_group)\(' --name-status

# a SIGCHLD the parent has no handler for (the kernel ignores it): strace
# shows it after the wait4 that reaps the child; with a handler (sh)
run nochld
compare nochld "ignored SIGCHLD" '^---|^\+\+\+|^wait4\(' --name-status
strace -f -o "$T/sh.strace" sh -c 'true & wait' >/dev/null 2>&1
"$P" record --output-text "$T/sh.ptbpf" -f -- sh -c 'true & wait' 2>"$T/sh.err" ||
	{ cat "$T/sh.err"; fail "sh: ptbpf record exited $?"; }
compare sh "SIGCHLD of sh -c 'true & wait'" '^---|^\+\+\+'
"$P" record -f -o "$T/nochld.log" -- "$PROGS/sig_cases" nochld 2>"$T/nochld.err" ||
	{ cat "$T/nochld.err"; fail "nochld: ptbpf record -o exited $?"; }
"$P" show "$T/nochld.log" >"$T/nochld.ptbpf" 2>&1 || { cat "$T/nochld.ptbpf"; fail "nochld: show"; }
compare nochld "ignored SIGCHLD from a log" '^---|^\+\+\+|^wait4\(' --name-status

# SIGTERM delivered as it is (it was blocked), then the other thread's
# SIGKILL: one SIGTERM line
run blocked 143 # killed by SIGTERM
compare blocked "signal lines" '^---'

# SIGCHLD caught by a handler: the child's pid, status and times
run chld
compare chld "SIGCHLD, rt_sigreturn and exit lines" '^---|^\+\+\+|rt_sigreturn'

# a handler returns: rt_sigreturn restores the mask (SIGUSR2, signal 35)
run handler
compare handler "signal and rt_sigreturn lines" '^---|^\+\+\+|rt_sigreturn'

# a read interrupted without, then with SA_RESTART
run restart
compare restart "restart errors and rt_sigreturn" '^--- SIG(?!CHLD)|rt_sigreturn|= \? ERESTART'

# paths in pages not mapped at entry: statfs from initialised data, openat
# from a file mapping (ptbpf printed their address)
run paths
compare paths "paths" '^statfs\(|^openat\(.*(passwd|, 0x[0-9a-f]+, O_RDONLY\))' --first-string
run exec
compare exec "execve paths" '^execve\(' --first-string
# the same from a log
for c in paths exec; do
	"$P" record -f -o "$T/$c.log" -- "$PROGS/sig_cases" $c 2>"$T/$c.err" ||
		{ cat "$T/$c.err"; fail "$c: ptbpf record -o exited $?"; }
	"$P" show "$T/$c.log" >"$T/$c.ptbpf" 2>&1 || { cat "$T/$c.ptbpf"; fail "$c: show"; }
done
compare paths "paths from a log" '^statfs\(|^openat\(.*(passwd|, 0x[0-9a-f]+, O_RDONLY\))' --first-string
compare exec "execve paths from a log" '^execve\(' --first-string
# and converted for Perfetto
"$P" convert "$T/paths.log" --to chrome -o "$T/paths.json" 2>"$T/conv.err" ||
	{ cat "$T/conv.err"; fail "paths: convert --to chrome"; }
python3 "$CHECK" chrome_paths "$T/paths.json" || fail "paths: convert --to chrome lacks the paths"
echo "ok: paths: convert --to chrome has the paths"
# and to CTF: the exit's late paths are fields that babeltrace2 reads
if command -v babeltrace2 >/dev/null; then
	"$P" convert "$T/paths.log" --to ctf -o "$T/paths.ctf" 2>"$T/conv.err" ||
		{ cat "$T/conv.err"; fail "paths: convert --to ctf"; }
	babeltrace2 "$T/paths.ctf" >"$T/paths.bt" 2>"$T/bt.err" ||
		{ cat "$T/bt.err"; fail "paths: babeltrace2 cannot read the CTF trace"; }
	grep -q 'sys_exit_statfs: .* late_path0 = "/etc/hosts", late_path1 = ""[ ,]' "$T/paths.bt" ||
		{ grep sys_exit_statfs "$T/paths.bt"; fail "paths: CTF lacks statfs's late path"; }
	grep -q 'sys_exit_openat: .*late_path0 = "/etc/passwd"' "$T/paths.bt" ||
		fail "paths: CTF lacks openat's late path"
	echo "ok: paths: convert --to ctf has the late paths (babeltrace2)"
elif [ "${CI:-}" = true ]; then
	fail "babeltrace2 not installed"
fi

# a late path while other threads' lines come between the entry and its
# exit (an openat of a FIFO, blocked until another thread opens it): the
# <unfinished ...> line has the path, not the address
FIFO=$T/latethr.fifo
strace -f -o "$T/latethr.strace" "$PROGS/sig_cases" latethr "$FIFO" >/dev/null 2>&1 ||
	fail "latethr: the case failed under strace"
"$P" record --output-text "$T/latethr.ptbpf" -f -- "$PROGS/sig_cases" latethr "$FIFO" >/dev/null 2>"$T/latethr.err" ||
	{ cat "$T/latethr.err"; fail "latethr: ptbpf record exited $?"; }
grep -qF "openat(AT_FDCWD, \"$FIFO\", O_RDONLY <unfinished ...>" "$T/latethr.ptbpf" ||
	{ grep -F "openat(AT_FDCWD" "$T/latethr.ptbpf"; fail "latethr: no <unfinished ...> openat with its path"; }
LATE_RE='^openat\(("'"$FIFO"'"|AT_FDCWD, 0x)'
compare latethr "late paths of <unfinished ...> lines" "$LATE_RE" --first-string
"$P" record -f -o "$T/latethr.log" -- "$PROGS/sig_cases" latethr "$FIFO" 2>"$T/latethr.err" ||
	{ cat "$T/latethr.err"; fail "latethr: ptbpf record -o exited $?"; }
"$P" show "$T/latethr.log" >"$T/latethr.ptbpf" 2>&1 || fail "latethr: show"
compare latethr "late paths from a log" "$LATE_RE" --first-string

# -o, Ctrl-C: the command's end is the log's last line, every time (but
# for the stream's own events and the dead task's last scheduling events)
for i in 1 2 3 4 5; do
	timeout -s INT 1 "$P" record -o "$T/int.log" -- sleep 10 2>"$T/int.err"
	"$P" show "$T/int.log" >"$T/int.txt" 2>&1 || { cat "$T/int.txt"; fail "show of the -o log"; }
	last=$(grep -v ' === \| sched_' "$T/int.txt" | tail -n 1)
	case $last in
	*'+++ killed by SIGINT +++') ;;
	*) cat "$T/int.err"; tail -n 5 "$T/int.txt"; fail "-o, Ctrl-C, run $i: the log ends with: $last" ;;
	esac
done
echo "ok: -o, Ctrl-C: 5 logs of 5 end with +++ killed by SIGINT +++"
echo PASS
