#!/bin/sh
# Probes of unmodified programs from the command line: -e uprobe:, uretprobe:,
# usdt: live and through a log, with syscalls, under -f with a fork; `ptbpf
# list uprobe:PATH` and `usdt:PATH` against bpftrace -l; Debian's python3
# USDT function__entry and function__return counts against bpftrace's;
# clear errors (exit 2) before anything runs; a binary replaced while traced.
# usage: sh cli_probes.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/probes_check.py
PA=$PROGS/probe_alloc
PY=/usr/bin/python3.11
[ -x "$PA" ] || fail "no $PA"
case $(uname -r) in
[1-4].* | 5.[0-9].* | 5.1[0-4].*)
	# before BPF cookies: a clear refusal, exit 2
	"$P" record --format=ptbpf -e uprobe:libc:malloc -- true 2>"$T/old.err" && fail "probes on $(uname -r)"
	grep -q "probes need Linux 5.15" "$T/old.err" || { cat "$T/old.err"; fail "message"; }
	echo "ok: probes refused before 5.15"
	exit 0
	;;
esac

# 1. libc's malloc, entry and return, with the write syscalls: each
# allocation of the program (sizes 0x5a00 + i) with its size and pointer
timeout 30 "$P" record --format=ptbpf --output-text - -e 'write,uprobe:libc:malloc:hex,uretprobe:libc:malloc' -- "$PA" 20 - \
	>"$T/m.txt" 2>"$T/m.err" || { cat "$T/m.err"; fail "record uprobe malloc"; }
python3 "$CHECK" malloc_pointers "$T/m.txt" || exit 1

# 2. A log: the USDT probe with its string (the semaphore raised), a
# function's six arguments, shown by name from the log; JSON fields
timeout 30 "$P" record --format=ptbpf -o "$T/p.log" \
	-e "usdt:$PA:ptbpf_test:tick:int,str,uprobe:$PA:probe_target" -- "$PA" 3 - \
	>"$T/p.out" 2>"$T/p.err" || { cat "$T/p.err"; fail "record -o usdt"; }
grep -q "^sem [0-9]* 1$" "$T/p.out" || fail "semaphore not raised"
"$P" show --format=ptbpf "$T/p.log" >"$T/p.txt" || fail "show"
for i in 0 1 2; do
	grep -q "^[0-9.]* [0-9]*/[0-9]* usdt ptbpf_test:tick($i, \"tick\")$" "$T/p.txt" ||
		{ cat "$T/p.txt"; fail "usdt event $i"; }
done
[ "$(grep -c ' uprobe probe_target(0x[0-2]*, 0x1, 0x2, 0x3, 0x4, 0x5)$' "$T/p.txt")" = 2 ] ||
	{ cat "$T/p.txt"; fail "probe_target arguments"; }
grep -q ' uprobe probe_target(0, 0x1, 0x2, 0x3, 0x4, 0x5)$' "$T/p.txt" || fail "probe_target(0)"
"$P" show --format=ptbpf --json "$T/p.log" >"$T/p.jsonl" || fail "show --json"
python3 "$CHECK" probe_json "$T/p.jsonl" || exit 1

# 3. -f: the child the program forks is probed too
timeout 30 "$P" record --format=ptbpf --output-text - -f -e "uprobe:$PA:probe_target" -- "$PA" 15 fork >"$T/f.txt" 2>"$T/f.err" ||
	{ cat "$T/f.err"; fail "record -f"; }
pids=$(grep "^sem " "$T/f.txt" | cut -d' ' -f2)
[ "$(echo "$pids" | wc -w)" = 2 ] || { cat "$T/f.txt"; fail "two processes"; }
for pid in $pids; do
	n=$(grep -c "^[0-9.]* $pid/$pid uprobe probe_target(" "$T/f.txt")
	[ "$n" = 15 ] || { cat "$T/f.txt"; fail "process $pid: $n probe events, not 15"; }
done
echo "ok: -f follows the fork"

# 4. list, as bpftrace -l lists
command -v bpftrace >/dev/null || skip "bpftrace not installed"
for spec in "uprobe:$PA" "usdt:$PA" "usdt:$PY"; do
	"$P" list "$spec" >"$T/l.mine" || fail "list $spec"
	bpftrace -l "$spec:*" >"$T/l.bt" 2>/dev/null || fail "bpftrace -l $spec"
	[ -s "$T/l.mine" ] || fail "list $spec: empty"
	diff "$T/l.bt" "$T/l.mine" || fail "list $spec differs from bpftrace -l"
done
"$P" list 'uprobe:libc:malloc*' | grep -qx 'uprobe:/.*/libc.so.6:malloc' || fail "list uprobe:libc"
"$P" list "uprobe:$PA:probe_t*" | grep -qx "uprobe:$PA:probe_target" || fail "list pattern"
echo "ok: list as bpftrace -l"

# 5. Debian's python3: function__entry and function__return counts per
# function as bpftrace counts them on the same script (37 returns of fnord)
if [ -x "$PY" ]; then
	printf 'def fnord(n):\n    return n + 1\n\nfor i in range(37):\n    fnord(i)\n' >"$T/s.py"
	for probe in function__entry function__return; do
		# python's stdout the same under both (where it stands changes its calls)
		rm -f "$T/py.log"
		timeout 60 "$P" record --format=ptbpf -o "$T/py.log" -e "usdt:$PY:python:$probe:str,str,int" -- \
			"$PY" "$T/s.py" >/dev/null 2>"$T/py.err" ||
			{ cat "$T/py.err"; fail "record python $probe"; }
		"$P" show --format=ptbpf "$T/py.log" >"$T/py.txt" || fail "show python $probe"
		timeout 60 bpftrace -o "$T/py.bt" -c "$PY $T/s.py" \
			-e "usdt:$PY:python:$probe /pid == cpid/ { @[str(arg1)] = count(); }" \
			>/dev/null 2>&1 || fail "bpftrace python $probe"
		python3 "$CHECK" python_counts "$T/py.txt" "$T/py.bt" "$probe" || exit 1
	done
fi

# 6. Errors before anything runs: exit 2, what was not found, no command run
err() {
	rm -f "$T/ran"
	"$P" record --format=ptbpf -e "$1" -- touch "$T/ran" >/dev/null 2>"$T/e.err"
	rc=$?
	[ "$rc" = 2 ] || { cat "$T/e.err"; fail "-e '$1': exit $rc, not 2"; }
	[ ! -e "$T/ran" ] || fail "-e '$1': the command ran"
	grep -q "$2" "$T/e.err" || { cat "$T/e.err"; fail "-e '$1': no '$2'"; }
}
err "uprobe:/nonexistent/bin:f" "/nonexistent/bin: no such file"
err "uprobe:nosuchlibxyz:f" "nosuchlibxyz: no such file, program or library"
err "uprobe:libc:no_such_fn_xyz" "no function symbol no_such_fn_xyz in /.*libc.so.6"
err "usdt:$PA:ptbpf_test:nosuch" "no USDT probe ptbpf_test:nosuch in $PA"
err "uprobe:libc:*" "matches more than 64 function symbols"
err "uprobe:/etc/passwd:f" "not an ELF file"
err "uprobe:libc:malloc:blob" "a probe is uprobe:PATH:SYMBOL"
err "uretprobe:libc:malloc+4" "a probe is uprobe:PATH:SYMBOL"
"$P" list usdt:/nonexistent >/dev/null 2>&1 && fail "list of a missing file"
echo "ok: errors"

# 7. The binary replaced while traced (a new file at its path): the
# controller goes on; the probe stays on the file it was attached to
cp "$PA" "$T/pa"
cp "$PA" "$T/pa.new"
(sleep 0.2 && mv "$T/pa.new" "$T/pa") &
timeout 30 "$P" record --format=ptbpf --output-text - -f -e "uprobe:$T/pa:probe_target" -- sh -c "sleep 0.6; exec $T/pa 4 -" \
	>"$T/r.txt" 2>"$T/r.err" || { cat "$T/r.err"; fail "record across a replaced binary"; }
wait
grep -q "^sem " "$T/r.txt" || fail "the new binary did not run"
grep -q "events printed" "$T/r.err" || { cat "$T/r.err"; fail "no summary"; }
echo "ok: replaced binary"
