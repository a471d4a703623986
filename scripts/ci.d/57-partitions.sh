#!/usr/bin/env bash
# ci-lane: quiet
# The cluster.md "Past one Redis" test: Tests/cluster/partitions.py runs, on loopback and in a temporary directory, two
# redis-servers (AOF with appendfsync always, a password), three release `courtside serve --redis R0,R1` nodes (c
# reaching r1 through a test-owned proxy) and Caddy in front with active health checks on /healthz, then checks: a
# node given the list in another order is refused; games land on both partitions; a kill -9 of one Redis answers
# `unavailable` only for its game while the other keeps being acked and no /healthz fails; a node started while
# that Redis is down serves the other partition and answers `unavailable` for its game, then loads it; the proxy cut between c
# and r1 drains c only; every acked move present exactly once, every spectator in step. 18-22 s of checks; bounded
# at 90 s.
# With CI=true a missing redis-server or caddy fails; elsewhere the step says what is missing and skips.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

# shellcheck source=Tests/cluster/step.sh
source Tests/cluster/step.sh
cluster_step 57-partitions Tests/cluster/partitions.py 90 PARTITIONS_SEED \
    a.log b.log c.log d.log r0/redis.log r1/redis.log caddy.log
