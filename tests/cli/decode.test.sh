#!/bin/sh
# Issue #35's measure: how many of strace's syscall lines ptbpf record
# prints identically (tests/cli/decode_agree.py: pids, times and addresses set
# aside), for everyday programs and for tests/progs/decode_{net,files,proc}.c,
# each run once under strace -f -s 32 -o and once under ptbpf record -f
# --output-text. Prints the table of agreements; fails when a program is
# below its floor: PTBPF_DECODE_MIN for every program when set, else the
# table below (the issue's goal).
# PTBPF_DECODE_SHOW=N prints the N syscalls that differ most, per program;
# PTBPF_DECODE_NOISE=1 also runs strace twice and prints its agreement with
# itself (what two runs of a program cannot agree on).
# First, decode_agree.py itself on made-up files whose agreement is known.
# usage: sh cli_decode.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace not installed"
AGREE="python3 $(cd "$(dirname "$0")" && pwd)/decode_agree.py"
# the programs run from $T/work: absolute paths
B=$(cd "$B" && pwd) && P=$B/ptbpf && PROGS=$B/tests

# program, floor in %: issue #35's goal, 90 for each; "self": what strace
# agrees with itself on (a second strace run), less 5 points (issue #54: what
# races differ on, a timer against a child's exit, strace's own split lines). Measured 2026-12-05
# (main): 100 for ls, cat, python3, tar, cp, gzip, stat, uname, decode_net;
# sh 98.5, find 99.4, id 99.5, dd 99.4, decode_files 98.8, decode_proc 99.1,
# tty 99.3 (what is left: utimensat's UTIME_OMIT and date comment, an argv
# whose page was not yet read in, pids in results)
# Issue #54's (2026-12-07): decode_more (its exact forms and section 4's
# decoders) 97.8; sqlite3 97.7, xz, bzip2, awk, sed, sort, md5sum, file 100,
# git 98.9, make 100, perl 99.2, diff 99.2, gcc 97.0, zstd 96.2 (what is
# left: random bytes, temporary names, rusage times, a futex's value);
# coreutils' and util-linux's timeout, nice, chrt, taskset, flock, ionice
# (timers, priorities, schedulers, affinity masks, flock, I/O priorities)
FLOORS='
ls 90
cat 90
sh 90
python3 90
tar 90
cp 90
find 90
gzip 90
stat 90
id 90
dd 90
uname 90
decode_net 90
decode_files 90
decode_proc 90
decode_more 90
tty 90
sqlite3 self
xz self
bzip2 self
zstd self
git self
make self
perl self
awk self
sed self
sort self
diff self
md5sum self
gcc self
file self
timeout self
nice self
chrt self
taskset self
flock self
ionice self
'

# --- the instrument on known input: 6 syscall lines of strace's, 5 the
# same in ptbpf's (the other process's interleaving, pids, addresses,
# padding and a split call aside), 1 not; a second process paired by its
# lines, not by its place; a thread's line compared within its process
# (a multiset: it came before its clone3 in ptbpf's file).
cat >"$T/fix.strace" <<'EOF'
100   execve("/bin/x", ["x"], 0x7ffd1234 /* 3 vars */) = 0
100   clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD, child_tidptr=0x7f0011223344) = 101
101   read(0, "abc", 3)                 = 3
100   clone3({flags=CLONE_VM|CLONE_THREAD, child_tid=0x7f0011220910, exit_signal=0} => {parent_tid=[102]}, 88) = 102
102   write(1, "t\n", 2)                 = 2
100   wait4(101,  <unfinished ...>
101   +++ exited with 0 +++
100   <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 101
100   --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=101, si_uid=0, si_status=0, si_utime=1, si_stime=0} ---
100   +++ exited with 0 +++
EOF
cat >"$T/fix.ptbpf" <<'EOF'
0.000000 0/0 === posix_trace_start ===
0.000001 7/7 execve("/bin/x", ["x"], 0x7ffe9876 /* 3 vars */) = 0
0.000002 7/7 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD, child_tidptr=0x7f0099887766 <unfinished ...>
0.000003 9/9 read(0, "abc", 3) = 3
0.000004 7/7 <... clone resumed>) = 9
0.000004 7/10 write(1, "t\n", 2) = 2
0.000004 7/7 clone3({flags=CLONE_VM|CLONE_THREAD, child_tid=0x7f0022330910, exit_signal=0} => {parent_tid=[10]}, 88) = 10
0.000005 9/9 +++ exited with 0 +++
0.000006 7/7 wait4(9, 0x7ffc00001111, 0, NULL) = 9
0.000007 7/7 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=9, si_uid=0, si_status=0, si_utime=0, si_stime=0} ---
0.000008 7/7 +++ exited with 0 +++
EOF
$AGREE "$T/fix.strace" "$T/fix.ptbpf" --show 1 >"$T/fix.out"
rc=$?
cat >"$T/fix.want" <<'EOF'
AGREE x: 83.3% (5/6 strace lines)
  also: --- lines 1/1, +++ lines 2/2 identical; processes paired 2/2; ptbpf lines strace has not: 1
  wait4: 1 line differs, e.g.
    strace: wait4(PID, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = PID
    ptbpf:  wait4(PID, 0xADDR, 0, NULL) = PID
EOF
[ $rc = 0 ] && diff -u "$T/fix.want" "$T/fix.out" || fail "decode_agree.py on known input (exit $rc)"
$AGREE --min 84 "$T/fix.strace" "$T/fix.ptbpf" >/dev/null && fail "decode_agree.py --min 84 passed 83.3%"
$AGREE --min 83 "$T/fix.strace" "$T/fix.ptbpf" >/dev/null || fail "decode_agree.py --min 83 failed 83.3%"
echo "ok: decode_agree.py measures known input"

# --- the programs
S_OPT=
"$P" record --help 2>&1 | grep -qE '^ +-s, ' && S_OPT="-s 32"
mkdir "$T/files" "$T/work"
echo "the file cp copies and gzip packs: 0123456789" >"$T/work/data.txt"
printf 'all:\n\t@echo made\n' >"$T/work/Makefile"
echo 'int main(void) { return 0; }' >"$T/work/x.c"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3 # not a pyenv shim's scripts

# the command of program NAME
cmd() {
	case $1 in
	ls) echo "ls -la /etc" ;;
	cat) echo "cat /etc/os-release" ;;
	sh) echo "sh -c 'echo hi | tr a-z A-Z | wc -c'" ;;
	python3) echo "$PY -c 'import json; print(1)'" ;;
	tar) echo "tar cf /dev/null /etc/apt" ;;
	cp) echo "cp $T/work/data.txt $T/work/copy.txt" ;;
	find) echo "find /usr/share/doc/bash" ;;
	gzip) echo "gzip -c $T/work/data.txt" ;;
	stat) echo "stat /etc/passwd" ;;
	id) echo "id" ;;
	dd) echo "dd if=/dev/zero of=/dev/null bs=4k count=16" ;;
	uname) echo "uname -a" ;;
	decode_net) echo "$PROGS/decode_net" ;;
	decode_files) echo "$PROGS/decode_files $T/files" ;;
	decode_proc) echo "$PROGS/decode_proc" ;;
	decode_more) echo "$PROGS/decode_more $T/files" ;;
	# real programs of Debian packages (tools/install-deps.sh installs them)
	sqlite3) echo "sqlite3 $T/work/db.sqlite 'create table t(a); insert into t values(1); select count(*) from t;'" ;;
	xz) echo "xz -c $T/work/data.txt" ;;
	bzip2) echo "bzip2 -c $T/work/data.txt" ;;
	zstd) echo "zstd -q -c $T/work/data.txt" ;;
	git) echo "git init -q $T/work/repo" ;;
	make) echo "make -C $T/work" ;;
	perl) echo "perl -e 'print sort 3, 1, 2'" ;;
	awk) echo "awk -F: '{print \$1}' /etc/passwd" ;;
	sed) echo "sed -n 's/root/ROOT/p' /etc/passwd" ;;
	sort) echo "sort -r /etc/passwd" ;;
	diff) echo "diff /etc/passwd /etc/passwd" ;;
	md5sum) echo "md5sum /etc/passwd" ;;
	gcc) echo "gcc -c -o $T/work/x.o $T/work/x.c" ;;
	file) echo "file /etc/passwd" ;;
	timeout) echo "timeout 5 true" ;;
	nice) echo "nice -n 1 true" ;;
	chrt) echo "chrt -o 0 true" ;;
	taskset) echo "taskset -c 0 true" ;;
	flock) echo "flock $T/work/lockf true" ;;
	ionice) echo "ionice -c 2 -n 4 true" ;;
	# run on a terminal (script's pty, below): TCGETS, TIOCGWINSZ...
	tty) echo "sh -c 'stty size; stty -a; ls --color=auto /'" ;;
	esac
}

# one run of NAME under TOOL (strace or ptbpf) into $T/NAME.TOOL, from the
# same directory, stdout to /dev/null and stderr to a file for both
run() {
	name=$1 tool=$2 out=$3
	rm -rf "$T/work/copy.txt" "$T/work/db.sqlite" "$T/work/repo" "$T/work/x.o"
	c=$(cmd "$name")
	# a program missing fails the test, not skips it: install-deps.sh installs it
	command -v "${c%% *}" >/dev/null || fail "$name: ${c%% *} not installed (tools/install-deps.sh)"
	cd "$T/work" || fail "cd"
	if [ "$tool" = strace ]; then
		t="strace -f -s 32 -o '$out' -- $c"
	else
		t="'$P' record -f $S_OPT --output-text '$out' -- $c"
	fi
	if [ "$name" = tty ]; then
		# the same command on a pseudo-terminal of its own
		command -v script >/dev/null || fail "script (bsdutils) not installed"
		script -qec "$t" /dev/null >/dev/null 2>"$out.err" </dev/null ||
			{ cat "$out.err"; fail "$name: $tool failed"; }
	else
		eval "$t" >/dev/null 2>"$out.err" || { cat "$out.err"; fail "$name: $tool failed"; }
	fi
	cd - >/dev/null || fail "cd -"
	[ -z "$(ls -A "$T/files")" ] || fail "$name: $T/files not left empty"
}

low=0
printf '%-13s %7s %7s  %s\n' program agree floor lines
for name in $(echo "$FLOORS" | awk 'NF {print $1}'); do
	floor=${PTBPF_DECODE_MIN:-$(echo "$FLOORS" | awk -v n="$name" '$1 == n {print $2}')}
	run "$name" strace "$T/$name.strace"
	if [ "$floor" = self ]; then
		run "$name" strace "$T/$name.strace2"
		self=$($AGREE --name "$name" "$T/$name.strace" "$T/$name.strace2" |
			sed -n 's/^AGREE [^:]*: \([0-9.]*\)%.*/\1/p')
		[ -n "$self" ] || fail "$name: strace's agreement with itself not measured"
		floor=$(awk -v s="$self" 'BEGIN { printf "%.1f", s - 5 }')
	fi
	run "$name" ptbpf "$T/$name.ptbpf"
	$AGREE --name "$name" --min "$floor" --show "${PTBPF_DECODE_SHOW:-0}" \
		"$T/$name.strace" "$T/$name.ptbpf" >"$T/$name.agree"
	rc=$?
	[ $rc -le 1 ] || { cat "$T/$name.agree"; fail "$name: decode_agree.py exited $rc"; }
	pct=$(sed -n 's/^AGREE [^:]*: \([0-9.]*\)%.*/\1/p' "$T/$name.agree")
	lines=$(sed -n 's/^AGREE [^(]*(\(.*\))$/\1/p' "$T/$name.agree")
	mark=
	[ $rc = 0 ] || { mark="  BELOW THE FLOOR"; low=$((low + 1)); }
	printf '%-13s %6s%% %6s%%  %s%s\n' "$name" "$pct" "$floor" "$lines" "$mark"
	if [ "${PTBPF_DECODE_SHOW:-0}" != 0 ]; then
		sed 1d "$T/$name.agree"
	elif [ $rc != 0 ]; then
		$AGREE --name "$name" --show 5 "$T/$name.strace" "$T/$name.ptbpf" | sed 1d
	fi
	if [ "${PTBPF_DECODE_NOISE:-0}" = 1 ]; then
		[ -f "$T/$name.strace2" ] || run "$name" strace "$T/$name.strace2"
		$AGREE --name "$name" "$T/$name.strace" "$T/$name.strace2" |
			sed -n 's/^AGREE/  strace with itself:/p'
	fi
done
[ $low = 0 ] || fail "$low programs below their floor"
echo "ok: every program at or above its floor"
