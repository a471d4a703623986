#!/usr/bin/env bash
# Smoke test of courtside-load against courtside-echo (debug builds, which scripts/ci has built): payloads with
# no length, a 7-bit, a 16-bit and a 64-bit length (RFC 6455 §5.2), binary and text, bounded by count and by
# time. Fails unless every client connects, every echo comes back intact and every client closes.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh

swift build --product courtside-echo
swift build --product courtside-load
bin=$(swift build --show-bin-path)
mkdir -p .build/load-smoke
port=$(free_loopback_port)
start_server .build/load-smoke/server.log "$bin/courtside-echo" --host 127.0.0.1 --port "$port"
wait_for_port "$port" "$SERVER_PID" 30
# Debug builds copy large payloads byte by byte, so the 64-bit-length case sends fewer messages.
for run in "50 200 0" "50 200 125" "50 200 4000" "10 20 70000"; do
    read -r clients messages size <<<"$run"
    echo "--- courtside-load: $clients clients x $messages messages of $size bytes"
    timeout -k 5 120 "$bin/courtside-load" --url "ws://127.0.0.1:$port/smoke" --clients "$clients" \
        --messages "$messages" --duration 30 --size "$size" --concurrency 2
done
echo "--- courtside-load: text messages"
timeout -k 5 120 "$bin/courtside-load" --url "ws://127.0.0.1:$port/" --clients 10 --messages 100 --duration 30 \
    --size 300 --text
