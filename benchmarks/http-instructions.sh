#!/usr/bin/env bash
# Instructions per HTTP request and per spectator handshake of a release `courtside serve --threads 1`, counted by
# valgrind's callgrind with instrumentation switched on only around the load (`callgrind_control -i on/off`). A count,
# not a time: it does not move with the machine's load, so it compares two builds where requests/s and CPU per request
# swing by ±30% (docs/benchmarks.md, "Static files" and "Handshakes"). User space only: the kernel's share (writev,
# the TCP path) is not in it.
#   static        REQUESTS keep-alive GETs of /css/courtside.css on one connection (benchmarks/http_requests.py), identity
#                 then Accept-Encoding: gzip: instructions / REQUESTS;
#   handshakes    CONNECTIONS spectators of one game from benchmarks/spectators.c, each read its snapshot:
#                 instructions / CONNECTIONS.
#
#   benchmarks/http-instructions.sh
#
# Environment (optional): REQUESTS (default 2000), CONNECTIONS (default 2000), BIN (a folder with a built courtside to
# use instead of building). Needs valgrind (installed when missing), the socketify peer's Python for the game set-up
# (scripts/install-deps.d/30-python-peers.sh) and a C compiler with zlib. Raw output: .build/bench-http-instructions/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

requests=${REQUESTS:-2000}
connections=${CONNECTIONS:-2000}
out=.build/bench-http-instructions
fresh_dir "$out"
mkdir -p "$out/data" "$out/public"
raise_open_files
command -v valgrind >/dev/null || { apt-get install -y -q valgrind >/dev/null || { apt-get update -q && apt-get install -y -q valgrind; }; }
require_peers

bin=$(release_bin courtside)
build_spectators "$out"
token=$(random_token instructions-admin-token)

# measure TAG: zero the counters and switch instrumentation on; done TAG: off, dump, print the instructions.
measure() { callgrind_control -z "$SERVER_PID" >/dev/null 2>&1 && callgrind_control -i on "$SERVER_PID" >/dev/null 2>&1; }
done_measuring() {
    callgrind_control -i off "$SERVER_PID" >/dev/null 2>&1
    callgrind_control -d "$1" "$SERVER_PID" >/dev/null 2>&1
    local file
    for _ in $(seq 1 100); do
        file=$(grep -l "^desc: Trigger: dump $1\$" "$out"/callgrind.* 2>/dev/null | head -1 || true)
        [ -n "$file" ] && break
        sleep 0.1
    done
    awk '/^totals:/ { print $2 }' "$file"
}

port=$(free_loopback_port)
start_server "$out/courtside.log" valgrind --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$ROOT/$out/callgrind.%p" "$bin/courtside" serve --host 127.0.0.1 --port "$port" --threads 1 \
    --data "$out/data" --public Public --admin-token "$token" --log-level warning
wait_for_port "$port" "$SERVER_PID" 120

echo
echo "Instructions in courtside serve --threads 1, user space ($(date -u +%Y-%m-%dT%H:%MZ))"
echo "| what | count | instructions | per one |"
echo "|---|---:|---:|---:|"
python3 benchmarks/http_requests.py "$port" 50 gzip >/dev/null  # warm: first-use paths out of the count
for encoding in identity gzip; do
    measure
    python3 benchmarks/http_requests.py "$port" "$requests" "$encoding" >/dev/null
    total=$(done_measuring "static-$encoding")
    echo "| static /css/courtside.css, $encoding | $requests | $total | $((total / requests)) |"
done

read -r game _ <<<"$("$peers_python" benchmarks/handshake_game.py create "$port" "$token")"
for _ in $(seq 1 "$connections"); do echo "0 /ws/games/$game"; done >"$out/plan"
mkfifo "$out/ctl"
measure
SPECTATORS_WAIT_FIRST=1 "$out/spectators" "$port" 16 0 "$out/plan" "$out/records" <"$out/ctl" >"$out/clients" &
clients=$!
exec 4>"$out/ctl"
wait_for_clients_ready "$out/clients" "$clients"
total=$(done_measuring handshakes)
opened=$(awk '/^timing/ { print $3 }' "$out/clients")
echo "| spectator handshakes with their snapshot | ${opened:-0} | $total | $((total / ${opened:-1})) |"
echo stop >&4
exec 4>&-
wait "$clients" || true
