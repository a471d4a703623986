#!/usr/bin/env bash
# ci-lane: quiet
# End-to-end test with a client nobody here wrote (docs/server.md, "Tests"): Tests/e2e/game_e2e.py (PyPI websockets)
# against `courtside serve` on a free loopback port, a temporary data directory and a known admin token: a game
# created over HTTP, 50 spectators (half with permessage-deflate), a whole game played by the scorer, every
# spectator's document equal to GET /api/games/{id}, a spectator's command refused. Then Tests/e2e/fiba_e2e.py on
# the same server (docs/protocol.md): a whole FIBA 3x3 game (the clock running out into overtime, fouls, timeouts, shot
# clock, corrections, final and the admin's reopen) and a 5x5 quarter with substitutions, every document equal to
# GET /api/games/{id} and the box score CSV's totals equal to the score. The server is stopped on exit.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

python=$(e2e_python)
game_e2e() {
    timeout -k 5 240 "$python" Tests/e2e/game_e2e.py --url "http://127.0.0.1:$port" --admin-token "$token" \
        --spectators 50 || return
    timeout -k 5 180 "$python" Tests/e2e/fiba_e2e.py --url "http://127.0.0.1:$port" --admin-token "$token" \
        --spectators 10
}
serve_and_check e2e debug game_e2e
