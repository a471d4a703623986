#!/usr/bin/env bash
# Smoke test of courtside-load relay (debug builds, which scripts/ci has built), tiny and bounded: a public node, a
# venue made on it (POST /api/venues), a venue node whose --upstream port nothing listens on until courtside-load
# forwards it; a backlog of 60 commands over 3 games written with the link down, then the link back, then 3 s of
# live play at ten times a real pace with a spectator per game on the public node. Fails unless every backlog
# command was acked and reached the public node (every game's last seq there), and the live phase's spectators
# got every patch with samples of the venue-ack-to-public-screen latency.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=scripts/lib/relay.sh
source scripts/lib/relay.sh

swift build --product courtside
swift build --product courtside-load
bin=$(swift build --show-bin-path)
out=.build/relay-smoke
rm -rf "$out" && mkdir -p "$out/public"
token=relay-smoke-admin-token
public_port=$(free_loopback_port)
start_server "$out/public.log" "$bin/courtside" serve --host 127.0.0.1 --port "$public_port" --data "$out/public-data" \
    --public "$out/public" --admin-token "$token" --log-level warning
wait_for_port "$public_port" "$SERVER_PID" 60
venue_token=$(venue_token "$public_port" "$token" "Relay smoke")
link_port=$(free_loopback_port)
venue_port=$(free_loopback_port)
start_server "$out/venue.log" "$bin/courtside" serve --host 127.0.0.1 --port "$venue_port" --data "$out/venue-data" \
    --public "$out/public" --admin-token "$token" --log-level warning \
    --upstream "ws://127.0.0.1:$link_port" --upstream-token "$venue_token"
wait_for_port "$venue_port" "$SERVER_PID" 60
echo "--- courtside-load relay: a backlog of 60 commands over 3 games, then 3 s live"
# courtside-load exits non-zero unless every command was acked, every game caught up on the public node and every
# live patch reached its public spectator; the check below says which part came out empty.
timeout -k 5 180 "$bin/courtside-load" relay --venue "ws://127.0.0.1:$venue_port" --public "ws://127.0.0.1:$public_port" \
    --link-port "$link_port" --admin-token "$token" --games 3 --backlog 60 --catch-up-timeout 60 --live-duration 3 \
    --speed 10 --drain-timeout 10 --json >"$out/relay.json" || {
    status=$?
    cat "$out/relay.json"
    echo "relay smoke: courtside-load relay failed (exit $status)" >&2
    exit 1
}
python3 - "$out/relay.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
catch_up, live = report["catchUp"], report.get("live")
problems = []
if catch_up["commandsAcked"] != 60:
    problems.append(f"{catch_up['commandsAcked']} of 60 backlog commands acked")
if catch_up["gamesCaughtUp"] != 3 or catch_up.get("catchUpSeconds") is None:
    problems.append(f"{catch_up['gamesCaughtUp']} of 3 games relayed: {catch_up['behind']}")
if live is None:
    problems.append("no live phase: " + str(report.get("liveFailure")))
else:
    relayed = [c for c in live["classes"] if c["name"].startswith("venue ack to public screen")]
    if not relayed or relayed[0]["samples"] == 0:
        problems.append("no live patch relayed to a public spectator")
    if live["lostPatches"] != 0:
        problems.append(f"{live['lostPatches']} live patches lost")
    for row in live["classes"]:
        print(f"  {row['name']:<28} {row['samples']:>6} samples, p99 {row['p99Ms']:.3f} ms")
print(f"  catch-up {catch_up['catchUpSeconds']} s for {catch_up['lastSeqs']} seqs")
if problems:
    sys.exit("relay smoke: " + "; ".join(problems))
PY
