#!/bin/sh
# strace's everyday process and output options in ptbpf record, each
# against the real strace with the same option: -u and -E by what the
# command sees, -D by the command's parent, -A by the file appended to,
# -ff by the files made and their lines, -b execve by the processes'
# lines, --seccomp-bpf accepted. A line may begin with ptbpf's "TS
# PID/TID " or not (strace's look), and with "[pid N] ".
# usage: sh strace_opts2.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/strace_opts2_check.py
command -v strace >/dev/null || fail "strace not installed"
# the files of the test in its directory: the paths given, made absolute
case $P in /*) ;; *) P=$PWD/$P ;; esac
case $CHECK in /*) ;; *) CHECK=$PWD/$CHECK ;; esac
cd "$T" || fail "cd $T"

# --- -u USER: the ids, groups included, strace gives the command
id nobody >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin nobody || fail "no user nobody"
for q in -u -g -G; do
	s=$(strace -u nobody -o /dev/null id $q) || fail "strace -u nobody id $q"
	p=$("$P" record -u nobody --output-text /dev/null -- id $q 2>/dev/null) || fail "record -u nobody id $q"
	[ "$s" = "$p" ] || fail "-u nobody: id $q: strace's '$s', ptbpf's '$p'"
	echo "-u nobody: id $q: $p"
done
# --user=, and UID:GID (strace 6.2's): those ids, that group only
p=$("$P" record --user=65534:100 --output-text /dev/null -- id 2>/dev/null) || fail "record -u 65534:100"
echo "$p" | grep -q '^uid=65534([a-z]*) gid=100([a-z]*) groups=100([a-z]*)$' || fail "-u 65534:100: $p"
# the trace is the command's, as that user, from its execve
"$P" record -u nobody --output-text p.txt -e execve,geteuid -- id -u >/dev/null 2>&1 || fail "record -u -e"
grep -q 'execve("[^"]*id", \["id", "-u"\]' p.txt || fail "-u: no execve of id traced"
grep -q -E 'geteuid\(\) += 65534' p.txt || fail "-u: geteuid() is not nobody's"
# a user that does not exist, and -u for someone else than root: errors
"$P" record -u no_such_user_x -- true >/dev/null 2>o.err && fail "-u no_such_user_x accepted"
grep -q "cannot find user 'no_such_user_x'" o.err || { cat o.err; fail "-u no_such_user_x: no message"; }
setpriv --reuid=65534 --regid=65534 --clear-groups "$P" record -u nobody -- true >/dev/null 2>o.err
rc=$?
[ $rc = 3 ] && grep -q "only root" o.err || { cat o.err; fail "-u as nobody: exit $rc, not 3 'only root'"; }

# --- -E: set, replaced and removed, as strace does, in order
export PTBPF_T_KEEP=1 PTBPF_T_GONE=2 PTBPF_T_REPL=3
strace -E PTBPF_T_NEW=a=b -E PTBPF_T_REPL=x -E PTBPF_T_GONE -E PTBPF_T_REPL=y -o /dev/null env |
	sort >s.env || fail "strace -E"
"$P" record -E PTBPF_T_NEW=a=b -E PTBPF_T_REPL=x -E PTBPF_T_GONE --env=PTBPF_T_REPL=y \
	--output-text /dev/null -- env 2>/dev/null | sort >p.env || fail "record -E"
diff s.env p.env || fail "-E: not strace's environment"
grep -q '^PTBPF_T_NEW=a=b$' p.env && grep -q '^PTBPF_T_REPL=y$' p.env && ! grep -q PTBPF_T_GONE p.env ||
	fail "-E: the variables are not as asked"
echo "-E: the environment is strace's ($(wc -l <p.env) variables)"
unset PTBPF_T_KEEP PTBPF_T_GONE PTBPF_T_REPL

# --- -D: the command's parent is not ptbpf; tracing from its execve; its
# exit status; nothing of ptbpf left once it returns
"$P" record -D --output-text p.txt -- sh -c 'echo $PPID >ppid; exit 7' >/dev/null 2>&1 &
ptbpf=$!
wait $ptbpf
rc=$?
[ $rc = 7 ] || fail "-D: exit status $rc, not the command's 7"
ppid=$(cat ppid)
[ -n "$ppid" ] && [ "$ppid" != "$ptbpf" ] || fail "-D: the command's parent $ppid is ptbpf ($ptbpf)"
kill -0 "$ppid" 2>/dev/null && fail "-D: the command's parent $ppid outlived ptbpf"
first=$(grep -m1 -E "(^|[] ])[a-z_0-9]+\\(" p.txt)
echo "$first" | grep -q 'execve("/usr/bin/sh", \["sh", "-c"' || fail "-D: first call traced: $first"
# without -D, ptbpf is the parent (as strace without -D); strace -D: not strace
"$P" record --output-text /dev/null -- sh -c 'echo $PPID >ppid' >/dev/null 2>&1 &
ptbpf=$!
wait $ptbpf
[ "$(cat ppid)" = "$ptbpf" ] || fail "without -D the command's parent is $(cat ppid), not ptbpf ($ptbpf)"
strace -D -o /dev/null sh -c 'echo $PPID >ppid' &
strace=$!
wait $strace
[ "$(cat ppid)" != "$strace" ] || fail "strace -D: strace is the parent"
"$P" record --daemonize=grandchild --output-text /dev/null -- sh -c 'kill -TERM $$' >/dev/null 2>&1
rc=$?
[ $rc = 143 ] || fail "--daemonize: killed by SIGTERM: exit $rc, not 143"
# into a log: the same status, the command's events from its execve
"$P" record -D -o d.log -- sh -c 'exit 5' >/dev/null 2>&1
rc=$?
[ $rc = 5 ] || fail "-D -o: exit status $rc, not 5"
"$P" show d.log 2>/dev/null | grep -q 'execve("/usr/bin/sh", \["sh", "-c", "exit 5"\]' ||
	fail "-D -o: no execve in the log"
"$P" record -DD -- true >/dev/null 2>o.err && fail "-DD accepted"
grep -q -e "-DD: not supported" o.err || { cat o.err; fail "-DD: no message"; }
"$P" record -D -p 1 >/dev/null 2>o.err && fail "-D -p accepted (strace refuses it)"
grep -q 'must be specified with -D' o.err || { cat o.err; fail "-D -p: no message"; }
echo "-D: the command's parent is $ppid, not ptbpf; its status 7, 143"

# --- -A: appended to, as strace -A -o
for t in strace ptbpf; do
	echo "before" >"$t.txt"
	for i in 1 2; do
		if [ $t = strace ]; then
			strace -A -o "$t.txt" -e execve true
		else
			"$P" record -A --output-text "$t.txt" -e execve -- true 2>/dev/null
		fi || fail "$t -A"
	done
	[ "$(head -1 "$t.txt")" = before ] || fail "$t -A: truncated"
	n=$(grep -c 'execve("/usr/bin/true"' "$t.txt")
	[ "$n" = 2 ] || fail "$t -A: $n execve lines, not 2"
done
"$P" record --output-text ptbpf.txt -e execve -- true 2>/dev/null
[ "$(grep -c . ptbpf.txt)" -lt 5 ] && ! grep -q before ptbpf.txt || fail "without -A: not truncated"
echo "-A: appended to, as strace's"

# --- -ff: FILE.PID a process, the lines of strace -ff -o FILE
cmd="echo a; (echo b; ls / >/dev/null); exit 3"
mkdir s p s2 p2
strace -ff -o s/o sh -c "$cmd" >/dev/null
"$P" record -ff --output-text p/o -- sh -c "$cmd" >/dev/null 2>&1
rc=$?
[ $rc = 3 ] || fail "-ff: exit status $rc"
[ ! -e p/o ] || fail "-ff: p/o made too (strace makes FILE.PID only)"
python3 "$CHECK" ff s/o p/o || fail "-ff: not strace's files"
# threads: a file each (strace's tracee is a thread): a process that
# forks a child, then runs 2 threads (tests/progs/script_child.c)
mkdir s3 p3
SC="$PROGS/script_child 3 4 /etc/hostname 10 3 threads,noexec"
# shellcheck disable=SC2086
strace -ff -o s3/o $SC 3>/dev/null 4</dev/zero || fail "strace -ff script_child"
# shellcheck disable=SC2086
"$P" record -ff --output-text p3/o -- $SC 3>/dev/null 4</dev/zero 2>/dev/null ||
	fail "record -ff script_child"
python3 "$CHECK" ff s3/o p3/o || fail "-ff, threads: not strace's files"
# --follow-forks --output-separately: the same (strace 6.1 writes one file
# for -f --output-separately, its documentation says -ff's files)
strace --follow-forks --output-separately -o s2/o sh -c "$cmd" >/dev/null
"$P" record --follow-forks --output-separately --output-text p2/o -- sh -c "$cmd" >/dev/null 2>&1
python3 "$CHECK" ff s2/o p2/o >/dev/null || fail "--output-separately: not strace's files"
[ "$(find p2 -type f | wc -l)" = "$(find s2 -type f | wc -l)" ] || fail "--output-separately: $(ls p2)"
# without a file (standard error, as strace's -ff without -o): one output
"$P" record -ff -e execve -- sh -c "$cmd" 2>p.err >/dev/null || true
[ "$(grep -c 'execve(' p.err)" = 2 ] || fail "-ff without --output-text: $(grep -c 'execve(' p.err) execve lines"

# a file that cannot be made: said before anything runs, as strace's
"$P" record -ff --output-text "$T/nodir/o" -- sh -c 'echo ran >ran' >/dev/null 2>o.err && fail "-ff into no dir"
grep -q "cannot create $T/nodir/o\.[0-9]*: No such file" o.err || { cat o.err; fail "-ff into no dir: no message"; }
[ ! -e ran ] || fail "-ff into no dir: the command ran"

# --- -b execve: each process that executes a program is no longer traced
for cmd in "exec /bin/true" "/bin/true; echo hi" "ls / >/dev/null; sh -c 'exec true'; echo x"; do
	strace -f -b execve -o s.txt sh -c "$cmd" >/dev/null 2>&1 || fail "strace -b execve: $cmd"
	"$P" record -f -b execve --output-text p.txt -- sh -c "$cmd" >/dev/null 2>&1 ||
		fail "record -b execve: $cmd"
	python3 "$CHECK" detach s.txt p.txt || fail "-b execve ($cmd): not strace's"
done
# a single process: its line ends as strace's
strace -b execve -o s.txt sh -c 'exec /bin/true'
"$P" record -b execve --output-text p.txt -- sh -c 'exec /bin/true' 2>/dev/null
grep -q 'execve("/bin/true", \["/bin/true"\], 0x[0-9a-f]* /\* [0-9]* vars \*/ <detached ...>$' s.txt ||
	fail "strace -b execve: $(tail -1 s.txt)"
grep -q 'execve("/bin/true", \["/bin/true"\], 0x[0-9a-f]* /\* [0-9]* vars \*/ <detached ...>$' p.txt ||
	fail "-b execve: $(grep execve p.txt | tail -1)"
"$P" record -b execve -o b.log -- true >/dev/null 2>o.err && fail "-b execve -o accepted"
grep -q -e "-b execve: with -o" o.err || { cat o.err; fail "-b execve -o: no message"; }
"$P" record --detach-on=open -- true >/dev/null 2>o.err && fail "-b open accepted"
grep -q "only execve" o.err || { cat o.err; fail "-b open: no message"; }

# --- --seccomp-bpf: accepted, nothing changes
"$P" record -f --seccomp-bpf --output-text p.txt -e execve -- true 2>/dev/null || fail "--seccomp-bpf"
grep -q 'execve("/usr/bin/true"' p.txt || fail "--seccomp-bpf: no execve"

# --- each in --help, with its strace equivalent
"$P" record --help >help.txt
for o in -u, --user= -E, --env= -D --daemonize -b, --detach-on= -A, --output-append-mode \
	--output-separately --seccomp-bpf "strace -ff"; do
	grep -q -e "$o" help.txt || fail "--help: no $o"
done
echo PASS
