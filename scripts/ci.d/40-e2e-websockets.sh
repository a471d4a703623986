#!/usr/bin/env bash
# End to end against a real `courtside serve`: scripts/e2e/broadcast.py (PyPI websockets) creates a game, connects
# 50 spectators (half with permessage-deflate), plays a whole game as the scorer, and checks every spectator's
# document against GET /api/games/{id}, without a gap; a spectator that tries to score is refused.
# A missing client or server is a failure, never a skip.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The venv of scripts/install-deps.d/25-python-websockets.sh (websockets 17.4).
PYTHON=.build/python-websockets/bin/python
[ -x "$PYTHON" ] || { echo "e2e: $PYTHON missing: run scripts/install-deps.d/25-python-websockets.sh" >&2; exit 1; }
swift build --product courtside >/dev/null
BIN=$(swift build --show-bin-path)/courtside

DATA=$(mktemp -d)
OUT=$(mktemp)
TOKEN=e2e-admin-token-0123456789
cleanup() {
    [ -n "${PID:-}" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true
    rm -rf "$DATA" "$OUT"
}
trap cleanup EXIT

for _ in 1 2 3 4 5; do
    PORT=$((20000 + RANDOM % 40000))
    "$BIN" serve --host 127.0.0.1 --port "$PORT" --data "$DATA" --admin-token "$TOKEN" >"$OUT" 2>&1 &
    PID=$!
    for _ in $(seq 100); do
        grep -q "serving on" "$OUT" && break
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
    grep -q "serving on" "$OUT" && break
    wait "$PID" 2>/dev/null || true
    PID=
done
[ -n "${PID:-}" ] || { echo "e2e: courtside serve did not start:" >&2; cat "$OUT" >&2; exit 1; }

"$PYTHON" scripts/e2e/broadcast.py --url "http://127.0.0.1:$PORT" --admin-token "$TOKEN"
