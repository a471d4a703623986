#!/usr/bin/env python3
"""End-to-end test of a running Courtside server with a client nobody here wrote (PyPI `websockets`).

Run by CI (docs/server.md, "Tests"). Against `--url` (a server started by scripts/ci.d/50-e2e.sh):
1. creates a game over HTTP (POST /api/games, admin bearer token, pickup rules: first to 15, win by 2);
2. connects `--spectators` spectators to WS /ws/games/{id}, half offering permessage-deflate (websockets' default)
   and half without; those that offer it must get it (RFC 7692 negotiation);
3. a spectator tries to score: it must get an error, and GET /api/games/{id} must be byte-for-byte the same before
   and after (its CID must not be taken either: the scorer later uses it for a real command);
4. a scorer with a wrong token is closed with 1008 and gets nothing; the real scorer connects to
   WS /ws/games/{id}/scorer and authenticates with its first message;
5. the scorer plays a whole game: moves of every kind for all six players, a clock start, pause and restart, an
   undo, a burst of pipelined commands, a retried CID (the same ack, nothing changes), refused commands (unknown
   player; a move and a clock start after the finish), until a team has 15 with 2 clear; every command waits for
   its answer, and the expected state is tracked by a model here;
6. a spectator that left mid-game resumes with since=N and must get just the missed patches;
7. every spectator's document (its snapshot plus its patches, applied by `jsonpatch.py`), the scorer's and that of
   a reader of GET /api/games/{id}/events (server-sent events, `id` = `seq`) must then equal GET /api/games/{id}'s state (canonical JSON) at the same seq, with no gap in any sequence, and the final
   state must agree with the model (scores, each player's counts and points, winner).

Exits 1 with a line per problem, saying what differed; every wait is bounded.
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
from courtside_client import (  # Check and Failures: dual_scorers_e2e takes them from here too
    Check,
    EventStreamReader,
    Failures,
    FeedDocument,
    configure_transport,
    connection_options,
    game_request,
    http_call,
    ws_url,
)

MOVE_POINTS = {"onePoint": 1, "twoPoints": 2, "assist": 0, "rebound": 0, "foul": 0}
COUNT_FIELDS = {
    "onePoint": "onePointMoveCount",
    "twoPoints": "twoPointMoveCount",
    "assist": "assistMoveCount",
    "rebound": "reboundMoveCount",
    "foul": "foulMoveCount",
}
PLAYERS = [f"{team}-{index}" for team in ("home", "away") for index in range(3)]


class Connection:
    """A WebSocket to the server whose reader keeps a FeedDocument and queues every other message."""

    def __init__(self, name, game_id):
        self.name = name
        self.document = FeedDocument(name, game_id)
        self.others = asyncio.Queue()
        self.socket = None
        self.reader = None
        self.closed_with = None
        self.bad_messages = []

    async def open(self, url, compression, headers=None):
        self.socket = await connect(
            url,
            compression=compression,
            open_timeout=15,
            close_timeout=5,
            ping_interval=None,
            max_size=4 * 1024 * 1024,
            additional_headers=headers,
            **connection_options(url),
        )
        self.reader = asyncio.create_task(self._read())

    @property
    def negotiated_extensions(self):
        return [extension.name for extension in self.socket.protocol.extensions]

    async def _read(self):
        try:
            async for raw in self.socket:
                if isinstance(raw, bytes):
                    self.bad_messages.append(f"binary message of {len(raw)} bytes")
                    continue
                try:
                    message = json.loads(raw)
                except ValueError:
                    self.bad_messages.append(f"not JSON: {raw[:200]!r}")
                    continue
                if message.get("type") == "viewers":
                    continue  # the counted figure every 5 s ("viewers" in docs/protocol.md): not part of the game's document
                if not self.document.take(message):
                    self.others.put_nowait(message)
        except websockets.ConnectionClosed as closed:
            self.closed_with = closed
        finally:
            self.document.seq_changed.set()

    async def next_other(self, timeout):
        return await asyncio.wait_for(self.others.get(), timeout)

    async def close(self):
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, 10)
            except asyncio.TimeoutError:
                self.reader.cancel()


class Scorer(Connection):
    """The scorer: answers (ack/error) are matched to commands by CID; everything else is kept for inspection."""

    def __init__(self, game_id):
        super().__init__("scorer", game_id)
        self.answers = {}
        self.waiters = {}
        self.unmatched = []

    async def _read(self):
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                if message.get("type") == "viewers" or self.document.take(message):
                    continue
                if message.get("type") in ("ack", "error") and message.get("id") in self.waiters:
                    cid = message["id"]
                    self.answers.setdefault(cid, []).append(message)
                    waiters = self.waiters[cid]
                    if waiters:
                        future = waiters.pop(0)
                        if not future.done():
                            future.set_result(message)
                        continue
                self.unmatched.append(message)
                self.others.put_nowait(message)
        except websockets.ConnectionClosed as closed:
            self.closed_with = closed
        finally:
            self.document.seq_changed.set()
            for waiters in self.waiters.values():
                for future in waiters:
                    if not future.done():
                        future.set_exception(ConnectionError(f"scorer socket closed: {self.closed_with}"))

    def send_command(self, command):
        """Sends one command; returns a future for its answer (by CID, in the order sent)."""
        future = asyncio.get_running_loop().create_future()
        self.waiters.setdefault(command["id"], []).append(future)
        return future, asyncio.ensure_future(self.socket.send(json.dumps(command)))

    async def command(self, command, timeout=15):
        future, sending = self.send_command(command)
        await asyncio.wait_for(sending, timeout)
        return await asyncio.wait_for(future, timeout)


class GameModel:
    """What the game should look like: the moves not undone, per player."""

    def __init__(self, target, win_by):
        self.target = target
        self.win_by = win_by
        self.moves = []

    def points(self, team):
        return sum(MOVE_POINTS[move] for player, move in self.moves if player.startswith(team))

    @property
    def finished(self):
        home, away = self.points("home"), self.points("away")
        return max(home, away) >= self.target and abs(home - away) >= self.win_by

    @property
    def winner(self):
        if not self.finished:
            return None
        return "home" if self.points("home") > self.points("away") else "away"

    def check_state(self, state, check, when):
        """Compares a STATE with the model: scores, winner and every player's counts and points."""
        expected_home, expected_away = self.points("home"), self.points("away")
        check.expect(
            (state["homeScore"], state["awayScore"]) == (expected_home, expected_away),
            f"{when}: score {state['homeScore']} - {state['awayScore']}, expected {expected_home} - {expected_away}",
        )
        check.expect(
            state["score"] == f"{expected_home} - {expected_away}",
            f"{when}: score label {state['score']!r}, expected '{expected_home} - {expected_away}'",
        )
        check.expect(
            state["isFinished"] == self.finished and state["winner"] == self.winner,
            f"{when}: isFinished {state['isFinished']} winner {state['winner']}, "
            f"expected {self.finished} {self.winner}",
        )
        players = {player["id"]: player for player in state["homePlayers"] + state["awayPlayers"]}
        for player_id in PLAYERS:
            player = players.get(player_id)
            if not check.expect(player is not None, f"{when}: no player {player_id}"):
                continue
            mine = [move for who, move in self.moves if who == player_id]
            for move, field in COUNT_FIELDS.items():
                check.expect(
                    player[field] == str(mine.count(move)),
                    f"{when}: {player_id} {field} {player[field]!r}, expected {str(mine.count(move))!r}",
                )
            check.expect(
                player["points"] == sum(MOVE_POINTS[move] for move in mine),
                f"{when}: {player_id} points {player['points']}, expected {sum(MOVE_POINTS[m] for m in mine)}",
            )


def plan_to_deuce(rng, target):
    """Moves that take both teams to target - 1 each, with every kind of move for every player along the way."""
    plan, scores = [], {"home": 0, "away": 0}
    # Every player makes every move once early on (points kept under the target).
    for player in PLAYERS:
        for move in ("assist", "rebound", "foul", "onePoint"):
            plan.append((player, move))
        scores[player.split("-")[0]] += 1
    while min(scores.values()) < target - 1:
        team = rng.choice([t for t, s in scores.items() if s < target - 1])
        player = f"{team}-{rng.randrange(3)}"
        room = target - 1 - scores[team]
        move = rng.choice(["onePoint", "twoPoints", "assist", "rebound", "foul"] if room >= 2 else ["onePoint", "foul"])
        plan.append((player, move))
        scores[team] += MOVE_POINTS[move]
    return plan


async def get_game(args, game_id, check):
    result = await http_call(args.url, "GET", f"/api/games/{game_id}", timeout=10)
    check.fatal(result.status == 200, f"GET /api/games/{game_id}: {result}")
    message = result.json()
    check.expect(
        result.body.decode("utf-8") == jsonpatch.canonical(message),
        f"GET /api/games/{game_id} is not canonical JSON (docs/protocol.md Conventions): {result.body[:200]!r}",
    )
    check.fatal(
        message.get("type") == "snapshot" and isinstance(message.get("seq"), int) and "state" in message,
        f"GET /api/games/{game_id} is not a snapshot message: {result.body[:300]!r}",
    )
    return message


async def run(args):
    check = Check()
    jsonpatch.self_test()
    rng = random.Random(args.seed)
    started = time.monotonic()

    # 1. Create the game.
    created = await http_call(args.url, "POST", "/api/games", body=game_request(), token=args.admin_token)
    check.fatal(created.status == 201, f"POST /api/games: expected 201, got {created}")
    game = created.json()
    for member in ("id", "scorerToken", "links"):
        check.fatal(member in game, f"POST /api/games answer has no {member!r}: {game}")
    game_id, scorer_token = game["id"], game["scorerToken"]
    unauthorized = await http_call(args.url, "POST", "/api/games", body=game_request(), token="wrong-token-0123456789")
    check.expect(unauthorized.status in (401, 403), f"POST /api/games with a wrong admin token: {unauthorized}")
    print(f"game {game_id} created ({time.monotonic() - started:.1f}s)", flush=True)

    # 2. Spectators: even-numbered ones offer permessage-deflate, odd-numbered ones do not.
    spectators = [Connection(f"spectator-{i}", game_id) for i in range(args.spectators)]
    url = ws_url(args.url, f"/ws/games/{game_id}")
    await asyncio.wait_for(
        asyncio.gather(*(s.open(url, "deflate" if i % 2 == 0 else None) for i, s in enumerate(spectators))), 60
    )
    refused = [s.name for i, s in enumerate(spectators) if i % 2 == 0 and "permessage-deflate" not in s.negotiated_extensions]
    check.expect(
        not refused,
        f"{len(refused)} of {len(spectators[0::2])} spectators offered permessage-deflate (RFC 7692) and the server did "
        f"not accept it (first: {refused[:1]}, extensions {spectators[0].negotiated_extensions})",
    )
    unasked = [s.name for i, s in enumerate(spectators) if i % 2 == 1 and s.negotiated_extensions]
    check.expect(not unasked, f"spectators that offered no extension got one: {unasked[:3]}")
    print(
        f"{len(spectators)} spectators connected, "
        f"{sum('permessage-deflate' in s.negotiated_extensions for s in spectators)} with permessage-deflate",
        flush=True,
    )
    # A server-sent-event reader follows the same game (GET /api/games/{id}/events).
    events = EventStreamReader("event-stream", game_id)
    await events.open(args.url, game_id)
    initial = await get_game(args, game_id, check)
    rules = initial["state"]["rules"]
    check.fatal(
        rules.get("preset") == "pickup" and rules.get("targetScore") == 15 and rules.get("winBy") == 2,
        f"expected pickup rules (first to 15, win by 2), got {rules}",
    )
    for spectator in spectators:
        check.expect(
            await spectator.document.wait_for_seq(initial["seq"], 15) and spectator.document.snapshots >= 1,
            f"{spectator.name}: no snapshot within 15 s (seq {spectator.document.seq})",
        )

    # 3. A spectator tries to score.
    intruder = spectators[1]
    before = await get_game(args, game_id, check)
    stolen_cid = "e2e-spectator-steal"
    await intruder.socket.send(
        json.dumps({"type": "move", "id": stolen_cid, "player": "home-0", "move": "twoPoints"})
    )
    try:
        answer = await intruder.next_other(10)
    except asyncio.TimeoutError:
        answer = None
    check.expect(
        answer is not None and answer.get("type") == "error" and answer.get("v") == 1,
        f"a spectator's command was not refused with an error message: {answer}",
    )
    await asyncio.sleep(0.5)
    after = await get_game(args, game_id, check)
    check.expect(
        jsonpatch.canonical(before) == jsonpatch.canonical(after),
        f"a spectator's command changed the game: {jsonpatch.first_difference(before, after)}",
    )
    check.expect(intruder.closed_with is None, f"the refused spectator was disconnected: {intruder.closed_with}")
    print(f"spectator command refused: {answer}", flush=True)

    # A scorer with a wrong token is shut out with 1008 (policy violation, RFC 6455 §7.4.1), and an unknown game is 404.
    impostor = Scorer(game_id)
    await impostor.open(ws_url(args.url, f"/ws/games/{game_id}/scorer"), None)
    await impostor.socket.send(json.dumps({"type": "auth", "token": "not-the-scorer-token"}))
    try:
        await asyncio.wait_for(impostor.reader, 10)
    except asyncio.TimeoutError:
        pass
    code = impostor.closed_with.rcvd.code if impostor.closed_with and impostor.closed_with.rcvd else None
    check.expect(code == 1008, f"a scorer with a wrong token: closed with {code} ({impostor.closed_with}), expected 1008")
    check.expect(impostor.document.seq is None, "a scorer with a wrong token was sent the game")
    await impostor.close()
    print(f"a scorer with a wrong token: closed with {code}", flush=True)
    missing = await http_call(args.url, "GET", "/api/games/no-such-game")
    check.expect(missing.status == 404, f"GET /api/games/no-such-game: {missing}")

    # 4. The scorer.
    scorer = Scorer(game_id)
    await scorer.open(ws_url(args.url, f"/ws/games/{game_id}/scorer"), None)
    await scorer.socket.send(json.dumps({"type": "auth", "token": scorer_token}))
    check.fatal(
        await scorer.document.wait_for_seq(initial["seq"], 15),
        f"scorer: no snapshot within 15 s of authenticating (closed: {scorer.closed_with})",
    )
    # The server may confirm the authentication ({"type":"authenticated"}); any other message here is unexpected.
    while not scorer.others.empty():
        message = scorer.others.get_nowait()
        scorer.unmatched.remove(message)
        check.expect(
            message.get("type") == "authenticated" and message.get("game") == game_id,
            f"scorer: unexpected message after auth: {message}",
        )

    # 5. Play.
    model = GameModel(rules["targetScore"], rules["winBy"])
    counter = iter(range(1, 1_000_000))
    acked = []  # (cid, seq) in order

    def cid():
        return f"e2e-{next(counter)}"

    async def expect_ack(command, when, changes=True):
        answer = await scorer.command(command)
        if not check.expect(
            answer.get("type") == "ack" and answer.get("id") == command["id"] and isinstance(answer.get("seq"), int),
            f"{when}: {command} answered {answer}",
        ):
            return answer
        if changes and acked:
            check.expect(
                answer["seq"] > acked[-1][1],
                f"{when}: ack seq {answer['seq']} not above the previous ack's {acked[-1][1]}",
            )
        acked.append((command["id"], answer["seq"]))
        check.expect(
            await scorer.document.wait_for_seq(answer["seq"], 10),
            f"{when}: scorer's document never reached the acked seq {answer['seq']} (at {scorer.document.seq})",
        )
        return answer

    async def expect_error(command, code, when):
        answer = await scorer.command(command)
        check.expect(
            answer.get("type") == "error" and answer.get("id") == command["id"] and answer.get("code") == code,
            f"{when}: expected error {code}, got {answer}",
        )
        return answer

    async def move(player, kind, when):
        command = {"type": "move", "id": cid(), "player": player, "move": kind}
        answer = await expect_ack(command, when)
        model.moves.append((player, kind))
        return command, answer

    await expect_ack({"type": "clock", "id": cid(), "action": "start"}, "clock start")
    await expect_error({"type": "clock", "id": cid(), "action": "start"}, "clock_running", "second clock start")
    plan = plan_to_deuce(rng, model.target)
    undo_at, pause_at, retry_at, burst_at = len(plan) // 4, len(plan) // 3, len(plan) // 2, (2 * len(plan)) // 3
    retried = None
    resumer, left_at = spectators[3], None
    for index, (player, kind) in enumerate(plan):
        command, answer = await move(player, kind, f"move {index} ({player} {kind})")
        if index == undo_at:
            # Undo the move just made, then make it again so the plan's arithmetic holds.
            undo = await expect_ack({"type": "undo", "id": cid()}, "undo")
            model.moves.pop()
            model.check_state(scorer.document.state, check, f"after the undo (seq {undo.get('seq')})")
            await move(player, kind, f"move {index} again after the undo")
        if index == pause_at:
            await expect_ack({"type": "clock", "id": cid(), "action": "pause"}, "clock pause")
            await expect_error({"type": "clock", "id": cid(), "action": "pause"}, "clock_stopped", "second pause")
            await expect_error(
                {"type": "move", "id": cid(), "player": "home-7", "move": "onePoint"}, "unknown_player", "unknown player"
            )
            await expect_ack({"type": "clock", "id": cid(), "action": "start"}, "clock restart")
        if index == retry_at:
            retried = (command, answer)
        if index == burst_at:
            # A spectator leaves here and comes back later with since=N (docs/protocol.md: just the missed patches).
            await resumer.close()
            resumer.closed_with = None
            left_at = resumer.document.seq
            # A burst of pipelined commands (a phone flushing its queue): all sent before any answer is read.
            burst = [{"type": "move", "id": cid(), "player": p, "move": m} for p in PLAYERS for m in ("assist", "rebound")]
            pending = [scorer.send_command(c) for c in burst]
            answers = [await asyncio.wait_for(future, 20) for future, _ in pending]
            seqs = [a.get("seq") for a in answers]
            for c, a in zip(burst, answers):
                if check.expect(a.get("type") == "ack" and a.get("id") == c["id"], f"burst: {c} answered {a}"):
                    acked.append((c["id"], a["seq"]))
                    model.moves.append((c["player"], c["move"]))
            check.expect(
                all(isinstance(s, int) for s in seqs) and seqs == sorted(set(seqs)),
                f"burst: ack seqs not strictly increasing in sending order: {seqs}",
            )
            check.expect(
                await scorer.document.wait_for_seq(max(s for s in seqs if isinstance(s, int)), 10),
                "burst: the scorer's document never reached the last ack",
            )
        if scorer.document.seq is not None:
            model.check_state(scorer.document.state, check, f"after move {index} ({player} {kind})")
        check.fatal(not model.finished, f"the plan finished the game early at move {index}")
        if len(check.problems) > 20:
            raise Failures("too many problems")

    # The spectator that left resumes: it must get patches left_at + 1 … without a snapshot.
    snapshots_before = resumer.document.snapshots
    await resumer.open(ws_url(args.url, f"/ws/games/{game_id}?since={left_at}"), "deflate")
    check.expect(
        await resumer.document.wait_for_seq(scorer.document.seq, 10),
        f"{resumer.name} resuming since={left_at}: stuck at {resumer.document.seq}, the game is at {scorer.document.seq}",
    )
    check.expect(
        resumer.document.snapshots == snapshots_before,
        f"{resumer.name} resuming since={left_at} got a snapshot, not just the missed patches (window 1,024)",
    )
    print(f"{resumer.name} resumed with since={left_at}: patches up to seq {resumer.document.seq}", flush=True)

    # The retried CID: the same answer, and nothing changes.
    command, first = retried
    before = await get_game(args, game_id, check)
    again = await scorer.command(command)
    check.expect(again == first, f"retried CID {command['id']}: first answer {first}, retry answered {again}")
    await asyncio.sleep(0.3)
    after = await get_game(args, game_id, check)
    check.expect(
        jsonpatch.canonical(before) == jsonpatch.canonical(after),
        f"retried CID {command['id']} changed the game: {jsonpatch.first_difference(before, after)}",
    )
    reused = dict(command, move="foul" if command["move"] != "foul" else "assist")
    await expect_error(reused, "command_id_reused", "a used CID for a different command")

    # The spectator's CID was never taken by the game: the scorer may use it for a real command.
    await expect_ack({"type": "move", "id": stolen_cid, "player": "away-2", "move": "rebound"}, "the spectator's CID")
    model.moves.append(("away-2", "rebound"))

    # Deuce, then 2 clear.
    for player, kind, finished in [("home-0", "onePoint", False), ("away-1", "onePoint", False),
                                   ("home-2", "twoPoints", True)]:
        await move(player, kind, f"endgame {player} {kind}")
        check.expect(model.finished == finished, "the model disagrees with the plan")
        check.expect(
            scorer.document.state["isFinished"] == finished,
            f"after {player} {kind} at {model.points('home')} - {model.points('away')}: "
            f"isFinished {scorer.document.state['isFinished']}, expected {finished}",
        )
    await expect_error(
        {"type": "move", "id": cid(), "player": "away-0", "move": "onePoint"}, "game_finished", "a move after the finish"
    )
    await expect_error({"type": "clock", "id": cid(), "action": "start"}, "game_finished", "a clock start after the finish")
    print(f"game played: {len(acked)} commands acked, final seq {acked[-1][1]} ({time.monotonic() - started:.1f}s)",
          flush=True)

    # 6. Everyone's document equals the server's.
    final = await get_game(args, game_id, check)
    model.check_state(final["state"], check, "GET /api/games/{id} at the end")
    check.expect(final["seq"] >= acked[-1][1], f"final seq {final['seq']} below the last ack's {acked[-1][1]}")
    for connection in spectators + [scorer, events]:
        reached = await connection.document.wait_for_seq(final["seq"], 15)
        document = connection.document
        check.expect(reached, f"{document.name}: stuck at seq {document.seq}, server at {final['seq']}")
        for problem in document.problems + getattr(connection, "bad_messages", []):
            check.expect(False, problem)
        closed_with = getattr(connection, "closed_with", None)
        check.expect(closed_with is None, f"{document.name}: closed early: {closed_with}")
        if reached:
            check.expect(
                document.seq == final["seq"],
                f"{document.name}: at seq {document.seq}, server at {final['seq']}",
            )
            check.expect(
                jsonpatch.canonical(document.state) == jsonpatch.canonical(final["state"]),
                f"{document.name}: document differs from GET /api/games/{game_id} at seq {final['seq']}: "
                f"{jsonpatch.first_difference(final['state'], document.state)}",
            )
    check.expect(scorer.unmatched == [], f"scorer got messages it could not place: {scorer.unmatched[:3]}")
    again = await get_game(args, game_id, check)
    check.expect(again == final, "GET /api/games/{id} changed after the game ended")
    resyncs = sum(max(0, s.document.snapshots - 1) for s in spectators)
    patches = [s.document.patches for s in spectators]

    await asyncio.gather(*(c.close() for c in spectators + [scorer, events]))
    print(
        f"{len(spectators)} spectators, the scorer and the event stream agree with the server at seq {final['seq']} "
        f"(patches per spectator {min(patches)}-{max(patches)}, resyncs {resyncs}); "
        f"final score {final['state']['score']}, winner {final['state']['winner']} "
        f"({time.monotonic() - started:.1f}s)",
        flush=True,
    )
    return check.problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="http://127.0.0.1:PORT of a running courtside serve")
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=180, help="the whole run, seconds")
    parser.add_argument("--ca-file", help="PEM CA to verify an https:// --url with (default: the system's)")
    parser.add_argument("--source-address", help="local address every connection comes from (e.g. 127.0.0.2)")
    args = parser.parse_args()
    configure_transport(ca_file=args.ca_file, source_address=args.source_address)
    try:
        problems = asyncio.run(asyncio.wait_for(run(args), args.timeout))
    except Failures as error:
        print(f"game_e2e: FAILED: {error}", file=sys.stderr)
        return 1
    except asyncio.TimeoutError:
        print(f"game_e2e: FAILED: the run took longer than {args.timeout:.0f} s", file=sys.stderr)
        return 1
    except (OSError, websockets.WebSocketException) as error:
        print(f"game_e2e: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    if problems:
        print(f"game_e2e: FAILED with {len(problems)} problem(s); first: {problems[0]}", file=sys.stderr)
        return 1
    print("game_e2e: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
