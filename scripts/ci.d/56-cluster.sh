#!/usr/bin/env bash
# ci-lane: quiet
# The cluster test (docs/cluster.md, "Proof"): Tests/cluster/cluster.py runs, on loopback and in a temporary
# directory, Debian's redis-server (AOF with appendfsync always, a password), three release `courtside serve --redis`
# nodes and Caddy in front with active health checks on /healthz, then checks: game ids across nodes; a scorer on
# node a with 25 spectators on each of b and c (half permessage-deflate) and an event stream through Caddy, all in
# step and equal to GET /api/games/{id} on every node; two scorers racing on one game from two nodes; courts and the
# pickup queue made on one node, joined on all three and followed by a court socket on another; node c cut off
# from Redis by a test-owned proxy (unavailable, /healthz 503, drained, nothing acked lost, healed); then 20 node
# kills and 10 Redis kills (kill -9, restart) while a scorer retries unacked ids: every acked move present once,
# every spectator back in step. One line per check with figures; exits 1 on any failure. CLUSTER_SEED replays a run.
# The release build is the one 52-abuse.sh made (a no-op here). With CI=true a missing redis-server or caddy fails;
# elsewhere the step says what is missing and skips.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

# shellcheck source=Tests/cluster/step.sh
source Tests/cluster/step.sh
# The outer timeout bounds the whole step at four minutes.
cluster_step 56-cluster Tests/cluster/cluster.py 230 CLUSTER_SEED a.log b.log c.log redis.log caddy.log
