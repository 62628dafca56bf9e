#!/usr/bin/env bash
# The state service's load lines (issue 32), run by `Scripts/load-test.sh --state`:
#
# 1. POST /notifications of distinct, genuine-shaped DID_RENEW notifications (signed by the
#    synthetic PKI of Fixtures/jws, Scripts/fixtures/notifications.py) to one receipt-server on a
#    throwaway PostgreSQL with fsync on: stored per second (rows / seconds), and 0 lost (every
#    answer "stored" is a row; rows beyond them only for requests in flight when wrk stopped).
# 2. POST /verifyReceipt of a receipt whose subscription has stored state (a DID_RENEW merged into
#    latest_receipt_info and pending_renewal_info) against the same request on a server with none:
#    the ratio of requests/s, alternating rounds, medians.
#
#   NOTIFICATIONS=20000 DURATION=10 CONNECTIONS=64 ROUNDS=3 Scripts/load-test-state.sh
#
# Floors: ≥ 1,000 stored/s and 0 lost; stateful ≥ 80 % of stateless. Exit status 1 when one fails.
# Traffic goes to 127.0.0.1 only. Numbers taken while other work runs on the machine are lower bounds.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

notifications="${NOTIFICATIONS:-20000}"
duration="${DURATION:-10}"
connections="${CONNECTIONS:-64}"
threads="${THREADS:-2}"
rounds="${ROUNDS:-3}"

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null; }

echo "load-test-state: building receipt-server (release)"
(cd Server && swift build -c release --product receipt-server >/dev/null)
server="$root/Server/.build/release/receipt-server"

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    bash Scripts/postgres.sh destroy "$work/pg" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

url="$(bash Scripts/postgres.sh start "$work/pg")"
psql_count() { psql -qtA "$1" -c "SELECT count(*) FROM receipt_tokens WHERE kind = 'notification'"; }

# Starts a replica on a free port with these extra arguments; sets $port.
start_replica() {
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    "$server" --host 127.0.0.1 --port "$port" --log-level warning --bundle-id com.receiptkit.test \
        --root Fixtures/generated/pki/root.pem --root Fixtures/jws/pki/root.pem "$@" > "$work/replica-$port.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "load-test-state: a replica did not start" >&2; cat "$work/replica-$port.log" >&2; exit 1
}

failed=0

echo "== notifications: generating $notifications distinct signed DID_RENEW notifications"
python3 Scripts/fixtures/notifications.py load "$notifications" "$work/notifications.txt"
start_replica --database "$url"
notify_port=$port
cat > "$work/notify.lua" <<LUA
local threads = {}
local counter = 0
function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
    table.insert(threads, thread)
end
function init(args)
    bodies = {}
    local index = 0
    for line in io.lines("$work/notifications.txt") do
        if index % $threads == id then table.insert(bodies, line) end
        index = index + 1
    end
    next_body = 1
    stored = 0
    again = 0
    other = 0
    exhausted = 0
end
function request()
    if next_body > #bodies then
        exhausted = 1
        next_body = 1
    end
    local body = bodies[next_body]
    next_body = next_body + 1
    return wrk.format("POST", "/notifications", {["Content-Type"] = "application/json"}, body)
end
function response(status, headers, body)
    if status == 200 and string.find(body, '"status":"stored"', 1, true) then stored = stored + 1
    elseif status == 200 then again = again + 1
    else other = other + 1 end
end
function done(summary, latency, requests)
    local s, a, o, e = 0, 0, 0, 0
    for _, thread in ipairs(threads) do
        s = s + thread:get("stored"); a = a + thread:get("again"); o = o + thread:get("other"); e = e + thread:get("exhausted")
    end
    io.write(string.format("WRK stored=%d already=%d other=%d exhausted=%d p50_ms=%.2f p99_ms=%.2f seconds=%.2f\n",
        s, a, o, e, latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.duration / 1e6))
end
LUA
echo "== notifications: ${duration}s, $connections connections, PostgreSQL fsync=$(psql -qtA "$url" -c 'show fsync')"
wrk -t"$threads" -c"$connections" -d"${duration}s" --timeout 10s -s "$work/notify.lua" "http://127.0.0.1:$notify_port/notifications" | tee "$work/notify.txt"
line="$(grep '^WRK' "$work/notify.txt")"
stored=$(sed -n 's/.*stored=\([0-9]*\).*/\1/p' <<<"$line")
other=$(sed -n 's/.*other=\([0-9]*\).*/\1/p' <<<"$line")
seconds=$(sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' <<<"$line")
rows=$(psql_count "$url")
rate=$(awk -v r="$rows" -v s="$seconds" 'BEGIN { printf "%.0f", r / s }')
echo "LOADTEST notifications stored_per_s=$rate rows=$rows answered_stored=$stored non200=$other seconds=$seconds $(grep -o 'p50_ms=[0-9.]* p99_ms=[0-9.]*' <<<"$line")"
verdict=PASS
[[ "$rate" -ge 1000 ]] || verdict=FAIL
echo "$verdict POST /notifications with PostgreSQL (fsync on) ≥ 1,000 stored/s: $rate"
[[ "$verdict" == PASS ]] || failed=1
# wrk stops at the deadline with up to one request in flight per connection: those may be
# committed with their answer never counted, so rows may exceed the answers by at most that many;
# a row fewer than the answers would be a notification answered 200 and lost.
verdict=PASS
[[ "$rows" -ge "$stored" && $((rows - stored)) -le "$connections" ]] || verdict=FAIL
echo "$verdict 0 lost: rows $rows ≥ answers \"stored\" $stored (in flight when wrk stopped: $((rows - stored)) ≤ $connections)"
[[ "$verdict" == PASS ]] || failed=1

echo "== verifyReceipt: stored state against none, $rounds rounds of ${duration}s each"
receipt="$root/Fixtures/generated/receipts/valid-sha256-attrs.receipt"
printf '{"receipt-data":"%s"}' "$(base64 -w0 "$receipt")" > "$work/receipt.json"
bash Scripts/postgres.sh createdb "$work/pg" stateless >/dev/null
start_replica --database "${url%/*}/stateless"
stateless_port=$port
stateful_port=$notify_port
now=$(date +%s%3N)
python3 Scripts/fixtures/notifications.py renew --original 1000000000001 --transaction 1000000000002 \
    --purchase 1719828000000 --expires $((now + 30 * 86400000)) > "$work/renew.json"
curl -sf -X POST --data-binary @"$work/renew.json" "http://127.0.0.1:$stateful_port/notifications" >/dev/null
curl -sf -X POST --data-binary @"$work/receipt.json" "http://127.0.0.1:$stateful_port/verifyReceipt" | grep -q '"pending_renewal_info"' \
    || { echo "load-test-state: the stateful server's answer has no pending_renewal_info" >&2; exit 1; }
curl -sf -X POST --data-binary @"$work/receipt.json" "http://127.0.0.1:$stateless_port/verifyReceipt" | grep -q '"pending_renewal_info"' \
    && { echo "load-test-state: the stateless server's answer has pending_renewal_info" >&2; exit 1; }
cat > "$work/verify.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = io.open("$work/receipt.json", "rb")
wrk.body = file:read("*a")
file:close()
function done(summary, latency, requests)
    io.write(string.format("WRK rps=%.0f p99_ms=%.2f errors=%d\n", summary.requests / (summary.duration / 1e6),
        latency:percentile(99) / 1000, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.timeout))
end
LUA
for port in "$stateless_port" "$stateful_port"; do
    wrk -t1 -c4 -d2s -s "$work/verify.lua" "http://127.0.0.1:$port/verifyReceipt" >/dev/null
done
for round in $(seq 1 "$rounds"); do
    for name in stateless stateful; do
        port=$stateless_port; [[ "$name" == stateful ]] && port=$stateful_port
        wrk -t"$threads" -c"$connections" -d"${duration}s" -s "$work/verify.lua" "http://127.0.0.1:$port/verifyReceipt" \
            | grep '^WRK' | tee -a "$work/verify-$name.txt"
    done
done
median() { sed -n "s/.*$2=\([0-9.]*\).*/\1/p" "$work/verify-$1.txt" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
without=$(median stateless rps); with=$(median stateful rps)
ratio=$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.1f", 100 * a / b }')
echo "LOADTEST verifyReceipt stateless_rps=$without stateful_rps=$with ratio_pct=$ratio stateless_p99_ms=$(median stateless p99_ms) stateful_p99_ms=$(median stateful p99_ms) errors=$(median stateful errors)"
verdict=PASS
awk -v r="$ratio" 'BEGIN { exit !(r >= 80) }' || verdict=FAIL
echo "$verdict POST /verifyReceipt with stored state ≥ 80 % of the rate without: $ratio %"
[[ "$verdict" == PASS ]] || failed=1
exit "$failed"
