#!/usr/bin/env bash
# Scorer-to-spectator latency and server memory (ISSUE5 "Done when"; figures in docs/benchmarks.md, "Broadcaster
# latency"): a release `courtside serve` on a loopback port with a fresh data directory, then
# benchmarks/broadcaster_latency.py twice, each against a fresh server:
#   one game with 10,000 spectators, its scorer sending 2 moves a second;
#   1,000 games with 10 spectators each, every scorer sending a move every 2 seconds (500 a second in all).
# Spectators come from 127.0.0.1 ... 127.0.0.16 (the server's default cap is 1,024 connections per address) and
# do not offer permessage-deflate. Environment: DURATION (seconds of commands, default 20), SCENARIOS (default
# "one-game many-games"), PROCESSES (spectator worker processes, default 4), BUILD (release or debug).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

python=$(e2e_python)
courtside=$(build_courtside "${BUILD:-release}")
duration=${DURATION:-20}
processes=${PROCESSES:-4}
work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-latency.XXXXXX")
trap 'stop_servers; rm -rf "$work"' EXIT
mkdir -p "$work/public" .build/broadcaster-latency
token="latency-admin-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
# Each spectator is a descriptor here and one in the server.
ulimit -n "$(ulimit -Hn)"

scenario() {
    local name=$1 games=$2 per_game=$3 rate=$4 port out
    port=$(free_loopback_port)
    rm -rf "$work/data"
    start_server "$work/$name.log" "$courtside" serve --host 127.0.0.1 --port "$port" --data "$work/data" \
        --public "$work/public" --admin-token "$token"
    trap 'stop_servers; rm -rf "$work"' EXIT
    wait_for_port "$port" "$SERVER_PID" 60
    out=.build/broadcaster-latency/$name.json
    echo "--- $name: $games game(s) x $per_game spectators, $rate moves/s per game, ${duration}s ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
    timeout -k 10 900 "$python" benchmarks/broadcaster_latency.py --port "$port" --admin-token "$token" \
        --server-pid "$SERVER_PID" --games "$games" --spectators-per-game "$per_game" --rate-per-game "$rate" \
        --duration "$duration" --processes "$processes" --json | tee "$out"
    stop_servers
}

for name in ${SCENARIOS:-one-game many-games}; do
    case "$name" in
        one-game) scenario one-game 1 10000 2 ;;
        many-games) scenario many-games 1000 10 0.5 ;;
        *) echo "unknown scenario $name (one-game, many-games)" >&2; exit 2 ;;
    esac
done
