#!/usr/bin/env bash
# Scorer-to-spectator latency and server memory (figures in docs/benchmarks.md, "Broadcaster
# latency"): a release `courtside serve` on a loopback port with a fresh data directory, then
# benchmarks/broadcaster_latency.py twice, each against a fresh server:
#   one game with 10,000 spectators, its scorer sending 2 moves a second;
#   1,000 games with 10 spectators each, every scorer sending a move every 2 seconds (500 a second in all);
#   the same at a move every 10 seconds per game (100 a second in all);
#   and, when asked (SCENARIOS=one-game-deflate), one game with 10,000 spectators offering permessage-deflate.
# Spectators come from 127.0.0.1 ... 127.0.0.16 (the server's default cap is 1,024 connections per address) and
# (unless told) do not offer permessage-deflate; they are benchmarks/spectators.c processes, the scorers one Python process.
# Environment: DURATION (seconds of commands, default 20), SCENARIOS (default
# "one-game many-games many-games-calm"), PROCESSES (spectator processes, default 2), BUILD (release or debug).
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

python=$(e2e_python)
courtside=$(build_courtside "${BUILD:-release}")
# The spectators are benchmarks/spectators.c (cheap per message, so the clients take little of the cores the server
# shares with them); any C compiler will do, the Swift toolchain's clang included, with zlib (zlib1g-dev).
mkdir -p .build/broadcaster-latency
build_spectators .build/broadcaster-latency
duration=${DURATION:-20}
processes=${PROCESSES:-2}
serve_work latency
# Each spectator is a descriptor here and one in the server.
raise_open_files

scenario() {
    local name=$1 games=$2 per_game=$3 rate=$4 port out
    shift 4
    port=$(free_loopback_port)
    rm -rf "$work/data"
    start_server "$work/$name.log" "$courtside" serve --host 127.0.0.1 --port "$port" --data "$work/data" \
        --public "$work/public" --admin-token "$token"
    wait_for_port "$port" "$SERVER_PID" 60
    out=.build/broadcaster-latency/$name.json
    echo "--- $name: $games game(s) x $per_game spectators, $rate moves/s per game, ${duration}s ($(date -u +%H:%M) UTC, load $(load_average))"
    timeout -k 10 900 "$python" benchmarks/broadcaster_latency.py --port "$port" --admin-token "$token" \
        --server-pid "$SERVER_PID" --games "$games" --spectators-per-game "$per_game" --rate-per-game "$rate" \
        --duration "$duration" --processes "$processes" \
        --spectators-binary .build/broadcaster-latency/spectators --json "$@" | tee "$out"
    stop_servers
}

for name in ${SCENARIOS:-one-game many-games many-games-calm}; do
    case "$name" in
        one-game) scenario one-game 1 10000 2 ;;
        many-games) scenario many-games 1000 10 0.5 ;;
        many-games-calm) scenario many-games-calm 1000 10 0.1 ;;
        one-game-deflate) scenario one-game-deflate 1 10000 2 --deflate ;;
        *) echo "unknown scenario $name (one-game, many-games, many-games-calm, one-game-deflate)" >&2; exit 2 ;;
    esac
done
