#!/bin/sh
# --metrics-push and --metrics-listen against the real Pushgateway and
# Prometheus (Debian's prometheus-pushgateway and prometheus), started here
# on free 127.0.0.1 ports with their own config and data under the test's
# temp dir, and killed at exit: the counts pushed equal the -c table of the
# same run (calls and errors per syscall) and each histogram's _count its
# calls; Prometheus scrapes a record (1 s interval, honor_labels), its query
# API returns the series and histogram_quantile answers; promtool check
# metrics passes on what ptbpf serves, with a hostile process name too;
# the faults: a gateway down or refusing (a warning naming the URL and the
# status, the command's exit status), a port in use or an address that
# cannot be bound (an error, the command never runs); scrapes during a
# syscall flood each consistent, the counters never going backwards.
# usage: sh metrics.test.sh BUILD_DIR
. "$(dirname "$0")/common.sh"
CHECK=$(dirname "$0")/metrics_check.py
for c in prometheus prometheus-pushgateway promtool curl; do
	command -v $c >/dev/null || skip "$c not installed (tools/install-deps.sh)"
done

PIDS=
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# wait_http URL: up to 20 s for it to answer
wait_http() {
	i=0
	until curl -sf -o /dev/null "$1"; do
		i=$((i + 1))
		[ $i -lt 200 ] || { cat "$T"/*.err; fail "$1 does not answer"; }
		sleep 0.1
	done
}

# the Pushgateway, no persistence
GW=$(free_port)
prometheus-pushgateway --web.listen-address=127.0.0.1:$GW --persistence.file= \
	>"$T/gw.log" 2>&1 &
PIDS="$PIDS $!"
wait_http "http://127.0.0.1:$GW/-/ready"

echo "metrics data" >"$T/data.txt"

# 1. record -c --metrics-push: the gateway holds the -c table's counts
"$P" record -c -f --metrics-push=http://127.0.0.1:$GW --metrics-label service=test \
	-- "$PROGS/summary_calls" "$T/data.txt" >/dev/null 2>"$T/push.err" ||
	{ cat "$T/push.err"; fail "record -c --metrics-push"; }
grep -q 'metrics-push' "$T/push.err" && { cat "$T/push.err"; fail "the push failed"; }
curl -sf "http://127.0.0.1:$GW/metrics" >"$T/gw.txt" || fail "reading the gateway"
python3 "$CHECK" push_agrees "$T/push.err" "$T/gw.txt" || exit 1

# 2. a gateway that refuses (404 under another path) and one that is down:
# a warning naming the URL and the status, the command's exit status kept
DOWN=$(free_port)
"$P" record -c --metrics-push=http://127.0.0.1:$GW/nothing-here -- sh -c 'exit 3' \
	>/dev/null 2>"$T/refused.err"
rc=$?
[ $rc = 3 ] || { cat "$T/refused.err"; fail "refused push: exit status $rc, not 3"; }
grep -q "warning: --metrics-push: http://127.0.0.1:$GW/nothing-here/metrics/job/ptbpf/instance/.*HTTP status 404" "$T/refused.err" ||
	{ cat "$T/refused.err"; fail "refused push: no warning with the URL and the status"; }
"$P" record -c --metrics-push=http://127.0.0.1:$DOWN --metrics-interval 0.2 -- sh -c 'sleep 0.5; exit 4' \
	>/dev/null 2>"$T/down.err"
rc=$?
[ $rc = 4 ] || { cat "$T/down.err"; fail "gateway down: exit status $rc, not 4"; }
grep -q "warning: --metrics-push: http://127.0.0.1:$DOWN/metrics/job/ptbpf/instance/" "$T/down.err" ||
	{ cat "$T/down.err"; fail "gateway down: no warning with the URL"; }
# said once while it stays the same, not at every interval
[ "$(grep -c 'metrics-push' "$T/down.err")" = 1 ] || { cat "$T/down.err"; fail "gateway down: warned more than once"; }
grep -q '% time' "$T/down.err" || fail "gateway down: no -c table"

# 3. a port in use, an address that cannot be bound: said before the
# command runs, which never does
for addr in 127.0.0.1:$GW 192.0.2.1:9 not-an-address; do
	rm -f "$T/ran"
	"$P" record -c --metrics-listen=$addr -- touch "$T/ran" >/dev/null 2>"$T/bind.err" &&
		fail "--metrics-listen=$addr: succeeded"
	grep -q -- "--metrics-listen" "$T/bind.err" || { cat "$T/bind.err"; fail "--metrics-listen=$addr: not said"; }
	[ -e "$T/ran" ] && fail "--metrics-listen=$addr: the command ran"
done

# 4. Prometheus scrapes a record running a few seconds
MP=$(free_port)
PP=$(free_port)
cat >"$T/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: ptbpf
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$MP']
EOC
promtool check config "$T/prometheus.yml" >/dev/null || fail "promtool check config"
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/prom" \
	--web.listen-address=127.0.0.1:$PP >"$T/prom.log" 2>&1 &
PIDS="$PIDS $!"
wait_http "http://127.0.0.1:$PP/-/ready"
"$P" record -c -f --metrics-listen=127.0.0.1:$MP --metrics-label host=ci -- \
	sh -c 'i=0; while [ $i -lt 80 ]; do cat /etc/hostname /nonexistent >/dev/null 2>&1; i=$((i + 1)); sleep 0.1; done' \
	>/dev/null 2>"$T/listen.err" &
REC=$!
PIDS="$PIDS $REC"
wait_http "http://127.0.0.1:$MP/metrics"
curl -sf "http://127.0.0.1:$MP/metrics" >"$T/served.txt" || fail "GET /metrics"
promtool check metrics <"$T/served.txt" || fail "promtool check metrics"
curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$MP/other" | grep -q 404 || fail "GET /other: not 404"
q() { curl -sf "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$1"; }
i=0
until q 'ptbpf_syscalls_total{syscall="openat",host="ci"}' >"$T/q1.json" &&
	python3 "$CHECK" has_value "$T/q1.json" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat "$T/q1.json" "$T/prom.log"; fail "Prometheus has no ptbpf_syscalls_total"; }
	sleep 0.1
done
q 'histogram_quantile(0.9, sum by (le) (ptbpf_syscall_duration_seconds_bucket{syscall="openat"}))' >"$T/q2.json" ||
	fail "query histogram_quantile"
python3 "$CHECK" has_value "$T/q2.json" || { cat "$T/q2.json"; fail "histogram_quantile: no answer"; }
q 'ptbpf_syscall_errors_total{syscall="openat",errno="ENOENT"}' >"$T/q3.json" || fail "query errors"
python3 "$CHECK" has_value "$T/q3.json" || { cat "$T/q3.json"; fail "no ENOENT errors of openat"; }
# the counters never went backwards between scrapes
q 'resets(ptbpf_syscalls_total[1m])' >"$T/q4.json" || fail "query resets"
python3 "$CHECK" all_zero "$T/q4.json" || { cat "$T/q4.json"; fail "a counter went backwards"; }
wait $REC || { cat "$T/listen.err"; fail "record --metrics-listen"; }

# 5. a hostile process name (quotes, a backslash, a newline, a byte that is
# not UTF-8) under --summary=process (-Cprocess): the exposition stays valid
H=$(printf 'a"b\\c\nd\377')
cp "$(command -v sleep)" "$T/$H"
MP2=$(free_port)
"$P" record --summary=process --metrics-listen=127.0.0.1:$MP2 -- "$T/$H" 2 >/dev/null 2>"$T/hostile.err" &
REC=$!
PIDS="$PIDS $REC"
wait_http "http://127.0.0.1:$MP2/metrics"
sleep 0.5
curl -sf "http://127.0.0.1:$MP2/metrics" >"$T/hostile.txt" || fail "GET /metrics (hostile)"
promtool check metrics <"$T/hostile.txt" || { cat "$T/hostile.txt"; fail "promtool check metrics (hostile name)"; }
grep -qF 'comm="a\"b\\c\nd\\xFF"' "$T/hostile.txt" || { grep comm= "$T/hostile.txt" | head -3; fail "the name is not escaped as it should"; }
wait $REC || { cat "$T/hostile.err"; fail "record --summary=process (hostile)"; }
# 6. scrapes during a syscall flood (2 threads): each one consistent, none
# going backwards from the one before
MP3=$(free_port)
"$P" record -c -f --metrics-listen=127.0.0.1:$MP3 -- python3 -c '
import os, threading, time
def flood():
    end = time.time() + 2.5
    while time.time() < end:
        os.getppid(); os.stat("/")
ts = [threading.Thread(target=flood) for _ in range(2)]
[t.start() for t in ts]
[t.join() for t in ts]' >/dev/null 2>"$T/flood.err" &
REC=$!
PIDS="$PIDS $REC"
wait_http "http://127.0.0.1:$MP3/metrics"
scrapes=
for n in 1 2 3 4 5 6; do
	curl -sf "http://127.0.0.1:$MP3/metrics" >"$T/flood$n.txt" || fail "GET /metrics (flood)"
	scrapes="$scrapes $T/flood$n.txt"
	sleep 0.2
done
# shellcheck disable=SC2086
python3 "$CHECK" consistent $scrapes || exit 1
wait $REC || { cat "$T/flood.err"; fail "record (flood)"; }
echo "PASS"
