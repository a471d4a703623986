#!/usr/bin/env bash
# The venue recipe (deploy/venue/, README "Venue and cloud"), proven without containers:
# 1. `systemd-analyze verify` accepts deploy/venue/courtside-venue.service (ExecStart pointed at the built binary and
#    EnvironmentFile at a copy of venue.env.example, in a temporary folder) without a message about the unit, and
#    every COURTSIDE_* name in venue.env.example is a setting.
# 2. deploy/venue/compose.yaml read as a compose engine reads it (Tests/deploy/venue_compose.py, PyYAML): built from
#    deploy/Dockerfile, refusing to start without COURTSIDE_UPSTREAM or COURTSIDE_UPSTREAM_TOKEN, passing them on,
#    only real settings, the journal on a named volume, port 8080 published.
# 3. The unit's command with venue.env.example's settings (the upstream and token replaced by a public node on a
#    loopback port and a venue made on it, the address by a loopback port): the venue's /healthz says the uplink is
#    up, and a game created at the venue reaches the public node.
# With CI=true a missing systemd-analyze or PyYAML fails the run; elsewhere the script says what is missing and skips.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/peers.sh
source scripts/lib/peers.sh
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

ci_step 63-venue-deploy

require_commands 63-venue-deploy scripts/install-deps.d/60-deploy.sh systemd-analyze curl
if ! python3 -c 'import yaml' 2>/dev/null; then
    # PyYAML comes with podman-compose (python3-yaml), which scripts/install-deps.d/61-containers.sh installs.
    [ "${CI:-}" = "true" ] && fail "python3 cannot import yaml (scripts/install-deps.d/61-containers.sh installs it)"
    say "SKIPPED: python3 cannot import yaml; run scripts/install-deps.d/61-containers.sh as root (CI fails instead)"
    exit 0
fi

courtside=$(build_courtside debug)
work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-venue-deploy.XXXXXX")
trap 'stop_servers; rm -rf "$work"' EXIT

# --- 1. the systemd unit and its environment file --------------------------------------------------------------
unit="$work/courtside-venue.service"
cp deploy/venue/courtside-venue.service "$unit"
cp deploy/venue/venue.env.example "$work/venue.env"
substitute "$unit" "ExecStart=/usr/local/bin/courtside " "ExecStart=$courtside "
substitute "$unit" "EnvironmentFile=/etc/courtside/venue.env" "EnvironmentFile=$work/venue.env"
verify_status=0
verify_output=$(systemd-analyze verify "$unit" 2>&1) || verify_status=$?
about_unit=$(printf '%s\n' "$verify_output" | grep -F -e "courtside-venue.service" -e "$unit" || true)
if [ "$verify_status" -ne 0 ] || [ -n "$about_unit" ]; then
    printf '%s\n' "$verify_output" >&2
    fail "systemd-analyze verify does not accept deploy/venue/courtside-venue.service (status $verify_status)"
fi
"$courtside" serve --help >"$work/help.txt"
while read -r name; do
    grep -qF "$name" "$work/help.txt" || fail "deploy/venue/venue.env.example sets $name, which courtside does not read"
done < <(grep -oE 'COURTSIDE_[A-Z_]+' deploy/venue/venue.env.example | sort -u)
say "systemd-analyze verify: the venue unit is accepted without a message; the environment file's names are settings"

# --- 2. the compose file ---------------------------------------------------------------------------------------
python3 Tests/deploy/venue_compose.py deploy/venue/compose.yaml "$work/help.txt" ||
    fail "deploy/venue/compose.yaml (above)"
say "compose.yaml: built from deploy/Dockerfile, needs the upstream and its token, passes them on, keeps the journal"

# --- 3. the unit's command with the example's settings, against a real public node ---------------------------
token="venue-deploy-admin-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
public_port=$(free_loopback_port)
mkdir -p "$work/public-pages"
start_server "$work/public.log" "$courtside" serve --host 127.0.0.1 --port "$public_port" --data "$work/public-data" \
    --public "$work/public-pages" --admin-token "$token"
trap 'stop_servers; rm -rf "$work"' EXIT
wait_for_port "$public_port" "$SERVER_PID" 60 || fail "the public node did not start"
venue_json=$(curl -fsS -X POST "http://127.0.0.1:$public_port/api/venues" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -d '{"name":"Hall 2"}') || fail "POST /api/venues"
venue_token=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])' <<<"$venue_json")
venue_port=$(free_loopback_port)
while [ "$venue_port" = "$public_port" ]; do venue_port=$(free_loopback_port); done
substitute "$work/venue.env" "COURTSIDE_UPSTREAM=wss://scores.example.org" \
    "COURTSIDE_UPSTREAM=ws://127.0.0.1:$public_port"
substitute "$work/venue.env" "COURTSIDE_UPSTREAM_TOKEN=vk3p9x2ab.0123456789abcdef0123456789abcdef" \
    "COURTSIDE_UPSTREAM_TOKEN=$venue_token"
substitute "$work/venue.env" "COURTSIDE_HOST=0.0.0.0" "COURTSIDE_HOST=127.0.0.1"
substitute "$work/venue.env" "COURTSIDE_PORT=8080" "COURTSIDE_PORT=$venue_port"
substitute "$work/venue.env" "#COURTSIDE_ADMIN_TOKEN=change-me-to-a-long-random-token" "COURTSIDE_ADMIN_TOKEN=$token"
# The unit's ExecStart arguments, as systemd would run them with the environment file.
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
read -r -a command <<<"$exec_start"
mkdir -p "$work/venue-data" "$work/venue-pages"
command=("${command[@]/\/var\/lib\/courtside-venue/$work/venue-data}")
command=("${command[@]/\/usr\/local\/share\/courtside\/Public/$work/venue-pages}")
start_server "$work/venue.log" env -i PATH="$PATH" bash -c 'set -a; source "$1"; set +a; shift; exec "$@"' _ \
    "$work/venue.env" "${command[@]}"
trap 'stop_servers; rm -rf "$work"' EXIT
wait_for_port "$venue_port" "$SERVER_PID" 60 || { tail -n 20 "$work/venue.log" >&2; fail "the venue did not start"; }
uplink=""
for _ in $(seq 100); do
    uplink=$(curl -fsS "http://127.0.0.1:$venue_port/healthz" | python3 -c 'import json, sys; print(json.load(sys.stdin).get("uplink"))')
    [ "$uplink" = up ] && break
    sleep 0.1
done
[ "$uplink" = up ] || { tail -n 20 "$work/venue.log" >&2; fail "the venue's uplink is \"$uplink\", not up"; }
game=$(curl -fsS -X POST "http://127.0.0.1:$venue_port/api/games" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' \
    -d '{"homeTeam":"Hawks","homePlayers":["A","B","C"],"awayTeam":"Owls","awayPlayers":["D","E","F"]}') ||
    fail "POST /api/games at the venue"
game_id=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])' <<<"$game")
[[ "$game_id" == "${venue_token%%.*}."* ]] || fail "the venue's game id $game_id does not start with its venue id"
relayed=0
for _ in $(seq 100); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$public_port/api/games/$game_id"; then relayed=1; break; fi
    sleep 0.1
done
[ "$relayed" = 1 ] || { tail -n 20 "$work/venue.log" >&2; fail "game $game_id did not reach the public node"; }
say "the unit's command with venue.env.example's settings: uplink up, game $game_id relayed to the public node"
