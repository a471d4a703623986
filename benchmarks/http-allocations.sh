#!/usr/bin/env bash
# Heap allocations per HTTP request and per spectator handshake of a release `courtside serve --threads 1`, counted
# by benchmarks/alloc_counter.c preloaded into it (malloc, calloc, the aligned allocators and realloc: every call
# that hands out or moves a block). A count, not a time, so it holds on a busy machine: the regression guard for
# the static path and the handshake (docs/benchmarks.md, "Static files" and "Handshakes").
#   static        wrk -t1 -c8 for DURATION seconds on /css/courtside.css, identity then Accept-Encoding: gzip:
#                 allocations over the run / requests wrk counted;
#   handshakes    CONNECTIONS spectators of one game from benchmarks/spectators.c, each read its snapshot:
#                 allocations over the connecting / CONNECTIONS (the 5 s viewer-count messages of a longer run would
#                 add to it: the connecting takes about a second at 2,000).
#
#   benchmarks/http-allocations.sh
#
# Environment (optional): DURATION (default 2), CONNECTIONS (default 2000), BIN (a folder with a built courtside to
# use instead of building). Needs wrk (installed when missing), the socketify peer's Python for the game set-up
# (scripts/install-deps.d/30-python-peers.sh) and a C compiler. Raw output: .build/bench-http-allocations/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

duration=${DURATION:-2}
connections=${CONNECTIONS:-2000}
out=.build/bench-http-allocations
fresh_dir "$out" "$out/data"
raise_open_files
command -v wrk >/dev/null || { apt-get install -y -q wrk >/dev/null || { apt-get update -q && apt-get install -y -q wrk; }; }
require_peers

bin=$(release_bin courtside)
build_alloc_counter "$out"
build_spectators "$out"
token=$(random_token alloc-admin-token)

# allocations: the counter file's allocations plus reallocations.
allocations() { python3 -c 'import struct, sys; w = struct.unpack("<2Q", open(sys.argv[1], "rb").read(16)); print(w[0] + w[1])' "$out/counts"; }

port=$(free_loopback_port)
start_server "$out/courtside.log" env ALLOC_COUNTER_FILE="$ROOT/$out/counts" LD_PRELOAD="$ROOT/$out/alloc_counter.so" \
    "$bin/courtside" serve --host 127.0.0.1 --port "$port" --threads 1 --data "$out/data" --public Public \
    --admin-token "$token" --log-level warning
wait_for_port "$port" "$SERVER_PID" 60

echo
echo "Heap allocations in courtside serve --threads 1 ($(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "| what | count | allocations | per one |"
echo "|---|---:|---:|---:|"
for encoding in identity gzip; do
    header=()
    [ "$encoding" = gzip ] && header=(-H "Accept-Encoding: gzip")
    before=$(allocations)
    requests=$(timeout $((duration + 30)) wrk -t1 -c8 -d"${duration}s" "${header[@]}" \
        "http://127.0.0.1:$port/css/courtside.css" | awk '/requests in/ { print $1 }')
    after=$(allocations)
    echo "| static /css/courtside.css, $encoding | $requests | $((after - before)) | $(awk -v a=$((after - before)) -v n="$requests" 'BEGIN { printf "%.2f", (n > 0 ? a / n : 0) }') |"
done

read -r game _ <<<"$("$peers_python" benchmarks/handshake_game.py create "$port" "$token")"
for _ in $(seq 1 "$connections"); do echo "0 /ws/games/$game"; done >"$out/plan"
mkfifo "$out/ctl"
before=$(allocations)
SPECTATORS_WAIT_FIRST=1 "$out/spectators" "$port" 16 0 "$out/plan" "$out/records" <"$out/ctl" >"$out/clients" &
clients=$!
exec 4>"$out/ctl"
wait_for_clients_ready "$out/clients" "$clients" 1200
after=$(allocations)
opened=$(awk '/^timing/ { print $3 }' "$out/clients")
echo "| spectator handshakes with their snapshot | ${opened:-0} | $((after - before)) | $(awk -v a=$((after - before)) -v n="${opened:-0}" 'BEGIN { printf "%.1f", (n > 0 ? a / n : 0) }') |"
echo stop >&4
exec 4>&-
wait "$clients" || true
