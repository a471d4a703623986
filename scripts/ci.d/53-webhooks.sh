#!/usr/bin/env bash
# ci-lane: quiet
# Webhooks end to end (docs/webhooks.md): Tests/e2e/webhooks_e2e.py runs `courtside serve --webhook-allow-private`
# on a free loopback port with a receiver that verifies every delivery with PyPI standardwebhooks (the Standard
# Webhooks reference library): a scripted game's events all arrive in order with a live p99 under 2 s from the ack; a
# slow receiver leaves the spectators' p99 unchanged within noise; the receiver is down for a stretch and the server
# is killed with SIGKILL while a delivery is in flight, then both return and every event arrives, none lost,
# duplicates only with the same webhook-id; an https receiver (a self-signed certificate the server trusts through
# --webhook-ca) gets its events, and TLS to a plain receiver fails in the deliveries list.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

python=$(e2e_python)
e2e_require_standardwebhooks "$python"
courtside=$(build_courtside debug)
work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-webhooks.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/public"
make_self_signed_cert "$work/tls"
token="webhooks-admin-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
port=$(free_loopback_port)
status=0
# webhooks_e2e.py stops (or kills) its server on every exit path; the outer timeout bounds the whole run.
timeout -k 10 300 "$python" Tests/e2e/webhooks_e2e.py --courtside "$courtside" --data "$work/data" \
    --public "$work/public" --port "$port" --admin-token "$token" --log "$work/server.log" \
    --tls-dir "$work/tls" || status=$?
if [ "$status" -ne 0 ]; then
    echo "--- server log (last 40 lines, both runs)" >&2
    tail -n 40 "$work/server.log" >&2 || true
fi
exit "$status"
