#!/usr/bin/env bash
# Memory at league scale (figures in docs/benchmarks.md, "Memory at league scale"): a release `courtside serve`
# with a fresh data folder on this disk and `--archive-after 1`, then
#   1. the RSS of the empty server;
#   2. ARCHIVED games (default 10,000), each won with one command and left to the archiver (bounded wait);
#   3. the server stopped and started again on the same data: the start-up time (from exec to the first answer
#      of `GET /api/games?status=archived`) and the RSS with the archive loaded, per archived game over step 1;
#   4. LIVE games (default 1,000) created: RSS per game with no spectator;
#   5. SPECTATORS (default 10) connected to each: RSS per live game with its spectators.
# Targets (the issue's): a game with no spectators ≤ 16 KiB; start-up with 10,000 archived games under 2 s.
# Environment: ARCHIVED, LIVE, SPECTATORS, BIN (binaries built elsewhere). Everything on loopback, bounded.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

bin=$(release_bin courtside)
serve_work league-memory
raise_open_files
archived=${ARCHIVED:-10000}
live=${LIVE:-1000}
spectators=${SPECTATORS:-10}
echo "league-memory: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%F %H:%M') UTC," \
    "load $(load_average), $archived archived games, $live live games x $spectators spectators"

port=$(free_loopback_port)
serve() {
    start_server "$work/serve.log" "$bin/courtside" serve --host 127.0.0.1 --port "$port" --data "$work/data" \
        --public "$work/public" --admin-token "$token" --log-level warning --archive-after 1
}

serve
wait_for_port "$port" "$SERVER_PID" 60
sleep 1
empty=$(rss_kib "$SERVER_PID")
echo "empty server: RSS $empty KiB"
python3 benchmarks/league_memory.py archive --port "$port" --admin-token "$token" --games "$archived" --timeout 180
echo "with $archived games archived (before a restart): RSS $(rss_kib "$SERVER_PID") KiB (load $(load_average 1))"
stop_servers

started=$(date +%s%N)
serve
# The first answer that lists the archive, bounded to 60 s.
answered=
for _ in $(seq 1 600); do
    if curl -sf "http://127.0.0.1:$port/api/games?status=archived" -o /dev/null 2>/dev/null; then
        answered=$(date +%s%N)
        break
    fi
    sleep 0.1
done
[ -n "$answered" ] || { echo "the restarted server did not answer within 60 s" >&2; exit 1; }
echo "start-up with $archived archived games: $(((answered - started) / 1000000)) ms to the first answer" \
    "(load $(load_average 1))"
sleep 1
loaded=$(rss_kib "$SERVER_PID")
echo "after the restart: RSS $loaded KiB, $(python3 -c "print(f'{($loaded - $empty) * 1024 / $archived:.0f}')")" \
    "bytes per archived game over the empty server"
python3 benchmarks/league_memory.py live --port "$port" --admin-token "$token" --pid "$SERVER_PID" \
    --games "$live" --spectators "$spectators"
echo "league-memory: done, load $(load_average)"
