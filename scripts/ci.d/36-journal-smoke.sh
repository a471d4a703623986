#!/usr/bin/env bash
# Smoke test of `courtside-load journal` (the program behind benchmarks/redis-journal.sh; the debug build, which
# scripts/ci has built): 50 games, 200 appends a second for 3 s, to the SQLite journal and to a throwaway Redis
# (Tests/cluster's RedisProcess: AOF, appendfsync always), so the benchmark keeps working as the journals change.
# Fails unless both kinds ran and stored every append (completions counted, not timed: the figures are the
# benchmark's, not this step's). About 10 s. With CI=true a missing redis-server fails; elsewhere the step skips.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"

if ! command -v redis-server >/dev/null 2>&1; then
    if [ "${CI:-}" = "true" ]; then
        echo "36-journal-smoke: FAILED: redis-server is missing (scripts/install-deps installs it)" >&2
        exit 1
    fi
    echo "36-journal-smoke: SKIPPED: redis-server is missing; run scripts/install-deps as root (CI fails instead)"
    exit 0
fi
swift build --product courtside-load
bin=$(swift build --show-bin-path)
mkdir -p .build/journal-smoke
out=.build/journal-smoke/report.json
# A p99 bound of 30 s: a slow debug step on a busy machine is not what this step checks.
status=0
timeout -k 5 120 python3 benchmarks/redis_journal.py "$bin/courtside-load" --games 50 --rates 200 --seconds 3 \
    --p99-bound 30000 --json >"$out" || status=$?
python3 - "$out" "$status" <<'CHECK'
import json, sys
path, status = sys.argv[1], int(sys.argv[2])
text = open(path).read()
try:
    report = json.loads(text[text.index("{"):])
except ValueError:
    sys.exit(f"36-journal-smoke: FAILED: no report (exit status {status}):\n{text[-2000:]}")
steps = {step["kind"]: step for step in report["steps"]}
for kind in ("sqlite", "redis"):
    step = steps.get(kind)
    if step is None:
        sys.exit(f"36-journal-smoke: FAILED: no {kind} step in the report")
    if step["failed"] or step["completed"] != step["submitted"]:
        sys.exit(f"36-journal-smoke: FAILED: {kind} stored {step['completed']} of {step['submitted']} appends "
                 f"({step['failed']} failed: {step.get('firstFailure')})")
    print(f"36-journal-smoke: {kind}: {step['completed']} appends stored at {step['achievedPerSecond']:.0f}/s, "
          f"p50 {step['p50Ms']} ms, p99 {step['p99Ms']} ms")
CHECK
