#!/usr/bin/env bash
# ci-lane: quiet
# Two scorers who confirm each other (docs/protocol.md, "Two scorers who confirm each other"):
# Tests/e2e/dual_scorers_e2e.py against `courtside serve` on a free loopback port. Two crew members with the role
# scorer enter a whole 5x5 game from one script on links the program cuts at random (each command retried with its
# CID), with a disagreement every tenth scoring play (another player, another move, a missed entry, a play that never
# happened): each must show as a conflict on both scorers within 2 s and is resolved the script's way; at the end
# nothing is pending, nothing counted twice or lost (every player's statistics and the score equal the script's),
# every spectator's document equals GET /api/games/{id}, and the plays report names who entered and who confirmed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

python=$(e2e_python)
dual_scorers() {
    timeout -k 5 300 "$python" Tests/e2e/dual_scorers_e2e.py --url "http://127.0.0.1:$port" --admin-token "$token" \
        --spectators 6 --timeout 280
}
serve_and_check dual-scorers debug dual_scorers
