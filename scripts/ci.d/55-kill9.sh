#!/usr/bin/env bash
# ci-lane: quiet
# Durability under kill -9 (docs/server.md, "Durability"): Tests/e2e/kill9.py runs `courtside serve` on one data
# directory and port, kills it with SIGKILL at random moments (25 times by default) while a scorer sends commands
# and retries unanswered ones with the same CID, and fails on any acked command lost or applied twice, or a
# spectator resuming with since=N seeing a number go back. KILL9_ROUNDS and KILL9_SEED override the defaults.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

python=$(e2e_python)
courtside=$(build_courtside debug)
work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-kill9.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/public"
token="kill9-admin-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
port=$(free_loopback_port)
seed_args=()
if [ -n "${KILL9_SEED:-}" ]; then seed_args=(--seed "$KILL9_SEED"); fi
status=0
# kill9.py kills its server on every exit path; the outer timeout bounds the whole run.
timeout -k 10 240 "$python" Tests/e2e/kill9.py --courtside "$courtside" --data "$work/data" \
    --public "$work/public" --port "$port" --admin-token "$token" --log "$work/server.log" \
    --rounds "${KILL9_ROUNDS:-25}" "${seed_args[@]}" || status=$?
if [ "$status" -ne 0 ]; then
    echo "--- server log (last 40 lines, all restarts)" >&2
    tail -n 40 "$work/server.log" >&2 || true
fi
exit "$status"
