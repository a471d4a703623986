#!/usr/bin/env python3
"""A real game, replayed: a published game scored through the scorer's WebSocket, and its box score.

Reads the normalised game (`game.json` of shared/realgame, read where it lies and never copied into the project):
its two rosters, its play-by-play rows and the official box score. Creates a `fiba5x5` game with the
rosters (names, shirt numbers, the published starters as `starters`) and replays the rows in their published order
as a scorer at the table would: `setClock` to the row's time whenever the game clock shows another time (the data's
clock is MM:SS remaining, `setClock` takes the elapsed time of the period), the row's move, a `teamMove` for a team
rebound or turnover, `substitute` for each pair of substitution rows (the k-th player in with the k-th player out of
the same team at the same time), a team's `timeout`, and `endPeriod` where a period ends (the last one with the game's
closing row), then `final`. The clock never runs: every time comes from `setClock`, so the replay does not wait for a game
clock and minutes come from the published times alone.

Checks, each failing the run with a line per difference:
- after every row the score equals the published running score (the API prints it on scoring rows; it holds
  between them), and the points per period equal the published ones;
- every player's `stats` in the document, and the row of `GET /api/games/{id}/boxscore`, equal the published box
  score in every column: points, field goals, 2- and 3-pointers and free throws made and attempted, offensive,
  defensive and total rebounds, assists, steals, blocks, turnovers, fouls, plus-minus and minutes to the second;
  the published valuation (PIR) equals Courtside's efficiency (FIBA's EFF) plus fouls drawn minus
  fouls committed minus shots blocked, the two columns Courtside does not keep;
- each team's `homeStats`/`awayStats` equal the sums of the published player rows, its team rebounds and turnovers
  the published team row, and player sums plus the team row equal the published team totals;
- the scorer's and a spectator's documents equal `GET /api/games/{id}`.

Rows Courtside cannot express are printed before the replay with the reason (a media timeout, the jump ball, the
folded "foul drawn" and "shot rejected" rows, rows the data already omits); none is skipped silently.

Exits 1 with the differences; every wait is bounded.
"""

import argparse
import asyncio
import json
import sys
import time

import websockets

import jsonpatch
from courtside_client import configure_transport, http_call, ws_url
from game_e2e import Check, Connection, Failures, Scorer, get_game

# The play-by-play kinds that are one player's move, and the move's wire name (docs/protocol.md, "Commands").
PLAYER_MOVES = {
    "2pt_made": "twoPoints",
    "2pt_missed": "twoPointsMissed",
    "3pt_made": "threePoints",
    "3pt_missed": "threePointsMissed",
    "ft_made": "freeThrow",
    "ft_missed": "freeThrowMissed",
    "off_rebound": "offensiveRebound",
    "def_rebound": "defensiveRebound",
    "assist": "assist",
    "steal": "steal",
    "block": "block",
    "turnover": "turnover",
    "foul_personal": "foul",
}

# Team actions with no player: (kind, detail type) -> the teamMove's move.
TEAM_MOVES = {
    ("team_rebound", "offensive"): "offensiveRebound",
    ("team_rebound", "defensive"): "defensiveRebound",
    ("team_turnover", None): "turnover",
}

# The published box score's columns (game.json's names) and the member of a player's `stats` that holds each.
STAT_COLUMNS = [
    ("pts", "points"),
    ("fgm", "fieldGoalsMade"),
    ("fga", "fieldGoalsAttempted"),
    ("fg2m", "twoPointersMade"),
    ("fg2a", "twoPointersAttempted"),
    ("tpm", "threePointersMade"),
    ("tpa", "threePointersAttempted"),
    ("ftm", "freeThrowsMade"),
    ("fta", "freeThrowsAttempted"),
    ("oreb", "offensiveRebounds"),
    ("dreb", "defensiveRebounds"),
    ("reb", "rebounds"),
    ("ast", "assists"),
    ("stl", "steals"),
    ("blk", "blocks"),
    ("tov", "turnovers"),
    ("pf", "fouls"),
    ("plus_minus", "plusMinus"),
    ("minutes", "secondsPlayed"),
]

# Published columns Courtside has no statistic for: compared only through the valuation (see `pir_from`).
NOT_KEPT = {
    "fouls_drawn": "Courtside records the foul, not who drew it (the FoulsReceived column)",
    "blk_against": "Courtside records the miss and the block, not the miss as blocked (the BlocksAgainst column)",
}

OTHER = {"home": "away", "away": "home"}

# The server's command rate per scorer token (docs/protocol.md, "Scorers"): a burst of 100, then 50 a second. The
# replay sends faster than a person, so it paces itself a little under that, as a scripted scorer must.
COMMAND_BURST = 100
COMMANDS_PER_SECOND = 45


class Pacer:
    """A token bucket like the server's: `wait` returns once one more command stays within the rate."""

    def __init__(self, burst, per_second):
        self.burst = burst
        self.per_second = per_second
        self.tokens = float(burst)
        self.last = time.monotonic()

    async def wait(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.per_second)
            self.tokens, self.last = 1.0, time.monotonic()
        self.tokens -= 1


def seconds(minutes):
    """'07:05' -> 425; 'DNP' (did not play) -> 0."""
    if minutes == "DNP":
        return 0
    whole, _, second = minutes.partition(":")
    return int(whole) * 60 + int(second)


def remaining_ms(clock):
    """The data's 'MM:SS' remaining in the period, in milliseconds."""
    minutes, _, second = clock.partition(":")
    return (int(minutes) * 60 + int(second)) * 1000


def describe(event):
    """A row as a person finds it in the data: its sequence, the raw row's number and type, period and clock."""
    source = event.get("src") or {}
    who = event.get("player") or event.get("team") or "-"
    return (f"row seq {event['seq']} (raw n {source.get('n')} {source.get('type')} {source.get('info')!r}, "
            f"Q{event['period']} {event['clock']}, {event['kind']}, {who})")


class Step:
    """What a scorer does for one row (or one run of substitution rows): commands at a time of the period."""

    def __init__(self, rows, commands, clock=None, note=None):
        self.rows = rows
        self.commands = commands
        self.clock = clock  # 'MM:SS' remaining to set first, or None
        self.note = note  # why the row has no command, or what it became, for the list of rows not expressed


def substitution_commands(run, ids):
    """The k-th player coming in with the k-th going out, per team, for rows stamped at the same time."""
    commands = []
    for team in ("home", "away"):
        ins = [ids[e["player"]] for e in run if e["team"] == team and e["kind"] == "sub_in"]
        outs = [ids[e["player"]] for e in run if e["team"] == team and e["kind"] == "sub_out"]
        if len(ins) != len(outs):
            raise ValueError(f"{describe(run[0])}: {len(ins)} in and {len(outs)} out for {team} at the same time")
        commands += [{"type": "substitute", "team": team, "out": o, "in": i} for i, o in zip(ins, outs)]
    return commands


def plan(game, ids):
    """The replay as Steps, in the published order, from the rows alone (nothing is sent here)."""
    events = game["events"]
    steps = []
    index = 0
    while index < len(events):
        event = events[index]
        kind, detail = event["kind"], event.get("detail") or {}
        if kind in ("sub_in", "sub_out"):
            end = index
            while (end < len(events) and events[end]["kind"] in ("sub_in", "sub_out")
                   and (events[end]["period"], events[end]["clock"]) == (event["period"], event["clock"])):
                end += 1
            run = events[index:end]
            steps.append(Step(run, substitution_commands(run, ids), clock=event["clock"]))
            index = end
            continue
        index += 1
        if kind in PLAYER_MOVES:
            command = {"type": "move", "player": ids[event["player"]], "move": PLAYER_MOVES[kind]}
            steps.append(Step([event], [command], clock=event["clock"]))
        elif (kind, detail.get("type")) in TEAM_MOVES:
            command = {"type": "teamMove", "team": event["team"], "move": TEAM_MOVES[(kind, detail.get("type"))]}
            steps.append(Step([event], [command], clock=event["clock"]))
        elif kind == "timeout" and event["team"] in OTHER and detail.get("type") == "team":
            steps.append(Step([event], [{"type": "timeout", "team": event["team"]}], clock=event["clock"]))
        elif kind == "timeout":
            steps.append(Step([event], [], note="a media (TV) timeout: charged to no team, and Courtside's timeout "
                                                "is a team's; the replay's clock is already stopped"))
        elif kind == "jump_ball":
            # FIBA Official Basketball Rules, Art. 12.3: after the jump ball the alternating-possession arrow points
            # to the team that did not gain control of the ball; the API names the team that did.
            arrow = OTHER[event["team"]]
            steps.append(Step([event], [{"type": "possession", "team": arrow}], clock=event["clock"],
                              note=f"the jump ball: Courtside records no jump ball; the scorer sets the "
                                   f"alternating-possession arrow to {arrow} (FIBA Art. 12.3)"))
        elif kind == "period_start":
            steps.append(Step([event], []))  # checked: the document is in this period at its start
        elif kind == "period_end":
            commands = [{"type": "endPeriod"}]
            if detail.get("end_of_game"):
                commands.append({"type": "final"})
            steps.append(Step([event], commands, clock=event["clock"]))
        else:
            raise ValueError(f"{describe(event)}: no command for kind {kind!r}; add it to the replay")
    return steps


def not_expressed(game, steps):
    """Every row (or folded row) Courtside cannot express, with why: printed and documented, never skipped."""
    lines = [f"{describe(s.rows[0])}: {s.note}" for s in steps if s.note]
    for folded in game.get("folded_rows", []):
        source = folded["src"]
        what = (NOT_KEPT["fouls_drawn"] if source.get("type") == "RV"
                else NOT_KEPT["blk_against"] if source.get("type") == "AG"
                else f"folded as {folded['as']}: no command")
        lines.append(f"raw n {source['n']} {source['type']} {source.get('info')!r} (folded into row seq "
                     f"{folded['into_seq']}, {folded['player']}): {what}")
    for omitted in game.get("omitted_rows", []):
        source = omitted["src"]
        lines.append(f"raw n {source['n']} {source['type']} {source.get('info')!r} (Q{omitted['period']} "
                     f"{omitted['clock']}, omitted after row seq {omitted['after_seq']}): {omitted['reason']}")
    return lines


def pir_from(stats, published):
    """The published valuation (PIR) from Courtside's efficiency (FIBA's EFF: PTS + REB + AST + STL + BLK − missed FG
    − missed FT − TOV) and the two published columns Courtside does not keep: PIR adds fouls drawn and subtracts
    fouls committed and shots blocked."""
    return stats["efficiency"] + published["fouls_drawn"] - published["pf"] - published["blk_against"]


def expected_value(column, published):
    return seconds(published["minutes"]) if column == "minutes" else published[column]


def compare_stats(where, stats, published, check):
    """One player's (or one team's summed) `stats` against the published row: one line per differing column."""
    if not check.expect(isinstance(stats, dict), f"{where}: no stats object ({stats!r})"):
        return 0
    differences = 0
    for column, member in STAT_COLUMNS:
        expected = expected_value(column, published)
        if stats.get(member) != expected:
            differences += 1
            check.expect(False, f"{where}: {member} is {stats.get(member)!r}, published {column} {expected!r}")
    if isinstance(stats.get("efficiency"), int) and "pir" in published:
        valuation = pir_from(stats, published)
        if valuation != published["pir"]:
            differences += 1
            check.expect(False, f"{where}: efficiency {stats['efficiency']} gives valuation {valuation}, "
                                f"published {published['pir']}")
    else:
        differences += 1
        check.expect(False, f"{where}: efficiency is {stats.get('efficiency')!r}")
    return differences


class Replay:
    """The game on the server, its scorer and one spectator, and the checks the replay makes as it goes."""

    def __init__(self, args, check, game):
        self.args = args
        self.check = check
        self.game = game
        self.number = 0
        self.commands = 0
        self.refused = 0
        self.rate_limited = 0
        self.pacer = Pacer(COMMAND_BURST, COMMANDS_PER_SECOND)
        self.published_score = {"home": 0, "away": 0}
        self.rosters = {side: [p for p in game["players"] if p["team"] == side] for side in ("home", "away")}
        self.ids = {}
        for side, roster in self.rosters.items():
            for index, player in enumerate(roster):
                self.ids[player["id"]] = f"{side}-{index}"

    def team(self, side):
        """The team object of POST /api/games (docs/protocol.md, "Creating a game"), published starters included."""
        source = self.game["source"][side]
        roster = self.rosters[side]
        return {
            "name": source["name"],
            "short": source["code"],
            "players": [{"name": p["name"], "number": p["shirt"]} for p in roster],
            "starters": [i for i, p in enumerate(roster) if p["starter"]],
        }

    async def create(self):
        body = {"homeTeam": self.team("home"), "awayTeam": self.team("away"), "rules": {"preset": "fiba5x5"}}
        created = await http_call(self.args.url, "POST", "/api/games", body=body, token=self.args.admin_token)
        self.check.fatal(created.status == 201, f"POST /api/games with the two rosters: expected 201, got {created}")
        answer = created.json()
        self.id, token = answer["id"], answer["scorerToken"]
        self.spectator = Connection("spectator", self.id)
        await self.spectator.open(ws_url(self.args.url, f"/ws/games/{self.id}"), "deflate")
        self.scorer = Scorer(self.id)
        await self.scorer.open(ws_url(self.args.url, f"/ws/games/{self.id}/scorer"), "deflate")
        await self.scorer.socket.send(jsonpatch.canonical({"type": "auth", "token": token}))
        answer = await self.scorer.next_other(10)
        self.check.fatal(answer.get("type") == "authenticated", f"scorer auth answered {answer}")
        self.check.fatal(await self.scorer.document.wait_for_seq(0, 10), "no snapshot for the scorer")
        for side, roster in self.rosters.items():
            starters = sorted(self.ids[p["id"]] for p in roster if p["starter"])
            on_court = sorted(p["id"] for p in self.state[f"{side}Players"] if p["onCourt"])
            self.check.fatal(on_court == starters, f"{side} on court at the start {on_court}, published {starters}")

    @property
    def state(self):
        return self.scorer.document.state

    async def send(self, command, rows):
        """Sends one command; a refusal is a failure naming the rows, and the replay goes on (up to a limit).
        `rate_limited` applied nothing and remembers its id (docs/protocol.md): sent again, with a new id, after a
        second, three times at most."""
        for attempt in range(4):
            await self.pacer.wait()
            self.number += 1
            sent = dict(command, id=f"rg-{self.number}")
            answer = await self.scorer.command(sent)
            self.commands += 1
            if answer.get("code") != "rate_limited" or attempt == 3:
                break
            self.rate_limited += 1
            await asyncio.sleep(1)
        command = sent
        if answer.get("type") != "ack":
            self.refused += 1
            self.check.expect(False, f"{describe(rows[0])}: {jsonpatch.canonical(command)} answered "
                                     f"{answer.get('code')}: {answer.get('message')}")
            self.check.fatal(self.refused < 20, "20 commands refused: the replay stops here")
            return
        self.check.fatal(await self.scorer.document.wait_for_seq(answer["seq"], 10),
                         f"the scorer's document did not reach seq {answer['seq']} after {command}")

    async def set_clock(self, clock, rows):
        """`setClock` to the row's time when the game clock shows another (as a scorer corrects a clock)."""
        length = self.state["clock"]["periodLengthMs"]
        elapsed = length - remaining_ms(clock)
        if self.state["clock"]["elapsedMs"] != elapsed:
            await self.send({"type": "setClock", "elapsedMs": elapsed}, rows)

    async def run(self, steps):
        for step in steps:
            first = step.rows[0]
            self.check.fatal(self.state["period"] == first["period"],
                             f"{describe(first)}: the document is in period {self.state['period']}")
            if first["kind"] == "period_start":
                self.check.expect(self.state["clock"]["elapsedMs"] == 0,
                                  f"{describe(first)}: the period begins with {self.state['clock']['elapsedMs']} ms")
            if step.clock is not None and step.commands:
                await self.set_clock(step.clock, step.rows)
            for command in step.commands:
                await self.send(command, step.rows)
            for row in step.rows:
                if "score" in row:
                    self.published_score = row["score"]
            shown = {"home": self.state["homeScore"], "away": self.state["awayScore"]}
            self.check.expect(shown == self.published_score,
                              f"after {describe(step.rows[-1])}: score {shown['home']}-{shown['away']}, published "
                              f"{self.published_score['home']}-{self.published_score['away']}")

    def check_end(self):
        final = self.game["source"]["final_score"]
        winner = "home" if final["home"] > final["away"] else "away"
        self.check.expect(self.state["isFinished"] and self.state["winner"] == winner and self.state["isLocked"],
                          f"after the game's closing row: isFinished {self.state['isFinished']}, winner "
                          f"{self.state['winner']}, isLocked {self.state['isLocked']}; published winner {winner}")
        periods = [[h, a] for h, a in zip(self.game["box_score"]["teams"]["home"]["points_by_period"],
                                          self.game["box_score"]["teams"]["away"]["points_by_period"])]
        self.check.expect(self.state.get("periodScores") == periods,
                          f"periodScores {self.state.get('periodScores')}, published {periods}")

    def check_document_stats(self, state):
        """Every player's `stats` and each team's sums against the published box score; returns the differences."""
        published = self.game["box_score"]
        differences = 0
        for side, roster in self.rosters.items():
            players = {p["id"]: p for p in state[f"{side}Players"]}
            for player in roster:
                row = published["players"][player["id"]]
                where = f"{side} #{player['shirt']} {player['name']} ({self.ids[player['id']]})"
                differences += compare_stats(where, players[self.ids[player["id"]]].get("stats"), row, self.check)
                stats = players[self.ids[player["id"]]].get("stats") or {}
                for flag, expected in (("fouledOut", row["pf"] >= 5), ("disqualified", False),
                                       ("technicalFouls", 0), ("unsportsmanlikeFouls", 0)):
                    if stats.get(flag) != expected:
                        differences += 1
                        self.check.expect(False, f"{where}: {flag} is {stats.get(flag)!r}, published {expected!r}")
            differences += self.check_team(side, state.get(f"{side}Stats"))
        return differences

    def check_team(self, side, stats):
        """A team's stats: the sums of the published player rows, the published team row, and together the
        published totals (which count the team's rebounds and turnovers)."""
        published = self.game["box_score"]
        team = published["teams"][side]
        rows = [r for r in published["players"].values() if r["team"] == side]
        sums = {column: sum(expected_value(column, r) for r in rows) for column, _ in STAT_COLUMNS}
        sums["minutes"] = f"{sums['minutes'] // 60}:{sums['minutes'] % 60:02d}"
        for column in ("fouls_drawn", "pf", "blk_against", "pir"):
            sums[column] = sum(r[column] for r in rows)
        differences = compare_stats(f"{side} team (sums of players)", stats, sums, self.check)
        if not isinstance(stats, dict):
            return differences + 1
        row = team["team_row"]
        for member, expected in (("teamRebounds", row["reb"]), ("teamTurnovers", row["tov"]),
                                 ("coachTechnicals", 0), ("benchTechnicals", 0)):
            if stats.get(member) != expected:
                differences += 1
                self.check.expect(False, f"{side} team: {member} is {stats.get(member)!r}, published {expected}")
        totals = team["totals"]
        for column, member, extra in (("reb", "rebounds", "teamRebounds"), ("tov", "turnovers", "teamTurnovers"),
                                      ("minutes", "secondsPlayed", None), ("pts", "points", None)):
            value = (stats.get(member) or 0) + (stats.get(extra) or 0 if extra else 0)
            if value != expected_value(column, totals):
                differences += 1
                self.check.expect(False, f"{side} team: {member}{' + ' + extra if extra else ''} is {value}, "
                                         f"published total {column} {totals[column]}")
        return differences

    async def check_box_score(self):
        """GET /api/games/{id}/boxscore: its player rows equal the document's stats (checked against the published
        box score above) and print the same minutes, its team totals the document's team stats, its points per
        period the document's."""
        result = await http_call(self.args.url, "GET", f"/api/games/{self.id}/boxscore")
        self.check.fatal(result.status == 200, f"GET /api/games/{self.id}/boxscore: {result}")
        box = result.json()
        differences = 0
        absent, absent_totals = set(), set()
        for side in ("home", "away"):
            team = box.get(f"{side}Team") or {}
            document = {p["id"]: p for p in self.state[f"{side}Players"]}
            rows = team.get("players") or []
            self.check.expect(len(rows) == len(document), f"boxscore {side}: {len(rows)} player rows")
            for row in rows:
                player = document.get(row.get("id"))
                if not self.check.expect(player is not None, f"boxscore {side}: a row for no player: {row}"):
                    differences += 1
                    continue
                shown = row.get("stats") if isinstance(row.get("stats"), dict) else row
                absent |= {member for member in player["stats"] if member not in shown}
                # MIN as the box score prints it (mm:ss) must read as the seconds played.
                if "minutes" not in row:
                    absent.add("minutes")
                elif not isinstance(row["minutes"], str) or seconds(row["minutes"]) != player["stats"]["secondsPlayed"]:
                    differences += 1
                    self.check.expect(False, f"boxscore {side} {row.get('id')}: minutes {row['minutes']!r}, "
                                             f"stats secondsPlayed {player['stats']['secondsPlayed']}")
                wrong = [f"{member} {shown[member]!r} (stats {value!r})"
                         for member, value in player["stats"].items() if member in shown and shown[member] != value]
                if wrong:
                    differences += len(wrong)
                    self.check.expect(False, f"boxscore {side} {row.get('id')}: {', '.join(wrong)}")
            totals, stats = team.get("totals") or {}, self.state[f"{side}Stats"]
            absent_totals |= {member for member in stats if member not in totals}
            wrong = [f"{member} {totals[member]!r} ({side}Stats {value!r})"
                     for member, value in stats.items() if member in totals and totals[member] != value]
            if wrong:
                differences += len(wrong)
                self.check.expect(False, f"boxscore {side} totals: {', '.join(wrong)}")
        if box.get("periodScores") != self.state.get("periodScores"):
            differences += 1
            self.check.expect(False, f"boxscore periodScores {box.get('periodScores')}, the document's "
                                     f"{self.state.get('periodScores')}")
        if absent_totals:
            differences += len(absent_totals)
            self.check.expect(False, f"GET /api/games/{self.id}/boxscore: the team totals lack "
                                     f"{', '.join(sorted(absent_totals))} (members of homeStats/awayStats)")
        if absent:
            differences += len(absent)
            self.check.expect(False, f"GET /api/games/{self.id}/boxscore: the player rows lack "
                                     f"{', '.join(sorted(absent))} (the document's stats members, and MIN as minutes)")
        return differences

    async def check_everyone(self):
        final = await get_game(self.args, self.id, self.check)
        for connection in (self.scorer, self.spectator):
            document = connection.document
            reached = await document.wait_for_seq(final["seq"], 15)
            self.check.expect(reached, f"{document.name}: stuck at seq {document.seq}, server at {final['seq']}")
            for problem in document.problems + connection.bad_messages:
                self.check.expect(False, problem)
            if reached:
                self.check.expect(
                    jsonpatch.canonical(document.state) == jsonpatch.canonical(final["state"]),
                    f"{document.name}: differs from GET /api/games/{self.id} at seq {final['seq']}: "
                    f"{jsonpatch.first_difference(final['state'], document.state)}",
                )
        await asyncio.gather(self.scorer.close(), self.spectator.close())
        return final


async def run(args, game):
    check = Check()
    started = time.monotonic()
    replay = Replay(args, check, game)
    steps = plan(game, replay.ids)
    skipped = not_expressed(game, steps)
    rows = sum(len(s.rows) for s in steps)
    print(f"realgame: {game['source']['home']['name']} {game['source']['final_score']['home']}-"
          f"{game['source']['final_score']['away']} {game['source']['away']['name']} "
          f"({game['source']['competition']}, {game['source']['date']}): {rows} rows, {len(steps)} steps", flush=True)
    print(f"realgame: {len(skipped)} rows Courtside cannot express (fouls drawn and shots blocked enter only the "
          f"valuation check; no other row changes a compared number):", flush=True)
    for line in skipped:
        print(f"  - {line}", flush=True)
    check.fatal(rows == len(game["events"]), f"the plan covers {rows} of {len(game['events'])} rows")
    await replay.create()
    await replay.run(steps)
    replay.check_end()
    final = await replay.check_everyone()
    differences = replay.check_document_stats(final["state"])
    differences += await replay.check_box_score()
    players = len(game["box_score"]["players"])
    print(f"realgame: {replay.commands} commands ({replay.refused} refused, {replay.rate_limited} sent again "
          f"after rate_limited), seq {final['seq']}, score "
          f"{final['state']['score']}; box score: {players} players x {len(STAT_COLUMNS) + 1} columns and both "
          f"teams, {differences} differences ({time.monotonic() - started:.1f}s)", flush=True)
    return check.problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="http://127.0.0.1:PORT of a running courtside serve")
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--game", required=True, help="shared/realgame/game.json")
    parser.add_argument("--timeout", type=float, default=180, help="the whole run, seconds")
    args = parser.parse_args()
    configure_transport()
    with open(args.game, encoding="utf-8") as file:
        game = json.load(file)
    if game.get("schema") != "courtside-realgame/1":
        print(f"realgame_replay: FAILED: {args.game} is schema {game.get('schema')!r}, "
              f"expected 'courtside-realgame/1'", file=sys.stderr)
        return 1
    try:
        problems = asyncio.run(asyncio.wait_for(run(args, game), args.timeout))
    except Failures as error:
        print(f"realgame_replay: FAILED: {error}", file=sys.stderr)
        return 1
    except asyncio.TimeoutError:
        print(f"realgame_replay: FAILED: the run took longer than {args.timeout:.0f} s", file=sys.stderr)
        return 1
    except (OSError, ValueError, websockets.WebSocketException) as error:
        print(f"realgame_replay: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    if problems:
        print(f"realgame_replay: FAILED with {len(problems)} problem(s); first: {problems[0]}", file=sys.stderr)
        return 1
    print("realgame_replay: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
