#!/usr/bin/env bash
# A real game, replayed: Tests/e2e/realgame_replay.py (PyPI websockets) scores a published game
# (shared/realgame/game.json, described in its README) through the scorer's WebSocket of a
# `courtside serve` on a free loopback port, as a scorer at the table would (the rosters and published starters,
# setClock before each row, substitute, timeout, teamMove, endPeriod, final), then compares the running score after
# every row and the box score (the document's stats and GET /api/games/{id}/boxscore) with the official one, every
# player and column, minutes to the second and plus-minus included. Rows Courtside cannot express are printed with
# the reason. The data is read where it lies, never copied into the repository: with CI=true a missing game.json
# fails the step; elsewhere the step skips. About 15 s after the build.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

# Beside the clone (CI), or one level further up (a worktree under wt/<name>); COURTSIDE_SHARED overrides both.
game=""
for candidate in "${COURTSIDE_SHARED:-}" "$ROOT/../shared" "$ROOT/../../shared"; do
    if [ -n "$candidate" ] && [ -f "$candidate/realgame/game.json" ]; then
        game="$candidate/realgame/game.json"
        break
    fi
done
if [ -z "$game" ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "51-realgame: FAILED: shared/realgame/game.json is missing beside the repository" \
            "(set COURTSIDE_SHARED)" >&2
        exit 1
    fi
    echo "51-realgame: SKIPPED: shared/realgame/game.json not found beside the repository (CI fails instead)"
    exit 0
fi

python=$(e2e_python)
realgame() {
    timeout -k 5 240 "$python" Tests/e2e/realgame_replay.py --url "http://127.0.0.1:$port" --admin-token "$token" \
        --game "$game"
}
serve_and_check realgame debug realgame
