#!/usr/bin/env bash
# A league day through Redis (figures in docs/benchmarks.md, "Several nodes and Redis"):
# `courtside-load journal` appends one move at a time to 1,000 games, round-robin, at 500 appends/s for 10 s, then
# 1,000, 2,000, 4,000 … a step, to Redis (Debian's redis-server, AOF with appendfsync always, as the cluster test
# runs it) and to the SQLite journal side by side, rate by rate, until a journal falls behind (completes under 95% of
# the rate) or its p99 passes 1 s (on this shared machine scheduling stalls alone put p99
# past 100 ms at 500/s). Prints append latency p50/p99/max, appends/s achieved, CPU per append of the
# program and of Redis, and the load average. Loopback only; bounded by the steps (at most ~4 minutes).
# Environment: RATES (default 500,1000,2000,4000,8000,16000,32000), SECONDS_PER_STEP (10), GAMES (1000),
# CONNECTIONS (Redis connections the games are spread over, as nodes would; default 1), KINDS (sqlite,redis),
# P99_BOUND (milliseconds, default 1000).
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"
command -v redis-server >/dev/null 2>&1 || { echo "redis-journal: needs redis-server (scripts/install-deps)" >&2; exit 1; }
load="$(release_bin courtside-load)/courtside-load"
echo "redis-journal: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%F %H:%M') UTC," \
    "load $(load_average)"
timeout -k 10 1800 python3 benchmarks/redis_journal.py "$load" --games "${GAMES:-1000}" \
    --rates "${RATES:-500,1000,2000,4000,8000,16000,32000}" --seconds "${SECONDS_PER_STEP:-10}" \
    --connections "${CONNECTIONS:-1}" --kinds "${KINDS:-sqlite,redis}" \
    --p99-bound "${P99_BOUND:-1000}"
