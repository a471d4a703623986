#!/usr/bin/env bash
# Smoke test of the fan-out path: courtside-load fanout against courtside-echo's /pub → /sub (debug builds, which
# scripts/ci has built), small and bounded: 200 subscribers over 8 source addresses, plain and with
# permessage-deflate, at a fixed rate and at saturation, a few seconds each, then over TLS. Fails on any loss, any message out of
# order, any decode or inflate error, any subscriber that did not connect (or, in a deflate run, did not agree
# permessage-deflate), or a run that did not drain.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh

swift build --product courtside-echo
swift build --product courtside-load
bin=$(swift build --show-bin-path)
mkdir -p .build/fanout-smoke
port=$(free_loopback_port)
start_server .build/fanout-smoke/server.log "$bin/courtside-echo" --host 127.0.0.1 --port "$port"
wait_for_port "$port" "$SERVER_PID" 30
for run in "plain 50" "deflate 50" "plain max" "deflate max"; do
    read -r kind rate <<<"$run"
    flags=(--rate "$rate" --messages 400)
    [ "$rate" = max ] && flags=(--rate max --window 16 --messages 1000)
    # --require-deflate: the deflate runs fail unless every subscriber agreed permessage-deflate.
    [ "$kind" = deflate ] && flags+=(--require-deflate)
    echo "--- courtside-load fanout: 200 subscribers, $kind, rate $rate"
    # courtside-load exits non-zero unless every subscriber got every message once, in order, intact.
    timeout -k 5 120 "$bin/courtside-load" fanout --sub-url "ws://127.0.0.1:$port/sub" \
        --pub-url "ws://127.0.0.1:$port/pub" --subscribers 200 --duration 3 --settle 0.2 --drain-timeout 10 \
        --server-pid "$SERVER_PID" "${flags[@]}"
done

# Over TLS: a second echo server with a throwaway certificate (made here with the openssl CLI), subscribers and the
# publisher on wss:// trusting exactly it (--tls-ca). Fails like the runs above, and on any TLS handshake failure.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout .build/fanout-smoke/key.pem \
    -out .build/fanout-smoke/cert.pem 2>/dev/null
tls_port=$(free_loopback_port)
start_server .build/fanout-smoke/tls-server.log "$bin/courtside-echo" --host 127.0.0.1 --port "$tls_port" \
    --tls-cert .build/fanout-smoke/cert.pem --tls-key .build/fanout-smoke/key.pem
wait_for_port "$tls_port" "$SERVER_PID" 30
echo "--- courtside-load fanout: 200 subscribers, TLS, rate 50"
timeout -k 5 120 "$bin/courtside-load" fanout --sub-url "wss://127.0.0.1:$tls_port/sub" \
    --pub-url "wss://127.0.0.1:$tls_port/pub" --tls-ca .build/fanout-smoke/cert.pem --subscribers 200 --duration 3 \
    --settle 0.2 --drain-timeout 10 --server-pid "$SERVER_PID" --rate 50 --messages 400
