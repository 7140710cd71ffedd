#!/bin/sh
# User events: name + data (hex and printable) live, in show --json, in CTF; -e user:NAME.
# usage: sh cli_uev.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/uev_check.py
[ -x "$PROGS/cli_uev" ] || fail "no $PROGS/cli_uev"
cleanup() {
	[ -n "${U:-}" ] && kill "$U" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# The process registers its event, then waits 3 s: attach with -p meanwhile.
"$PROGS/cli_uev" 3 3000 & U=$!
sleep 0.3
timeout 20 "$P" record --format=ptbpf -e user -p $U --output-text "$T/live.txt" 2>"$T/live.err" ||
	{ cat "$T/live.err"; fail "record -e user -p"; }
U=
for i in 0 1 2; do
	grep -q "^[0-9.]* [0-9]*/[0-9]* user cli_hello len=7 data=68656c6c6f013$i \"hello.$i\"$" "$T/live.txt" ||
		{ cat "$T/live.txt"; fail "user event $i missing"; }
done
grep -q "user posix_trace_unnamed_userevent len=0" "$T/live.txt" || fail "unnamed event missing"

"$PROGS/cli_uev" 2 3000 & U=$!
sleep 0.3
timeout 20 "$P" record --format=ptbpf -e user:cli_hello -o "$T/u.log" -p $U 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "record -e user:cli_hello -o"; }
U=
"$P" show --format=ptbpf --json "$T/u.log" >"$T/u.jsonl" || fail "show --json"
python3 "$CHECK" user_events_json "$T/u.jsonl" || exit 1
# A command started by ptbpf: its user events once the library attached to
# it after its exec (it waits 0.5 s), with -e user alone (proc_exec is kept
# for the library but not printed)
"$P" record --format=ptbpf -e user --output-text "$T/cmd.txt" -- "$PROGS/cli_uev" 2 500 2>"$T/cmd.err" ||
	{ cat "$T/cmd.err"; fail "record -e user -- cli_uev"; }
[ "$(grep -c ' user cli_hello len=7 ' "$T/cmd.txt")" = 2 ] ||
	{ cat "$T/cmd.txt"; fail "user events of a started command missing"; }
grep -q proc_exec "$T/cmd.txt" && fail "proc_exec printed with -e user"

# A command that writes its events in its first milliseconds, before the
# tracer attached, and exits: kept (ptbpf raises the library's ptbpf:early
# semaphore in it), its environment left as it is
"$P" record --format=ptbpf -e user --output-text "$T/early.txt" -- "$PROGS/cli_uev" 3 0 2>"$T/early.err" ||
	{ cat "$T/early.err"; fail "record -- cli_uev 3 0"; }
[ "$(grep -c ' user cli_hello len=7 ' "$T/early.txt")" = 3 ] ||
	{ cat "$T/early.txt"; fail "the events of the command's first milliseconds lost"; }

# A child forked before the tracer attached to the program's user events
# (in its first milliseconds): with -f, its events are recorded under its
# own pid, as the parent's are; the same with --early-user-events.
for out in "-o $T/fork.log" "--output-text $T/fork.txt" "--early-user-events --output-text $T/fork.txt"; do
	# shellcheck disable=SC2086
	"$P" record --format=ptbpf -f -e user $out -- "$PROGS/fork_uev" 100 >/dev/null 2>"$T/fork.err" ||
		{ cat "$T/fork.err"; fail "record -f -- fork_uev"; }
	[ "$out" = "-o $T/fork.log" ] && { "$P" show --format=ptbpf "$T/fork.log" >"$T/fork.txt" || fail "show fork.log"; }
	python3 "$CHECK" fork_events "$T/fork.txt" || exit 1
done

# A program exec'd by the command (not the command itself) gets its early
# events kept with --early-user-events (PTBPF_UEV_PENDING=1, inherited)
"$P" record --format=ptbpf -f -e user --early-user-events --output-text "$T/sh.txt" -- \
	sh -c "\"$PROGS/cli_uev\" 3 0; true" 2>"$T/sh.err" || { cat "$T/sh.err"; fail "record -- sh -c cli_uev"; }
[ "$(grep -c ' user cli_hello len=7 ' "$T/sh.txt")" = 3 ] ||
	{ cat "$T/sh.txt"; fail "--early-user-events: the early events of an exec'd child lost"; }

if command -v babeltrace2 >/dev/null; then
	"$P" convert "$T/u.log" --to ctf -o "$T/ctf" || fail "convert --to ctf"
	babeltrace2 "$T/ctf" >"$T/bt.txt" || fail "babeltrace2"
	[ "$(grep -c ' cli_hello: .*len = 7, data = \[ \[0\] = 104,' "$T/bt.txt")" = 2 ] ||
		{ cat "$T/bt.txt"; fail "user events in CTF"; }
fi
echo PASS
