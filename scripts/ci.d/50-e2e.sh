#!/usr/bin/env bash
# End-to-end test with a client nobody here wrote (ISSUE5 "Done when"): Tests/e2e/game_e2e.py (PyPI websockets)
# against `courtside serve` on a free loopback port, a temporary data directory and a known admin token: a game
# created over HTTP, 50 spectators (half with permessage-deflate), a whole game played by the scorer, every
# spectator's document equal to GET /api/games/{id}, a spectator's command refused. The server is stopped on exit.
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
        --spectators 50
}
serve_and_check e2e debug game_e2e
