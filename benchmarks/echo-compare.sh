#!/usr/bin/env bash
# Echo round trips through courtside-echo and two peer servers, measured in one run with courtside-load, on
# loopback. Each server is started fresh for each client count, loaded, and stopped; a table follows.
#
#   benchmarks/echo-compare.sh
#
# Environment (optional):
#   SERVERS      servers in order (default "courtside courtside-1 websockets socketify"): courtside-echo with
#                its default loop per core, courtside-echo on one loop (the peers are single-threaded),
#                Python websockets, uWebSockets through socketify
#   CLIENTS      client counts (default "100 1000")
#   DURATION     seconds of sending per measurement (default 10)
#   SIZE         payload bytes (default 64)
#   CONCURRENCY  messages in flight per client (default 1)
#   LOAD_THREADS courtside-load threads (default 1)
#
# Needs scripts/install-deps.d/30-python-peers.sh for the peers. A server that cannot start gets a row saying so
# (the run goes on); the exit status is non-zero if any measurement failed. Raw JSON: .build/bench/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

servers=${SERVERS:-courtside courtside-1 websockets socketify}
clients_list=${CLIENTS:-100 1000}
duration=${DURATION:-10}
size=${SIZE:-64}
concurrency=${CONCURRENCY:-1}
load_threads=${LOAD_THREADS:-1}
out=.build/bench
fresh_dir "$out"

bin=$(release_bin courtside-load)
echo_ok=1
release_bin courtside-echo >/dev/null || echo_ok=0

server_command() {
    local server=$1 port=$2
    case "$server" in
        courtside) command=("$bin/courtside-echo" --host 127.0.0.1 --port "$port") ;;
        courtside-1) command=("$bin/courtside-echo" --host 127.0.0.1 --port "$port" --threads 1) ;;
        websockets) command=("$peers_python" benchmarks/peers/websockets_echo.py --host 127.0.0.1 --port "$port") ;;
        socketify) command=("$peers_python" benchmarks/peers/socketify_echo.py --host 127.0.0.1 --port "$port") ;;
        *)
            echo "unknown server $server" >&2
            return 1
            ;;
    esac
}

load_before=$(load_average)
rows=()
status=0
for clients in $clients_list; do
    for server in $servers; do
        tag=$server-$clients
        if [[ $server == courtside* ]] && [ "$echo_ok" = 0 ]; then
            rows+=("| $server | $clients | courtside-echo did not build | | | | | | | |")
            status=1
            continue
        fi
        port=$(free_loopback_port)
        server_command "$server" "$port"
        start_server "$out/$tag.server.log" "${command[@]}"
        if ! wait_for_port "$port" "$SERVER_PID" 20; then
            rows+=("| $server | $clients | server did not start (see $out/$tag.server.log) | | | | | | | |")
            stop_servers
            status=1
            continue
        fi
        echo "--- $server, $clients clients, ${duration}s, $size-byte messages"
        rc=0
        # courtside-load bounds itself (duration, drain and connect timeouts); timeout is the belt to those braces.
        # In the background and waited for, so a TERM or INT runs the trap (stopping the server) at once.
        timeout -k 5 $((duration + 90)) .build/release/courtside-load --url "ws://127.0.0.1:$port/" \
            --clients "$clients" --duration "$duration" --size "$size" --concurrency "$concurrency" \
            --threads "$load_threads" --json >"$out/$tag.json" &
        wait $! || rc=$?
        # The server's CPU time over the whole measurement (connects included): on a shared machine this is
        # steadier than throughput, so the table gives round trips per server CPU-second too.
        ticks=$(cpu_ticks "$SERVER_PID" 2>/dev/null || echo 0)
        stop_servers
        row=$(python3 - "$out/$tag.json" "$server" "$clients" "$rc" "$ticks" "$ticks_per_second" <<'PY'
import json, sys
path, server, clients, rc = sys.argv[1:5]
cpu = int(sys.argv[5]) / int(sys.argv[6])
try:
    r = json.load(open(path))
except Exception:
    print(f"| {server} | {clients} | no result (exit {rc}) | | | | | | | |")
    raise SystemExit
lat = r["latencyMicroseconds"]
failed = f'{r["failed"]} failed' if r["failed"] else "ok"
per_cpu = f'{r["roundTrips"] / cpu:,.0f}' if cpu > 0 else "-"
print(f'| {server} | {clients} | {r["messagesPerSecond"]:,.0f} | {lat["p50"] / 1000:.2f} | {lat["p99"] / 1000:.2f} '
      f'| {lat["max"] / 1000:.2f} | {cpu:.1f} | {per_cpu} '
      f'| {r["connected"]}/{r["clients"]} connected, {r["roundTrips"]:,} round trips, {failed} |')
PY
        )
        rows+=("$row")
        [ "$rc" -eq 0 ] || status=1
    done
done

echo
echo "Echo over ws:// on loopback: $size-byte binary messages, $concurrency in flight per client, ${duration}s per row,"
echo "courtside-load on $load_threads thread(s), $(nproc) cores shared with the load generator ($(date -u +%Y-%m-%dT%H:%MZ),"
echo "load average before the run: $load_before; after: $(load_average))."
echo
echo "| server | clients | msg/s | p50 ms | p99 ms | max ms | server CPU s | round trips per server CPU-s | notes |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
exit "$status"
