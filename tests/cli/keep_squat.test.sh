#!/bin/sh
# Any user can bind the kept-programs helper's abstract socket name once the
# helper is gone, and fill its queue: root's next record must still start
# (it loads its programs anew), never block in connect().
# usage: sh cli_keep_squat.test.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/common.sh"
[ -x "$B/ptbpf-keep" ] || fail "no $B/ptbpf-keep"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
trap 'kill $sq 2>/dev/null; pkill -f "^ptbpf-keep $key" 2>/dev/null; rm -rf "$T"' EXIT
sq=
key=none

"$P" record --keep 5 -o "$T/a.log" -- /bin/true 2>"$T/err" || { cat "$T/err"; fail "record"; }
sleep "$(tscale 0.3)"
name=$(sed -n 's|.* @\(ptbpf-keep/0/[0-9a-f]*\)$|\1|p' /proc/net/unix | head -1)
[ -n "$name" ] || fail "no ptbpf-keep socket after a record --keep"
key=${name##*/}
pkill -f "^ptbpf-keep $key" || fail "no ptbpf-keep $key process"
sleep 0.3

# nobody takes the name and fills its queue
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all /usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind("\0" + sys.argv[1])
s.listen(0)
held = []
try:
    while True:
        c = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        c.setblocking(False)
        c.connect("\0" + sys.argv[1])
        held.append(c)
except OSError:
    pass
print("squatting, queue full after", len(held), flush=True)
time.sleep(60)
' "$name" >"$T/sq" 2>&1 &
sq=$!
i=0
while ! grep -q "squatting" "$T/sq" && [ $i -lt 100 ] && kill -0 $sq 2>/dev/null; do
	sleep "$(tscale 0.05)"
	i=$((i + 1))
done
grep -q "squatting" "$T/sq" || { cat "$T/sq"; fail "the squatter did not bind $name"; }

st=0
timeout 20 "$P" record --keep 5 -o "$T/b.log" -- /bin/true 2>"$T/err" || st=$?
[ $st = 124 ] && fail "record blocked on the squatted socket"
[ $st = 0 ] || { cat "$T/err"; fail "record with the name squatted: exit $st"; }
"$P" show "$T/b.log" | grep -q "execve(\"/bin/true\"" || fail "record with the name squatted recorded nothing"
echo "ok: a squatted, full helper socket does not block a record"
