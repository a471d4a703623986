#!/usr/bin/env bash
# ci-lane: quiet
# Webhooks under --redis (docs/webhooks.md, "Several nodes"): Tests/cluster/webhooks_cluster.py runs, on loopback and
# in a temporary directory, Debian's redis-server and two release `courtside serve --redis --webhook-allow-private`
# nodes sharing one webhook, with a receiver that verifies every delivery with PyPI standardwebhooks: a game played
# on both nodes arrives once and in order; the lease holder is killed with SIGKILL while a delivery is in flight,
# and the other node takes the lapsed lease and delivers the rest from the stored cursor (none lost, a repeat only
# with the same webhook-id and body). The release build is the one 52-abuse.sh made (a no-op here). With CI=true a
# missing redis-server fails; elsewhere the step says what is missing and skips.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

python=$(e2e_python)
e2e_require_standardwebhooks "$python"
# shellcheck source=Tests/cluster/step.sh
source Tests/cluster/step.sh
# The outer timeout bounds the whole step at three minutes (the takeover waits out a 10 s lease).
cluster_step 59-cluster-webhooks Tests/cluster/webhooks_cluster.py 180 WEBHOOKS_CLUSTER_SEED a.log b.log redis.log
