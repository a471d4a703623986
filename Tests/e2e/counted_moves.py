"""Moves whose only effect is a count, and the check that a game's counts equal the acked ones: what the kill -9
test (kill9.py) and the cluster test (Tests/cluster) prove durability and exactly-once with. `onePoint`, `assist`,
`rebound` and `foul` over the six players of a custom game with target 999: a lost acked command shows as a count
too low, a command applied twice (or a retry applied again) as a count too high.
"""

MOVES = ["onePoint", "assist", "rebound", "foul"]
COUNT_FIELDS = {
    "onePoint": "onePointMoveCount",
    "assist": "assistMoveCount",
    "rebound": "reboundMoveCount",
    "foul": "foulMoveCount",
}
PLAYERS = [f"{team}-{index}" for team in ("home", "away") for index in range(3)]
# The target is 999 at most; one-point moves stop well before it so the game never finishes.
MAX_ONE_POINTS_PER_TEAM = 900
RULES = {"preset": "custom", "targetScore": 999, "winBy": 1}


def count_problems(state, expected):
    """The game document `state` against `expected`, a Counter of (player, move) over the acked commands: one line
    per count that differs, naming a loss or a duplicate, and the scores against the acked one-point moves."""
    problems = []
    players = {p["id"]: p for p in state["homePlayers"] + state["awayPlayers"]}
    for player in PLAYERS:
        for move, field in COUNT_FIELDS.items():
            have, want = int(players[player][field]), expected[(player, move)]
            if have != want:
                kind = "LOST acked commands" if have < want else "DUPLICATED commands"
                problems.append(f"{kind}: {player} {field} is {have}, {want} acked")
    for team in ("home", "away"):
        want = sum(expected[(f"{team}-{i}", "onePoint")] for i in range(3))
        if state[f"{team}Score"] != want:
            problems.append(f"{team}Score is {state[team + 'Score']}, {want} one-point moves acked")
    return problems
