#!/bin/sh
# ptbpf record -k / show -k against the real strace -k: the frames of the
# same program's openat calls, in order, name the same modules at the same
# offsets, and in the modules without separate debug info (our own program
# built with frame pointers and -g, Debian's cat) the same symbols; live
# record -k prints what show -k prints from the log; a log moved away and
# read after the traced binary was deleted still names the frames it can
# and prints the others raw, never with a wrong name.
# show -k --json gives the frames after their call, with file:line of our
# program's debug info. --call-graph=fp gives the frames a DWARF unwinder
# gives for code with frame pointers; --kernel-stack adds the kernel's
# under them (text, JSON, Chrome); --stack-depth bounds both; identical
# stacks are printed in full for every call; a deleted binary's frames are
# named through its build-id in --debug-dir, never from another file.
# usage: sh cli_stacks.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/stacks_check.py
SRC=${2:?source dir}
command -v strace >/dev/null || skip "strace not installed"
strace -k -e trace=none true >/dev/null 2>&1 || skip "this strace has no -k"
SC=$(realpath "$PROGS/stack_calls")
[ -x "$SC" ] || fail "no $SC"
mkdir -p "$T/bin" "$T/moved"

# frames FILE PATTERN: the " > " lines under each syscall line matching
# PATTERN, each reduced to "module [offset]", or with -s its whole line
# for frames in module MOD
frames() {
	awk -v pat="$2" -v mod="${3:-}" '
		/^ > / { if (on) { line = substr($0, 4); m = line; sub(/\(.*$/, "", m)
			off = line; sub(/^.* \[/, "[", off)
			print (mod != "" && m == mod) ? line : m " " off }; next }
		{ on = index($0, pat) > 0; if (on) print "--" }' "$1"
}

# compare NAME PATTERN MOD COMMAND...: strace -k and ptbpf -k of COMMAND
compare() {
	name=$1 pat=$2 mod=$3
	shift 3
	strace -k -qq -e trace=openat -o "$T/$name.strace" "$@" >/dev/null 2>&1 ||
		fail "$name: strace -k"
	"$P" record --format=ptbpf -k -e openat -o "$T/$name.log" -- "$@" >/dev/null 2>"$T/$name.err" ||
		fail "$name: record -k: $(cat "$T/$name.err")"
	"$P" show --format=ptbpf -k "$T/$name.log" >"$T/$name.show" || fail "$name: show -k"
	frames "$T/$name.strace" "$pat" "$mod" >"$T/$name.want"
	frames "$T/$name.show" "$pat" "$mod" >"$T/$name.got"
	[ "$(grep -c . "$T/$name.want")" -gt 2 ] || fail "$name: strace -k printed no frames"
	diff -u "$T/$name.want" "$T/$name.got" || fail "$name: frames differ from strace -k's"
}

# our program: main, outer, middle, inner, then libc
compare own '"/nonexistent/ptbpf-stacks' "$SC" "$SC" /nonexistent/ptbpf-stacks
for f in inner middle outer main; do
	grep -q "^$SC($f+0x" "$T/own.got" || fail "own: no frame of $f"
done
# Debian's cat: every openat, the dynamic loader's and libc's too
compare cat 'openat(' /usr/bin/cat cat /etc/hostname

# --json: a stack record after the openat's exit, our frames with the
# source lines of the calls (as grep finds them in the source)
"$P" show --format=ptbpf -k --json "$T/own.log" >"$T/own.json" || fail "show -k --json"
C=$SRC/tests/progs/stack_calls.c
python3 "$CHECK" json_frames "$T/own.json" "$SC" "$(realpath "$C")" \
	"$(grep -n 'open(path, O_RDONLY)' "$C" | cut -d: -f1)" \
	"$(grep -n 'return inner(path)' "$C" | cut -d: -f1)" \
	"$(grep -n 'return middle(path)' "$C" | cut -d: -f1)" || fail "show -k --json"

# convert --to chrome: the openat slice's "sf" leads through stackFrames
# from libc's open out to main, each frame stored once
"$P" convert "$T/own.log" --to chrome -o "$T/own.chrome.json" || fail "convert --to chrome"
python3 "$SRC/tests/cli/chrome_stack.py" "$T/own.chrome.json" '"/nonexistent/ptbpf-stacks"' \
	>"$T/own.chain" || fail "convert --to chrome: stack frames"
python3 "$CHECK" chrome_own_frames "$T/own.chain" "$SC" || fail "convert --to chrome: our frames"

# --call-graph=dwarf,SIZE (perf's form): 64 bytes of stack leave the
# unwinder short of our frames; a size that is not a multiple of 8, or
# above 16K, is refused
"$P" record --format=ptbpf --call-graph=dwarf,64 -e openat -o "$T/small.log" -- "$SC" /nonexistent/ptbpf-stacks \
	>/dev/null 2>&1 || fail "record --call-graph=dwarf,64"
"$P" show --format=ptbpf -k "$T/small.log" >"$T/small.show" || fail "show -k of dwarf,64"
frames "$T/small.show" '"/nonexistent/ptbpf-stacks' "$SC" >"$T/small.got"
[ "$(grep -c . "$T/small.got")" -ge 2 ] || fail "dwarf,64: no frame at all"
[ "$(grep -c . "$T/small.got")" -lt "$(grep -c . "$T/own.got")" ] ||
	fail "dwarf,64: as many frames as with 8K"
for bad in dwarf,12 dwarf,32K dwarf,0 dwarf,x; do
	"$P" record --format=ptbpf --call-graph=$bad -o "$T/bad.log" -- true 2>/dev/null
	[ $? = 2 ] || fail "--call-graph=$bad accepted"
done

# live: the same frames as show -k of the log
"$P" record --format=ptbpf -k -e openat -- "$SC" /nonexistent/ptbpf-stacks >"$T/live.out" 2>&1 ||
	fail "live record -k"
frames "$T/live.out" '"/nonexistent/ptbpf-stacks' "$SC" >"$T/live.got"
diff -u "$T/own.got" "$T/live.got" || fail "live record -k: other frames than show -k"

# exit_group, printed at its entry (it does not return): its frames too
"$P" record --format=ptbpf -k -e exit_group -- "$SC" /nonexistent/ptbpf-stacks >"$T/eg.out" 2>&1 ||
	fail "record -k -e exit_group"
frames "$T/eg.out" 'exit_group(' | sed -n 2p | grep -q '^/usr/lib/x86_64-linux-gnu/libc\.so\.6 \[0x' ||
	fail "exit_group: no frames: $(cat "$T/eg.out")"

# --stack=read: frames under the reads only, not the openat calls
"$P" record --format=ptbpf -e openat,read --stack=read -o "$T/sel.log" -- cat /etc/hostname >/dev/null 2>&1 ||
	fail "record --stack=read"
"$P" show --format=ptbpf -k "$T/sel.log" >"$T/sel.show" || fail "show -k of --stack=read"
[ "$(frames "$T/sel.show" ' read(' | grep -vc -e '^--')" -gt 0 ] || fail "--stack=read: no frames under read"
[ "$(frames "$T/sel.show" ' openat(' | grep -vc -e '^--')" = 0 ] || fail "--stack=read: frames under openat"
"$P" record --format=ptbpf --stack=proc -- true >/dev/null 2>"$T/sel.err"
[ $? = 2 ] && grep -q 'only syscalls' "$T/sel.err" || fail "--stack=proc: not refused"

# without -k nothing is captured and show -k prints no frames
"$P" record --format=ptbpf -e openat -o "$T/plain.log" -- "$SC" /nonexistent/ptbpf-stacks >/dev/null 2>&1 ||
	fail "record without -k"
"$P" show --format=ptbpf -k "$T/plain.log" | grep -q '^ > ' && fail "frames without record -k"
"$P" convert "$T/plain.log" --to chrome -o "$T/plain.json" || fail "convert without stacks"
grep -q stackFrames "$T/plain.json" && fail "stackFrames without record -k"

# moved log, deleted binary: libc still named, the gone module raw
cp "$SC" "$T/bin/sc"
"$P" record --format=ptbpf -k -e openat -o "$T/gone.log" -- "$T/bin/sc" /nonexistent/ptbpf-stacks \
	>/dev/null 2>&1 || fail "record -k of the copy"
rm "$T/bin/sc"
mv "$T/gone.log" "$T/moved/"
"$P" show --format=ptbpf -k "$T/moved/gone.log" >"$T/gone.show" || fail "show -k of the moved log"
grep -A9 '"/nonexistent/ptbpf-stacks' "$T/gone.show" | grep '^ > ' >"$T/gone.frames"
head -1 "$T/gone.frames" | grep -q '^ > /usr/lib/x86_64-linux-gnu/libc\.so\.6(.*+0x[0-9a-f]*) \[0x' ||
	fail "moved log: libc's frame not named: $(head -1 "$T/gone.frames")"
grep -q 'inner\|middle\|outer' "$T/gone.frames" && fail "moved log: a frame of the deleted binary named"
[ "$(grep -c '^ > unexpected_backtracing_error \[0x' "$T/gone.frames")" -ge 4 ] ||
	fail "moved log: the deleted binary's frames not printed raw"
# -p: a process running before tracing began, its mappings read at start
"$SC" /nonexistent/ptbpf-stacks 40 &
bg=$!
sleep 0.3
"$P" record --format=ptbpf -k -e openat -o "$T/p.log" -p "$bg" --duration 0.5 >/dev/null 2>&1 ||
	fail "record -k -p"
wait "$bg"
"$P" show --format=ptbpf -k "$T/p.log" >"$T/p.show" || fail "show -k of the -p log"
frames "$T/p.show" '"/nonexistent/ptbpf-stacks' "$SC" | grep -c "^$SC(outer+0x" >"$T/p.n"
[ "$(cat "$T/p.n")" -gt 2 ] || fail "-p: the running process's frames not named"

# the binary replaced by another at the same path: its names are not used
cp "$SC" "$T/bin/sc"
"$P" record --format=ptbpf -k -e openat -o "$T/repl.log" -- "$T/bin/sc" /nonexistent/ptbpf-stacks \
	>/dev/null 2>&1 || fail "record -k of the copy"
cp /usr/bin/true "$T/bin/sc"
"$P" show --format=ptbpf -k "$T/repl.log" >"$T/repl.show" || fail "show -k after the binary was replaced"
grep -A9 '"/nonexistent/ptbpf-stacks' "$T/repl.show" | grep '^ > ' >"$T/repl.frames"
grep -q "$T/bin/sc" "$T/repl.frames" && fail "replaced binary: frames named from the new file"
[ "$(grep -c '^ > unexpected_backtracing_error \[0x' "$T/repl.frames")" -ge 4 ] ||
	fail "replaced binary: its frames not printed raw"
# --call-graph=fp: our program making the syscall itself (libc's open has
# no frame pointers) gives the DWARF unwinder's frames, from inner to libc
"$P" record --format=ptbpf -k --call-graph=fp -e openat -o "$T/fp.log" -- "$SC" /nonexistent/ptbpf-stacks 1 raw \
	>/dev/null 2>&1 || fail "record --call-graph=fp"
"$P" record --format=ptbpf -k -e openat -o "$T/dw.log" -- "$SC" /nonexistent/ptbpf-stacks 1 raw \
	>/dev/null 2>&1 || fail "record -k of the raw calls"
"$P" show --format=ptbpf -k "$T/fp.log" >"$T/fp.show" || fail "show -k of --call-graph=fp"
"$P" show --format=ptbpf -k "$T/dw.log" >"$T/dw.show" || fail "show -k of the raw calls"
frames "$T/fp.show" '"/nonexistent/ptbpf-stacks' "$SC" | sed -n 2,6p >"$T/fp.got"
frames "$T/dw.show" '"/nonexistent/ptbpf-stacks' "$SC" | sed -n 2,6p >"$T/fp.want"
grep -q "^$SC(inner+0x" "$T/fp.want" || fail "raw calls: no frame of inner: $(cat "$T/dw.show")"
diff -u "$T/fp.want" "$T/fp.got" || fail "--call-graph=fp: other frames than DWARF's"
# through libc's open: its frame, as far as frame pointers go
"$P" record --format=ptbpf -k --call-graph=fp -e openat -- "$SC" /nonexistent/ptbpf-stacks >"$T/fpl.out" 2>&1 ||
	fail "record --call-graph=fp through libc"
frames "$T/fpl.out" '"/nonexistent/ptbpf-stacks' | sed -n 2p |
	grep -q '^/usr/lib/x86_64-linux-gnu/libc\.so\.6 \[0x' || fail "fp: no libc frame: $(cat "$T/fpl.out")"
"$P" record --format=ptbpf -k --call-graph=frames -- true >/dev/null 2>"$T/cg.err"
[ $? = 2 ] && grep -q 'dwarf or fp' "$T/cg.err" || fail "--call-graph=frames: not refused"

# --kernel-stack: under the user frames, the kernel's syscall entry path
# (at sys_enter the syscall's own function is not called yet); the
# tracing's own frames left out
for cg in dwarf fp; do
	"$P" record --format=ptbpf -k --kernel-stack --call-graph=$cg -e openat -o "$T/k$cg.log" -- \
		"$SC" /nonexistent/ptbpf-stacks 1 raw >/dev/null 2>&1 || fail "record --kernel-stack ($cg)"
	"$P" show --format=ptbpf -k "$T/k$cg.log" >"$T/k$cg.show" || fail "show -k --kernel-stack ($cg)"
	grep -A40 '"/nonexistent/ptbpf-stacks' "$T/k$cg.show" | sed -n '2,/^[^ ]/p' | grep '^ > ' \
		>"$T/k$cg.frames"
	sed -n 1p "$T/k$cg.frames" | grep -q "^ > $SC(inner+0x" || fail "kernel-stack ($cg): user frames not first"
	grep -q '^ > \[kernel\.kallsyms\](do_syscall_64+0x[0-9a-f]*) \[0xffff' "$T/k$cg.frames" ||
		fail "kernel-stack ($cg): no do_syscall_64: $(cat "$T/k$cg.frames")"
	tail -1 "$T/k$cg.frames" | grep -q '^ > \[kernel\.kallsyms\](entry_SYSCALL_64' ||
		fail "kernel-stack ($cg): not ending at the syscall entry"
	grep -q 'bpf_trace_run\|__traceiter_\|__bpf_trace_' "$T/k$cg.frames" &&
		fail "kernel-stack ($cg): the tracing's own frames"
	# the user frames are those without --kernel-stack
	grep -v kallsyms "$T/k$cg.frames" | sed 's/^ > //' | head -5 >"$T/k$cg.user"
	sed -n '/"\/nonexistent\/ptbpf-stacks/,/^[^ ]/p' "$T/$( [ $cg = fp ] && echo fp || echo dw).show" |
		grep '^ > ' | sed 's/^ > //' | head -5 | diff -u - "$T/k$cg.user" ||
		fail "kernel-stack ($cg): other user frames"
done
# exit_group (printed at its entry): the kernel frames after the copied stack's
"$P" record --format=ptbpf -k --kernel-stack -e exit_group -- "$SC" /nonexistent/ptbpf-stacks >"$T/egk.out" 2>&1 ||
	fail "record -k --kernel-stack -e exit_group"
sed -n '/exit_group(/,/^[^ ]/p' "$T/egk.out" | grep '^ > ' >"$T/egk.frames"
head -1 "$T/egk.frames" | grep -q '^ > /usr/lib/x86_64-linux-gnu/libc\.so\.6(' &&
	grep -q 'kallsyms\](do_syscall_64+' "$T/egk.frames" ||
	fail "exit_group --kernel-stack: $(cat "$T/egk.out")"
"$P" show --format=ptbpf -k --json "$T/kfp.log" | python3 "$CHECK" kernel_stack_json || fail "--kernel-stack --json"
"$P" convert "$T/kfp.log" --to chrome -o "$T/kfp.chrome.json" || fail "convert --kernel-stack"
python3 "$SRC/tests/cli/chrome_stack.py" "$T/kfp.chrome.json" '"/nonexistent/ptbpf-stacks"' \
	>"$T/kfp.chain" || fail "--kernel-stack: Chrome frames"
python3 "$CHECK" chrome_kernel_frames "$T/kfp.chain" || fail "--kernel-stack: Chrome frames in order"

# a loop of identical calls: one stored stack, every call printed in full
"$P" record --format=ptbpf -k --kernel-stack --call-graph=fp -e openat -o "$T/loop.log" -- \
	"$SC" /nonexistent/ptbpf-stacks 5 raw >/dev/null 2>&1 || fail "record of the loop"
"$P" show --format=ptbpf -k "$T/loop.log" >"$T/loop.show" || fail "show -k of the loop"
[ "$(grep -c '"/nonexistent/ptbpf-stacks' "$T/loop.show")" = 5 ] || fail "loop: not 5 calls"
frames "$T/loop.show" '"/nonexistent/ptbpf-stacks' | awk '/^--/ { n++; next } { c[n]++ }
	END { for (i = 1; i <= 5; i++) if (c[i] != c[1] || c[i] < 7) exit 1 }' ||
	fail "loop: not every call with all its frames: $(cat "$T/loop.show")"

# --stack-depth: at most that many frames of each stack
"$P" record --format=ptbpf -k --stack-depth=2 -e openat -o "$T/d2.log" -- "$SC" /nonexistent/ptbpf-stacks \
	>/dev/null 2>&1 || fail "record --stack-depth=2"
"$P" show --format=ptbpf -k "$T/d2.log" | frames /dev/stdin '"/nonexistent/ptbpf-stacks' >"$T/d2.got"
[ "$(grep -vc '^--' "$T/d2.got")" = 2 ] || fail "--stack-depth=2: $(cat "$T/d2.got")"
"$P" record --format=ptbpf -k --kernel-stack --call-graph=fp --stack-depth=3 -e openat -o "$T/d3.log" -- \
	"$SC" /nonexistent/ptbpf-stacks 1 raw >/dev/null 2>&1 || fail "record --stack-depth=3 fp"
"$P" show --format=ptbpf -k "$T/d3.log" | frames /dev/stdin '"/nonexistent/ptbpf-stacks' >"$T/d3.got"
[ "$(grep -vc '^--' "$T/d3.got")" = 6 ] && [ "$(grep -c kallsyms "$T/d3.got")" = 3 ] ||
	fail "--stack-depth=3 with kernel frames: $(cat "$T/d3.got")"
"$P" record --format=ptbpf -k --stack-depth=128 -- true >/dev/null 2>"$T/d.err"
[ $? = 2 ] && grep -q 'stack-depth' "$T/d.err" || fail "--stack-depth=128: not refused"

# deleted binary, its debug file by build-id in --debug-dir: named
command -v objcopy >/dev/null || fail "no objcopy (binutils)"
bid=$(python3 "$CHECK" build_id "$SC")
[ -n "$bid" ] || fail "no build-id in $SC"
dbg=$T/debug/.build-id/$(echo "$bid" | cut -c1-2)
mkdir -p "$dbg"
objcopy --only-keep-debug "$SC" "$dbg/$(echo "$bid" | cut -c3-).debug" || fail "objcopy"
for cg in dwarf fp; do
	cp "$SC" "$T/bin/sc"
	"$P" record --format=ptbpf -k --call-graph=$cg -e openat -o "$T/bid$cg.log" -- "$T/bin/sc" \
		/nonexistent/ptbpf-stacks 1 raw >/dev/null 2>&1 || fail "record -k of the copy ($cg)"
	rm "$T/bin/sc"
	"$P" show --format=ptbpf -k --debug-dir="$T/debug" "$T/bid$cg.log" | frames /dev/stdin \
		'"/nonexistent/ptbpf-stacks' "$T/bin/sc" >"$T/bid$cg.got"
	for f in inner middle outer main; do
		grep -q "^$T/bin/sc($f+0x" "$T/bid$cg.got" ||
			fail "build-id ($cg): no frame of $f: $(cat "$T/bid$cg.got")"
	done
	# the same offsets as the file's own names gave
	sed -n 2,5p "$T/bid$cg.got" >"$T/bid$cg.4"
	frames "$T/$( [ $cg = fp ] && echo fp || echo dw).show" '"/nonexistent/ptbpf-stacks' "$SC" |
		sed -n 2,5p | sed "s|^$SC|$T/bin/sc|" | diff -u - "$T/bid$cg.4" ||
		fail "build-id ($cg): other frames than the file's"
	# without the debug directory: raw
	"$P" show --format=ptbpf -k "$T/bid$cg.log" | grep -q "$T/bin/sc(inner" && fail "build-id ($cg): named without it"
done
# another file at the build-id's path: not taken
rm -r "$T/debug"
mkdir -p "$dbg"
cp /usr/bin/true "$dbg/$(echo "$bid" | cut -c3-)"
cp /usr/bin/true "$dbg/$(echo "$bid" | cut -c3-).debug"
"$P" show --format=ptbpf -k --debug-dir="$T/debug" "$T/bidfp.log" >"$T/bidw.show" || fail "show -k, wrong file"
grep -q "$T/bin/sc(" "$T/bidw.show" && fail "build-id: a file of another build-id taken"
echo "PASS"
