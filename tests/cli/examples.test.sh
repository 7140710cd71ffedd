#!/bin/sh
# The programs of examples/, as built with the project: user_events traced by
# ptbpf record, controller tracing it through the API, log_analyzer reading
# ptbpf record -o's log; and examples/bt2_summary.py reading that log
# converted to CTF with babeltrace2's Python bindings (Debian's python3-bt2).
. "$(dirname "$0")/common.sh"
SRC=${2:?source dir}
EX=$B/examples
[ -x "$EX/user_events" ] || fail "no $EX/user_events (PTBPF_EXAMPLES=OFF?)"
# Debian's python3-bt2 is for Debian's python3 (not a python3 earlier in PATH)
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
"$PY" -c 'import bt2' 2>/dev/null || skip "python3-bt2 not installed (tools/install-deps.sh)"

# traced live: the user events print beside the syscalls
"$P" record -e access,user:app.request,user:app.done -- "$EX/user_events" 2 2>"$T/live" >/dev/null ||
	fail "record -- user_events"
grep -q '^--- user:app.request "request 1" ---$' "$T/live" || { cat "$T/live"; fail "no user:app.request"; }
grep -q '^access("/", R_OK) *= 0$' "$T/live" || { cat "$T/live"; fail "no access line"; }

# the controller: every event of the command, its own included
"$EX/controller" "$EX/user_events" 2 >"$T/ctl" || { cat "$T/ctl"; fail "controller"; }
[ "$(grep -c ' app.request ' "$T/ctl")" = 2 ] || { cat "$T/ctl"; fail "controller: not 2 app.request"; }
grep -q ' sys_enter_access ' "$T/ctl" || { cat "$T/ctl"; fail "controller: no sys_enter_access"; }

# the log analyzer on a log
"$P" record -o "$T/t.log" -- "$EX/user_events" 5 >/dev/null 2>&1 || fail "record -o"
"$EX/log_analyzer" "$T/t.log" >"$T/an" || fail "log_analyzer"
grep -q '^ *5  app.request$' "$T/an" || { cat "$T/an"; fail "log_analyzer: not 5 app.request"; }
grep -q '^ *5  app.done$' "$T/an" || { cat "$T/an"; fail "log_analyzer: not 5 app.done"; }

# Python: the log converted to CTF, read with bt2
"$P" convert "$T/t.log" --to ctf -o "$T/ctf" || fail "convert --to ctf"
"$PY" "$SRC/examples/bt2_summary.py" "$T/ctf" >"$T/py" 2>&1 || { cat "$T/py"; fail "bt2_summary.py"; }
grep -q '^ *5  app.request$' "$T/py" || { cat "$T/py"; fail "bt2_summary.py: not 5 app.request"; }
grep -q "^app.request pid=[0-9]* b'request 4'$" "$T/py" || { cat "$T/py"; fail "bt2_summary.py: payloads"; }
[ "$(grep -c '^app.done pid=' "$T/py")" = 5 ] || { cat "$T/py"; fail "bt2_summary.py: not 5 app.done"; }
echo "ok: examples (user events, controller, log analyzer, bt2)"
