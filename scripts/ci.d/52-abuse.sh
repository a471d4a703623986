#!/usr/bin/env bash
# ci-lane: quiet
# The project's own abuse test (server.md): Tests/abuse/abuse.py against `courtside serve` on loopback (release build:
# its /healthz budget (p90 50 ms, none over 250 ms) is about the code that serves, and a debug build accepts a connection flood ~5x slower):
# a ping flood, a never-reading pipelining client, a never-reading WebSocket sender, a compression bomb as the first
# scorer message, thousands of plain connections from one address, and on a court's pickup queue a name bomb, a join
# flood from 200 loopback addresses, cross-origin joins and racing /next calls, each for 4 s, while a spectator, a scorer and a
# /healthz prober check that the server stays small, fast and live. --write-timeout 2 so the never-reading client is
# seen reset within its attack. The server is stopped on exit.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

python=$(e2e_python)
# COURTSIDE_ABUSE_ATTACKS="name-bomb next-race" runs only those (names in Tests/abuse/abuse.py); CI runs them all.
abuse() {
    # shellcheck disable=SC2086 # the list is split into names on purpose
    timeout -k 5 300 "$python" Tests/abuse/abuse.py --port "$port" --pid "$SERVER_PID" --admin-token "$token" \
        ${COURTSIDE_ABUSE_ATTACKS:+--attacks $COURTSIDE_ABUSE_ATTACKS}
}
# --public: the real pages, so the pipelining client asks for a real page.
serve_and_check abuse "${COURTSIDE_ABUSE_BUILD:-release}" abuse --public "$ROOT/Public" --threads 2 --write-timeout 2
