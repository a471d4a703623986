#!/usr/bin/env python3
"""End-to-end test of a real game's scoreboard (FIBA rules) with PyPI `websockets`, against a running Courtside server.

1. A whole FIBA 3x3 game: numbered rosters (one name a spreadsheet would run as a formula), spectators (half with
   permessage-deflate) and a server-sent events reader; the scorer records the starting possession, plays moves of
   every kind, a timeout (a second one refused), shot clock start/pause/reset/set, off and on again, seven team
   fouls (the penalty) and three more (the 10th gives the ball away), an edit three plays back, a delete and an
   undo; ties the game, sets the clock to 9:59 and lets it run out: the server ends regulation on its own timer and
   overtime begins; the first team to two points in overtime wins; `final` locks the game (`game_locked`), the
   admin token reopens it, `final` again.
2. A FIBA 5x5 quarter: rosters of eight, five on court, substitutions (refused ones too), moves by players who came
   in, five team fouls (the penalty), a timeout, the 14-second shot clock reset; the clock runs out and the second
   quarter begins with team fouls back to 0.
For each: every spectator's document (snapshot plus patches), the scorer's and the event stream's must equal
GET /api/games/{id} at the same seq; the box score CSV's TOTAL rows must equal the score, its player rows must sum
to it, and no text cell may start a formula; the plays JSON must list every play with the seq that showed it.

Exits 1 with a line per problem; every wait is bounded.
"""

import argparse
import asyncio
import csv
import io
import sys
import time

import websockets

import jsonpatch
from courtside_client import EventStreamReader, configure_transport, http_call, ws_url
from game_e2e import Check, Connection, Failures, Scorer, get_game

MOVE_POINTS = {"onePoint": 1, "twoPoints": 2, "threePoints": 3, "freeThrow": 1, "assist": 0, "rebound": 0, "foul": 0}



def is_number(cell: str) -> bool:
    """Whether a CSV cell is a plain number (`-3`, `45.5`), which a spreadsheet reads as a value."""
    try:
        float(cell)
    except ValueError:
        return False
    return True

class Game:
    """One game on the server with its scorer, spectators and event stream, and the helpers the scenarios use."""

    def __init__(self, args, check, name):
        self.args = args
        self.check = check
        self.name = name
        self.number = 0
        self.acks = []

    async def create(self, body, spectators):
        created = await http_call(self.args.url, "POST", "/api/games", body=body, token=self.args.admin_token)
        self.check.fatal(created.status == 201, f"{self.name}: POST /api/games: expected 201, got {created}")
        answer = created.json()
        self.id, self.token = answer["id"], answer["scorerToken"]
        self.spectators = [Connection(f"{self.name}-spectator-{i}", self.id) for i in range(spectators)]
        url = ws_url(self.args.url, f"/ws/games/{self.id}")
        await asyncio.wait_for(
            asyncio.gather(*(s.open(url, "deflate" if i % 2 == 0 else None) for i, s in enumerate(self.spectators))),
            30,
        )
        self.events = EventStreamReader(f"{self.name}-events", self.id)
        await self.events.open(self.args.url, self.id)
        self.scorer = Scorer(self.id)
        await self.scorer.open(ws_url(self.args.url, f"/ws/games/{self.id}/scorer"), "deflate")
        await self.scorer.socket.send(jsonpatch.canonical({"type": "auth", "token": self.token}))
        answer = await self.scorer.next_other(10)
        self.check.fatal(answer.get("type") == "authenticated", f"{self.name}: scorer auth answered {answer}")
        self.check.fatal(await self.scorer.document.wait_for_seq(0, 10), f"{self.name}: no snapshot for the scorer")

    @property
    def state(self):
        return self.scorer.document.state

    async def send(self, command, expect_code=None):
        """Sends one command and waits for its answer and (for an ack) the scorer's document at that seq."""
        self.number += 1
        command = dict(command, id=f"{self.name}-{self.number}")
        answer = await self.scorer.command(command)
        if expect_code is None:
            self.check.fatal(answer.get("type") == "ack", f"{self.name}: {command} answered {answer}")
            self.acks.append(answer["seq"])
            self.check.fatal(
                await self.scorer.document.wait_for_seq(answer["seq"], 10),
                f"{self.name}: the scorer's document did not reach seq {answer['seq']} after {command}",
            )
        else:
            self.check.expect(
                answer.get("type") == "error" and answer.get("code") == expect_code,
                f"{self.name}: {command} answered {answer}, expected {expect_code}",
            )
        return answer

    async def move(self, player, move, expect_code=None):
        return await self.send({"type": "move", "player": player, "move": move}, expect_code)

    def expect_state(self, when, **members):
        for key, value in members.items():
            self.check.expect(
                self.state.get(key) == value, f"{self.name} {when}: {key} is {self.state.get(key)!r}, expected {value!r}"
            )

    async def wait_until(self, predicate, what, timeout):
        """Until the scorer's document satisfies `predicate` (the server's own timer, not a command, changes it)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate(self.state):
            remaining = deadline - loop.time()
            self.check.fatal(remaining > 0, f"{self.name}: {what} did not happen within {timeout:.0f} s")
            await self.scorer.document.wait_for_seq(self.scorer.document.seq + 1, remaining)

    async def check_everyone(self):
        """Every document equals GET /api/games/{id} at the same seq; the reports agree with the score."""
        final = await get_game(self.args, self.id, self.check)
        connections = self.spectators + [self.scorer, self.events]
        for connection in connections:
            document = connection.document
            reached = await document.wait_for_seq(final["seq"], 15)
            self.check.expect(reached, f"{document.name}: stuck at seq {document.seq}, server at {final['seq']}")
            for problem in document.problems + getattr(connection, "bad_messages", []):
                self.check.expect(False, problem)
            if reached:
                self.check.expect(
                    document.seq == final["seq"]
                    and jsonpatch.canonical(document.state) == jsonpatch.canonical(final["state"]),
                    f"{document.name}: differs from GET /api/games/{self.id} at seq {final['seq']}: "
                    f"{jsonpatch.first_difference(final['state'], document.state)}",
                )
        await self.check_reports(final)
        await asyncio.gather(*(c.close() for c in connections))
        return final

    async def check_reports(self, final):
        state = final["state"]
        box = await http_call(self.args.url, "GET", f"/api/games/{self.id}/boxscore.csv")
        self.check.fatal(box.status == 200, f"{self.name}: boxscore.csv: {box}")
        self.check.expect(
            box.headers.get("Content-Type", "").startswith("text/csv"), f"{self.name}: boxscore.csv {box.headers}"
        )
        text = box.body.decode("utf-8-sig")
        self.check.expect("\r\n" in text and "\n" not in text.replace("\r\n", ""), f"{self.name}: CSV lines not CRLF")
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
        for side in ("home", "away"):
            team = state[f"{side}Team"]
            total = [r for r in rows if r["Team"] == team and r["Player"] == "TOTAL"]
            players = [
                r
                for r in rows
                if r["Team"] == team and r["Player"] not in ("TOTAL", "TEAM") and not r["Player"].startswith("PERIOD ")
            ]
            periods = [r for r in rows if r["Team"] == team and r["Player"].startswith("PERIOD ")]
            self.check.expect(
                sum(int(r["PTS"]) for r in periods) == state[f"{side}Score"],
                f"{self.name}: boxscore.csv {team} points per period do not sum to {state[f'{side}Score']}",
            )
            self.check.expect(len(total) == 1, f"{self.name}: boxscore.csv has {len(total)} TOTAL rows for {team}")
            if total:
                self.check.expect(
                    int(total[0]["PTS"]) == state[f"{side}Score"],
                    f"{self.name}: boxscore.csv {team} TOTAL PTS {total[0]['PTS']}, score {state[f'{side}Score']}",
                )
            self.check.expect(
                sum(int(r["PTS"]) for r in players) == state[f"{side}Score"]
                and sum(
                    int(r["FTM-A"].split("-")[0])
                    + 2 * int(r["2PM-A"].split("-")[0])
                    + 3 * int(r["3PM-A"].split("-")[0])
                    + (int(r["FGM-A"].split("-")[0]) - int(r["2PM-A"].split("-")[0]) - int(r["3PM-A"].split("-")[0]))
                    for r in players
                )
                == state[f"{side}Score"],
                f"{self.name}: boxscore.csv {team} player rows do not sum to {state[f'{side}Score']}",
            )
            self.check.expect(len(players) == len(state[f"{side}Players"]), f"{self.name}: {team} player rows")
        for row in rows:
            for cell in row.values():
                # A number (a negative plus-minus) is a number to a spreadsheet, not a formula; text must not start
                # with a formula character.
                self.check.expect(
                    is_number(cell) or not (cell or " ")[0] in "=+-@",
                    f"{self.name}: boxscore.csv cell {cell!r} starts a formula"
                )
        plays = await http_call(self.args.url, "GET", f"/api/games/{self.id}/plays")
        self.check.fatal(plays.status == 200, f"{self.name}: plays: {plays}")
        listed = plays.json()["plays"]
        self.check.expect(
            [{k: v for k, v in p.items() if k not in ("playerName", "number", "homeScore", "awayScore")} for p in listed]
            == state["plays"],
            f"{self.name}: GET /plays differs from the document's plays",
        )
        live = [p for p in listed if not p["deleted"]]
        for side in ("home", "away"):
            points = sum(MOVE_POINTS[p["move"]] for p in live if p["team"] == side)
            self.check.expect(points == state[f"{side}Score"], f"{self.name}: live plays give {side} {points} points")
        plays_csv = await http_call(self.args.url, "GET", f"/api/games/{self.id}/plays.csv")
        self.check.expect(
            plays_csv.status == 200 and len(plays_csv.body.decode("utf-8-sig").split("\r\n")) == len(listed) + 2,
            f"{self.name}: plays.csv has not one line per play",
        )


async def fiba3x3(args, check):
    game = Game(args, check, "3x3")
    await game.create(
        {
            "homeTeam": "Lakers",
            "homePlayers": [{"name": "=SUM(A1)", "number": "7"}, {"name": "Bo, Jr.", "number": "00"}, "Cy"],
            "awayTeam": "Celtics",
            "awayPlayers": ["Di", "Ed", {"name": "Flo", "number": "23"}, "Gus"],
            "rules": {"preset": "fiba3x3"},
        },
        args.spectators,
    )
    game.expect_state("at the start", period=1, isOvertime=False, possession=None, homeTimeoutsLeft=1, isLocked=False)
    check.expect(game.state["shotClock"]["remainingMs"] == 12000, f"3x3 shot clock {game.state['shotClock']}")
    await game.send({"type": "possession", "team": "home"})
    await game.send({"type": "clock", "action": "start"})
    check.expect(game.state["shotClock"]["running"], "3x3: the game clock start did not start the shot clock")
    for player, move in [("home-0", "twoPoints"), ("away-1", "onePoint"), ("home-1", "assist"), ("away-3", "rebound"),
                         ("away-2", "twoPoints"), ("home-2", "onePoint")]:
        await game.move(player, move)
    await game.send({"type": "shotClock", "action": "reset"})
    await game.send({"type": "shotClock", "action": "pause"})
    await game.send({"type": "shotClock", "action": "pause"}, "shot_clock_stopped")
    await game.send({"type": "shotClock", "action": "set", "ms": 4000})
    await game.send({"type": "shotClock", "action": "start"})
    await game.send({"type": "timeout", "team": "away"})
    game.expect_state("after the timeout", awayTimeoutsLeft=0, isPaused=True)
    check.expect(not game.state["shotClock"]["running"], "3x3: the timeout did not stop the shot clock")
    await game.send({"type": "timeout", "team": "away"}, "no_timeouts_left")
    await game.send({"type": "shotClock", "action": "disable"})
    await game.send({"type": "shotClock", "action": "reset"}, "shot_clock_off")
    await game.send({"type": "shotClock", "action": "enable"})
    await game.send({"type": "clock", "action": "start"})
    for foul in range(1, 8):
        await game.move(f"home-{foul % 3}", "foul")
    game.expect_state("after 7 team fouls", homeTeamFouls=7, homeInPenalty=True, awayInPenalty=False)
    for _ in range(3):
        await game.move("home-1", "foul")
    game.expect_state("after the 10th team foul", homeTeamFouls=10, possession="away")
    # A correction three plays back, a deletion, an undo: each one patch.
    await game.move("away-0", "twoPoints")
    await game.move("home-0", "rebound")
    await game.move("away-1", "assist")
    plays = len(game.state["plays"])
    before = game.state["awayScore"]
    await game.send({"type": "editPlay", "play": plays - 2, "player": "away-0", "move": "onePoint"})
    check.expect(game.state["awayScore"] == before - 1, "3x3: the edit three plays back did not change the score")
    check.expect(game.state["plays"][plays - 3]["edited"], "3x3: the edited play is not marked")
    await game.send({"type": "deletePlay", "play": 1})
    await game.send({"type": "deletePlay", "play": 1}, "play_deleted")
    await game.send({"type": "undo"})
    # Tie the game, then let the clock run out: the server's own timer ends regulation.
    while game.state["homeScore"] != game.state["awayScore"]:
        behind = "home" if game.state["homeScore"] < game.state["awayScore"] else "away"
        await game.move(f"{behind}-0", "onePoint")
    await game.send({"type": "setClock", "elapsedMs": 599_000})
    await game.wait_until(lambda s: s["period"] == 2, "the end of regulation on a tie", 15)
    game.expect_state("in overtime", isOvertime=True, isPaused=True, isFinished=False)
    check.expect(game.state["clock"]["periodLengthMs"] is None, "3x3 overtime has a period length")
    await game.send({"type": "clock", "action": "start"})
    await game.move("home-2", "onePoint")
    await game.move("away-2", "onePoint")
    game.expect_state("one point each in overtime", isFinished=False)
    await game.move("home-0", "onePoint")
    game.expect_state("two points in overtime", isFinished=True, winner="home", isPaused=True)
    await game.move("away-0", "onePoint", "game_finished")
    await game.send({"type": "final"})
    await game.move("away-0", "rebound", "game_locked")
    reopen = await http_call(args.url, "POST", f"/api/games/{game.id}/reopen", token=game.token)
    check.expect(reopen.status == 403, f"3x3: the scorer token reopened the game: {reopen}")
    reopen = await http_call(args.url, "POST", f"/api/games/{game.id}/reopen", token=args.admin_token)
    check.expect(reopen.status == 200 and reopen.json()["type"] == "reopened", f"3x3: reopen: {reopen}")
    await game.scorer.document.wait_for_seq(reopen.json()["seq"], 10)
    game.expect_state("reopened", isLocked=False)
    await game.send({"type": "final"})
    final = await game.check_everyone()
    print(f"3x3: {len(game.acks)} commands acked, final {final['state']['score']} in overtime, "
          f"{len(final['state']['plays'])} plays, seq {final['seq']}", flush=True)


async def fiba5x5(args, check):
    game = Game(args, check, "5x5")
    names = ["Ann", "Bo", "Cy", "Dan", "Eve", "Fay", "Gil", "Hal"]
    await game.create(
        {
            "homeTeam": "Bulls",
            "homePlayers": [{"name": n, "number": str(10 + i)} for i, n in enumerate(names)],
            "awayTeam": "Knicks",
            "awayPlayers": [f"{n}2" for n in names],
            "rules": {"preset": "fiba5x5"},
        },
        max(2, args.spectators // 2),
    )
    on_court = lambda side: [p["id"] for p in game.state[f"{side}Players"] if p["onCourt"]]
    check.expect(on_court("home") == [f"home-{i}" for i in range(5)], f"5x5 starters {on_court('home')}")
    game.expect_state("at the start", period=1, homeTimeoutsLeft=2, possession=None)
    await game.send({"type": "possession", "team": "away"})
    await game.send({"type": "clock", "action": "start"})
    await game.send({"type": "substitute", "team": "home", "out": "home-4", "in": "home-6"})
    await game.send({"type": "substitute", "team": "home", "out": "home-4", "in": "home-7"}, "not_on_court")
    await game.send({"type": "substitute", "team": "home", "out": "home-0", "in": "home-6"}, "already_on_court")
    await game.send({"type": "substitute", "team": "away", "out": "away-0", "in": "home-7"}, "wrong_team")
    await game.send({"type": "substitute", "team": "away", "out": "away-1", "in": "away-5"})
    check.expect("home-6" in on_court("home") and "home-4" not in on_court("home"), "5x5: substitution not shown")
    for player, move in [("home-6", "twoPoints"), ("away-5", "twoPoints"), ("home-6", "assist"), ("away-2", "freeThrow"),
                         ("home-1", "rebound"), ("home-3", "threePoints")]:
        await game.move(player, move)
    await game.send({"type": "shotClock", "action": "reset", "ms": 14000})
    check.expect(game.state["shotClock"]["remainingMs"] == 14000, f"5x5 shot clock {game.state['shotClock']}")
    for foul in range(5):
        await game.move(f"away-{foul}", "foul")
    game.expect_state("after 5 team fouls", awayTeamFouls=5, awayInPenalty=True)
    await game.send({"type": "timeout", "team": "home"})
    game.expect_state("after the timeout", homeTimeoutsLeft=1, isPaused=True)
    await game.send({"type": "substitute", "team": "home", "out": "home-6", "in": "home-4"})
    await game.send({"type": "clock", "action": "start"})
    await game.send({"type": "setClock", "elapsedMs": 599_000})
    await game.wait_until(lambda s: s["period"] == 2, "the end of the first quarter", 15)
    game.expect_state("in the second quarter", isOvertime=False, awayTeamFouls=0, homeTeamFouls=0, time="00:00.0")
    check.expect(game.state["clock"]["periodLengthMs"] == 600_000, "5x5 second quarter length")
    await game.move("home-4", "onePoint", "move_not_in_rules")
    await game.move("home-4", "freeThrow")
    final = await game.check_everyone()
    print(f"5x5: {len(game.acks)} commands acked, {final['state']['score']} in period {final['state']['period']}, "
          f"seq {final['seq']}", flush=True)


async def run(args):
    check = Check()
    started = time.monotonic()
    await fiba3x3(args, check)
    await fiba5x5(args, check)
    print(f"fiba_e2e: both games checked ({time.monotonic() - started:.1f}s)", flush=True)
    return check.problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="http://127.0.0.1:PORT of a running courtside serve")
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--spectators", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=120, help="the whole run, seconds")
    args = parser.parse_args()
    configure_transport()
    try:
        problems = asyncio.run(asyncio.wait_for(run(args), args.timeout))
    except Failures as error:
        print(f"fiba_e2e: FAILED: {error}", file=sys.stderr)
        return 1
    except asyncio.TimeoutError:
        print(f"fiba_e2e: FAILED: the run took longer than {args.timeout:.0f} s", file=sys.stderr)
        return 1
    except (OSError, websockets.WebSocketException) as error:
        print(f"fiba_e2e: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    if problems:
        print(f"fiba_e2e: FAILED with {len(problems)} problem(s); first: {problems[0]}", file=sys.stderr)
        return 1
    print("fiba_e2e: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
