#!/usr/bin/env bash
# Idle memory per WebSocket connection, side by side in one run: N idle connections (default 10,000) to
#   courtside-echo    `courtside-echo --threads 1`, path /sub (subscribed to the echo server's pub/sub channel);
#   uWebSockets       benchmarks/peers/socketify_pubsub.py, path /sub (subscribed to its topic);
#   courtside serve   `courtside serve --threads 1`, spectators of one game (/ws/games/ID, each got its snapshot).
# For each: a fresh server, its VmRSS once it answers (and, for serve, once the game exists) as the empty figure,
# then N clients from benchmarks/spectators.c (one epoll loop in C, spread over 127.0.0.1-16, which read and do
# nothing else), VmRSS again after SETTLE seconds idle; KiB per connection = (connected - empty) / N. Then the
# clients close and the server stops. Every round prints every server's row with the load average.
#
#   benchmarks/idle-memory.sh
#
# Environment (optional): CONNECTIONS (default 10000), ROUNDS (default 3), SETTLE seconds (default 2), SERVERS
# (default "courtside-echo socketify courtside-serve"; also courtside-serve-resuming: spectators connecting to
# /ws/games/ID?since=0, as after a restart), HEAP_PROFILE=1 (the courtside servers run with
# benchmarks/alloc_counter.c preloaded, and each row is followed by the heap blocks a connection keeps alive, by
# size: the profile behind the figure; the counter's own bookkeeping is not in VmRSS), BIN (a folder with built courtside and courtside-echo
# to use instead of building). Needs the socketify peer
# (scripts/install-deps.d/30-python-peers.sh) and a C compiler with zlib. Raw logs: .build/bench-idle-memory/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

connections=${CONNECTIONS:-10000}
rounds=${ROUNDS:-3}
settle=${SETTLE:-2}
servers=${SERVERS:-courtside-echo socketify courtside-serve}
out=.build/bench-idle-memory
fresh_dir "$out"
raise_open_files

bin=$(release_bin courtside-echo courtside)
build_spectators "$out"
profile=()
if [ "${HEAP_PROFILE:-0}" = 1 ]; then
    build_alloc_counter "$out"
    profile=(env ALLOC_COUNTER_FILE="$ROOT/$out/counts" LD_PRELOAD="$ROOT/$out/alloc_counter.so")
fi
token=$(random_token idle-admin-token)


# create_game PORT: prints the new game's id.
create_game() {
    curl -sS --max-time 10 -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{"homeTeam":{"name":"Home","players":["Ann","Bo","Cy"]},"awayTeam":{"name":"Away","players":["Di","Ed","Flo"]}}' \
        "http://127.0.0.1:$1/api/games" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])'
}

# measure SERVER ROUND: prints "empty-KiB connected-KiB connected-count KiB-per-connection".
measure() {
    local server=$1 round=$2 port path tag empty connected ready plan
    port=$(free_loopback_port)
    tag=$server-$round
    case "$server" in
        courtside-echo)
            start_server "$out/$tag.log" "${profile[@]}" "$bin/courtside-echo" --host 127.0.0.1 --port "$port" --threads 1
            path=/sub ;;
        socketify)
            start_server "$out/$tag.log" "$peers_python" benchmarks/peers/socketify_pubsub.py --port "$port"
            path=/sub ;;
        courtside-serve | courtside-serve-resuming)
            rm -rf "$out/data"
            mkdir -p "$out/public"
            start_server "$out/$tag.log" "${profile[@]}" "$bin/courtside" serve --host 127.0.0.1 --port "$port" --threads 1 \
                --data "$out/data" --public "$out/public" --admin-token "$token" --log-level warning
            path=pending ;;
    esac
    wait_for_port "$port" "$SERVER_PID" 60 >&2
    [ "$path" = pending ] && path=/ws/games/$(create_game "$port")
    # Resuming spectators (a reconnect after a restart) come with their seq in the query.
    [ "$server" = courtside-serve-resuming ] && path="$path?since=0"
    plan=$out/$tag.plan
    for i in $(seq 1 "$connections"); do echo "0 $path"; done >"$plan"
    sleep 1
    empty=$(rss_kib "$SERVER_PID")
    [ -f "$out/counts" ] && cp "$out/counts" "$out/$tag.counts-empty"
    rm -f "$out/$tag.ctl"
    mkfifo "$out/$tag.ctl"
    "$out/spectators" "$port" 16 0 "$plan" "$out/$tag.records" <"$out/$tag.ctl" >"$out/$tag.clients" &
    local clients=$!
    exec 4>"$out/$tag.ctl"
    wait_for_clients_ready "$out/$tag.clients" "$clients"
    ready=$(grep '^ready' "$out/$tag.clients" || echo "ready 0 $connections 0")
    sleep "$settle"
    connected=$(rss_kib "$SERVER_PID")
    [ -f "$out/counts" ] && cp "$out/counts" "$out/$tag.counts-connected"
    rm -f "$out/counts"
    echo stop >&4
    exec 4>&-
    wait "$clients" || true
    stop_servers
    awk -v e="$empty" -v c="$connected" -v n="$(echo "$ready" | cut -d' ' -f2)" \
        'BEGIN { printf "%d %d %d %.3f", e, c, n, (n > 0 ? (c - e) / n : 0) }'
}

echo
echo "Idle WebSocket connections: $connections per server, $(nproc) cores shared with the clients; started $(date -u +%Y-%m-%dT%H:%MZ)"
echo "| round | server | load average | empty VmRSS KiB | connected VmRSS KiB | connected | KiB per connection |"
echo "|---|---|---|---:|---:|---:|---:|"
for round in $(seq 1 "$rounds"); do
    for server in $servers; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        read -r empty connected count per <<<"$(measure "$server" "$round")"
        echo "| $round | $server | $load | $empty | $connected | $count | $per |"
        if [ -f "$out/$server-$round.counts-connected" ]; then
            python3 - "$out/$server-$round.counts-empty" "$out/$server-$round.counts-connected" "$count" <<'PY'
import struct, sys
def words(path):
    data = open(path, "rb").read()
    return struct.unpack("<%dQ" % (len(data) // 8), data)
before, after, n = words(sys.argv[1]), words(sys.argv[2]), max(1, int(sys.argv[3]))
delta = [(a - b) % (1 << 64) for a, b in zip(after, before)]
signed = [d - (1 << 64) if d >= 1 << 63 else d for d in delta]
classes = signed[5:]
blocks = sum(classes)
print(f"  heap kept per connection: {signed[4] / n:.0f} bytes in {blocks / n:.2f} blocks;", end="")
top = sorted(((count, k) for k, count in enumerate(classes) if count), reverse=True)[:8]
print(" by usable size: " + ", ".join(
    (f"{count / n:.2f} x {16 * k + 1}-{16 * k + 16} B" if k < 64 else f"{count / n:.2f} x over 1 KiB") for count, k in top))
PY
        fi
    done
done
echo "(finished $(date -u +%Y-%m-%dT%H:%MZ); load average $(cut -d' ' -f1-3 /proc/loadavg))"
