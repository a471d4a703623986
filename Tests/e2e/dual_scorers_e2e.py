#!/usr/bin/env python3
"""Two scorers who confirm each other, on links that drop, score a whole game from one script (PyPI `websockets`).

Run by CI (scripts/ci.d/54-dual-scorers.sh) against `--url`, a server started with a known admin token. What it proves
(docs/protocol.md, "Two scorers who confirm each other"):
1. a 5x5 game with `"confirmation":"dual"` and a short window; two crew members with the role `scorer`, A and B, each
   on its own scorer socket, and spectators (half with permessage-deflate);
2. the script is played from both sheets: every scoring play (points or a foul) is entered by A, then by B, as two
   paper scorers would; the other plays (misses, rebounds, assists, …) only by A. Every tenth scoring play the
   sheets disagree on purpose, in turn: B names another player, B enters another move, B enters nothing (the window
   runs out), and A enters a play that never happened (B enters nothing);
3. both links drop at random (the socket is cut without a close, before a command is sent or after, before its
   answer is read): the client reconnects and sends the command again with the same CID, as docs/protocol.md tells
   a scorer to, so a command may reach the server twice and must count once;
4. each disagreement must show as a conflict on both scorers' documents within 2 s (of B's entry, or of the end of
   the window); one of them resolves it the way the script says (`first`, `second`, `neither`), again over a link
   that may drop;
5. at the end: nothing pending, no conflict left, every player's points, fouls, field goals and free throws and each
   team's score equal the script's (nothing counted twice, nothing lost), every spectator's document equals
   GET /api/games/{id}, and the plays report says who entered and who confirmed each scoring play.

Exits 1 with a line per problem; every wait is bounded.
"""

import argparse
import asyncio
import json
import random
import sys
import time

import websockets
from websockets.asyncio.client import connect

import jsonpatch
from courtside_client import FeedDocument, configure_transport, connection_options, http_call, ws_url
from game_e2e import Check, Failures

# The moves the script uses, and what each adds to a player's statistics (docs/protocol.md, "Statistics").
SCORING = {
    "twoPoints": {"points": 2, "fieldGoalsMade": 1, "fieldGoalsAttempted": 1},
    "threePoints": {"points": 3, "fieldGoalsMade": 1, "fieldGoalsAttempted": 1},
    "freeThrow": {"points": 1, "freeThrowsMade": 1, "freeThrowsAttempted": 1},
    "foul": {"fouls": 1},
}
OTHER = {
    "twoPointsMissed": {"fieldGoalsAttempted": 1},
    "threePointsMissed": {"fieldGoalsAttempted": 1},
    "freeThrowMissed": {"freeThrowsAttempted": 1},
    "defensiveRebound": {"rebounds": 1},
    "offensiveRebound": {"rebounds": 1},
    "assist": {"assists": 1},
    "steal": {"steals": 1},
}
CHECKED = ["points", "fouls", "fieldGoalsMade", "fieldGoalsAttempted", "freeThrowsMade", "freeThrowsAttempted",
           "rebounds", "assists", "steals"]
# A player fouls out at their fifth foul (FIBA art. 40): the script keeps everyone eligible.
MAX_FOULS = 4
# The ways the two sheets disagree, in turn, and how the scorers resolve each (which entry the script holds true).
DISAGREEMENTS = [("other-player", "first"), ("other-move", "second"), ("no-entry", "first"), ("phantom", "neither")]


class Scorer:
    """One scorer device: a scorer socket that it cuts at random and reopens, retrying commands with their CIDs."""

    def __init__(self, name, args, game_id, token, rng, check):
        self.name, self.args, self.game_id, self.token, self.rng, self.check = name, args, game_id, token, rng, check
        self.socket = None
        self.reader = None
        self.document = None
        self.answers = {}
        self.answered = asyncio.Event()
        self.drops = 0
        self.retries = 0
        self.member = None

    @property
    def state(self):
        return self.document.state if self.document else None

    async def open(self):
        url = ws_url(self.args.url, f"/ws/games/{self.game_id}/scorer")
        for attempt in range(20):
            try:
                self.socket = await connect(url, open_timeout=10, close_timeout=2, ping_interval=None,
                                            compression="deflate" if self.name == "A" else None,
                                            **connection_options(url))
                break
            except (OSError, websockets.InvalidHandshake, asyncio.TimeoutError) as error:
                self.check.fatal(attempt < 19, f"scorer {self.name}: cannot reconnect: {error!r}")
                await asyncio.sleep(0.05 * (attempt + 1))  # a reconnect backoff (bounded by the attempt count)
        self.document = FeedDocument(f"scorer-{self.name}", self.game_id)
        await self.socket.send(json.dumps({"type": "auth", "token": self.token}))
        authenticated = json.loads(await asyncio.wait_for(self.socket.recv(), 10))
        self.check.fatal(authenticated.get("type") == "authenticated" and authenticated.get("role") == "scorer",
                         f"scorer {self.name}: auth answered {authenticated}")
        self.member = authenticated.get("member")
        self.reader = asyncio.create_task(self._read(self.socket, self.document))
        self.check.fatal(await self.document.wait_for_seq(0, 10), f"scorer {self.name}: no snapshot after auth")

    async def _read(self, socket, document):
        try:
            async for raw in socket:
                message = json.loads(raw)
                if message.get("type") in ("ack", "error") and message.get("id") is not None:
                    self.answers[message["id"]] = message
                    self.answered.set()
                elif message.get("type") not in ("crew", "viewers"):
                    document.take(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            document.seq_changed.set()
            self.answered.set()

    def cut(self):
        """The link drops: no close frame, the TCP connection is simply gone (a phone leaving the Wi-Fi)."""
        self.drops += 1
        self.socket.transport.abort()

    async def command(self, command):
        """Sends `command` until it is answered, cutting the link at random around the send; returns the answer."""
        deadline = time.monotonic() + 60
        while command["id"] not in self.answers:
            self.check.fatal(time.monotonic() < deadline, f"scorer {self.name}: {command} not answered in 60 s")
            if self.socket is None or self.reader.done():
                await self.open()
            if self.rng.random() < self.args.drop_before:
                self.cut()
                await self.reader
                continue
            try:
                await self.socket.send(json.dumps(command))
            except websockets.ConnectionClosed:
                self.retries += 1
                continue
            if self.rng.random() < self.args.drop_after:
                self.cut()  # the command may or may not have reached the server: the retry must count once
                await self.reader
                self.retries += 1
                continue
            while command["id"] not in self.answers and not self.reader.done():
                self.answered.clear()
                try:
                    await asyncio.wait_for(self.answered.wait(), max(0.1, deadline - time.monotonic()))
                except asyncio.TimeoutError:
                    break
            if command["id"] not in self.answers:
                self.retries += 1
        return self.answers[command["id"]]

    async def wait_until(self, predicate, timeout):
        """Until this scorer's document satisfies `predicate`; returns the seconds it took, or None."""
        started = time.monotonic()
        while not predicate(self.state or {}):
            remaining = started + timeout - time.monotonic()
            if remaining <= 0:
                return None
            self.document.seq_changed.clear()
            try:
                await asyncio.wait_for(self.document.seq_changed.wait(), remaining)
            except asyncio.TimeoutError:
                return None
        return time.monotonic() - started

    async def close(self):
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            await asyncio.wait_for(self.reader, 10)


def make_script(rng, plays):
    """The game as it happened: (team, player, move), every player kept under their fifth foul."""
    fouls = {}
    script = []
    while len(script) < plays:
        team = rng.choice(["home", "away"])
        player = f"{team}-{rng.randrange(5)}"
        move = rng.choice(list(SCORING) + list(OTHER)) if rng.random() < 0.75 else rng.choice(list(SCORING))
        if move == "foul":
            if fouls.get(player, 0) >= MAX_FOULS:
                continue
            fouls[player] = fouls.get(player, 0) + 1
        script.append((team, player, move))
    return script


def other_player(player):
    team, index = player.split("-")
    return f"{team}-{(int(index) + 1) % 5}"


def other_move(move):
    return {"twoPoints": "threePoints", "threePoints": "twoPoints", "freeThrow": "twoPoints", "foul": "freeThrow"}[move]


def conflicts(state):
    return state.get("conflicts") or []


def pending_plays(state):
    return [p for p in state.get("plays", []) if p.get("pending") and not p.get("deleted")]


async def play_game(args, check):
    rng = random.Random(args.seed)
    names = ["Ann", "Bo", "Cy", "Dan", "Eve", "Fay", "Gil"]
    created = await http_call(args.url, "POST", "/api/games", token=args.admin_token, body={
        "homeTeam": "Bulls", "homePlayers": names, "awayTeam": "Knicks", "awayPlayers": [f"{n}2" for n in names],
        "rules": {"preset": "fiba5x5", "confirmation": "dual", "confirmWindowMs": args.window_ms},
    })
    check.fatal(created.status == 201, f"POST /api/games: expected 201, got {created}")
    game_id, scorer_token = created.json()["id"], created.json()["scorerToken"]
    tokens = {}
    for name in ("A", "B"):
        member = await http_call(args.url, "POST", f"/api/games/{game_id}/crew", token=scorer_token,
                                 body={"role": "scorer", "label": f"Scorer {name}"})
        check.fatal(member.status == 201, f"POST crew for scorer {name}: {member}")
        tokens[name] = member.json()["token"]
    a = Scorer("A", args, game_id, tokens["A"], random.Random(args.seed + 1), check)
    b = Scorer("B", args, game_id, tokens["B"], random.Random(args.seed + 2), check)
    await a.open()
    await b.open()
    spectators = []
    for index in range(args.spectators):
        url = ws_url(args.url, f"/ws/games/{game_id}")
        socket = await connect(url, open_timeout=10, ping_interval=None,
                               compression="deflate" if index % 2 == 0 else None, **connection_options(url))
        document = FeedDocument(f"spectator-{index}", game_id)
        spectators.append((socket, document, asyncio.create_task(read_spectator(socket, document))))

    script = make_script(rng, args.plays)
    truth = []  # the plays that end up in the record, as the script says they happened
    numbers = {"A": 0, "B": 0}
    flagged = []  # seconds from the disagreement to its conflict on both scorers

    def next_id(name):
        numbers[name] += 1
        return f"{name}-{numbers[name]}"

    async def enter(scorer, team, player, move):
        answer = await scorer.command({"type": "move", "id": next_id(scorer.name), "player": player, "move": move})
        check.fatal(answer.get("type") == "ack", f"scorer {scorer.name}: {player} {move} answered {answer}")
        return answer

    async def flagged_on_both(known, timeout):
        """Waits for a conflict not in `known` on both scorers; returns it and the seconds until both showed it."""
        def fresh(state):
            return [c for c in conflicts(state) if c.get("play") not in known]
        took = await asyncio.gather(a.wait_until(lambda s: fresh(s), timeout), b.wait_until(lambda s: fresh(s), timeout))
        if None in took:
            return None, None
        return fresh(a.state)[0], max(took)

    scoring_count = 0
    for team, player, move in script:
        if move not in SCORING:
            await enter(a, team, player, move)
            truth.append((team, player, move))
            continue
        scoring_count += 1
        kind = None
        if scoring_count % 10 == 0:
            kind, keep = DISAGREEMENTS[(scoring_count // 10 - 1) % len(DISAGREEMENTS)]
        known = {c.get("play") for c in conflicts(a.state)}
        if kind is None:
            await enter(a, team, player, move)
            await enter(b, team, player, move)
            truth.append((team, player, move))
            continue
        if kind == "phantom":
            # A enters a play that never happened; B (rightly) enters nothing; the window runs out.
            await enter(a, team, player, move)
            started = time.monotonic()
            conflict, _ = await flagged_on_both(known, args.window_ms / 1000 + 2 + args.slack)
            took = max(0.0, time.monotonic() - started - args.window_ms / 1000)
        elif kind == "no-entry":
            # The play happened; B missed it.
            await enter(a, team, player, move)
            truth.append((team, player, move))
            started = time.monotonic()
            conflict, _ = await flagged_on_both(known, args.window_ms / 1000 + 2 + args.slack)
            took = max(0.0, time.monotonic() - started - args.window_ms / 1000)
        else:
            # The sheets disagree on the player or the move: the script holds the first (A) or the second (B) true.
            wrong = (team, other_player(player), move) if kind == "other-player" else (team, player, other_move(move))
            first, second = ((team, player, move), wrong) if keep == "first" else (wrong, (team, player, move))
            await enter(a, *first)
            await enter(b, *second)
            truth.append((team, player, move))
            conflict, took = await flagged_on_both(known, 2 + args.slack)
        check.fatal(conflict is not None, f"{kind} disagreement on {team} {player} {move}: no conflict on both scorers")
        flagged.append(took)
        check.expect(took <= 2.0, f"{kind} disagreement flagged to both after {took:.2f} s (over 2 s)")
        resolver = a if scoring_count % 20 == 0 else b
        answer = await resolver.command({"type": "resolve", "id": next_id(resolver.name), "play": conflict["play"],
                                         "keep": keep})
        check.fatal(answer.get("type") == "ack", f"resolve {conflict} keep {keep} answered {answer}")
        gone = lambda s: all(c.get("play") != conflict["play"] for c in conflicts(s))
        check.fatal(await a.wait_until(gone, 10) is not None and await b.wait_until(gone, 10) is not None,
                    f"conflict on play {conflict['play']} still shown after its resolution")

    # Everything is confirmed or resolved: nothing pending, nothing in conflict.
    final = await http_call(args.url, "GET", f"/api/games/{game_id}")
    check.fatal(final.status == 200, f"GET /api/games/{game_id}: {final}")
    final = final.json()
    state = final["state"]
    check.expect(pending_plays(state) == [], f"plays still pending at the end: {pending_plays(state)}")
    check.expect(conflicts(state) == [], f"conflicts left at the end: {conflicts(state)}")
    check_statistics(check, state, truth)
    await check_spectators(check, spectators, final)
    await check_report(check, args, game_id, {a.member, b.member})
    for scorer in (a, b):
        await scorer.close()
    print(f"dual scorers: {len(script)} plays ({scoring_count} scoring, {len(flagged)} disagreements, flagged in at "
          f"most {max(flagged):.2f} s), links cut {a.drops} + {b.drops} times, commands retried {a.retries} + "
          f"{b.retries} times, score {state['homeScore']}-{state['awayScore']}, seq {final['seq']}", flush=True)


def check_statistics(check, state, truth):
    expected = {}
    for team, player, move in truth:
        for stat, amount in {**SCORING, **OTHER}[move].items():
            expected.setdefault(player, {}).setdefault(stat, 0)
            expected[player][stat] += amount
    for side in ("home", "away"):
        for entry in state[f"{side}Players"]:
            for stat in CHECKED:
                want = expected.get(entry["id"], {}).get(stat, 0)
                check.expect(entry["stats"][stat] == want,
                             f"{entry['id']} {stat} is {entry['stats'][stat]}, the script says {want}")
        score = sum(expected.get(p["id"], {}).get("points", 0) for p in state[f"{side}Players"])
        check.expect(state[f"{side}Score"] == score, f"{side} score {state[f'{side}Score']}, the script says {score}")


async def read_spectator(socket, document):
    try:
        async for raw in socket:
            document.take(json.loads(raw))
    except websockets.ConnectionClosed:
        pass
    finally:
        document.seq_changed.set()


async def check_spectators(check, spectators, final):
    for socket, document, reader in spectators:
        reached = await document.wait_for_seq(final["seq"], 15)
        check.expect(reached, f"{document.name}: at seq {document.seq}, the game is at {final['seq']}")
        check.expect(document.problems == [], f"{document.name}: {document.problems}")
        if reached:
            check.expect(jsonpatch.canonical(document.state) == jsonpatch.canonical(final["state"]),
                         f"{document.name}: its document differs from GET /api/games/{{id}} at seq {final['seq']}")
        await socket.close()
        await asyncio.wait_for(reader, 10)


async def check_report(check, args, game_id, members):
    report = await http_call(args.url, "GET", f"/api/games/{game_id}/plays")
    check.fatal(report.status == 200, f"GET plays report: {report}")
    for play in report.json()["plays"]:
        if play.get("deleted") or play.get("move") not in SCORING:
            continue
        number, entered = play.get("play"), play.get("enteredBy")
        check.expect(entered in members, f"play {number}: enteredBy {entered!r}, not a scorer")
        if "resolvedBy" in play:
            # A play the scorers disagreed on says who resolved it and which entry was kept instead.
            check.expect(play["resolvedBy"] in members and play.get("kept") in ("first", "second", "both"),
                         f"play {number}: resolvedBy {play['resolvedBy']!r}, kept {play.get('kept')!r}")
        else:
            confirmed = play.get("confirmedBy")
            check.expect(confirmed in members and confirmed != entered,
                         f"play {number}: entered by {entered!r}, confirmed by {confirmed!r}: not the other scorer")


async def run(args):
    configure_transport()
    check = Check()
    try:
        await asyncio.wait_for(play_game(args, check), args.timeout)
    except Failures:
        pass
    except asyncio.TimeoutError:
        check.expect(False, f"the whole run took more than {args.timeout} s")
    return check


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--plays", type=int, default=160)
    parser.add_argument("--spectators", type=int, default=6)
    parser.add_argument("--window-ms", type=int, default=1500, help="confirmWindowMs of the game")
    parser.add_argument("--drop-before", type=float, default=0.05, help="chance to cut the link before a send")
    parser.add_argument("--drop-after", type=float, default=0.10, help="chance to cut it after a send")
    parser.add_argument("--slack", type=float, default=3.0, help="extra seconds waited before calling a conflict missing")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--timeout", type=float, default=240)
    args = parser.parse_args()
    print(f"dual scorers: seed {args.seed}", flush=True)
    check = asyncio.run(run(args))
    if check.problems:
        print(f"dual scorers: {len(check.problems)} problem(s)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
