#!/usr/bin/env bash
# ci-lane: quiet
# deploy/cluster/ proven for real (README, "Scale out"), with podman and podman-compose from Debian:
# 1. The images: local stand-ins for debian:bookworm-slim, swift:X.Y-bookworm, redis:7 and caddy:2 (no registry can
#    be reached here), and deploy/Dockerfile built for real (scripts/containers/build-images). scripts/ci starts
#    that build in the background before its first check (COURTSIDE_IMAGES_STATUS); this step then only waits for
#    it. Run alone, the step builds them itself.
# 2. The stack: deploy/cluster/ (compose.yaml, Caddyfile, redis.conf, copied unchanged to a temporary folder, with
#    the settings its .env would hold given as the environment: random secrets, Caddy on a loopback port, plain
#    HTTP, debug logs so the test can see which node holds a connection) started with `podman-compose up -d`.
# 3. Tests/deploy/cluster_failover.py plays a game through Caddy (a scorer, a spectator, an SSE reader), kills the
#    spectator's Courtside container with SIGKILL, and checks that the game goes on: the spectator reconnects and
#    resumes with since=N, the scorer's next commands are acked, every acked command is applied once, and the
#    documents are equal through Caddy and on every live node.
# 4. The single-node recipe: deploy/compose.yaml, copied unchanged beside an override file with what CI sets (nofile
#    and nproc within this machine's hard limits, a known admin token), started with `podman-compose -f compose.yaml -f
#    override.yaml up -d` in a network namespace of its own, so the recipe's `8080:8080` is published as written
#    (podman-compose 1.0.3 appends an override's `ports` to the recipe's, so an override cannot move it) and
#    reaches no other address of this machine. Tests/deploy/single_node.py plays a game through it and checks it
#    survives `podman restart`: every acked move is still in the document and play goes on.
# Everything started is stopped and removed on exit (containers, network, volumes, the images built here). With
# CI=true a missing tool fails the run; elsewhere the step says what is missing and skips.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/peers.sh
source scripts/lib/peers.sh
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

ci_step 61-cluster-deploy
step_started=$(date +%s)

require_commands 61-cluster-deploy scripts/install-deps.d/61-containers.sh podman podman-compose runc mmdebstrap curl \
    ip nsenter
[ "$(id -u)" -eq 0 ] || fail "run as root (mmdebstrap and rootful podman)"
python=$(e2e_python)

work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-cluster.XXXXXX")
project="courtside-ci-$$"
images=(docker.io/library/debian:bookworm-slim docker.io/library/redis:7 docker.io/library/caddy:2
    localhost/courtside:latest)
builder_pid=
single_project="courtside-single-$$"
netns=  # the single-node recipe's network namespace, once made
compose() {
    (cd "$work/cluster" && timeout -k 5 180 podman-compose -p "$project" -f compose.yaml "$@")
}

# stop_stack: every container of the project at once (SIGTERM, SIGKILL after 2 s), with its anonymous volume
# (deploy/Dockerfile declares /var/lib/courtside one), then the network and the named volumes. (`podman-compose
# down` stops the containers one after another and leaves all three behind.)
stop_stack() {
    local containers
    containers=$(podman ps -aq --filter "label=io.podman.compose.project=$project")
    [ -z "$containers" ] || podman rm -f -v -t 2 $containers >"$work/down.log" 2>&1 || cat "$work/down.log" >&2
    podman network rm -f "${project}_courtside" >/dev/null 2>&1 || true
    podman volume ls -q --filter "label=io.podman.compose.project=$project" |
        xargs -r podman volume rm -f >/dev/null 2>&1 || true
    rm -f "$work/cluster/compose.yaml"
    [ -z "$(podman ps -aq --filter "label=io.podman.compose.project=$project")" ]
}

# in_netns COMMAND...: COMMAND in the single-node recipe's network namespace (only the network: podman's mounts
# stay where every other podman command sees them).
in_netns() { nsenter --net="/run/netns/$netns" "$@"; }

# stop_single: the single-node recipe's container with its volumes, its network (in its namespace, where netavark
# set it up), then the namespace.
stop_single() {
    local containers
    containers=$(podman ps -aq --filter "label=io.podman.compose.project=$single_project")
    [ -z "$containers" ] || in_netns podman rm -f -v -t 2 $containers >"$work/single-down.log" 2>&1 ||
        cat "$work/single-down.log" >&2
    in_netns podman network rm -f "${single_project}_default" >/dev/null 2>&1 || true
    podman volume ls -q --filter "label=io.podman.compose.project=$single_project" |
        xargs -r podman volume rm -f >/dev/null 2>&1 || true
    ip netns delete "$netns" 2>/dev/null || true
    netns=
    [ -z "$(podman ps -aq --filter "label=io.podman.compose.project=$single_project")" ]
}

cleanup() {
    if [ -n "$builder_pid" ]; then
        kill -TERM -- "-$builder_pid" 2>/dev/null || true
        wait "$builder_pid" 2>/dev/null || true
    fi
    [ ! -f "$work/cluster/compose.yaml" ] || stop_stack || true
    [ -z "$netns" ] || stop_single || true
    # COURTSIDE_KEEP_IMAGES=1 keeps them, to run the stack again by hand.
    [ "${COURTSIDE_KEEP_IMAGES:-}" = 1 ] ||
        podman rmi -f "${images[@]}" "docker.io/library/swift:${swift_tag:-none}" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- 1. images --------------------------------------------------------------------------------------------------
swift_tag="$(sed -nE 's/^ARG SWIFT_VERSION=([0-9.]+)$/\1/p' deploy/Dockerfile)-bookworm"
status=${COURTSIDE_IMAGES_STATUS:-}
if [ -n "$status" ] && [ -d "$status" ]; then
    say "waiting for the images scripts/ci has been building in the background"
else
    status="$work/images"
    mkdir -p "$status"
    setsid scripts/containers/build-images "$status" </dev/null >"$work/build-images.log" 2>&1 &
    builder_pid=$!
fi
# Until the build's result, while the build lives (build-images writes its pid first), within a bound with a wide
# margin (about 4 minutes alone on a quiet 2-core machine, 12 on one shared with four other builds).
for _ in $(seq 1800); do
    [ -s "$status/result" ] && break
    if [ -s "$status/pid" ] && ! kill -0 "$(cat "$status/pid")" 2>/dev/null; then
        sleep 1  # it may have written its result as it ended
        [ -s "$status/result" ] || echo "failed: build-images ended without a result" >"$status/result"
        break
    fi
    sleep 1
done
[ -s "$status/result" ] || fail "the images were not built within 30 minutes ($(cat "$status/timings" 2>/dev/null))"
builder_pid=
images_ready=$(date +%s)
say "image build seconds: $(tr '\n' ';' <"$status/timings" | sed 's/;/; /g')"
if [ "$(cat "$status/result")" != ok ]; then
    for log in "$status"/*.log; do
        echo "--- $log (last 30 lines)" >&2
        tail -n 30 "$log" >&2
    done
    fail "building the images: $(cat "$status/result")"
fi

# --- 2. the stack -----------------------------------------------------------------------------------------------
mkdir -p "$work/cluster"
cp deploy/cluster/compose.yaml deploy/cluster/Caddyfile deploy/cluster/redis.conf "$work/cluster/"
http_port=$(free_loopback_port)
https_port=$(free_loopback_port)
hard_nofile=$(ulimit -Hn)
[ "$hard_nofile" = unlimited ] && hard_nofile=65536
REDIS_PASSWORD=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
COURTSIDE_ADMIN_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
SITE_ADDRESS=":80"
HTTP_PUBLISH="127.0.0.1:$http_port"
HTTPS_PUBLISH="127.0.0.1:$https_port"
COURTSIDE_LOG_LEVEL=debug
COURTSIDE_NOFILE=$((hard_nofile < 65536 ? hard_nofile : 65536))
export REDIS_PASSWORD COURTSIDE_ADMIN_TOKEN SITE_ADDRESS HTTP_PUBLISH HTTPS_PUBLISH COURTSIDE_LOG_LEVEL COURTSIDE_NOFILE

show_stack_logs() {
    local container
    for container in $(podman ps -a --format '{{.Names}}' --filter "label=io.podman.compose.project=$project"); do
        echo "--- podman logs $container (last 25 lines)" >&2
        podman logs --tail 25 "$container" >&2 2>&1 || true
    done
}

stack_started=$(date +%s)
compose up -d >"$work/up.log" 2>&1 || {
    cat "$work/up.log" >&2
    show_stack_logs
    fail "podman-compose up -d"
}
containers=()
for node in courtside-1 courtside-2 courtside-3; do
    containers+=("${project}_${node}_1")
done
for container in "${containers[@]}" "${project}_redis_1" "${project}_caddy_1"; do
    [ "$(podman inspect -f '{{.State.Running}}' "$container" 2>/dev/null)" = true ] || {
        show_stack_logs
        fail "$container is not running after podman-compose up"
    }
done
# Redis as the compose file asks: a password, the append-only file fsynced on every write.
redis_config=$(podman exec "${project}_redis_1" redis-cli --no-auth-warning -a "$REDIS_PASSWORD" \
    config get appendfsync 2>&1 | tr '\n' ' ')
[ "$redis_config" = "appendfsync always " ] || fail "Redis: CONFIG GET appendfsync answered \"$redis_config\""
unauthenticated=$(podman exec "${project}_redis_1" redis-cli ping 2>&1 || true)
[[ "$unauthenticated" == *NOAUTH* ]] || fail "Redis answered PING without the password: $unauthenticated"
say "stack up in $(($(date +%s) - stack_started)) s: redis (password, appendfsync always), three nodes, caddy on" \
    "127.0.0.1:$http_port"

# --- 3. a game through Caddy, one node killed -------------------------------------------------------------------
game_status=0
timeout -k 5 300 "$python" Tests/deploy/cluster_failover.py --url "http://127.0.0.1:$http_port" \
    --admin-token "$COURTSIDE_ADMIN_TOKEN" --containers "$(
        IFS=,
        echo "${containers[*]}"
    )" || game_status=$?
if [ "$game_status" -ne 0 ]; then
    show_stack_logs
    fail "the game did not go on through Caddy after a node was killed (status $game_status)"
fi
down_started=$(date +%s)
stop_stack || fail "the stack's containers did not stop"
single_started=$(date +%s)

# --- 4. the single-node recipe, restarted -----------------------------------------------------------------------
mkdir -p "$work/single"
cp deploy/compose.yaml "$work/single/compose.yaml"
single_token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
# nproc too: a container's own ulimits replace podman's default list (containers.conf, 61-containers.sh), and
# podman's own nproc default is above this machine's hard limit (runc: "error setting rlimit type 6"); docker sets
# none. Only maps and scalars: podman-compose 1.0.3 merges maps key by key and replaces scalars, but appends lists.
hard_nproc=$(ulimit -Hu)
[ "$hard_nproc" = unlimited ] && hard_nproc=4096
cat >"$work/single/override.yaml" <<YAML
services:
  courtside:
    environment:
      COURTSIDE_ADMIN_TOKEN: "$single_token"
    ulimits:
      nofile: $COURTSIDE_NOFILE
      nproc: $((hard_nproc < 4096 ? hard_nproc : 4096))
YAML
ip netns add "courtside-single-$$" || fail "ip netns add courtside-single-$$"
netns="courtside-single-$$"
ip -n "$netns" link set lo up || fail "ip -n $netns link set lo up"
container="${single_project}_courtside_1"
(cd "$work/single" && timeout -k 5 180 nsenter --net="/run/netns/$netns" \
    podman-compose -p "$single_project" -f compose.yaml -f override.yaml up -d) >"$work/single-up.log" 2>&1 || {
    cat "$work/single-up.log" >&2
    project=$single_project show_stack_logs
    fail "podman-compose up -d (deploy/compose.yaml with the override)"
}
[ "$(podman inspect -f '{{.State.Running}}' "$container" 2>/dev/null)" = true ] || {
    tail -n 15 "$work/single-up.log" >&2
    project=$single_project show_stack_logs
    fail "$container is not running after podman-compose up"
}
# The override took: the open-file limit inside, the recipe's port as written.
nofile_inside=$(podman exec "$container" sh -c 'ulimit -n' 2>&1)
[ "$nofile_inside" = "$COURTSIDE_NOFILE" ] ||
    fail "$container: ulimit -n is $nofile_inside, the override sets $COURTSIDE_NOFILE"
published=$(podman port "$container" 8080/tcp 2>&1)
[ "$published" = "0.0.0.0:8080" ] || fail "$container: 8080/tcp published on \"$published\", the recipe says 8080:8080"
game_status=0
timeout -k 5 300 nsenter --net="/run/netns/$netns" "$python" Tests/deploy/single_node.py \
    --url "http://127.0.0.1:8080" --admin-token "$single_token" --container "$container" || game_status=$?
if [ "$game_status" -ne 0 ]; then
    project=$single_project show_stack_logs
    fail "the game through deploy/compose.yaml did not survive podman restart (status $game_status)"
fi
stop_single || fail "the single-node recipe's container did not stop"
say "single node: deploy/compose.yaml up, a game, podman restart, play on, removed in" \
    "$(($(date +%s) - single_started)) s"
say "passed in $(($(date +%s) - step_started)) s: $((images_ready - step_started)) s waiting for the images," \
    "$((down_started - images_ready)) s for the stack and the game, $((single_started - down_started)) s to stop it," \
    "$(($(date +%s) - single_started)) s for the single-node recipe"
