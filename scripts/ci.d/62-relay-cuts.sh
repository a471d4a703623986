#!/usr/bin/env bash
# ci-lane: quiet
# The venue relay under cuts (docs/relay.md): Tests/e2e/relay_cuts_e2e.py starts a public node serving TLS and a venue
# node relaying over wss:// (release builds, loopback ports, data in a temporary folder) with a TCP proxy between the
# venue's uplink and the public node, cuts the link 100 times at random during a scripted game (close, blackhole,
# reset) with spectators on both nodes, then kills each node with SIGKILL while the public node catches up and
# restarts it on its data. Fails on any acked command lost or doubled, any spectator document or patch that differs
# from the venue's at the same seq, a link state never shown down or never cleared, or a public node that does not
# end equal to the venue.
# RELAY_CUTS and RELAY_CUTS_SEED override the defaults.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

courtside=$(build_courtside release)
work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-relay-cuts.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/public"
token="relay-admin-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
public_port=$(free_loopback_port)
venue_port=$(free_loopback_port)
while [ "$venue_port" = "$public_port" ]; do venue_port=$(free_loopback_port); done
seed_args=()
if [ -n "${RELAY_CUTS_SEED:-}" ]; then seed_args=(--seed "$RELAY_CUTS_SEED"); fi
status=0
# The program stops both servers on every exit path; the outer timeout bounds the whole run.
# The relay as deployed: the public node serves TLS (a throwaway certificate the venue trusts with --upstream-ca),
# the venue relays over wss://.
make_self_signed_cert "$work/tls"
timeout -k 10 170 python3 Tests/e2e/relay_cuts_e2e.py --courtside "$courtside" --work "$work" \
    --public "$work/public" --public-port "$public_port" --venue-port "$venue_port" --admin-token "$token" \
    --tls-cert "$work/tls/cert.pem" --tls-key "$work/tls/key.pem" --cuts "${RELAY_CUTS:-100}" "${seed_args[@]}" ||
    status=$?
if [ "$status" -ne 0 ]; then
    for node in venue public; do
        echo "--- $node log (last 30 lines, all restarts)" >&2
        tail -n 30 "$work/$node.log" >&2 || true
    done
fi
exit "$status"
