#!/bin/sh
# strace's options in ptbpf record, against the real strace for the same
# programs: the syscall classes of -e (%file...), -z and -Z (and -e
# status=), -P with the fds it follows, -T's times; and strace's options
# that ptbpf does not take, each refused by name.
# usage: sh cli_strace_opts.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/strace_opts_check.py
command -v strace >/dev/null || skip "strace not installed"
[ -x "$PROGS/summary_calls" ] || fail "no $PROGS/summary_calls"
SC=$PROGS/summary_calls
echo "summary_calls data" >"$T/data.txt"
D=$T/data.txt

# The syscalls of an output, process by process (the processes of -f run
# at the same time: their lines interleave as they may): per process one
# line per call, "NAME RESULT" (RESULT the errno name of a failed call, or
# ok), in order; a blank line between processes, in the order of their
# first calls' names. strace's lines (strace -f -o) and ptbpf's alike,
# everything else (signals, exits, events) left out; $sigret neither.
calls() {
	python3 "$CHECK" calls "$1" "$2" "${sigret:-none}"
}

# The names of the syscalls an output has lines of (whatever their result).
names() {
	sed -n 's/^[0-9]* *\([a-z_0-9]*\)(.*/\1/p' "$2" | sort -u
}

# strace's classes: the same syscalls selected, for programs using many
for cls in %file %desc %memory %process %signal %network %creds %%stat %fstat %stat %lstat %%statfs %clock %ipc; do
	for prog in "ls -la /usr/bin" "$SC $D"; do
		# shellcheck disable=SC2086
		strace -f -o "$T/s.txt" -e trace="$cls" $prog >/dev/null 2>&1 || fail "strace -e $cls"
		# shellcheck disable=SC2086
		"$P" record --output-text "$T/p.txt" -f -e "$cls" -- $prog >/dev/null 2>&1 || fail "record -e $cls"
		names strace "$T/s.txt" >"$T/s.set"
		names ptbpf "$T/p.txt" >"$T/p.set"
		cmp -s "$T/s.set" "$T/p.set" ||
			{ diff "$T/s.set" "$T/p.set"; fail "-e $cls ($prog): not strace's syscalls"; }
		echo "-e $cls ($prog): $(tr '\n' ' ' <"$T/s.set")"
	done
done
# and with names and !, as a filter in the kernel (nothing else recorded)
"$P" record --output-text "$T/p.txt" -e '%file,!openat,getpid' -- "$PROGS/summary_calls" "$D" >/dev/null 2>&1 ||
	fail "record -e %file,!openat,getpid"
names ptbpf "$T/p.txt" | tr '\n' ' ' >"$T/p.set"
[ "$(cat "$T/p.set")" = "access chdir execve getpid lstat mkdir newfstatat stat statfs " ] ||
	fail "-e %file,!openat,getpid: $(cat "$T/p.set")"
# other lines: strace's own for a selection of syscalls, signals and exits
bad=$(grep -v -E '^([a-z_0-9]+\(|--- SIG|\+\+\+ )' "$T/p.txt")
[ -z "$bad" ] || { echo "$bad" | head; fail "-e %file: events of other kinds recorded"; }
grep -q -E '^\+\+\+ exited with 0 \+\+\+$' "$T/p.txt" || fail "-e %file: no exit line, as strace has"
grep -q -E '^--- SIGCHLD ' "$T/p.txt" || fail "-e %file: no SIGCHLD line, as strace has"

# Where this ptbpf records no exit of rt_sigreturn, its status is not
# known: -z and -Z print it as neither (the calls compared leave it out).
sigret=rt_sigreturn
"$P" record --output-text - -e rt_sigreturn -- "$PROGS/summary_calls" "$D" 2>/dev/null |
	grep -q 'rt_sigreturn(.*) = ' && sigret=none

# -Z, -z, -e status=: the calls strace prints, in the same order
for st in -Z -z "-e status=failed" "-e status=successful,failed" "--failed-only"; do
	# shellcheck disable=SC2086
	strace -f -o "$T/s.txt" $st -- $SC "$D" >/dev/null 2>&1 ||
		fail "strace $st"
	# shellcheck disable=SC2086
	"$P" record --output-text "$T/p.txt" -f -e syscalls $st -- $SC "$D" >/dev/null 2>&1 ||
		fail "record $st"
	calls strace "$T/s.txt" >"$T/s.calls"
	calls ptbpf "$T/p.txt" >"$T/p.calls"
	[ -s "$T/s.calls" ] || fail "$st: strace printed no call"
	# a successful call's result varies (addresses): names only for those
	if [ "$st" = -z ]; then
		sed 's/ .*//' "$T/s.calls" >"$T/s.c2"
		sed 's/ .*//' "$T/p.calls" >"$T/p.c2"
	else
		cp "$T/s.calls" "$T/s.c2"
		cp "$T/p.calls" "$T/p.c2"
	fi
	cmp -s "$T/s.c2" "$T/p.c2" || { diff "$T/s.c2" "$T/p.c2" | head -20; fail "$st: not strace's calls"; }
	echo "$st: $(grep -c . "$T/s.c2") calls as strace's"
	[ "$st" = -Z ] && cp "$T/s.c2" "$T/s-Z.calls"
done
# -Z -o: the kernel drops the successful calls, so the log holds only the
# failed ones, strace's
# shellcheck disable=SC2086
"$P" record -f -e syscalls -Z -o "$T/z.log" -- $SC "$D" >/dev/null 2>&1 || fail "record -Z -o"
"$P" show "$T/z.log" >"$T/z.txt" || fail "show of a -Z log"
calls ptbpf "$T/z.txt" >"$T/z.calls"
cmp -s "$T/s-Z.calls" "$T/z.calls" ||
	{ diff "$T/s-Z.calls" "$T/z.calls" | head -20; fail "-Z -o: the log holds other calls"; }
grep -q ' ok$' "$T/p.calls" && fail "--failed-only: a call that succeeded"

# -P: the open of the file, then every call on the fds that refer to it
# (dup2 and fcntl copies, the child's inherited one), close included
# shellcheck disable=SC2086
strace -f -o "$T/s.txt" -P "$D" -- $SC "$D" >/dev/null 2>&1 || fail "strace -P"
# shellcheck disable=SC2086
"$P" record --output-text "$T/p.txt" -f -P "$D" -- $SC "$D" >/dev/null 2>&1 || fail "record -P"
python3 "$CHECK" path_calls "$T/s.txt" "$T/p.txt" || exit 1
# a path that is not as given: resolved, and said as strace says it
PA=$(cd "$B" && pwd)
( cd "$T" && "$PA/ptbpf" record --output-text "$T/p2.txt" -P ./data.txt -- "$PA/tests/summary_calls" "$D" >/dev/null \
	2>"$T/p2.err" ) ||
	fail "record -P ./data.txt"
grep -q "^ptbpf: Requested path \"./data.txt\" resolved into \"$D\"$" "$T/p2.err" ||
	{ cat "$T/p2.err"; fail "-P: the resolved path is not said"; }
grep -q -E "openat\(AT_FDCWD, \"$D\", O_RDONLY\) += [0-9]+$" "$T/p2.txt" ||
	fail "-P ./data.txt: the open"

# -P on running processes (-p): the fds they had open already count
for tracer in strace ptbpf; do
	sh -c 'exec 7<"$1"; sleep 1; cat <&7 >/dev/null; exec 7<&-' sh "$D" &
	pid=$!
	sleep 0.2
	if [ $tracer = strace ]; then
		strace -f -o "$T/ps.txt" -P "$D" -p $pid 2>/dev/null || fail "strace -p -P"
	else
		"$P" record --output-text "$T/pp.txt" -f -P "$D" -p $pid >/dev/null 2>&1 || fail "record -p -P"
	fi
	wait $pid
done
python3 "$CHECK" running_path_calls "$T/ps.txt" "$T/pp.txt" || exit 1

# -T: every call that returns ends with its time, <S.UUUUUU>, as strace's
# shellcheck disable=SC2086
strace -T -o "$T/s.txt" -- $SC "$D" >/dev/null 2>&1 || fail "strace -T"
"$P" record --output-text "$T/p.txt" -T -e syscalls -- "$PROGS/summary_calls" "$D" >/dev/null 2>&1 || fail "record -T"
for f in s p; do
	n=$(grep -c -E '\) += [^?].* <[0-9]+\.[0-9]{6}>$' "$T/$f.txt")
	bad=$(grep -E '\) += [^?]' "$T/$f.txt" | grep -v -c -E ' <[0-9]+\.[0-9]{6}>$')
	[ "$n" -gt 100 ] && [ "$bad" = 0 ] || fail "-T ($f): $n lines with a time, $bad without"
done
grep -q 'exit_group(0) *= ?$' "$T/p.txt" || fail "-T: exit_group has no time"
"$P" record --output-text "$T/p.txt" --syscall-times=ns -e getppid -- "$PROGS/summary_calls" "$D" >/dev/null 2>&1 ||
	fail "record --syscall-times=ns"
grep -q -E 'getppid\(\) += [0-9]+ <0\.[0-9]{9}>$' "$T/p.txt" || fail "--syscall-times=ns"

# strace's options that ptbpf does not take: refused, by name, exit 2
for o in -i -n -I -O -F \
	--decode-fds=path --tips \
	"-e abbrev=none" "-e read=3" "-e inject=open:error=ENOENT"; do
	# shellcheck disable=SC2086
	"$P" record $o -- true >"$T/o.out" 2>"$T/o.err"
	rc=$?
	name=$(echo "$o" | sed -e 's/=.*//' -e 's/^-e //' -e 's/^\(-[a-zA-Z]\).*/\1/')
	[ $rc = 2 ] || fail "$o: exit status $rc"
	grep -q -e "not supported" "$T/o.err" && grep -q -e "$name" "$T/o.err" ||
		{ cat "$T/o.err"; fail "$o: no 'not supported' naming it"; }
	grep -q "Usage:" "$T/o.err" && fail "$o: argp's usage line"
done
# -s, -v, -x: taken (the decoding's string size, structures, hex); -s bounded
"$P" record -s 8 -e write -- sh -c 'echo 0123456789abcdef' 2>&1 >/dev/null |
	grep -q -E 'write\(1, "01234567"\.\.\., 17\) += 17' || fail "-s 8: write's buffer not cut at 8"
"$P" record -s 4001 -- true >/dev/null 2>"$T/o.err" && fail "-s 4001 accepted"
grep -q 'invalid string size' "$T/o.err" || fail "-s 4001: no message"
"$P" record -s 0 -e write -- sh -c 'echo hi' 2>&1 >/dev/null |
	grep -q -E 'write\(1, 0x[0-9a-f]*, 3\) += 3' || fail "-s 0: write's buffer not a pointer"
"$P" record -v -x -s 32 -e write -- sh -c 'echo hi' 2>&1 >/dev/null | grep -q 'write(1, ' ||
	fail "-v -x"
# -X: constants raw, abbreviated (the default) or both, as strace -X
"$P" record -X verbose -e openat -- cat /dev/null 2>&1 >/dev/null |
	grep -q 'openat(-100 /\* AT_FDCWD \*/, "/dev/null", 0 /\* O_RDONLY \*/) *= [0-9]' ||
	fail "-X verbose"
"$P" record -X raw -e openat -- cat /dev/null 2>&1 >/dev/null |
	grep -q 'openat(-100, "/dev/null", 0) *= [0-9]' || fail "-X raw"
"$P" record -X abbrev -e openat -- cat /dev/null 2>&1 >/dev/null |
	grep -q 'openat(AT_FDCWD, "/dev/null", O_RDONLY) *= [0-9]' || fail "-X abbrev"
"$P" record -X bogus -- true >/dev/null 2>&1 && fail "-X bogus accepted"
"$P" record -o "$T/x.log" -e openat -- cat /dev/null >/dev/null 2>&1 || fail "record -o"
"$P" show -X raw "$T/x.log" 2>&1 | grep -q 'openat(-100, "/dev/null", 0) *= [0-9]' ||
	fail "show -X raw"
# strace's -h: the help
"$P" record -h | grep -q -e '--summary-only' || fail "-h: no help"
echo PASS
