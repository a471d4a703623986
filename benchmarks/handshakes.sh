#!/usr/bin/env bash
# Handshakes: N spectators (default 10,000) connecting at once, side by side in one run, interleaved per round:
#   courtside serve   `courtside serve --threads 1`, one game, /ws/games/ID: the rate counts a handshake when its
#                     snapshot has been read (the 101 alone is printed too);
#   uWebSockets       benchmarks/peers/socketify_pubsub.py, /sub (subscribes, sends nothing): the rate counts the 101.
# The clients are benchmarks/spectators.c (one epoll loop in C, 256 handshakes in flight, spread over
# 127.0.0.1-16). Rate = connected / (first connect → last snapshot or 101); CPU µs/handshake = the server's
# utime + stime over the connecting, per connection (steadier than the rate on this shared machine).
#
# Then, per round, the reconnect storm: courtside serve with a game at seq S (moves from a scorer) and N spectators
# that reconnect when closed (SPECTATORS_RECONNECT=1, "?since=" their last seq); the server is stopped with SIGTERM
# and started again on the same data dir and port; printed: the time from the first close a client saw to every
# spectator open again and holding seq S on its new connection (its snapshot), and its parts as the script sees them
# (SIGTERM → the old server exited, → the new one's port open, → every spectator in step, the last to 0.1 s), and
# the reconnect attempts; then one more move, and how many spectators read seq S+1 (all of them = all in step).
#
#   benchmarks/handshakes.sh
#
# Environment (optional): CONNECTIONS (default 10000), ROUNDS (default 3), STORM=0 (skip the storm), BIN (a folder
# with a built courtside to use instead of building), PIN=1 (each server on CPU 0 and the clients on CPU 1, with
# taskset: how much of a rate is the server and its clients sharing a CPU; docs/benchmarks.md, "Handshakes"). IN_FLIGHT
# (default 256): handshakes the clients keep in progress at once. Needs the socketify peer (scripts/install-deps.d/30-python-peers.sh)
# and a C compiler with zlib. Every wait is bounded (connecting 120 s, the storm 120 s). Raw logs:
# .build/bench-handshakes/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

connections=${CONNECTIONS:-10000}
SERVER_CPUS=()
client_cpus=()
if [ "${PIN:-0}" = 1 ]; then
    SERVER_CPUS=(taskset -c 0)
    client_cpus=(taskset -c 1)
fi
rounds=${ROUNDS:-3}
in_flight=${IN_FLIGHT:-256}
storm=${STORM:-1}
out=.build/bench-handshakes
fresh_dir "$out"
raise_open_files
require_peers

bin=$(release_bin courtside)
build_spectators "$out"
token=$(random_token handshake-admin-token)

start_courtside() { # LOG PORT
    start_server "$1" ${SERVER_CPUS[@]+"${SERVER_CPUS[@]}"} "$bin/courtside" serve --host 127.0.0.1 --port "$2" --threads 1 --data "$out/data" \
        --public "$out/public" --admin-token "$token" --log-level warning
}

# clients TAG PORT PATH [ENV...]: starts spectators.c on a fifo (fd 4 writes to it); CLIENTS is its pid.
clients() {
    local tag=$1 port=$2 path=$3
    shift 3
    for _ in $(seq 1 "$connections"); do echo "0 $path"; done >"$out/$tag.plan"
    rm -f "$out/$tag.ctl"
    mkfifo "$out/$tag.ctl"
    env SPECTATORS_IN_FLIGHT="$in_flight" "$@" ${client_cpus[@]+"${client_cpus[@]}"} "$out/spectators" "$port" 16 0 "$out/$tag.plan" "$out/$tag.records" <"$out/$tag.ctl" >"$out/$tag.clients" &
    CLIENTS=$!
    exec 4>"$out/$tag.ctl"
}

# await_line TAG PREFIX SECONDS: prints the first line of TAG's client output starting with PREFIX (empty on timeout).
await_line() {
    local i
    for i in $(seq 1 $(($3 * 10))); do
        grep -q "^$2" "$out/$1.clients" 2>/dev/null && break
        kill -0 "$CLIENTS" 2>/dev/null || break
        sleep 0.1
    done
    grep "^$2" "$out/$1.clients" | tail -1 || true
}

finish_clients() {
    echo stop >&4 || true
    exec 4>&-
    wait "$CLIENTS" || true
}

# handshakes SERVER ROUND: prints "connected first-message-count seconds-to-101 seconds-to-first cpu-µs-per-handshake".
handshakes() {
    local server=$1 round=$2 port path tag before after timing wait_first
    port=$(free_loopback_port)
    tag=$server-$round
    start_burst_server "$server" "$out" "$tag" "$port" "$bin" "$token"
    path=$BURST_PATH
    wait_first=$BURST_WAIT_FIRST
    before=$(cpu_ticks "$SERVER_PID")
    clients "$tag" "$port" "$path" SPECTATORS_WAIT_FIRST=$wait_first
    timing=$(await_line "$tag" ready 180)
    after=$(cpu_ticks "$SERVER_PID")
    timing=$(grep '^timing' "$out/$tag.clients" || echo "timing 0 0 0 0")
    finish_clients
    stop_servers
    SERVER_PIDS=()
    read -r _ open first open_ns first_ns <<<"$timing"
    awk -v o="$open" -v f="$first" -v on="$open_ns" -v fn="$first_ns" -v t=$((after - before)) -v hz="$ticks_per_second" \
        'BEGIN { printf "%d %d %.3f %.3f %.1f", o, f, on / 1e9, fn / 1e9, (o > 0 ? t / hz * 1e6 / o : 0) }'
}

# storm ROUND: prints "in-step open reconnects seconds-close-to-in-step seconds-startup after-move-in-step".
storm() {
    local round=$1 port tag game scorer seq result started listening next
    port=$(free_loopback_port)
    tag=storm-$round
    rm -rf "$out/data" && mkdir -p "$out/public"
    start_courtside "$out/$tag-1.log" "$port"
    local first=$SERVER_PID
    wait_for_port "$port" "$first" 60 >&2
    read -r game scorer <<<"$("$peers_python" benchmarks/handshake_game.py create "$port" "$token")"
    seq=$("$peers_python" benchmarks/handshake_game.py moves "$port" "$game" "$scorer" 3)
    clients "$tag" "$port" "/ws/games/$game" SPECTATORS_WAIT_FIRST=1 SPECTATORS_RECONNECT=1
    await_line "$tag" ready 180 >/dev/null
    local killed exited
    killed=$(date +%s%N)
    kill -TERM "$first"
    for _ in $(seq 1 3000); do kill -0 "$first" 2>/dev/null || break; sleep 0.01; done
    wait "$first" 2>/dev/null || true
    exited=$(date +%s%N)
    started=$exited
    start_courtside "$out/$tag-2.log" "$port"
    wait_for_port "$port" "$SERVER_PID" 60 >&2
    listening=$(date +%s%N)
    echo "seq $seq 120" >&4
    result=$(await_line "$tag" "seq $seq " 150)
    local in_step_at
    in_step_at=$(date +%s%N)
    next=$("$peers_python" benchmarks/handshake_game.py moves "$port" "$game" "$scorer" 1)
    echo "seq $next 30" >&4
    local after_move
    after_move=$(await_line "$tag" "seq $next " 40)
    finish_clients
    stop_servers
    SERVER_PIDS=()
    read -r _ _ in_step open reconnects from_close _ <<<"${result:-seq 0 0 0 0 0 0}"
    awk -v s="$in_step" -v o="$open" -v r="$reconnects" -v c="$from_close" -v st=$((listening - started)) \
        -v down=$((exited - killed)) -v back=$((in_step_at - listening)) \
        -v m="$(echo "${after_move:-seq 0 0}" | cut -d' ' -f3)" \
        'BEGIN { printf "%d %d %d %.2f %.2f %.2f %.2f %d", s, o, r, c / 1e9, down / 1e9, st / 1e9, back / 1e9, m }'
}

echo
echo "Handshakes: $connections spectators at once, $in_flight in flight, $(nproc) cores shared with the clients$([ "${PIN:-0}" = 1 ] && echo ", servers pinned to CPU 0 and clients to CPU 1"); started $(date -u +%Y-%m-%dT%H:%MZ)"
echo "| round | server | load average | connected | got the snapshot | s to last 101 | s to last snapshot | handshakes/s | CPU µs/handshake |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
declare -A rate cpus
for round in $(seq 1 "$rounds"); do
    for server in courtside socketify; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        read -r open first to_open to_first cpu <<<"$(handshakes "$server" "$round")"
        cpus[$server]=$cpu
        if [ "$server" = courtside ]; then
            rate[$server]=$(awk -v n="$first" -v s="$to_first" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
            echo "| $round | courtside serve | $load | $open | $first | $to_open | $to_first | ${rate[$server]} | $cpu |"
        else
            rate[$server]=$(awk -v n="$open" -v s="$to_open" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
            echo "| $round | uWebSockets /sub | $load | $open | – | $to_open | – | ${rate[$server]} | $cpu |"
        fi
    done
    echo "| $round | courtside / uWebSockets | | | | | | $(awk -v a="${rate[courtside]}" -v b="${rate[socketify]}" 'BEGIN { printf "%.2f×", (b > 0 ? a / b : 0) }') | $(awk -v a="${cpus[courtside]}" -v b="${cpus[socketify]}" 'BEGIN { printf "%.2f×", (b > 0 ? a / b : 0) }') |"
done
if [ "$storm" = 1 ]; then
    echo
    echo "Reconnect storm: $connections spectators of one game, SIGTERM and restart on the same data dir"
    echo "| round | load average | in step | open | reconnect attempts | s first close → all in step | s SIGTERM → old exited | s exited → new port open | s port open → all in step (±0.1) | read the next move |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for round in $(seq 1 "$rounds"); do
        load=$(cut -d' ' -f1 /proc/loadavg)
        read -r in_step open reconnects seconds down startup back moved <<<"$(storm "$round")"
        echo "| $round | $load | $in_step | $open | $reconnects | $seconds | $down | $startup | $back | $moved |"
    done
fi
echo "(finished $(date -u +%Y-%m-%dT%H:%MZ); load average $(cut -d' ' -f1-3 /proc/loadavg))"
