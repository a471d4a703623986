#!/usr/bin/env bash
# ci-lane: quiet
# Whole batches on every node: Tests/cluster/batches.py runs, on loopback and in a temporary directory, Debian's
# redis-server and three release `courtside serve --redis` nodes; b and c are stopped (SIGSTOP) while a writes a
# backlog of 2,048 feed entries, with moves that arrive after a time limit (stored with the limit as one two-event
# batch) on the 512-entry read boundaries; then b and c continue (their own time-limit ticks overdue) and every
# patch's bytes at every seq of every game must be the same on every node, every node on a's document. About 40 s;
# bounded at 150 s. With CI=true a missing redis-server fails; elsewhere the step says what is missing and skips.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

# shellcheck source=Tests/cluster/step.sh
source Tests/cluster/step.sh
cluster_step 58-batches Tests/cluster/batches.py 150 BATCHES_SEED a.log b.log c.log redis.log
