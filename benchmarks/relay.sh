#!/usr/bin/env bash
# The venue relay (figures in docs/benchmarks.md, "Venue relay"): a public node and a venue node (release builds,
# SQLite journals in temporary --data folders on this disk), the venue made on the public node with the admin token
# (POST /api/venues), and the venue started with --upstream pointed at a loopback port nothing listens on yet: its
# link is down. `courtside-load relay` then
#   1. writes a backlog of BACKLOG commands over GAMES games at the venue (its scorers' rate limit raised), each
#      scorer sending its next command once the last is acked, lets the link return (it starts forwarding that port to the public node) and polls
#      every game's document on the public node until each has its last acked seq: the catch-up, counted from the
#      venue's first connection (its reconnection backoff, up to 4 s after a long cut, is printed apart);
#   2. with the link up, plays GAMES new games at the venue at a real scorer's pace for LIVE seconds, SPECTATORS
#      per game on the public node: per patch, the time from the venue's ack (at the scorer) to the patch at each
#      public spectator (p50/p99/p99.9/max).
# RUNS runs, each with fresh nodes. Everything on loopback, every process stopped at the end.
# Environment: RUNS (1), GAMES (20), BACKLOG (3600), LINK_DOWN (0: seconds the link stays down at least), LIVE (30), SPEED (1), SPECTATORS (1), BIN (binaries built
# elsewhere), JSON (a folder to keep each run's JSON report in), PROFILE (a folder: `perf record -g` of the public
# node over the whole run, with LIVE=0 the backlog and the catch-up only, and its report there).
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/lib/relay.sh
source scripts/lib/relay.sh

bin=$(release_bin courtside courtside-load)
serve_work relay
games=${GAMES:-20}
backlog=${BACKLOG:-3600}
live=${LIVE:-30}
echo "relay: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%F %H:%M') UTC, load $(load_average)," \
    "$games games, a backlog of $backlog commands, $live s live"

# node NAME PORT [FLAGS...]: a `courtside serve` on PORT with its own data folder and the admin token.
node() {
    local name=$1 port=$2
    shift 2
    start_server "$work/$name.log" "$bin/courtside" serve --host 127.0.0.1 --port "$port" \
        --data "$work/$name/data" --public "$work/public" --admin-token "$token" --log-level warning "$@"
    if ! wait_for_port "$port" "$SERVER_PID" 60; then
        echo "relay: the $name node did not start; its log:" >&2
        tail -20 "$work/$name.log" >&2
        exit 1
    fi
}

for run in $(seq "${RUNS:-1}"); do
    public_port=$(free_loopback_port)
    node "public-$run" "$public_port"
    public_pid=$SERVER_PID
    venue_token=$(venue_token "$public_port" "$token" "Relay bench")
    link_port=$(free_loopback_port)
    venue_port=$(free_loopback_port)
    # The backlog stands for an hour of play written in seconds: the scorers' rate limit (a burst of 100, then 50
    # commands a second per game) is raised so it measures the relay, not the limit.
    node "venue-$run" "$venue_port" --upstream "ws://127.0.0.1:$link_port" --upstream-token "$venue_token" \
        --command-burst 100000 --commands-per-second 100000
    venue_pid=$SERVER_PID
    echo "--- run $run, $(date -u '+%H:%M:%S') UTC, uptime:$(uptime | sed 's/.*up/ up/')"
    report=$work/relay-$run.out
    perf_pid=
    if [ -n "${PROFILE:-}" ]; then
        mkdir -p "$PROFILE"
        perf record -F 999 -g -p "$public_pid" -o "$PROFILE/public-$run.data" 2>"$PROFILE/perf-$run.log" &
        perf_pid=$!
        sleep 1
    fi
    status=0
    timeout -k 10 900 "$bin/courtside-load" relay --venue "ws://127.0.0.1:$venue_port" \
        --public "ws://127.0.0.1:$public_port" --link-port "$link_port" --admin-token "$token" --games "$games" \
        --backlog "$backlog" --link-down "${LINK_DOWN:-0}" --live-duration "$live" --speed "${SPEED:-1}" --spectators "${SPECTATORS:-1}" \
        --venue-pid "$venue_pid" --public-pid "$public_pid" --store-dir "$work" ${JSON:+--json} >"$report" || status=$?
    if [ -n "$perf_pid" ]; then
        kill -INT "$perf_pid"
        wait "$perf_pid" || true
        perf report -i "$PROFILE/public-$run.data" --stdio --no-children --percent-limit 1.5 2>/dev/null \
            >"$PROFILE/public-$run.txt" || true
        echo "profile of the public node: $PROFILE/public-$run.txt"
    fi
    cat "$report"
    if [ -n "${JSON:-}" ]; then
        mkdir -p "$JSON"
        cp "$report" "$JSON/relay-$run.json"
    fi
    [ "$status" -eq 0 ] || echo "run $run: courtside-load relay reported a failure (exit $status)"
    echo "--- end of run $run, load $(load_average)"
    stop_servers
done
