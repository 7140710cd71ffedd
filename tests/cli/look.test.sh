#!/bin/sh
# strace's look of ptbpf's text (record's live lines on stderr, its
# --output-text file, show's), against the real strace run the same way:
# the same lines for one process, " = " at strace's column (-a), the
# "[pid N] " of -f on stderr while several processes are traced, the pid
# before every line of a file with -f, the leaders of -t, -tt, -ttt, -r,
# -t -r and -Y, the "---" and "+++" lines -q, -qq, -qqq, -e quiet= and
# -e signal= leave; ptbpf's own lines hidden unless -e names them or
# --format=ptbpf, the summary line only when asked; user events.
# The checks are tests/cli/look_check.py's.
# usage: sh look.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="python3 $HERE/look_check.py"
command -v strace >/dev/null || skip "strace not installed"
for prog in sig_cases cli_uev; do
	[ -x "$PROGS/$prog" ] || fail "no $PROGS/$prog"
done

# both CMD...: strace OPTS CMD's stderr in $T/s.txt, ptbpf record OPTS's in
# $T/p.txt ($OPTS split on spaces); the clock before and after each run in
# $T/s.when, $T/p.when
both() {
	date +%s.%N >"$T/s.when"
	# shellcheck disable=SC2086
	strace $OPTS "$@" >/dev/null 2>"$T/s.txt"
	date +%s.%N >>"$T/s.when"
	date +%s.%N >"$T/p.when"
	# shellcheck disable=SC2086
	"$P" record $OPTS -- "$@" >/dev/null 2>"$T/p.txt"
	date +%s.%N >>"$T/p.when"
	[ -s "$T/s.txt" ] && [ -s "$T/p.txt" ] || fail "$OPTS $*: no output"
}

# 1. one process, live on stderr: strace's lines, " = " at column 40
OPTS=
for cmd in "cat /etc/hostname" "ls /"; do
	# shellcheck disable=SC2086
	both $cmd
	$CHECK same "$T/s.txt" "$T/p.txt" || fail "$cmd: not strace's lines"
	$CHECK align 40 "$T/s.txt" "$T/p.txt" || fail "$cmd: ' = ' not at strace's column"
done
# (getrandom's bytes, which the comparison sets aside: all as \xNN, as strace's)
for w in s p; do
	grep -q -E '^getrandom\("(\\x[0-9a-f]{2})+", 8, GRND_NONBLOCK\) += 8$' "$T/$w.txt" ||
		{ grep getrandom "$T/$w.txt"; fail "ls /: getrandom's bytes not as strace's ($w)"; }
done
# -a: another column, and none (one space after the call)
for a in 60 0; do
	OPTS="-a $a"
	both cat /etc/hostname
	$CHECK same "$T/s.txt" "$T/p.txt" || fail "-a $a: not strace's lines"
	$CHECK align $a "$T/s.txt" "$T/p.txt" || fail "-a $a: ' = ' not at strace's column"
done

# 2. -f on stderr: "[pid %5u] " while several processes run, none while
# one does (ptbpf's from the fork's result on: it counts a process from its
# fork, strace from its attach, which may come later); no line of ptbpf's
# own, no child's return from its clone
FORKS='(echo a); echo b; (echo c) & wait'
OPTS=-f
both sh -c "$FORKS"
$CHECK forks "$T/s.txt" || fail "-f: strace's [pid N] leaders not as this test has them"
$CHECK forks --strict "$T/p.txt" || fail "-f: not strace's [pid N] leaders"
$CHECK align 40 "$T/s.txt" "$T/p.txt" || fail "-f: ' = ' not at strace's column"
$CHECK marks "$T/s.txt" "$T/p.txt" || fail "-f: not strace's --- and +++ lines"
# threads: the first counts until its process's +++ line, as strace's
for c in threads threxit; do
	both "$PROGS/sig_cases" $c
	$CHECK forks "$T/s.txt" || fail "-f, threads ($c): strace's [pid N] leaders not as this test has them"
	$CHECK forks --strict "$T/p.txt" || fail "-f, threads ($c): not strace's [pid N] leaders"
	$CHECK marks "$T/s.txt" "$T/p.txt" || fail "-f, threads ($c): not strace's --- and +++ lines"
	$CHECK align 40 "$T/s.txt" "$T/p.txt" || fail "-f, threads ($c): ' = ' not at strace's column"
done

# 3. -f into a file: "%-5u " before every line; show of a log alike
strace -f -o "$T/sf.txt" sh -c "$FORKS" >/dev/null 2>&1 || fail "strace -f -o"
"$P" record -f --output-text "$T/pf.txt" -- sh -c "$FORKS" >/dev/null 2>"$T/pf.err" || fail "record -f --output-text"
[ -s "$T/pf.err" ] && { cat "$T/pf.err"; fail "record --output-text: said something on stderr"; }
"$P" record -f -o "$T/f.log" -- sh -c "$FORKS" >/dev/null 2>&1 || fail "record -f -o"
"$P" show "$T/f.log" >"$T/pshow.txt" || fail "show"
$CHECK file_pids "$T/sf.txt" "$T/pf.txt" "$T/pshow.txt" || fail "-f -o: not strace's pids"
$CHECK align 40 "$T/sf.txt" "$T/pf.txt" "$T/pshow.txt" || fail "-f -o: ' = ' not at strace's column"
# and their lines strace's (what two runs differ in set aside; rt_sigreturn's
# result, a pid restored, is not: about one line in 70)
for f in pf pshow; do
	python3 "$HERE/decode_agree.py" --min 90 "$T/sf.txt" "$T/$f.txt" ||
		fail "$f: not strace's lines"
done

# 4. the times before each line: -t, -tt, -ttt within the run, -r's
# intervals adding up to it (sh waits 0.3 s for sleep)
SLEEPY='sleep 0.3; echo b'
for o in -t -tt -ttt -r "-t -r"; do
	OPTS=$o
	both sh -c "$SLEEPY"
	mode=$(echo "$o" | tr -d ' -')
	least=0
	case $mode in *r) least=0.25 ;; esac
	for w in s p; do
		# shellcheck disable=SC2046
		$CHECK times "$mode" $(cat "$T/$w.when") "$least" "$T/$w.txt" || fail "$o: not strace's leader"
	done
	$CHECK align 40 "$T/s.txt" "$T/p.txt" || fail "$o: ' = ' not at strace's column"
done
# -Y with -f: the name after each pid printed, as it was when the line began
OPTS="-f -Y"
both sh -c '(echo a); cat /dev/null; kill -0 $$'
s=$($CHECK comm "$T/s.txt") || { echo "$s"; fail "-Y (strace)"; }
p=$($CHECK comm "$T/p.txt") || { echo "$p"; fail "-Y"; }
[ "$s" = "$p" ] || fail "-Y: names $p, strace's $s"
echo "-Y: $p"
grep -q '^\[pid  *[0-9]*<sh>\] execve("/usr/bin/cat"' "$T/p.txt" || fail "-Y: execve's line not under the old name"
# and after the pids calls take and return, as strace's: a new process's,
# none after wait4 reaped it (nor in the SIGCHLD then)
for w in s p; do
	$CHECK lines "$T/$w.txt" >"$T/$w.lines" || fail "lines of $w.txt"
	grep -q -E '^(clone\(|\[pid +[0-9]+<sh>\] <\.\.\. clone resumed>).*\) += [0-9]+<sh>$' "$T/$w.lines" ||
		fail "-Y: clone's result without its name ($w)"
	grep -q -E '^getpid\(\) += [0-9]+<sh>$' "$T/$w.lines" || fail "-Y: getpid's result without its name ($w)"
	grep -q -E '^kill\([0-9]+<sh>, 0\) += 0$' "$T/$w.lines" || fail "-Y: kill's pid without its name ($w)"
	grep -E 'wait4.*\) += [0-9]+<' "$T/$w.lines" && fail "-Y: the name of a process wait4 reaped ($w)"
done

# 5. which "---" and "+++" lines -q, -qq, -qqq, -e quiet=, -e signal= leave
# (a child exits, its SIGCHLD, a SIGTERM that kills)
for o in "" -q -qq -qqq "-e quiet=exit" "-e quiet=none" "-e signal=none" "-e signal=SIGCHLD" \
	"-e signal=!SIGCHLD" "-e signal=TERM,CHLD"; do
	OPTS="-f $o"
	both sh -c '(echo a); kill -TERM $$'
	$CHECK marks "$T/s.txt" "$T/p.txt" || fail "$o: not strace's --- and +++ lines"
done

# 6. ptbpf's own lines: hidden by default, shown when -e names them or
# with --format=ptbpf; the summary line only with --stats or ptbpf's look
"$P" record -- cat /etc/hostname >/dev/null 2>"$T/p.txt" || fail "record"
grep -E '^(=== |proc_exec|proc_fork|signal_generate|ptbpf: )' "$T/p.txt" &&
	fail "default: ptbpf's own lines, or the summary"
"$P" record -e openat,proc,posix -- cat /etc/hostname >/dev/null 2>"$T/p.txt" || fail "record -e openat,proc,posix"
for l in '^=== posix_trace_start ===$' '^proc_exec "/usr/bin/cat"$' '^openat\(' '^\+\+\+ exited with 0 \+\+\+$' \
	'^=== posix_trace_stop ===$'; do
	grep -q -E "$l" "$T/p.txt" || fail "-e openat,proc,posix: no line $l"
done
grep -q -E '^(ptbpf: |read\()' "$T/p.txt" && fail "-e openat,proc,posix: the summary, or a call not named"
"$P" record --format=ptbpf -f -- sh -c '(echo a)' >/dev/null 2>"$T/p.txt" || fail "record --format=ptbpf"
for l in '^0\.000000 0/0 === posix_trace_start ===$' ' ([0-9]+)/\1 proc_exec "/usr/bin/sh"$' ' proc_fork ' \
	' signal_generate SIGCHLD ' ' <\.\.\. clone resumed>\) += 0$' '^[0-9.]+ 0/0 === posix_trace_stop ===$' \
	'^ptbpf: [0-9]+ events printed, 0 lost'; do
	grep -q -E "$l" "$T/p.txt" || fail "--format=ptbpf: no line $l"
done
"$P" record --stats -- true >/dev/null 2>"$T/p.txt" || fail "record --stats"
[ "$(grep -c '^ptbpf: [0-9]* events printed, 0 lost' "$T/p.txt")" = 1 ] || fail "--stats: no summary line"
grep -q '^=== ' "$T/p.txt" && fail "--stats: ptbpf's own lines"

# an exec by a thread other than the leader: the thread's call goes on under
# the leader's id, "+++ superseded by execve in pid TID +++" as strace's
# (-e quiet=thread-execve: not printed), the program and argv decoded
for tool in strace ptbpf; do
	if [ $tool = strace ]; then
		strace -f -o "$T/x.$tool" "$PROGS/thread_exec" /bin/true arg >/dev/null 2>&1
	else
		"$P" record -f --output-text "$T/x.$tool" -- "$PROGS/thread_exec" /bin/true arg >/dev/null 2>&1
	fi || fail "$tool: thread_exec"
	leader=$(sed -n '1s/^\([0-9]*\) .*/\1/p' "$T/x.$tool")
	tid=$(sed -n 's/^\([0-9]*\) *execve("\/bin\/true", \["\/bin\/true", "arg"\], NULL.*/\1/p' "$T/x.$tool")
	[ -n "$tid" ] && [ "$tid" != "$leader" ] ||
		{ cat "$T/x.$tool"; fail "$tool: no execve of /bin/true by a thread"; }
	grep -q "^$leader *+++ superseded by execve in pid $tid +++$" "$T/x.$tool" &&
		grep -q -E "^$leader *<\.\.\. execve resumed>\) *= 0$" "$T/x.$tool" ||
		{ cat "$T/x.$tool"; fail "$tool: the exec by thread $tid is not superseded and resumed in $leader"; }
done
"$P" record -f -e quiet=thread-execve -- "$PROGS/thread_exec" /bin/true >/dev/null 2>"$T/p.txt" ||
	fail "record -e quiet=thread-execve"
grep -q superseded "$T/p.txt" && fail "-e quiet=thread-execve: the superseded line"
echo "ok: an exec by a thread, as strace's"

# 7. user events, strace-like
"$P" record -- "$PROGS/cli_uev" 2 >/dev/null 2>"$T/p.txt" || fail "record cli_uev"
[ "$(grep -c -E '^--- user:cli_hello "hello\\001[0-9]" ---$' "$T/p.txt")" = 2 ] ||
	{ grep user "$T/p.txt"; fail "user events: not --- user:NAME \"...\" ---"; }
grep -q -E '^--- user:posix_trace_unnamed_userevent ---$' "$T/p.txt" || fail "the unnamed user event"
echo PASS
