#!/usr/bin/env bash
# Tap-to-screen latency (figures in docs/benchmarks.md, "Tap to screen"): `courtside-load taptoscreen` plays
# GAMES games with SPECTATORS spectators each (plus BIG_GAMES with BIG_SPECTATORS), every game's scorer at a real
# pace (a play every 1-3 s, bursts of three within 300 ms), and reports per class the time from the scorer's send
# to its ack and to its patch on each spectator's socket (p50/p99/p99.9/max), beside the limit measured in the
# same run: the store's commit p99 alone plus a bare fan-out pass (courtside-echo, as many subscribers as the
# largest game). Modes, one after the other (MODES, default all three):
#   sqlite   one node, SQLite journal in --data on disk; spectators plain and permessage-deflate;
#   tls      one node serving TLS (a self-signed certificate made with openssl in a temporary folder):
#            spectators on wss:// straight to Courtside, plain and deflate;
#   cluster  three nodes through one Redis (AOF, appendfsync always): scorers on node a, spectators spread over
#            a, b and c; the limit's store is the Redis journal; skipped, saying so, when redis-server is missing.
# Everything on loopback, every process stopped at the end; each mode DURATION s of play plus the limit's runs.
# Environment: GAMES (20), SPECTATORS (20), BIG_GAMES (1), BIG_SPECTATORS (1000), DURATION (45), SPEED (1),
# DEFLATE_SHARE (0.25), LIMIT_SECONDS (10), MODES (sqlite,tls,cluster), BIN (binaries built elsewhere),
# PER_ADDRESS (each server's cap on connections from one address; the defaults, 1,024 per address over the load
# generator's 8 source addresses, refuse past 8,192 spectators: the target's scale needs PER_ADDRESS=20000).
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

bin=$(release_bin courtside courtside-load courtside-echo)
serve_work tap-to-screen
raise_open_files
games=${GAMES:-20}
spectators=${SPECTATORS:-20}
big_games=${BIG_GAMES:-1}
big_spectators=${BIG_SPECTATORS:-1000}
load_flags=(--admin-token "$token" --games "$games" --spectators "$spectators" --big-games "$big_games"
    --big-spectators "$big_spectators" --duration "${DURATION:-45}" --speed "${SPEED:-1}"
    --deflate-share "${DEFLATE_SHARE:-0.25}" --limit-seconds "${LIMIT_SECONDS:-10}" --drain-timeout 15)
echo "tap-to-screen: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%F %H:%M') UTC," \
    "load $(load_average), $games games x $spectators + $big_games x $big_spectators spectators"

cap_node=()
cap_echo=()
if [ -n "${PER_ADDRESS:-}" ]; then
    cap_node=(--max-connections-per-address "$PER_ADDRESS")
    cap_echo=(--max-per-address "$PER_ADDRESS")
fi

echo_port=$(free_loopback_port)
start_server "$work/echo.log" "$bin/courtside-echo" --host 127.0.0.1 --port "$echo_port" ${cap_echo[@]+"${cap_echo[@]}"}
wait_for_port "$echo_port" "$SERVER_PID" 30

# node NAME PORT [FLAGS...]: a `courtside serve` on PORT with its own data folder (on this disk) and the token.
node() {
    local name=$1 port=$2
    shift 2
    mkdir -p "$work/$name"
    start_server "$work/$name.log" "$bin/courtside" serve --host 127.0.0.1 --port "$port" --data "$work/$name/data" \
        --public "$work/public" --admin-token "$token" --log-level warning ${cap_node[@]+"${cap_node[@]}"} "$@"
    wait_for_port "$port" "$SERVER_PID" 60
}

# measure MODE FLAGS...: one courtside-load taptoscreen run; its report on stdout and in $work/MODE.json.
measure() {
    local mode=$1
    shift
    echo "--- $mode (load $(load_average 1))"
    timeout -k 10 900 "$bin/courtside-load" taptoscreen "${load_flags[@]}" --echo-url "ws://127.0.0.1:$echo_port" \
        "$@" || echo "$mode: courtside-load reported a failure (exit $?)"
}

for mode in ${MODES:-sqlite tls cluster}; do
    mode=${mode//,/ }
    case "$mode" in
        sqlite)
            port=$(free_loopback_port)
            node sqlite "$port"
            measure sqlite --url "ws://127.0.0.1:$port" --store-dir "$work/sqlite" ;;
        tls)
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
                -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
            port=$(free_loopback_port)
            node tls "$port" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem"
            measure tls --url "wss://127.0.0.1:$port" --store-dir "$work/tls" ;;
        cluster)
            if ! command -v redis-server >/dev/null 2>&1; then
                echo "--- cluster: skipped, redis-server is not installed (scripts/install-deps)"
                continue
            fi
            redis_port=$(free_loopback_port)
            password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
            mkdir -p "$work/redis"
            start_server "$work/redis.log" redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$work/redis" \
                --appendonly yes --appendfsync always --save "" --requirepass "$password" --daemonize no
            wait_for_port "$redis_port" "$SERVER_PID" 30
            redis="redis://:$password@127.0.0.1:$redis_port/0"
            ports=()
            for name in a b c; do
                ports+=("$(free_loopback_port)")
                node "$name" "${ports[-1]}" --redis "$redis"
            done
            measure cluster --url "ws://127.0.0.1:${ports[0]}" --node "ws://127.0.0.1:${ports[1]}" \
                --node "ws://127.0.0.1:${ports[2]}" --redis "$redis" ;;
        *) echo "tap-to-screen: unknown mode $mode (sqlite, tls, cluster)" >&2; exit 2 ;;
    esac
done
echo "tap-to-screen: done, load $(load_average)"
