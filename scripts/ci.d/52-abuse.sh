#!/usr/bin/env bash
# The project's own abuse test (issue 11): Tests/abuse/abuse.py against `courtside serve` on loopback (release build:
# its 50 ms /healthz budget is about the code that serves, and a debug build accepts a connection flood ~5x slower):
# a ping flood, a never-reading pipelining client, a never-reading WebSocket sender, a compression bomb as the first
# scorer message and thousands of plain connections from one address, each for 4 s, while a spectator, a scorer and a
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
courtside=$(build_courtside "${COURTSIDE_ABUSE_BUILD:-release}")
work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-abuse.XXXXXX")
token="abuse-admin-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
port=$(free_loopback_port)
start_server "$work/server.log" "$courtside" serve --host 127.0.0.1 --port "$port" --data "$work/data" \
    --public "$ROOT/Public" --admin-token "$token" --threads 2 --write-timeout 2
trap 'stop_servers; rm -rf "$work"' EXIT
wait_for_port "$port" "$SERVER_PID" 60
status=0
timeout -k 5 300 "$python" Tests/abuse/abuse.py --port "$port" --pid "$SERVER_PID" --admin-token "$token" || status=$?
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "52-abuse: the server exited during the test" >&2
    status=1
fi
if [ "$status" -ne 0 ]; then
    echo "--- server log (last 40 lines)" >&2
    tail -n 40 "$work/server.log" >&2 || true
fi
exit "$status"
