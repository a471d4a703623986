#!/usr/bin/env bash
# What several nodes and Redis cost one big game (figures in docs/benchmarks.md, "Several nodes and Redis"):
# benchmarks/cluster_fanout.py runs one game with 10,000 spectators and a scorer sending 3 moves a
# second for 20 s (60 commands) against, one after the other, three release `courtside serve --redis` nodes sharing
# one Redis (AOF, appendfsync always), one such node alone, and one node on its SQLite journal; it prints
# command-to-spectator p50/p99 (overall and by node), the nodes' CPU per delivery, Redis's CPU, and the load average.
# Everything on loopback, every process stopped at the end; about 2–3 minutes.
# Environment: SPECTATORS (default 10000), RATE (3), DURATION (20), THREADS (each node's --threads, default 1; 0 for
# one loop per core), SETUPS (default three-nodes,one-node-redis,one-node-sqlite).
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

for tool in redis-server; do
    command -v "$tool" >/dev/null 2>&1 || { echo "cluster-fanout: needs $tool (scripts/install-deps)" >&2; exit 1; }
done
python=$(e2e_python)
courtside=$(build_courtside release)
mkdir -p .build/cluster-fanout
build_spectators .build/cluster-fanout
# Each spectator is a descriptor in a node and in a spectator process: raise the soft limit to the hard one.
raise_open_files
spectators=${SPECTATORS:-10000}
if [ "$spectators" -gt "$((OPEN_FILES - 256))" ]; then
    echo "cluster-fanout: $spectators spectators need more than the open-file limit $OPEN_FILES allows" >&2
    exit 1
fi
echo "cluster-fanout: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%F %H:%M') UTC," \
    "load $(load_average), open-file limit $OPEN_FILES"
timeout -k 10 900 "$python" benchmarks/cluster_fanout.py --courtside "$courtside" \
    --spectators-binary .build/cluster-fanout/spectators --spectators "$spectators" --rate "${RATE:-3}" \
    --duration "${DURATION:-20}" --threads "${THREADS:-1}" \
    --setups "${SETUPS:-three-nodes,one-node-redis,one-node-sqlite}" --json
